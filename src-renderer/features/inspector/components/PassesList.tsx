/**
 * Every pass of the session (or the project), virtualised: only the rows on screen exist in the DOM, so the list
 * scrolls the same at 5 or 5,000 passes. The pass in flight is the last row until it is stored.
 */
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type RefObject } from 'react'
import { useVirtualizer } from '@tanstack/react-virtual'
import { useInspectorStore, type ListedPass } from '../../../state/inspector'
import { sessionLabels, sessionTitles, useSessionsStore } from '../../../state/sessions'
import type { UsageLike } from '../model/breakpoints'
import { clock, grouped, latencyPair, ms, shortModel, usd } from '../../../ui/format'
import { liveChars, type LivePass } from '../model/live'
import { missLine, passOutcome, type PassOutcome } from '../model/outcome'
import { attemptsSummary, earlierBilled, earlierBilledText } from '../model/attempts'
import { loadPassView } from '../data/pass-view'
import { TokenBar, usageTotal } from './TokenBar'
import { tooltipWithNames } from './ModelName'
// Passes imported from a transcript or captured by the proxy say so (features/transcripts).
import { PassSourceBadge } from '../../transcripts/SourceBadge'

const ROW_PX = 26
const rowId = (passId: string) => `insp-pass-${passId}`
/** The column heads' row (inspector.css `.insp-row-head`). */
const HEAD_PX = 22

/** The kinds in the list's narrow column: a pre-warm is "warm", a compaction's summary pass "summary". */
const KIND_LABEL: Readonly<Record<string, string>> = { main: 'main', summary: 'summary', keep_warm: 'warm' }

/**
 * The list's height: its rows, up to the height the user gave it (so a session's first passes leave the room below
 * to the selected pass), and never less than room for the empty-list note.
 */
export function passesListHeight(rows: number, given: number, min: number): number {
  return Math.min(given, Math.max(min, HEAD_PX + rows * ROW_PX + 2))
}
/** A pointer resting this long on a row is a good sign it will be clicked: its pass starts loading. */
const HOVER_PREFETCH_MS = 120

let hoverTimer: ReturnType<typeof setTimeout> | null = null
function prefetchSoon(passId: string): void {
  cancelPrefetch()
  hoverTimer = setTimeout(() => void loadPassView(passId).catch(() => undefined), HOVER_PREFETCH_MS)
}
function cancelPrefetch(): void {
  if (hoverTimer) clearTimeout(hoverTimer)
  hoverTimer = null
}

function outcomesOf(passes: ReadonlyArray<ListedPass>): PassOutcome[] {
  const lastBySession = new Map<string, ListedPass>()
  return passes.map((p) => {
    const previous = lastBySession.get(p.sessionId) ?? null
    lastBySession.set(p.sessionId, p)
    return passOutcome({ ...p, usage: p.usage as UsageLike | null }, previous ? { ...previous, usage: previous.usage as UsageLike | null } : null)
  })
}

