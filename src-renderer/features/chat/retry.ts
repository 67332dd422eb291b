import type { EntryView } from '../../../src-preload/contract'
import { isTakeBack } from './take-back'

/**
 * The failure Retry is for: the newest turn outcome, when it is a failure. A retry that went on to answer (an
 * assistant message after the failure) or a new message leaves nothing to retry; Retry then would send a
 * conversation that ends with the model's answer, which the API refuses.
 */
export function retryableFailure(entries: ReadonlyArray<EntryView>): EntryView | null {
  // A message taken back after its failure leaves nothing to retry either (take-back.ts).
  const last = entries.findLast((e) => e.kind === 'turn_failed' || e.kind === 'user_message' || e.kind === 'assistant_message' || isTakeBack(e))
  return last?.kind === 'turn_failed' ? last : null
}

/**
 * Failures a retry repeated: a `turn_failed` followed by another with the same message, with no user or assistant
 * message between them (each Retry that failed the same way adds one). The chat shows the last of a run once, with
 * how many times it happened, instead of a column of identical red boxes. Returns the ids to leave out, and for the
 * last of each run its count.
 */
export function repeatedFailures(entries: ReadonlyArray<EntryView>): { readonly hidden: ReadonlySet<string>; readonly times: ReadonlyMap<string, number> } {
  const hidden = new Set<string>()
  const times = new Map<string, number>()
  let run: { last: EntryView; count: number } | null = null
  for (const e of entries) {
    if (e.kind === 'user_message' || e.kind === 'assistant_message') run = null
    if (e.kind !== 'turn_failed') continue
    if (run !== null && run.last.message === e.message) {
      hidden.add(run.last.id)
      times.delete(run.last.id)
      run = { last: e, count: run.count + 1 }
      times.set(e.id, run.count)
    } else run = { last: e, count: 1 }
  }
  return { hidden, times }
}
