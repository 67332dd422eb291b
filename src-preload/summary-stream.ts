/**
 * How the `compaction.progressed` pieces of a forming summary compose (contract.ts): each piece says where it starts
 * in its stream (`textOffset`); pieces arrive in order, may repeat or overlap what is held, may start later than what
 * was received (a burst sent only its tail: the gap is counted, not invented), and a new `stream` (a retry) starts
 * the text again. What is held is the newest `maxChars` of it. The main process keeps this for a window that opens
 * mid-compaction, the renderer for the view; both compose pieces with this one function.
 */
import type { RequestOutput } from './contract'

export interface SummaryText {
  /** Which stream of the compaction the text belongs to. */
  readonly stream: number
  /** The newest characters of the stream received so far. */
  readonly text: string
  /** Characters of the stream not in `text`: dropped from its start, or never received (a gap). */
  readonly textHidden: number
  /** Where what was received ends in the stream. */
  readonly textEnd: number
}

export function appendSummaryPiece<T extends SummaryText>(held: T, piece: { readonly stream: number; readonly text: string; readonly textOffset: number }, maxChars: number): T {
  const base: T = piece.stream === held.stream ? held : { ...held, stream: piece.stream, text: '', textHidden: 0, textEnd: 0 }
  const end = piece.textOffset + piece.text.length
  if (end <= base.textEnd) return base
  let text = base.text + piece.text.slice(Math.max(0, base.textEnd - piece.textOffset))
  let hidden = base.textHidden + Math.max(0, piece.textOffset - base.textEnd)
  if (text.length > maxChars) {
    hidden += text.length - maxChars
    text = text.slice(text.length - maxChars)
  }
  return { ...base, text, textHidden: hidden, textEnd: end }
}

/** The compaction in flight as `compaction.list` gives it (contract.ts). */
export type LiveCompaction = NonNullable<RequestOutput<'compaction.list'>['live']>

/**
 * A compaction that has just started: nothing trimmed, streamed or counted yet. The main process's snapshot and the
 * renderer's view both begin from it.
 */
export function startedLiveCompaction(e: Pick<LiveCompaction, 'compactionId' | 'trigger' | 'focus' | 'dryRun'>, startedAt: number): LiveCompaction {
  return {
    compactionId: e.compactionId,
    trigger: e.trigger,
    focus: e.focus,
    dryRun: e.dryRun,
    startedAt,
    stage: 'started',
    outputChars: 0,
    outputTokens: 0,
    thinkingChars: 0,
    trimmed: null,
    savedTokens: null,
    stream: 0,
    text: '',
    textEnd: 0,
    textHidden: 0,
  }
}
