/**
 * What the composer says, by the session's state. Esc is named on the one control it triggers: while a compaction
 * runs in the session, Esc cancels it (stopRunning, features/palette/commands.ts) and the progress card's Cancel
 * says so; the composer's Stop, which stops the whole run, then does not claim the key.
 */

/** The message box's placeholder: what Enter does, or what Esc does while something runs. */
export function composerPlaceholder(readOnly: boolean, running: boolean, compacting: boolean): string {
  if (readOnly) return 'Read-only: a conversation Loupe did not run'
  if (compacting) return 'Compacting… (Esc to cancel)'
  if (running) return 'The agent is working… (Esc to stop)'
  return 'Message the agent (Enter to send, Shift+Enter for a new line)'
}

/** The Stop button's label: with Esc only when Esc stops the turn, not when it cancels a compaction. */
export function stopLabel(compacting: boolean): string {
  return compacting ? 'Stop' : 'Stop (Esc)'
}

/** Said by the message box when Enter was pressed while a turn runs: the message was not sent, and how to send it. */
export function heldWords(compacting: boolean): string {
  return compacting
    ? 'Not sent: a compaction is running. Your message stays here; press Enter once it ends, or Esc to cancel it.'
    : 'Not sent: the agent is still working. Your message stays here; press Enter once the turn ends, or Esc to stop it.'
}
