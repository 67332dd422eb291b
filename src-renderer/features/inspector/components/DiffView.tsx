/**
 * The diff between two passes, in cache order (tools → system → messages), in Monaco's diff editor. The first block
 * that differs is marked with what it meant for the cache (where the read stopped; or, on a full hit, simply what is
 * new; or, when nothing was read, only the first change); the summary line says how many blocks were identical,
 * which block changed first and what produced it, and how many tokens follow it.
 */
import { useEffect, useMemo, useRef, useState } from 'react'
import type * as monaco from 'monaco-editor'
import type { Monaco } from '../../../monaco'
import { selectComparePassId, useInspectorStore } from '../../../state/inspector'
import type { PassView } from '../data/pass-view'
import { usePassView } from '../data/use-pass-view'
import { firstChange, passCounts, summarizeChange, type FirstChange } from '../model/first-change'
import { readAttribution } from '../model/attribution'
import { ModelNamed } from './ModelName'
import { changeMarkText } from '../model/change-mark'
import { liveDiffText, type LivePass } from '../model/live'
import { setDiffTexts, useDiffEditor } from '../../../monaco/diff-editor'
import { changeLabel } from './zones'

/** The gutter between the line numbers and the text: the diff's sign at its left, the first change's bar at its right. */
const DECORATIONS_PX = 16

/** How long the editor stays hidden waiting for the diff before it is shown without it (a worker that failed). */
const DIFF_WAIT_MS = 5000

export function DiffView({ monaco, view }: { monaco: Monaco; view: PassView }) {
  const compareId = useInspectorStore(selectComparePassId)
  const chosen = useInspectorStore((s) => s.compareToPassId)
  const passes = useInspectorStore((s) => s.passes)
  const other = usePassView(compareId)
  const sameSession = useMemo(() => passes.filter((p) => p.sessionId === view.detail.sessionId && p.id !== view.detail.id), [passes, view.detail])
  // While another pass to compare with loads, the previous comparison stays up (the editor is kept).
  const base = other.view
  const change = useMemo(() => (base ? firstChange(base.comparable(), view.comparable()) : null), [base, view])

  return (
    <div className="insp-diff">
      <div className="insp-toolbar">
        <label>
          Pass {view.detail.seq} against{' '}
          <select
            value={chosen ?? ''}
            onChange={(e) => useInspectorStore.getState().compareChosen(e.target.value || null)}
            aria-label="Compare with pass"
          >
            <option value="">the previous pass that got a response</option>
            {sameSession.map((p) => (
              // A pre-warm or a compaction's summary request is told apart from the conversation's passes.
              <option key={p.id} value={p.id}>
                pass {p.seq}
                {p.kind === 'keep_warm' ? ' · keep-warm pre-warm' : p.kind === 'summary' ? ' · compaction summary' : ''}
                {p.status === 'failed' ? ' · no response' : ''}
              </option>
            ))}
          </select>
        </label>
        {base && <span className="muted">(pass {base.detail.seq} before, pass {view.detail.seq} after)</span>}
      </div>
      {!compareId ? (
        <p className="insp-empty">This is the first pass of its session: there is nothing before it to compare with.</p>
      ) : other.error ? (
        <p className="bad">Could not load the pass to compare with: {other.error}</p>
      ) : !base || !change ? (
        <p className="insp-empty">Loading the pass to compare with…</p>
      ) : (
        <>
          <p
            className={`insp-diff-summary ${change.kind}`}
            data-testid="diff-summary"
            data-pair={`${base.detail.id}:${view.detail.id}`}
            data-first-path={change.kind === 'block' ? change.path : ''}
            data-identical={change.identical}
            aria-busy={other.loading}
          >
            <ModelNamed text={summarizeChange(change, countsOf(view))} />
          </p>
          <DiffEditor monaco={monaco} base={base} view={view} change={change} />
        </>
      )}
    </div>
  )
}

/** The pass's own counts (its usage, where its read ended, its counted loss), or null before its usage is known. */
function countsOf(view: PassView) {
  return passCounts(view.detail.usage, view.blocks, view.breakpoints.cachedThroughOrdinal, readAttribution(view.detail.attribution)?.lostTokens ?? null)
}

/** The Diff tab while the selected pass streams: not its streamed text, which is not what the tab compares. */
export function LiveDiffNote({ live }: { live: LivePass }) {
  return (
    <p className="insp-empty" data-testid="live-diff">
      {liveDiffText(live)}
    </p>
  )
}

