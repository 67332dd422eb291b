/**
 * What a checkpoint's summary replaced, in words the chat's card and the Compaction view share. The count
 * (`replaced.entries`, src-main/engine/compaction/run.ts) is of the entries the model saw as messages before the split;
 * the range runs from the first of them to the last, so it also holds entries never sent as messages (notes,
 * approvals, turn ends, pins, context edits, an earlier checkpoint), which are not summarised. "35 entries, #1–#50"
 * read as a contradiction; "35 of the entries #1–#50" says which is which.
 */
import { grouped } from '../../../ui/format'

export interface Replaced {
  readonly entries: number
  readonly fromEntryId: string | null
  readonly toEntryId: string | null
}

export interface SummarisedWords {
  /** "35 of the entries #1–#50", "the 12 entries #3–#14", "entry #4", or "35 entries" while the numbers are unknown. */
  readonly text: string
  /** What the rest of the range is, for a tooltip; null when the range is all summarised or unknown. */
  readonly rest: string | null
}

export function summarisedWords(replaced: Replaced, seqOf: (entryId: string) => number | undefined): SummarisedWords {
  const count = replaced.entries
  const counted = `${grouped(count)} ${count === 1 ? 'entry' : 'entries'}`
  const from = replaced.fromEntryId === null ? undefined : seqOf(replaced.fromEntryId)
  const to = replaced.toEntryId === null ? undefined : seqOf(replaced.toEntryId)
  if (from === undefined || to === undefined || to < from) return { text: counted, rest: null }
  if (from === to) return { text: `entry #${from}`, rest: null }
  // Entries are numbered one after the other: a count that fills the range leaves nothing else in it.
  const inRange = to - from + 1
  if (count >= inRange) return { text: `the ${grouped(count)} entries #${from}–#${to}`, rest: null }
  const others = inRange - count
  return {
    text: `${grouped(count)} of the entries #${from}–#${to}`,
    rest: `The other ${grouped(others)} ${others === 1 ? 'entry' : 'entries'} in #${from}–#${to} ${others === 1 ? 'was' : 'were'} never sent to the model as messages (notes, approvals, turn ends, pins, context edits, an earlier checkpoint): not summarised.`,
  }
}
