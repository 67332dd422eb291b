/**
 * What a listed session file's skipped lines were, in words: the parser's reasons (src-main/engine/transcripts,
 * SkipReason), most frequent first, so a damaged transcript says how it is damaged before it is imported.
 */

/** Each reason as it reads after a count: "2 not JSON", "1 of an unknown type". */
const REASON_WORDS: Readonly<Record<string, string>> = {
  malformed_json: 'not JSON',
  truncated_last_line: 'cut short at the end of the file',
  too_long: 'too long to read',
  not_an_object: 'not a record',
  unknown_type: 'of an unknown type',
  missing_message: 'without the message it names',
  invalid_field: 'with a field out of range',
}

/** "6 lines skipped" */
function countText(total: number): string {
  return `${total.toLocaleString('en-US')} ${total === 1 ? 'line' : 'lines'} skipped`
}

/** "2 not JSON, 1 of an unknown type": the reasons most frequent first; "" without any (an older host). */
function reasonsText(by: Readonly<Record<string, number>> | undefined): string {
  return Object.entries(by ?? {})
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([reason, n]) => `${n.toLocaleString('en-US')} ${Object.hasOwn(REASON_WORDS, reason) ? REASON_WORDS[reason] : reason.replace(/_/g, ' ')}`)
    .join(', ')
}

/** "6 lines skipped: 2 not JSON, 1 of an unknown type …"; without reasons (an older host), the count alone. */
export function skippedLinesText(total: number, by: Readonly<Record<string, number>> | undefined): string {
  const reasons = reasonsText(by)
  return reasons === '' ? countText(total) : `${countText(total)}: ${reasons}`
}

/**
 * What an imported session says of the lines its file could not give it: "Its file had 3 lines skipped (2 not JSON,
 * 1 cut short at the end of the file); what they held is not in this session."
 */
export function skippedLinesNote(skipped: { readonly total: number; readonly by: Readonly<Record<string, number>> }): string {
  const reasons = reasonsText(skipped.by)
  return `Its file had ${countText(skipped.total)}${reasons === '' ? '' : ` (${reasons})`}; what ${skipped.total === 1 ? 'it' : 'they'} held is not in this session.`
}
