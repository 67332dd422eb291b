import { describe, expect, it } from 'vitest'
import { skippedLinesNote, skippedLinesText } from '../../../src-renderer/features/transcripts/skipped-lines'

describe('skippedLinesText', () => {
  it('says how many lines were skipped and why, most frequent first', () => {
    expect(skippedLinesText(6, { malformed_json: 2, unknown_type: 1, truncated_last_line: 1, not_an_object: 1, invalid_field: 1, too_long: 0 })).toBe(
      '6 lines skipped: 2 not JSON, 1 with a field out of range, 1 not a record, 1 cut short at the end of the file, 1 of an unknown type',
    )
  })

  it('gives the count alone without reasons (an older host), in the singular for one', () => {
    expect(skippedLinesText(1, undefined)).toBe('1 line skipped')
    expect(skippedLinesText(3, {})).toBe('3 lines skipped')
  })

  it('names a reason it has no words for by its code', () => {
    expect(skippedLinesText(2, { new_reason: 2 })).toBe('2 lines skipped: 2 new reason')
  })
})

describe('skippedLinesNote', () => {
  it('tells an imported session what its file left out, with the reasons in brackets', () => {
    expect(skippedLinesNote({ total: 3, by: { malformed_json: 2, truncated_last_line: 1 } })).toBe('Its file had 3 lines skipped (2 not JSON, 1 cut short at the end of the file); what they held is not in this session.')
    expect(skippedLinesNote({ total: 1, by: {} })).toBe('Its file had 1 line skipped; what it held is not in this session.')
  })

  it('names a reason by its code when the words have none of that name, whatever the name', () => {
    expect(skippedLinesNote({ total: 2, by: { constructor: 1, toString: 1 } })).toBe('Its file had 2 lines skipped (1 constructor, 1 toString); what they held is not in this session.')
  })
})