function DiffEditor({ monaco: m, base, view, change }: { monaco: Monaco; base: PassView; view: PassView; change: FirstChange }) {
  const hostRef = useRef<HTMLDivElement>(null)
  const editorRef = useDiffEditor(m, hostRef, {
    originalAriaLabel: 'The earlier pass’s request',
    ariaLabel: 'This pass’s request',
    hideUnchangedRegions: { enabled: true, contextLineCount: 3, minimumLineCount: 6, revealLineCount: 20 },
    maxComputationTime: 10_000,
    // Room beside the diff's + / − sign (11 px wide) for the first change's bar (inspector.css), so neither covers
    // the other.
    lineDecorationsWidth: DECORATIONS_PX,
  })
  const [ready, setReady] = useState<string | null>(null)
  const pairKey = `${base.detail.id}:${view.detail.id}`

  useEffect(() => {
    const editor = editorRef.current
    if (!editor) return
    setReady(null)
    const left = base.cacheOrder()
    const right = view.cacheOrder()
    const computing = setDiffTexts(m, editor, left?.text ?? base.detail.requestBody, right?.text ?? view.detail.requestBody, 'json')

    // Mark the first changed block: on the right, or on the left when the change is a removal.
    const side = change.kind === 'block' && change.change === 'removed' ? editor.getOriginalEditor() : editor.getModifiedEditor()
    const text = change.kind === 'block' && change.change === 'removed' ? left : right
    const block = change.kind === 'block' ? text?.blocks.find((b) => b.path === change.path) : null
    const startLine = change.kind === 'model' ? 1 : (block?.startLine ?? null)
    const endLine = change.kind === 'model' ? 1 : (block?.endLine ?? null)
    const decorations = side.createDecorationsCollection()
    let zoneId: string | null = null
    let relayout: { dispose(): void } | null = null
    const markText = changeMarkText(change, view.detail.attribution)
    if (startLine !== null && endLine !== null && markText !== null) {
      decorations.set([{ range: new m.Range(startLine, 1, endLine, 1), options: { isWholeLine: true, className: 'insp-first-change', linesDecorationsClassName: 'insp-gutter-first-change' } }])
      // The label wraps in a narrow pane: its zone takes the height of the wrapped text, measured at the editor's
      // width and again whenever that changes, so the label never lies over the code below it.
      const zone = { afterLineNumber: startLine - 1, heightInPx: markHeight(side, markText), domNode: changeLabel(markText) }
      side.changeViewZones((zones) => {
        zoneId = zones.addZone(zone)
      })
      relayout = side.onDidLayoutChange(() => {
        const height = markHeight(side, markText)
        if (height === zone.heightInPx || zoneId === null) return
        zone.heightInPx = height
        side.changeViewZones((zones) => zones.layoutZone(zoneId!))
      })
    }
    // At the change from the start, and again once the diff has folded the unchanged lines above it. The editor stays
    // hidden and inert until then (the note over it names the change): shown at line 1 while the diff was computed, it looked
    // as if nothing had changed, then jumped.
    const reveal = () => {
      if (startLine !== null) side.revealLineNearTop(Math.max(1, startLine - 2))
    }
    reveal()
    let frame = 0
    let fallback = 0
    const shown = () => {
      window.clearTimeout(fallback)
      reveal()
      // Shown in the frame after the editor has drawn itself at the change (it draws in an animation frame too).
      cancelAnimationFrame(frame)
      frame = requestAnimationFrame(() => setReady(pairKey))
    }
    const sub = editor.onDidUpdateDiff(shown)
    // The same texts as shown (another pair with the same bytes): the diff on screen is already theirs.
    if (!computing) shown()
    // A diff that never comes (its worker failed) must not leave the editor hidden: shown as it is after a while.
    else fallback = window.setTimeout(shown, DIFF_WAIT_MS)
    return () => {
      window.clearTimeout(fallback)
      cancelAnimationFrame(frame)
      sub.dispose()
      relayout?.dispose()
      decorations.clear()
      if (zoneId) side.changeViewZones((zones) => zones.removeZone(zoneId!))
    }
  }, [m, base, view, change, pairKey])

  const pending = ready !== pairKey
  return (
    <div className="insp-diff-holder">
      <div ref={hostRef} className="insp-editor insp-diff-editor" data-diff-ready={ready ?? undefined} data-diff-pending={pending || undefined} inert={pending || undefined} data-testid="diff-editor" />
      {pending && (
        <p className="insp-diff-pending">
          {change.kind === 'block' ? `Comparing the two requests: the first change is at ${change.path}…` : change.kind === 'model' ? 'Comparing the two requests: the first change is the model…' : 'Comparing the two requests…'}
        </p>
      )}
    </div>
  )
}

/** The height of the change label at the width of `side`'s text: laid out off screen in the editor, as the zone will be. */
function markHeight(side: monaco.editor.ICodeEditor, text: string): number {
  const host = side.getDomNode()
  const width = side.getLayoutInfo().contentWidth
  if (!host || width <= 0) return MARK_MIN_PX
  const probe = changeLabel(text)
  probe.style.cssText = `position: absolute; visibility: hidden; left: 0; top: 0; width: ${width}px`
  host.append(probe)
  const height = probe.offsetHeight
  probe.remove()
  return Math.max(MARK_MIN_PX, Math.ceil(height))
}

/** One line of the label: the height it had when it never wrapped. */
const MARK_MIN_PX = 24
