/**
 * The edit_file rule: replace exactly one exact occurrence. Pure string work; the executor reads and writes.
 */

export type ExactEdit =
  | { readonly ok: true; readonly text: string; /** 1-based line where the replacement starts. */ readonly line: number }
  | { readonly ok: false; readonly code: 'no_match' | 'ambiguous_match'; readonly reason: string }

function occurrences(text: string, needle: string): number[] {
  const found: number[] = []
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) found.push(at)
  return found
}

/**
 * Replaces the single occurrence of `oldString`. A file with Windows line ends is matched with the model's `\n`
 * turned into `\r\n` (models write `\n`), and the replacement gets the file's line ends too.
 * String concatenation, never `String.replace`, so `$&` and friends in new text stay literal.
 */
export function applyExactEdit(text: string, oldString: string, newString: string, path: string): ExactEdit {
  let needle = oldString
  let replacement = newString
  let at = occurrences(text, needle)
  if (at.length === 0 && text.includes('\r\n') && !oldString.includes('\r\n') && oldString.includes('\n')) {
    needle = oldString.replace(/\n/g, '\r\n')
    replacement = newString.replace(/\r?\n/g, '\r\n')
    at = occurrences(text, needle)
  }
  if (at.length === 0) {
    return {
      ok: false,
      code: 'no_match',
      reason:
        `old_string was not found in ${path}. It must match the file exactly, including whitespace and ` +
        `indentation, and must not include the line-number prefixes read_file shows. Read the file again and copy ` +
        `the text from it.`,
    }
  }
  if (at.length > 1) {
    return {
      ok: false,
      code: 'ambiguous_match',
      reason: `old_string occurs ${at.length} times in ${path}. Include more surrounding lines so it occurs exactly once.`,
    }
  }
  const start = at[0]!
  const line = text.slice(0, start).split('\n').length
  return { ok: true, text: text.slice(0, start) + replacement + text.slice(start + needle.length), line }
}
