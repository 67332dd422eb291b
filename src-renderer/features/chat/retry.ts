import type { EntryView } from '../../../src-preload/contract'

/**
 * The failure Retry is for: the newest turn outcome, when it is a failure. A retry that went on to answer (an
 * assistant message after the failure) or a new message leaves nothing to retry; Retry then would send a
 * conversation that ends with the model's answer, which the API refuses.
 */
export function retryableFailure(entries: ReadonlyArray<EntryView>): EntryView | null {
  const last = entries.findLast((e) => e.kind === 'turn_failed' || e.kind === 'user_message' || e.kind === 'assistant_message')
  return last?.kind === 'turn_failed' ? last : null
}
