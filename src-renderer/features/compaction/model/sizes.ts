/**
 * A compaction's sizes, before and after, as the view says them (decision 0019): both are the context the next pass
 * sends, at the compaction. Before is the figure the threshold reads (the last pass's input and answer, plus what
 * came since); after is the first pass after it as measured, less the message sent after the checkpoint, or until
 * that pass runs, the estimate brought to the real count's scale. Never a pass's input against a figure that also
 * counts the answer the pass wrote.
 */
import { onRealScale, type CheckpointRecord, type DraftView } from '../../../state/compaction'
import { grouped as n } from '../../../ui/format'
import { CHARS_PER_TOKEN } from '../../../ui/estimate'

export interface Side {
  readonly tokens: number
  readonly measured: boolean
  readonly passSeq: number | null
}
export interface Sizes {
  readonly before: Side
  readonly after: Side & { readonly addedSince: number }
}

export const checkpointSizes = (record: CheckpointRecord): Sizes => record.context

/** A dry run's sizes; `summaryChars`, the summary as edited, moves the after by its change in length. */
export function draftSizes(draft: DraftView, summaryChars?: number): Sizes {
  const { real, estimated } = draft.tokens.before
  const edit = draft.summary === null || summaryChars === undefined ? 0 : Math.round((summaryChars - draft.summary.length) / CHARS_PER_TOKEN)
  return {
    before: { tokens: real ?? estimated, measured: real !== null, passSeq: null },
    after: { tokens: onRealScale(draft.tokens.after.estimated + edit, real, estimated), measured: false, passSeq: null, addedSince: 0 },
  }
}

const figure = (side: Side) => `${side.measured ? '' : '≈'}${n(side.tokens)}`

/** The one-line explanation of the two figures, for a card's title and the detail's size line; `edited`: a dry run's after counts the user's edits. */
export function sizesExplained(sizes: Sizes, draft: boolean, edited = false): string {
  const { before, after } = sizes
  const b = `Before, ${figure(before)} tokens: ${before.measured ? `${before.passSeq !== null ? `pass ${before.passSeq}'s` : 'the last pass’s'} input and its answer, plus what came after it: what the next pass would have sent` : 'estimated from the text: what the next pass would have sent'}.`
  const a = after.measured
    ? `After, ${figure(after)} tokens: what pass ${after.passSeq ?? '?'}, the first after, sent${after.addedSince > 0 ? `, less ≈${n(after.addedSince)} tokens of what came after the compaction` : ''}.`
    : `After, ${figure(after)} tokens${edited ? ' with your edits to the summary' : ''}: estimated on the same scale${draft ? ' if it is applied' : ''}; ${draft ? 'measured by the first pass after it' : 'measured when the next pass runs'}.`
  return `${b} ${a}`
}
