/**
 * The one rule for a name the app shows: a session's title, a project's name. Names come from outside (a folder's
 * name, a Claude Code transcript's summary line or first prompt, an export file, a rename, a first message) and are
 * shown on one line: in the sidebar, the window title, the palette, an export. What a single line cannot show, or
 * what would make it lie, is taken out here (decision 0051). This module imports nothing, so the engine, the main
 * process and the renderer all use it, like money.ts.
 */

/** The longest name, in UTF-16 code units (what a zod `.max()` counts): a longer one is cut and ends in "…". */
export const MAX_NAME_CHARS = 200

/**
 * How much of a text is looked at for a name. A name is at most MAX_NAME_CHARS; this leaves room for a long run of
 * characters that are taken out before the shown ones, and keeps a 10 MB "name" from costing 10 MB of regex work on
 * every listing.
 */
const SCAN_CHARS = 8 * 1024

/** The most combining marks kept on one character: enough for any script's stacked accents, not for "Zalgo" text. */
const MAX_MARKS_PER_CHAR = 4

// Terminal escapes in a pasted prompt (colours, a window title, a hyperlink): CSI and OSC sequences, dropped whole so
// no "[31m" is left behind.
const TERMINAL_ESCAPE = /\u001b\[[0-?]*[ -/]*[@-~]|\u009b[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?/g
// Half of a surrogate pair without its other half: not a character, and some renderers draw it as a box or refuse it.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g
// Tag characters draw nothing: they are kept only inside a subdivision flag (🏴 + tag letters + cancel tag), where
// they are what makes the flag. Anywhere else they are hidden text.
const TAGS = /(\u{1F3F4}[\u{E0020}-\u{E007E}]{1,6}\u{E007F})|[\u{E0000}-\u{E007F}]/gu
/**
 * What separates words, and what draws as blank: line and paragraph breaks (and the C1 next-line), tabs, every
 * Unicode space, and the fillers (Hangul, braille blank) that look like nothing. A run becomes one space, so two words
 * on two lines read as two words on one. (Not JavaScript's \s: it counts the zero-width byte-order mark as a space.)
 */
const BLANK = /[\t\n\v\f\r \u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\u115F\u1160\u3164\uFFA0\u2800]+/g
/**
 * What is dropped without a trace: the remaining control characters (C0, DEL, C1), the direction controls
 * (U+202A–202E embeddings and overrides, U+2066–2069 isolates, the marks U+200E, U+200F, U+061C) that would
 * reorder the text around the name, the invisible format characters (soft hyphen, U+180E, zero-width space, word
 * joiner and invisible operators U+2060–2064, the byte-order mark, interlinear annotation U+FFF9–FFFB, musical
 * formatting U+1D173–1D17A), and the noncharacters.
 */
const DROPPED = /[\u0000-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\uFFF9-\uFFFB\uFDD0-\uFDEF\uFFFE\uFFFF\u{1D173}-\u{1D17A}]/gu
// The zero-width joiners (U+200C, U+200D) join two characters (an emoji family, a Persian word); one that joins
// nothing (at an end, beside a space) is invisible, and a run of them is one.
const JOINER_RUN = /[\u200C\u200D]{2,}/g
const LOOSE_JOINER = /(?<![^ \u200C\u200D])[\u200C\u200D]|[\u200C\u200D](?![^ \u200C\u200D])/g
const MARK_PILE = new RegExp(`([\\p{Mn}\\p{Me}]{${MAX_MARKS_PER_CHAR}})[\\p{Mn}\\p{Me}]+`, 'gu')
// Printable ASCII with single spaces inside: most names are this, and are their own clean form.
const PLAIN = /^[!-~]+(?: [!-~]+)*$/

/** Every character of `text` a single-line name can show, in order, with the spaces between words made single. */
function visiblePart(text: string): string {
  return text
    .slice(0, SCAN_CHARS)
    .replace(TERMINAL_ESCAPE, '')
    .replace(LONE_SURROGATE, '')
    .replace(TAGS, (_, flag: string | undefined) => flag ?? '')
    .replace(BLANK, ' ')
    .replace(DROPPED, '')
    .replace(JOINER_RUN, (run) => run[0]!)
    .replace(LOOSE_JOINER, '')
    .replace(MARK_PILE, '$1')
    .replace(/ {2,}/g, ' ')
    .trim()
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' })

/** `text` cut to at most `maxChars` code units, at a character boundary (an emoji or an accented letter stays whole). */
function cut(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text
  let kept = ''
  for (const { segment } of graphemes.segment(text)) {
    if (kept.length + segment.length <= maxChars - 1) {
      kept += segment
      continue
    }
    // One character longer than the whole name (emoji joined without end): cut inside it rather than show only "…".
    if (kept === '') {
      for (const point of segment) {
        if (kept.length + point.length > maxChars - 1) break
        kept += point
      }
    }
    break
  }
  return `${kept.trimEnd()}…`
}

/**
 * `text` as a name: one line, without control, direction-override or invisible characters, spaces collapsed, at most
 * `maxChars` long (cut with "…"). An empty string when nothing in it can be seen: the caller says what stands in
 * (the folder's name, the session's date) or refuses it. Cleaning a clean name changes nothing.
 */
export function cleanName(text: string, maxChars: number = MAX_NAME_CHARS): string {
  if (text.length <= maxChars && PLAIN.test(text)) return text
  return cut(visiblePart(text), maxChars)
}

/** The words a refusal of a name with nothing to show uses (a rename to control characters, spaces or nothing). */
export const NAME_NEEDS_VISIBLE_TEXT = 'a name needs at least one character that shows (not only spaces, control or invisible characters)'
