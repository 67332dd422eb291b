/**
 * What becomes of the focus field when the session gains checkpoints. The field holds the focus of the compaction
 * the user is about to run, or of the dry run they are reading: once a checkpoint with that focus is made (Compact
 * now, a dry run applied here or in another window, /compact in the chat), the text has done its work and the field
 * empties. A run that failed, was cancelled or found nothing to compact makes no checkpoint, so the text stays for a
 * retry; so does a discarded dry run, and a focus the user has changed since.
 */

export interface CheckpointFocus {
  readonly checkpoint: { readonly id: string; readonly focus?: unknown }
}

/** The field's text after `checkpoints`, of which those in `seen` were there before. */
export function focusAfterCheckpoints(field: string, seen: ReadonlySet<string>, checkpoints: ReadonlyArray<CheckpointFocus>): string {
  const wanted = field.trim()
  if (!wanted) return field
  const done = checkpoints.some((c) => !seen.has(c.checkpoint.id) && typeof c.checkpoint.focus === 'string' && c.checkpoint.focus.trim() === wanted)
  return done ? '' : field
}
