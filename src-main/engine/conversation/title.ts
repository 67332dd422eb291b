/**
 * A session's name. It starts as the time it was made ("Session 2026-11-29 14:02"), and the first message sent in it
 * names it, unless the user named it first: a sidebar of dates does not say which session was about what.
 */

import { cleanName } from '../../../src-preload/names'

/** Longest name taken from a message, in characters; longer ones are cut at a word and end in "…". */
export const TITLE_FROM_MESSAGE_MAX_CHARS = 60

/** "Session 2026-11-29 14:02", in local time, its date written as the views write dates (src-renderer/ui/format.ts). */
export function defaultSessionTitle(createdAt: number): string {
  const d = new Date(createdAt)
  const two = (n: number) => String(n).padStart(2, '0')
  return `Session ${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`
}

/** A command (`/compact keep the API notes`), not a request: it says nothing of what the session is about. */
const COMMAND = /^\/[a-z][\w-]*(?:\s|$)/i

/**
 * The words of a Markdown line without its marks, which a sidebar shows as they are typed: a heading's or a quote's
 * leading `#` and `>`, and the `**`, `__` and backticks around words ("fix **parseDate**" names "fix parseDate").
 */
function withoutMarks(line: string): string {
  return line
    .replace(/^(?:#{1,6}(?:\s+|$)|>\s*)+/, '')
    .replace(/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, '$2')
    .replace(/`([^`\n]+)`/g, '$1')
    .trim()
}

/**
 * A name from the first message: its first line with text, kept as every name is (src-preload/names.ts: no control
 * or invisible characters, spaces collapsed) and Markdown's marks dropped, cut at a word near
 * TITLE_FROM_MESSAGE_MAX_CHARS. Null when the message has no text to name it by, or is a command.
 */
export function titleFromMessage(text: string): string | null {
  if (COMMAND.test(text.trimStart())) return null
  // The first line with words: a code fence ("```js") names nothing.
  const line = text
    .split('\n')
    .map((l) => cleanName(l))
    .filter((l) => !/^(`{3,}|~{3,})[\w+-]*$/.test(l))
    .map(withoutMarks)
    .find((l) => l !== '')
  if (line === undefined) return null
  const chars = Array.from(line) // by code point, so an emoji is never cut in half
  // Each line was cleaned before its marks were dropped: what is left is cleaned again, so the name is the one the
  // store keeps (run.ts compares the two to tell a name the first message gave).
  if (chars.length <= TITLE_FROM_MESSAGE_MAX_CHARS) return cleanName(line) || null
  const cut = chars.slice(0, TITLE_FROM_MESSAGE_MAX_CHARS).join('')
  const space = cut.lastIndexOf(' ')
  // At the last word break, unless that throws away most of the line (one long word: a path, a URL).
  const kept = space >= TITLE_FROM_MESSAGE_MAX_CHARS / 2 ? cut.slice(0, space) : cut
  return cleanName(`${kept.replace(/[\s,.;:]+$/, '')}…`)
}
