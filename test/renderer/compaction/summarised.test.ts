import { describe, expect, it } from 'vitest'
import { summarisedWords } from '../../../src-renderer/features/compaction/model/summarised'

const seqs = new Map([['e1', 1], ['e4', 4], ['e14', 14], ['e50', 50]])
const seqOf = (id: string) => seqs.get(id)

describe("a checkpoint's summarised range", () => {
  it('says how many of the entries in the range were summarised, not a count beside a larger range', () => {
    const words = summarisedWords({ entries: 35, fromEntryId: 'e1', toEntryId: 'e50' }, seqOf)
    expect(words.text).toBe('35 of the entries #1–#50')
    expect(words.rest).toMatch(/^The other 15 entries in #1–#50 were never sent to the model as messages/)
  })
  it('says a range summarised whole as such, and a single entry as one', () => {
    expect(summarisedWords({ entries: 11, fromEntryId: 'e4', toEntryId: 'e14' }, seqOf)).toEqual({ text: 'the 11 entries #4–#14', rest: null })
    expect(summarisedWords({ entries: 1, fromEntryId: 'e4', toEntryId: 'e4' }, seqOf)).toEqual({ text: 'entry #4', rest: null })
  })
  it('gives the count alone while the entries are not known', () => {
    expect(summarisedWords({ entries: 35, fromEntryId: 'e1', toEntryId: 'x' }, seqOf)).toEqual({ text: '35 entries', rest: null })
    expect(summarisedWords({ entries: 1, fromEntryId: null, toEntryId: null }, seqOf)).toEqual({ text: '1 entry', rest: null })
  })
})
