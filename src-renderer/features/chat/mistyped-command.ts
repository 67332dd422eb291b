/**
 * A slash command typed wrong (decision 0045). The message box knows one command, `/compact [focus]` (the main
 * process's COMPACT_COMMAND, src-main/node/session/runtime.ts); any other text is sent to the model as written. A
 * message that begins with a word one slip away from a command ("/compcat", "/comapct focus on tests", "/Compact") is
 * held once: the box offers the command instead, and Enter again on the same text sends it as written.
 *
 * Only a leading "/word" followed by a space, a line break or the end counts: a path ("/usr/bin", "/compact/notes.md")
 * is never one. One slip is one letter added, dropped or changed, or two neighbours swapped, and the case of the
 * letters: "/compare these two files" is two letters from `/compact` and is sent. Real words a single slip from a
 * command are listed beside it and never held.
 */

/** The commands the message box runs itself, with the words one slip from each that are words of their own. */
export const SLASH_COMMANDS: ReadonlyArray<{ readonly name: string; readonly words: ReadonlyArray<string> }> = [
  // "compat" (compatibility, a compat layer), "compacts" (a verb, a plural) and "compart" (a word, rare) are one slip
  // from "compact"; "compare", "compacted", "compaction", "impact" and "comp" are two or more and need no listing.
  { name: 'compact', words: ['compat', 'compacts', 'compart'] },
]

/** A message held for looking like a command. */
export interface MistypedCommand {
  /** The word as typed, with its slash: "/compcat". */
  readonly typed: string
  /** The command it looks like, with its slash: "/compact". */
  readonly command: string
  /** What followed the word, trimmed (the focus of a `/compact`); empty when nothing did. */
  readonly argument: string
  /** The message as the command would run it: "/compact focus on tests". */
  readonly corrected: string
}

/** A leading slash and a word of letters, then whitespace or the end; the rest is the argument. */
const LEADING_WORD = /^\/([A-Za-z]+)(?:\s+([\s\S]*))?$/

/** The command a message's leading "/word" looks like, or null: a command typed right, a path, a word, other text. */
export function mistypedCommand(text: string): MistypedCommand | null {
  const match = LEADING_WORD.exec(text.trim())
  if (!match) return null
  const word = match[1]!
  const lower = word.toLowerCase()
  for (const { name, words } of SLASH_COMMANDS) {
    // Typed right: the command runs (its case is the main process's rule, so "/Compact" is one slip).
    if (word === name) return null
    if (words.includes(lower)) continue
    if (lower === name || editDistanceAtMostOne(lower, name)) {
      const argument = (match[2] ?? '').trim()
      return { typed: `/${word}`, command: `/${name}`, argument, corrected: argument === '' ? `/${name}` : `/${name} ${argument}` }
    }
  }
  return null
}

/**
 * Whether `a` becomes `b` by at most one slip: a letter added, dropped or changed, or two neighbouring letters swapped
 * (the optimal string alignment distance, at most 1).
 */
export function editDistanceAtMostOne(a: string, b: string): boolean {
  if (a === b) return true
  if (Math.abs(a.length - b.length) > 1) return false
  let i = 0
  while (i < a.length && i < b.length && a[i] === b[i]) i++
  if (a.length === b.length) {
    // One letter changed, or two neighbours swapped.
    if (a.slice(i + 1) === b.slice(i + 1)) return true
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2)
  }
  // One letter added or dropped: skip it in the longer one.
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1)
}

/** The note under the message box while a message is held. */
export function mistypedWords(m: MistypedCommand): string {
  return `Not sent: “${m.typed}” looks like ${m.command}. Press Enter again to send your message to the model as written.`
}

/** The note's button: runs the command, with what followed the word. */
export const commandButtonLabel = (m: MistypedCommand): string => `Use ${m.command}`
