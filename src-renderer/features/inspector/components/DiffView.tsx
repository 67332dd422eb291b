/**
 * The diff between two passes, in cache order (tools → system → messages), in Monaco's diff editor. The first block
 * that differs is marked with what it meant for the cache (where the read stopped; or, on a full hit, simply what is
 * new; or, when nothing was read, only the first change); the summary line says how many blocks were identical,
 * which block changed first and what produced it, and how many tokens follow it.
 */
import { useEffect, useMemo, useRef, useState } from 'react'
import type { Monaco } from '../../../monaco'
import { selectComparePassId, useInspectorStore } from '../../../state/inspector'
import type { PassView } from '../data/pass-view'
import { usePassView } from '../data/use-pass-view'
import { firstChange, summarizeChange, type FirstChange } from '../model/first-change'
import { readAttribution } from '../model/attribution'
import { setDiffTexts, useDiffEditor } from '../../../monaco/diff-editor'
import { changeLabel } from './zones'

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
            {summarizeChange(change)}
          </p>
          <DiffEditor monaco={monaco} base={base} view={view} change={change} />
        </>
      )}
    </div>
  )
}

function DiffEditor({ monaco: m, base, view, change }: { monaco: Monaco; base: PassView; view: PassView; change: FirstChange }) {
  const hostRef = useRef<HTMLDivElement>(null)
  const editorRef = useDiffEditor(m, hostRef, {
    originalAriaLabel: 'The earlier pass’s request',
    ariaLabel: 'This pass’s request',
    hideUnchangedRegions: { enabled: true, contextLineCount: 3, minimumLineCount: 6, revealLineCount: 20 },
    maxComputationTime: 10_000,
  })
  const [ready, setReady] = useState<string | null>(null)

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
    if (startLine !== null && endLine !== null) {
      decorations.set([{ range: new m.Range(startLine, 1, endLine, 1), options: { isWholeLine: true, className: 'insp-first-change', linesDecorationsClassName: 'insp-gutter-first-change' } }])
      side.changeViewZones((zones) => {
        zoneId = zones.addZone({ afterLineNumber: startLine - 1, heightInPx: 24, domNode: changeLabel(change.kind === 'model' ? 'The model changed: this is where the cache stopped' : `▼ ${change.kind === 'block' ? change.path : ''}: ${markWords(view.detail.attribution, change.kind === 'block' && change.change === 'removed')}`) })
      })
    }
    const shown = () => {
      if (startLine !== null) side.revealLineNearTop(Math.max(1, startLine - 2))
      setReady(`${base.detail.id}:${view.detail.id}`)
    }
    const sub = editor.onDidUpdateDiff(shown)
    // The same texts as shown (another pair with the same bytes): the diff on screen is already theirs.
    if (!computing) shown()
    return () => {
      sub.dispose()
      decorations.clear()
      if (zoneId) side.changeViewZones((zones) => zones.removeZone(zoneId!))
    }
  }, [m, base, view, change])

  return <div ref={hostRef} className="insp-editor insp-diff-editor" data-diff-ready={ready ?? undefined} data-testid="diff-editor" />
}

/**
 * What the first change meant for the cache, from the pass's attribution: on a full hit the read went up to it (it is
 * simply what is new, or what this pass no longer sends), on a pass that read nothing it stopped nothing, otherwise
 * it is where the read stopped. A removed block is marked on the earlier pass's side: it is not in this one.
 */
function markWords(attribution: unknown, removed: boolean): string {
  const a = readAttribution(attribution)
  if (a?.noResponse) return removed ? 'not sent in this pass; this request got no response, so it read nothing' : 'first change; this request got no response, so it read nothing'
  if (a?.outcome === 'full') return removed ? 'not sent in this pass; everything before it was read from the cache' : 'new since the pass before'
  if (a?.outcome === 'miss') return removed ? 'first change: not sent in this pass; nothing was read from the cache' : 'first change; nothing was read from the cache'
  return removed ? 'not sent in this pass: this is where the cache stopped' : 'this is where the cache stopped'
}
