import { grouped } from '../../ui/format'

/**
 * A long text the user pasted (a log, a file) is shown folded in the conversation: its first lines, and a button for
 * the rest (decision 0053). Unfolded, a 500 KB log was thousands of lines of one message that every scroll back
 * through the session had to cross. What is sent, stored and taken back is the whole text; only the view folds.
 */

/** More lines than this, or more characters, and the text is folded. */
export const FOLD_OVER_LINES = 40
export const FOLD_OVER_CHARS = 5_000
/** What a folded text shows: its first lines, at most so many characters of them. */
export const FOLDED_LINES = 8
export const FOLDED_CHARS = 1_000

export interface FoldedText {
  /** The beginning shown while folded. */
  readonly shown: string
  readonly lines: number
  readonly chars: number
}

/** The folded form of `text`, or null when it is short enough to show whole. */
export function foldLongText(text: string): FoldedText | null {
  let lines = 1
  let foldBreak = -1
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) {
    if (lines === FOLDED_LINES) foldBreak = at
    lines++
  }
  if (lines <= FOLD_OVER_LINES && text.length <= FOLD_OVER_CHARS) return null
  let end = Math.min(foldBreak === -1 ? text.length : foldBreak, FOLDED_CHARS)
  // Never half of a character written as two UTF-16 units (an emoji).
  const last = text.charCodeAt(end - 1)
  if (last >= 0xd800 && last <= 0xdbff) end--
  return { shown: text.slice(0, end).trimEnd(), lines, chars: text.length }
}

/** What the button that unfolds it says: "Show all 6,002 lines", or for one long line "Show all 577,580 characters". */
export function unfoldLabel(folded: FoldedText): string {
  return folded.lines > FOLDED_LINES ? `Show all ${grouped(folded.lines)} lines` : `Show all ${grouped(folded.chars)} characters`
}
