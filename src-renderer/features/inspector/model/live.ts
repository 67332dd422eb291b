/**
 * The pass in flight: it appears when `pass.started` arrives and fills in from `stream.delta` events (the app's
 * ModelStreamEvent, src-main/engine/ports.ts) until `pass.completed` replaces it with the stored pass.
 *
 * A compaction's summary request is a pass too, but the host reports it through the compaction's progress instead
 * (`compaction.progressed`: `summary_started`, then `summary_streaming` with the text since the last one): its live
 * row starts from the first and fills in from the others, and `pass.completed` replaces it the same way.
 */
import { appendSummaryPiece, type SummaryText } from '../../../../src-preload/summary-stream'
import { LIVE_SUMMARY_MAX_CHARS } from '../../../../src-preload/contract'
import { isRecord } from './blocks'
import { retryNote } from '../../../ui/retry-note'

export interface LiveBlock {
  readonly kind: string
  readonly text: string
  readonly toolName: string | null
}

/** The kinds of pass that are ever live: the conversation's own, and a compaction's summary request. */
export type LiveKind = 'main' | 'summary'

/** A summary request's text as it forms, as the compaction's progress gives it (its newest part, and counts). */
export interface LiveSummary extends SummaryText {
  /** Characters of summary so far (the whole stream's, not only the part held in `text`). */
  readonly outputChars: number
  /** Characters the model thought before writing, counted and not shown. */
  readonly thinkingChars: number
}

export interface LivePass {
  readonly kind: LiveKind
  readonly sessionId: string
  /** The pass's number within its turn (pass.started's `passNumber`); 0 for a summary request, which has none. */
  readonly passNumber: number
  readonly model: string
  readonly startedAt: number
  readonly firstDeltaAt: number | null
  readonly messageId: string | null
  readonly blocks: ReadonlyArray<LiveBlock>
  /** Why what streamed was dropped and the request sent again (the host's `retrying` event), while the answer starts over. */
  readonly retry?: string
  /** A summary request's text and counts (null for a main pass, whose text is in `blocks`). */
  readonly summary: LiveSummary | null
  /**
   * The seq of its session's newest pass of its kind listed when it started (0: none), or null when the list was
   * still loading and said nothing yet. Once stored, the live pass is a pass of that kind with a greater seq: that is
   * how a list read again tells that the pass finished while the window was not listening (see liveStoredIn).
   */
  readonly listedSeq: number | null
}

export function livePassStarted(sessionId: string, passNumber: number, model: string, now: number, listedSeq: number | null = null): LivePass {
  return { kind: 'main', sessionId, passNumber, model, startedAt: now, firstDeltaAt: null, messageId: null, blocks: [], summary: null, listedSeq }
}

/** A compaction's summary request just sent (`summary_started`): nothing written yet. */
export function liveSummaryStarted(sessionId: string, model: string, now: number, listedSeq: number | null = null): LivePass {
  const summary: LiveSummary = { stream: 0, text: '', textHidden: 0, textEnd: 0, outputChars: 0, thinkingChars: 0 }
  return { kind: 'summary', sessionId, passNumber: 0, model, startedAt: now, firstDeltaAt: null, messageId: null, blocks: [], summary, listedSeq }
}

/**
 * A summary request with one `summary_streaming` progress applied: its piece of text added in order (a new `stream`,
 * a retried attempt, starts the text again), and its counts. The first progress goes out with the first byte, so
 * that is when the first byte came.
 */
export function liveSummaryStreamed(live: LivePass, p: { readonly stream?: number; readonly text?: string; readonly textOffset?: number; readonly outputChars?: number; readonly thinkingChars?: number }, now: number): LivePass {
  if (!live.summary) return live
  let summary = live.summary
  if (typeof p.text === 'string' && typeof p.textOffset === 'number') summary = appendSummaryPiece(summary, { stream: typeof p.stream === 'number' ? p.stream : summary.stream, text: p.text, textOffset: p.textOffset }, LIVE_SUMMARY_MAX_CHARS)
  summary = {
    ...summary,
    outputChars: typeof p.outputChars === 'number' ? p.outputChars : Math.max(summary.outputChars, summary.textEnd),
    thinkingChars: typeof p.thinkingChars === 'number' ? p.thinkingChars : summary.thinkingChars,
  }
  return { ...live, summary, firstDeltaAt: live.firstDeltaAt ?? now }
}

