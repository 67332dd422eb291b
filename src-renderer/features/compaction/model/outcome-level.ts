/**
 * How a compaction that made no checkpoint is told to the user (docs/compaction.md "In the Compaction view").
 * Nothing to compact yet, and a cancel the user asked for, left the conversation as it was and ask nothing of the
 * user: a neutral note, as the chat's grey notice says it. A failure, a refusal or a stale dry run is said in the
 * alert box: the user expected a checkpoint and did not get one.
 */
export type OutcomeLevel = 'note' | 'error'

export function outcomeLevel(status: string): OutcomeLevel {
  return status === 'nothing_to_compact' || status === 'cancelled' ? 'note' : 'error'
}
