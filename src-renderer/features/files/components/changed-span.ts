/**
 * The one span that differs between two texts: what an editor replaces to turn `from` into `to` as one edit (decision
 * 0046), so the lines around it, the view's scroll and the cursor outside it stay where they were, and the undo
 * stack holds the change as one step. Never splits a CRLF line break or a surrogate pair.
 */
export interface ChangedSpan {
  /** Offset in `from` where the change starts. */
  readonly start: number
  /** Offset in `from` where it ends (exclusive). */
  readonly end: number
  /** What goes in its place, from `to`. */
  readonly text: string
}

const splits = (s: string, at: number): boolean => {
  if (at <= 0 || at >= s.length) return false
  const before = s.charCodeAt(at - 1)
  const after = s.charCodeAt(at)
  return (before === 13 && after === 10) || (before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff)
}

/** Null when the texts are the same. */
export function changedSpan(from: string, to: string): ChangedSpan | null {
  if (from === to) return null
  const shorter = Math.min(from.length, to.length)
  let prefix = 0
  while (prefix < shorter && from.charCodeAt(prefix) === to.charCodeAt(prefix)) prefix++
  while (prefix > 0 && (splits(from, prefix) || splits(to, prefix))) prefix--
  let suffix = 0
  while (suffix < shorter - prefix && from.charCodeAt(from.length - 1 - suffix) === to.charCodeAt(to.length - 1 - suffix)) suffix++
  while (suffix > 0 && (splits(from, from.length - suffix) || splits(to, to.length - suffix))) suffix--
  return { start: prefix, end: from.length - suffix, text: to.slice(prefix, to.length - suffix) }
}

/** A UTF-8 byte-order mark, as a file's text holds it (U+FEFF first; the Files view reads files with theirs). */
export const BOM = '\uFEFF'

/**
 * The edit that turns an editor's text into `to`. Monaco holds a leading byte-order mark aside from its text (it is
 * in no line, and getValue gives it back only with preserveBOM), so `content` is the text without it, offsets count
 * from after it, and `bom` is the mark it holds ('' or BOM). No edit can take that mark away: a `to` without it is
 * `'replace'`, the editor's whole value to be set anew. Null when the texts are the same.
 */
export function editorChange(bom: string, content: string, to: string): ChangedSpan | 'replace' | null {
  if (!to.startsWith(bom)) return 'replace'
  return changedSpan(content, to.slice(bom.length))
}
