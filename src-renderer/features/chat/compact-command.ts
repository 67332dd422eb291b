/**
 * A `/compact [focus]` sent from the message box runs a compaction instead of a turn, and records no message: when it
 * is cancelled, nothing in the conversation holds what the user typed. Its text comes back to the box, as a message
 * taken back does (decision 0024), before whatever the user typed there since.
 */

/** The main process's rule (src-main/node/session/runtime.ts COMPACT_COMMAND), on the trimmed text. */
export const isCompactCommand = (text: string): boolean => /^\/compact(?:\s|$)/.test(text.trim())

/** The message box after a cancelled `/compact`: the command, then what the user typed since, after a blank line. */
export function boxAfterCancelledCompact(box: string, command: string): string {
  const typed = box.trim()
  if (typed === '' || typed === command) return command
  return `${command}\n\n${typed}`
}