export function PassesList({ height }: { height: number }) {
  const passes = useInspectorStore((s) => s.passes)
  const live = useInspectorStore((s) => s.live)
  const selectedId = useInspectorStore((s) => s.selectedPassId)
  const liveSelected = useInspectorStore((s) => s.liveSelected)
  const scope = useInspectorStore((s) => s.scope)
  const loading = useInspectorStore((s) => s.loading)
  const error = useInspectorStore((s) => s.error)
  const scrollRef = useRef<HTMLDivElement>(null)
  const count = passes.length + (live ? 1 : 0)
  const virtualizer = useVirtualizer({ count, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_PX, overscan: 12 })
  const max = useMemo(() => passes.reduce((m, p) => Math.max(m, usageTotal(p.usage as UsageLike | null)), 1), [passes])
  const outcomes = useMemo(() => outcomesOf(passes), [passes])
  // The whole-project list names each row's session where the session's list names the model: the rows then mix
  // sessions (their model is in the row's tooltip, and in the pass's own line once selected).
  const showSession = scope === 'project'
  // A session's title as the sidebar has it now (a new session is named by its first message, and a session can be
  // renamed after the list was read); the title read with the list, or the id, for a session the sidebar lacks.
  const byProject = useSessionsStore((s) => s.byProject)
  const titles = useMemo(() => (showSession ? sessionTitles(passes, byProject) : null), [passes, byProject, showSession])
  const labels = useMemo(() => (titles === null ? null : sessionLabels([...titles].map(([id, title]) => ({ id, title })))), [titles])

  const gutter = useScrollbarWidth(scrollRef)

  const selectedIndex = liveSelected ? passes.length : passes.findIndex((p) => p.id === selectedId)
  // The keyboard moves the selection while the list keeps the focus: a screen reader follows the selected row.
  const activeRowId = liveSelected ? rowId('live') : selectedIndex >= 0 ? rowId(selectedId!) : undefined
  // Keep the selection on screen when it changes from elsewhere (the chat, a new live pass).
  useEffect(() => {
    if (selectedIndex >= 0) virtualizer.scrollToIndex(selectedIndex, { align: 'auto' })
  }, [selectedIndex, virtualizer])
  // And when the list's height changes (the pane docked elsewhere, the window or the list resized): measured on the
  // element before the frame is drawn, since the virtualizer learns the new height only after it. The selection's
  // own changes are the effect above's.
  const selectedRef = useRef(selectedIndex)
  selectedRef.current = selectedIndex
  useLayoutEffect(() => {
    const box = scrollRef.current
    const index = selectedRef.current
    if (!box || index < 0) return
    const top = index * ROW_PX
    if (top < box.scrollTop) box.scrollTop = top
    else if (top + ROW_PX > box.scrollTop + box.clientHeight) box.scrollTop = top + ROW_PX - box.clientHeight
  }, [height])

  const select = useCallback((index: number) => {
    const s = useInspectorStore.getState()
    if (index === s.passes.length && s.live) s.liveSelectedChosen()
    else {
      const pass = s.passes[index]
      if (pass) s.passSelected(pass.id)
    }
  }, [])

  const onKeyDown = (e: KeyboardEvent) => {
    const step = e.key === 'ArrowDown' ? 1 : e.key === 'ArrowUp' ? -1 : e.key === 'PageDown' ? 10 : e.key === 'PageUp' ? -10 : e.key === 'End' ? count : e.key === 'Home' ? -count : 0
    if (step === 0 || count === 0) return
    e.preventDefault()
    select(Math.min(count - 1, Math.max(0, (selectedIndex < 0 ? count : selectedIndex) + step)))
  }

  return (
    <div className="insp-passes" style={{ height }}>
      <div className="insp-row insp-row-head" aria-hidden="true" style={{ paddingRight: `calc(var(--insp-row-pad) + ${gutter}px)` }}>
        <span>#</span>
        <span>time</span>
        <span>{showSession ? 'session' : 'model'}</span>
        <span>kind</span>
        <span title="Input (read from cache, written to it, uncached) and output, as the service counted them">tokens</span>
        <span className="num">cost</span>
        <span className="num" title="Time to the first byte of the response / to its end">latency</span>
        <span title="How many times the request was sent, when more than once (retries after an error)" aria-label="tries">↻</span>
        <span>cache</span>
      </div>
      <div ref={scrollRef} className="insp-passes-scroll" role="listbox" aria-label="Passes" tabIndex={0} onKeyDown={onKeyDown} data-testid="passes-list" aria-activedescendant={activeRowId}>
        {count === 0 && <div className="insp-empty">{error ? `Could not load the passes: ${error}` : loading ? 'Loading passes…' : 'No pass yet: send a message and each request to the model appears here.'}</div>}
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const pass = passes[item.index]
            return (
              <div key={item.key} className="insp-row-slot" style={{ transform: `translateY(${item.start}px)` }}>
                {pass ? (
                  <PassRow pass={pass} outcome={outcomes[item.index]!} selected={!liveSelected && pass.id === selectedId} max={max} sessionLabel={labels === null ? null : (labels.get(pass.sessionId) ?? '')} sessionTitle={titles?.get(pass.sessionId) ?? null} index={item.index} count={count} onSelect={select} />
                ) : live ? (
                  <LiveRow live={live} selected={liveSelected} sessionLabel={labels === null ? null : (labels.get(live.sessionId) ?? '')} sessionTitle={titles?.get(live.sessionId) ?? null} index={item.index} count={count} onSelect={select} />
                ) : null}
              </div>
            )
          })}
        </div>
      </div>
    </div>
  )
}

interface RowProps {
  readonly pass: ListedPass
  readonly outcome: PassOutcome
  readonly selected: boolean
  readonly max: number
  /** In the whole-project list, the short label of the pass's session (sessionLabels); null in a session's own list. */
  readonly sessionLabel: string | null
  /** In the whole-project list, the full title of the pass's session, for the tooltip. */
  readonly sessionTitle: string | null
  readonly index: number
  /** Rows in the whole list: only those on screen exist, so each says where it is in all of them. */
  readonly count: number
  onSelect(index: number): void
}