/** The seq of the newest pass of `kind` of `sessionId` in `passes`; 0 when it has none. */
export function newestSeqOf(passes: ReadonlyArray<{ readonly sessionId: string; readonly kind: string; readonly seq: number }>, sessionId: string, kind: LiveKind): number {
  let newest = 0
  for (const p of passes) if (p.sessionId === sessionId && p.kind === kind && p.seq > newest) newest = p.seq
  return newest
}

/** The seq of the newest main pass of `sessionId` in `passes`; 0 when it has none. */
export function newestMainSeq(passes: ReadonlyArray<{ readonly sessionId: string; readonly kind: string; readonly seq: number }>, sessionId: string): number {
  return newestSeqOf(passes, sessionId, 'main')
}

/**
 * Whether a list just read from the store already holds the live pass: `pass.completed` was missed (the inspector
 * was not mounted when the pass ended, or the connection dropped), so the live row would otherwise stay forever.
 */
export function liveStoredIn(live: LivePass, passes: ReadonlyArray<{ readonly sessionId: string; readonly kind: string; readonly seq: number }>): boolean {
  return live.listedSeq !== null && newestSeqOf(passes, live.sessionId, live.kind) > live.listedSeq
}

/** The live pass once a list was read: its baseline set if it started while the list was loading. */
export function liveListed(live: LivePass, passes: ReadonlyArray<{ readonly sessionId: string; readonly kind: string; readonly seq: number }>): LivePass {
  return live.listedSeq !== null ? live : { ...live, listedSeq: newestSeqOf(passes, live.sessionId, live.kind) }
}

/** Applies a batch of stream events; unknown events are ignored so a newer host does not break an older view. */
export function liveDeltaApplied(live: LivePass, events: ReadonlyArray<unknown>, now: number): LivePass {
  let blocks = [...live.blocks]
  let messageId = live.messageId
  let retry = live.retry
  for (const e of events) {
    if (!isRecord(e)) continue
    const index = typeof e.index === 'number' ? e.index : -1
    switch (e.type) {
      case 'retrying':
        blocks = []
        retry = retryNote(e)
        break
      case 'message_started':
        messageId = typeof e.messageId === 'string' ? e.messageId : messageId
        break
      case 'block_started':
        blocks[index] = { kind: String(e.kind ?? 'text'), text: '', toolName: typeof e.toolName === 'string' ? e.toolName : null }
        break
      case 'text_delta':
      case 'thinking_delta':
      case 'tool_input_delta': {
        const piece = e.type === 'text_delta' ? e.text : e.type === 'thinking_delta' ? e.thinking : e.partialJson
        const block = blocks[index] ?? { kind: e.type === 'tool_input_delta' ? 'tool_use' : 'text', text: '', toolName: null }
        blocks[index] = { ...block, text: block.text + (typeof piece === 'string' ? piece : '') }
        break
      }
      default:
        break
    }
  }
  // Only what the service sent is a first byte: the client's `retrying` notes are not.
  const answered = events.some((e) => isRecord(e) && e.type !== 'retrying')
  return { ...live, messageId, blocks, ...(retry !== undefined ? { retry } : {}), firstDeltaAt: live.firstDeltaAt ?? (answered ? now : null) }
}

export function liveChars(live: LivePass): number {
  if (live.summary) return live.summary.outputChars
  return live.blocks.reduce((sum, b) => sum + (b?.text.length ?? 0), 0)
}

/** What the Request tab says while the selected pass streams: its bytes are stored with it, and shown from the store. */
export function liveRequestText(live: LivePass): string {
  if (live.kind === 'summary') return `The compaction's summary request is still streaming. Its exact request bytes are shown once it is stored; what streams back is under Response.`
  return `Pass ${live.passNumber} of this turn is still streaming. Its exact request bytes are shown once this pass is stored; what streams back is under Response.`
}

/**
 * The inspector's count of passes: the stored ones, and the pass in flight, which is a row of the list too (a first
 * pass streaming is not "0 passes").
 */
export function passCountText(stored: number, streaming: boolean): string {
  const total = stored + (streaming ? 1 : 0)
  const passes = `${total} ${total === 1 ? 'pass' : 'passes'}`
  if (!streaming) return passes
  return total === 1 ? `${passes}, streaming` : `${passes}, the newest streaming`
}

/** What the Diff tab says while the selected pass streams: its request is not stored yet, so there is nothing to compare. */
export function liveDiffText(live: LivePass): string {
  if (live.kind === 'summary') return `The compaction's summary request is still streaming. The diff with the previous pass is shown once it is stored.`
  return `Pass ${live.passNumber} of this turn is still streaming. The diff with the previous pass is shown once this pass is stored.`
}
