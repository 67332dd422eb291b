/**
 * The request view: the exact bytes of the selected pass, their sha256 checked against the store's and (with the
 * simulator) the server's own hash of what it received, the context map, the breakpoints and what the API did at
 * each, and the editor. Copy as JSON or curl, or save as a file.
 */
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react'
import type { Monaco } from '../../../monaco'
import { useInspectorStore } from '../../../state/inspector'
import { sha256Hex, type PassView } from '../data/pass-view'
import { readAttribution } from '../model/attribution'
import { causeSliceKeys } from '../model/context-map'
import { noBreakpointText, OUTCOME_WORDS, readThrough, shortChipWords } from '../model/breakpoints'
import { curlCommand, requestFileName } from '../model/export'
import { bytes, tokens } from '../../../ui/format'
import { ContextMap } from './ContextMap'
import { RequestEditor, type RequestEditorHandle } from './RequestEditor'
// A reconstructed (transcript) or captured (proxy) request says so above its bytes (features/transcripts).
import { PassSourceBanner } from '../../transcripts/SourceBadge'
import { copyText } from '../../../ui/clipboard'

/** How long a toolbar confirmation stays. */
const NOTE_SHOWN_MS = 4000

/** The simulator answers with the sha256 of the body it received (src-main/simulator), a check from the far end. */
const WIRE_ECHO_HEADER = 'x-sim-request-sha256'

type Check = { readonly shown: string; readonly stored: boolean; readonly echo: boolean | null } | null

/** The hash the server sent back of the bytes it received, when it did (the simulator does). */
function wireEcho(detail: PassView['detail']): string | null {
  const headers = detail.attempts.at(-1)?.responseHeaders
  const echoed = headers && typeof headers === 'object' ? (headers as Record<string, unknown>)[WIRE_ECHO_HEADER] : undefined
  return typeof echoed === 'string' ? echoed : null
}

function announce(detail: Record<string, unknown>): void {
  window.dispatchEvent(new CustomEvent('loupe:inspector', { detail }))
}

/** How much of the bytes a view shows before it scrolls to them. */
const MIN_BYTES_SHOWN_PX = 60

/**
 * `scrollTop`, moved up to the top of any control above the bytes that the view's top edge would cut through (the
 * toolbar's second line, a legend row, a breakpoint chip), so that each is shown whole or scrolled out whole, never
 * left half under the tabs. Up, not down: the bytes lie at the bottom of the view, and down would be past its end.
 */
function wholeControlsAt(content: HTMLElement, scroller: HTMLElement, scrollTop: number): number {
  const origin = scroller.getBoundingClientRect().top - scroller.scrollTop
  // Each visible leaf above the bytes, and each button whole (its words are leaves inside it), in scroll coordinates.
  const boxes = [...content.querySelectorAll<HTMLElement>(':scope > :not(.insp-editor) *')]
    .filter((el) => el.matches('button, select') || el.childElementCount === 0)
    .map((el) => el.getBoundingClientRect())
    .filter((r) => r.height > 0)
    .map((r) => ({ top: r.top - origin, bottom: r.bottom - origin }))
  let at = scrollTop
  for (let cut = boxes.find((b) => b.top < at && b.bottom > at); cut; cut = boxes.find((b) => b.top < at && b.bottom > at)) at = Math.floor(cut.top)
  return Math.max(0, at)
}