const PassRow = memo(function PassRow({ pass, outcome, selected, max, sessionLabel, sessionTitle, index, count, onSelect }: RowProps) {
  const lost = missLine(pass.attribution)
  const firstByte = pass.firstByteAt !== null ? pass.firstByteAt - pass.queuedAt : null
  const total = pass.doneAt !== null ? pass.doneAt - pass.queuedAt : null
  const attempts = attemptsSummary(pass.attempts)
  const earlier = earlierBilled(pass.attempts)
  return (
    <div
      className={`insp-row${selected ? ' selected' : ''}${pass.status !== 'done' ? ` ${pass.status}` : ''}`}
      role="option"
      id={rowId(pass.id)}
      aria-selected={selected}
      aria-setsize={count}
      aria-posinset={index + 1}
      data-pass-id={pass.id}
      data-seq={pass.seq}
      onClick={() => onSelect(index)}
      onPointerEnter={() => prefetchSoon(pass.id)}
      onPointerLeave={cancelPrefetch}
    >
      <span className="insp-seq" title={`pass ${pass.seq}`}>
        {pass.seq}
      </span>
      <span className="muted">{clock(pass.queuedAt)}</span>
      {sessionLabel === null ? (
        <span className="insp-model" title={pass.model}>
          {shortModel(pass.model)}
        </span>
      ) : (
        <span className="insp-session" title={`${sessionTitle ?? pass.sessionId} · pass ${pass.seq} · ${pass.model}`}>
          {sessionLabel}
        </span>
      )}
      <span className="muted" title={pass.kind === 'keep_warm' ? 'a cache pre-warm sent in an idle gap' : pass.kind}>
        {pass.source === 'transcript' || pass.source === 'proxy' ? <PassSourceBadge source={pass.source} kind={pass.kind} /> : (KIND_LABEL[pass.kind] ?? pass.kind)}
      </span>
      <TokenBar usage={pass.usage as UsageLike | null} max={max} />
      <span className="num" {...(earlier ? { title: `${usd(pass.costUsd)}, ${earlierBilledText(earlier, usd)}` } : {})}>
        {usd(pass.costUsd)}
      </span>
      <span className="num muted">{latencyPair(firstByte, total)}</span>
      <span className={attempts.failed > 0 ? 'insp-attempts retried' : 'insp-attempts'} title={attempts.title}>
        {attempts.text}
      </span>
      <span className={`insp-badge ${outcome.kind}`} title={tooltipWithNames(`${outcome.label}: ${outcome.cause}${lost ? ` · ${lost}` : ''}`)}>
        {outcome.label}
      </span>
    </div>
  )
})

function LiveRow({ live, selected, sessionLabel, sessionTitle, index, count, onSelect }: { live: LivePass; selected: boolean; sessionLabel: string | null; sessionTitle: string | null; index: number; count: number; onSelect(index: number): void }) {
  const chars = liveChars(live)
  return (
    <div className={`insp-row live${selected ? ' selected' : ''}`} role="option" id={rowId('live')} aria-selected={selected} aria-setsize={count} aria-posinset={index + 1} data-live="true" data-kind={live.kind} onClick={() => onSelect(index)}>
      <span className="insp-seq">●</span>
      <span className="muted">{clock(live.startedAt)}</span>
      {sessionLabel === null ? (
        <span className="insp-model">{shortModel(live.model)}</span>
      ) : (
        // Cut short in a narrow pane, as a stored row's is: the title names it in full.
        <span className="insp-session" title={`${sessionTitle ?? live.sessionId} · ${live.model}`}>
          {sessionLabel}
        </span>
      )}
      {/* A compaction's summary request in flight is labelled as its stored row will be. */}
      <span className="muted" title={live.kind === 'summary' ? "a compaction's summary request" : live.kind}>
        {KIND_LABEL[live.kind] ?? live.kind}
      </span>
      {/* In a narrow pane the figure alone: the badge says the pass is live (inspector.css). */}
      <span className="insp-live-note">
        {live.firstDeltaAt === null ? (
          <>
            <span className="insp-label-long">sent, no byte yet…</span>
            <span className="insp-label-short">waiting…</span>
          </>
        ) : (
          <>
            <span className="insp-label-long">streaming · {grouped(chars)} chars</span>
            <span className="insp-label-short">{grouped(chars)} chars</span>
          </>
        )}
      </span>
      <span className="insp-live-cost" />
      <span className="num muted">{live.firstDeltaAt !== null ? ms(live.firstDeltaAt - live.startedAt) : '…'}</span>
      <span />
      <span className="insp-badge running">live</span>
    </div>
  )
}

/**
 * The width of `ref`'s vertical scrollbar: none while the list is too short to scroll, the platform's width once it
 * does, none for overlay scrollbars. The heads' row outside the scrolling box pads its end by it, to stay over the
 * columns. A scrollbar coming or going changes the box's content area, which the ResizeObserver sees.
 */
function useScrollbarWidth(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0)
  useLayoutEffect(() => {
    const box = ref.current
    if (!box) return
    const measure = () => setWidth(box.offsetWidth - box.clientWidth)
    measure()
    const observer = new ResizeObserver(measure)
    observer.observe(box)
    return () => observer.disconnect()
  }, [ref])
  return width
}