export function RequestView({ monaco, view }: { monaco: Monaco; view: PassView }) {
  const mode = useInspectorStore((s) => s.requestMode)
  const editor = useRef<RequestEditorHandle>(null)
  /** The pass whose text is on screen; the context map and the hash follow it. */
  const [readyFor, setReadyFor] = useState<string | null>(null)
  const [check, setCheck] = useState<Check>(null)
  const [note, setNote] = useState<string | null>(null)
  // "Copied …", "Saved …": a confirmation, gone after a few seconds.
  useEffect(() => {
    if (note === null) return
    const timer = setTimeout(() => setNote(null), NOTE_SHOWN_MS)
    return () => clearTimeout(timer)
  }, [note])
  const showMap = useInspectorStore((s) => s.layout.contextMap)
  // The context map's whole legend, once asked for, stays whole from pass to pass.
  const [wholeLegend, setWholeLegend] = useState(false)
  const { detail } = view
  const causeKeys = useMemo(() => causeSliceKeys(detail.attribution), [detail.attribution])

  const echoed = wireEcho(detail)

  // Hashing 600 KB takes tens of milliseconds on the main thread: it starts once the text is on screen.
  useEffect(() => {
    setCheck(null)
    if (readyFor !== detail.id) return
    let alive = true
    void sha256Hex(detail.requestBody).then((shown) => {
      if (!alive) return
      setCheck({ shown, stored: shown === detail.requestSha256, echo: echoed !== null ? shown === echoed : null })
      announce({ type: 'request-hashed', passId: detail.id, sha256: shown })
    })
    return () => {
      alive = false
    }
  }, [detail, readyFor, echoed])

  useEffect(() => setNote(null), [detail.id])

  // A view too short for the controls and the bytes (docked below in a small window) scrolls to the bytes once they
  // are on screen, instead of leaving them below its fold; the controls are a scroll up. And again when the view
  // changes size under them (the window made smaller, the inspector docked on the other side, which also wraps the
  // controls anew), and while the pass's controls settle (the context map folds its legend after it is first laid
  // out) until the user touches the view: only then, so a user who scrolled up to the controls, or opened the context
  // map above the bytes, is not moved. Wherever it stops, no control is left cut by the view's top edge.
  const root = useRef<HTMLDivElement>(null)
  // Another pass starts at the top of its own controls: the scroll the pass before was left at, kept, would cut this
  // one's controls (laid out anew: other chips, another summary) at any height. Before it is painted, so the old
  // scroll is never seen over the new pass; then the pass is scrolled to its bytes as below, if it needs to be.
  useLayoutEffect(() => {
    const scroller = root.current?.closest<HTMLElement>('.insp-view')
    if (scroller) scroller.scrollTop = 0
  }, [detail.id])
  useEffect(() => {
    if (readyFor !== detail.id) return
    const scroller = root.current?.closest<HTMLElement>('.insp-view')
    if (!root.current || !scroller) return
    const content = root.current
    const reveal = () => {
      const bytes = content.querySelector<HTMLElement>('.insp-editor')
      if (!bytes) return
      const top = bytes.getBoundingClientRect().top - scroller.getBoundingClientRect().top
      // Within how far the view can scroll: a stop past its end is cut short by the browser, where a control may lie.
      const end = Math.max(0, scroller.scrollHeight - scroller.clientHeight)
      const want = top + MIN_BYTES_SHOWN_PX <= scroller.clientHeight ? scroller.scrollTop : Math.min(end, scroller.scrollTop + top - Math.max(0, scroller.clientHeight - bytes.clientHeight))
      const at = wholeControlsAt(content, scroller, want)
      if (at !== scroller.scrollTop) scroller.scrollTop = at
    }
    reveal()
    let touched = false
    const touch = () => (touched = true)
    const inputs = ['pointerdown', 'wheel', 'keydown', 'touchstart'] as const
    for (const name of inputs) scroller.addEventListener(name, touch, { passive: true })
    let size = { width: scroller.clientWidth, height: scroller.clientHeight }
    const observer = new ResizeObserver(() => {
      const resized = scroller.clientWidth !== size.width || scroller.clientHeight !== size.height
      size = { width: scroller.clientWidth, height: scroller.clientHeight }
      if (resized || !touched) reveal()
    })
    observer.observe(scroller)
    observer.observe(content)
    return () => {
      observer.disconnect()
      for (const name of inputs) scroller.removeEventListener(name, touch)
    }
  }, [readyFor, detail.id])

  const onReady = useCallback((passId: string) => {
    setReadyFor(passId)
    announce({ type: 'request-ready', passId })
  }, [])
  const onFile = useCallback((path: string) => {
    useInspectorStore.getState().fileOpenRequested(path)
    setNote(`Opening ${path} in the Files view`)
  }, [])

  const copy = async (text: string, what: string) => setNote(await copyText(text, `Copied ${what}`))
  const save = () => {
    const url = URL.createObjectURL(new Blob([detail.requestBody], { type: 'application/json' }))
    const a = document.createElement('a')
    a.href = url
    a.download = requestFileName(detail.sessionId, detail.seq)
    a.click()
    setTimeout(() => URL.revokeObjectURL(url), 10_000)
    setNote(`Saved ${a.download}`)
  }

  const marks = view.breakpoints.marks
  const lastRead = marks.filter((k) => k.outcome === 'read').at(-1)
  const usage = detail.usage
  return (
    <div ref={root} className="insp-request" data-request-ready={readyFor ?? undefined} data-pass-id={detail.id}>
      <div className="insp-toolbar">
        <div className="insp-seg" role="group" aria-label="Request text">
          <button type="button" aria-pressed={mode === 'pretty'} disabled={!view.pretty} onClick={() => useInspectorStore.getState().requestModeChosen('pretty')}>
            Pretty
          </button>
          <button type="button" aria-pressed={mode === 'raw' || !view.pretty} onClick={() => useInspectorStore.getState().requestModeChosen('raw')}>
            Raw bytes
          </button>
        </div>
        {/* The hash and its checks keep one width, hashing or hashed, from pass to pass: the controls after them do
            not move (the hash is 12 monospace characters and an ellipsis; the checks hold their place, hidden, until
            the hash is in). */}
        <span className="insp-sha" data-testid="request-sha256" data-sha256={check?.shown ?? ''} data-hashed={check !== null} title={check ? `sha256 of the ${detail.requestBytes} bytes shown: ${check.shown}` : 'hashing…'}>
          sha256 <code>{check ? `${check.shown.slice(0, 12)}…` : '…'}</code>
          <span className={check === null ? 'pending' : check.stored ? 'ok' : 'bad'} aria-hidden={check === null ? true : undefined}>
            {check === null || check.stored ? '= stored' : '≠ stored'}
          </span>
          {echoed !== null && (
            <span
              className={check === null ? 'pending' : check.echo ? 'ok' : 'bad'}
              title={check === null ? undefined : check.echo ? 'The server received these bytes' : 'The server received other bytes'}
              role={check === null ? undefined : 'img'}
              aria-hidden={check === null ? true : undefined}
              aria-label={check === null ? undefined : check.echo ? '= received by server' : '≠ received by server'}
            >
              {check === null || check.echo ? '=' : '≠'} <span className="insp-label-long">received by server</span>
              <span className="insp-label-short">server</span>
            </span>
          )}
        </span>
        <span className="muted">{bytes(detail.requestBytes)}</span>
        <span className="insp-spacer" />
        {mode === 'pretty' && view.pretty && (
          <>
            <button type="button" onClick={() => editor.current?.foldBlocks()} title="Fold every block to its first line" aria-label="Fold blocks">
              <Label long="Fold blocks" short="Fold" />
            </button>
            <button type="button" onClick={() => editor.current?.unfoldAll()}>
              Unfold
            </button>
          </>
        )}
        <button type="button" onClick={() => void copy(detail.requestBody, 'the request as JSON')} aria-label="Copy JSON">
          <Label long="Copy JSON" short="JSON" />
        </button>
        <button type="button" onClick={() => void copy(curlCommand(detail.requestBody), 'a curl command (key read from $ANTHROPIC_API_KEY)')} aria-label="Copy curl">
          <Label long="Copy curl" short="curl" />
        </button>
        <button type="button" onClick={save}>
          Save…
        </button>
        <span className="insp-note" role="status">
          {note ?? ''}
        </span>
      </div>
      <PassSourceBanner source={detail.source} />
      <div className="insp-bps" role="group" aria-label="Cache breakpoints">
        {marks.length === 0 ? (
          <span className="muted">{noBreakpointText(detail.source, usage?.cache_read_input_tokens ?? 0)}</span>
        ) : (
          marks.map((k) => {
            const outcome = OUTCOME_WORDS[k.outcome]
            return (
              <button
                key={`${k.marker.path}`}
                type="button"
                className={`insp-bp-chip ${k.outcome}`}
                onClick={() => editor.current?.revealBreakpoint(k.marker)}
                title={`${k.label} · ${outcome}\n${k.marker.path} · ≈${tokens(k.prefixTokens)} tokens up to here`}
                aria-label={`${k.shortLabel} ${outcome}: ${k.label} · ${outcome}`}
              >
                <Label long={`${k.label} · ${outcome}`} short={shortChipWords(k)} />
              </button>
            )
          })
        )}
        {!usage && marks.some((k) => k.outcome === 'no_response') && <span className="insp-bps-summary">no response: nothing was read from or written to the cache</span>}
        {usage && (
          <span className="insp-bps-summary">
            {readThrough(lastRead ? (view.blocks.find((b) => b.ordinal === lastRead.ordinal)?.path ?? '?') : null, readAttribution(detail.attribution)?.readPath ?? null, usage.cache_read_input_tokens)} · read {tokens(usage.cache_read_input_tokens)}, written{' '}
            {tokens(usage.cache_creation_input_tokens)}, uncached {tokens(usage.input_tokens)}
          </span>
        )}
        <button type="button" className="insp-link" onClick={() => useInspectorStore.getState().contextMapToggled()} aria-expanded={showMap}>
          {showMap ? 'Hide context map' : 'Context map'}
        </button>
      </div>
      {/* A request rebuilt from a transcript holds neither the system prompt nor the tools the service counted: its
          estimate is not compared with that count. */}
      {showMap && view.pretty && readyFor === detail.id && (
        <ContextMap
          slices={view.contextMap()}
          causeKeys={causeKeys}
          measured={usage && detail.source !== 'transcript' ? usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens : null}
          whole={wholeLegend}
          onWhole={setWholeLegend}
          onReveal={(o) => editor.current?.revealBlock(o)}
        />
      )}
      <RequestEditor monaco={monaco} view={view} mode={view.pretty ? mode : 'raw'} onReady={onReady} onFile={onFile} handle={editor} />
    </div>
  )
}

/**
 * A control's words, shortened when the inspector is narrow (inspector.css: the container query that swaps
 * `.insp-label-long` for `.insp-label-short`); the control keeps the long words as its accessible name.
 */
function Label({ long, short }: { long: string; short: string }) {
  return (
    <>
      <span className="insp-label-long">{long}</span>
      <span className="insp-label-short">{short}</span>
    </>
  )
}
