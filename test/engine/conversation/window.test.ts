/** What a window is sent of a long session's entries (decision 0039), and the pages of earlier ones. */
import { describe, expect, it } from 'vitest'
import type { Entry } from '../../../src-main/engine/conversation/entries'
import { entriesBefore, newestEntries } from '../../../src-main/engine/conversation/window'
import { TAKE_BACK_SOURCE } from '../../../src-main/engine/conversation/take-back'
import { MAX_ENTRIES_PAGE } from '../../../src-preload/limits'

/** A session of `n` entries, each a user message unless `kinds` says otherwise for its position. */
function session(n: number, kinds: Record<number, Partial<Entry>> = {}): Entry[] {
  return Array.from({ length: n }, (_, i) => {
    const seq = i + 1
    return { id: `e${seq}`, sessionId: 's', seq, at: seq, kind: 'user_message', content: [{ type: 'text', text: `m${seq}` }], ...kinds[seq] } as Entry
  })
}

const checkpoint = (from: number, to: number, start: number): Partial<Entry> =>
  ({ kind: 'checkpoint', replaced: { fromEntryId: `e${from}`, toEntryId: `e${to}`, entries: to - from + 1, messages: 1, estimatedTokens: 1 }, view: { head: null, startEntryId: `e${start}`, replaced: [], dropped: [] } }) as never

describe('newestEntries', () => {
  it('sends a short session whole', () => {
    const all = session(20)
    expect(newestEntries(all, 50)).toEqual({ entries: all, earlier: 0, landmarks: [], seqs: {} })
  })

  it('sends the newest entries of a long one, says how many come before, and sends the landmarks among those', () => {
    const all = session(100, {
      10: checkpoint(1, 8, 9),
      20: { kind: 'model_switched', model: 'claude-haiku-4-5' } as never,
      30: { kind: 'notice', source: 'instructions', level: 'info', text: 'CLAUDE.md applied now' } as never,
      31: { kind: 'notice', source: 'pins', level: 'info', text: 'a pin' } as never,
      41: { kind: 'context_edit', source: TAKE_BACK_SOURCE, edits: [{ entryId: 'e40', action: 'drop', reason: 'taken back' }] } as never,
      50: { kind: 'context_edit', source: 'trim-old-tools', edits: [] } as never,
    })
    const window = newestEntries(all, 30)
    expect(window.entries.map((e) => e.seq)).toEqual(Array.from({ length: 30 }, (_, i) => 71 + i))
    expect(window.earlier).toBe(70)
    // The message taken back comes with its take-back, for the timeline's words; other entries do not.
    expect(window.landmarks.map((e) => e.seq)).toEqual([10, 20, 30, 40, 41, 50])
  })

  it('gives the positions of the entries a sent checkpoint names that are not sent', () => {
    const all = session(100, { 90: checkpoint(40, 85, 86), 60: checkpoint(2, 55, 56) })
    const window = newestEntries(all, 20)
    // The checkpoint at 90 is sent and names 40, 85 (not sent) and 86 (sent); the one at 60 is a landmark.
    expect(window.seqs).toEqual({ e40: 40, e2: 2, e55: 55, e56: 56 })
  })
})

describe('entriesBefore', () => {
  const all = session(100)

  it('answers the page nearest the position, and how many come before it', () => {
    const page = entriesBefore(all, 71, { limit: 30 })
    expect(page.entries.map((e) => e.seq)).toEqual(Array.from({ length: 30 }, (_, i) => 41 + i))
    expect(page.earlier).toBe(40)
    expect(entriesBefore(all, 11, { limit: 30 })).toMatchObject({ earlier: 0 })
    expect(entriesBefore(all, 11, { limit: 30 }).entries).toHaveLength(10)
    expect(entriesBefore(all, 1, { limit: 30 }).entries).toEqual([])
  })

  it('answers every entry from the one asked for, past the page size', () => {
    const page = entriesBefore(all, 71, { limit: 5, fromEntryId: 'e12' })
    expect(page.entries[0]!.seq).toBe(12)
    expect(page.entries.at(-1)!.seq).toBe(70)
    expect(page.earlier).toBe(11)
  })

  it('answers every entry from a few before a pass\'s answer on, however far back it is', () => {
    const withAnswers = session(3000, {
      100: { kind: 'assistant_message', passId: 'pas_a', content: [], stopReason: 'tool_use', partial: false } as never,
      102: { kind: 'assistant_message', passId: 'pas_a', content: [], stopReason: 'end_turn', partial: false } as never,
    })
    // The pass's answer is its last message: the page starts ten entries before it.
    const page = entriesBefore(withAnswers, 2001, { limit: 5, throughPassId: 'pas_a' })
    expect(page.entries[0]!.seq).toBe(92)
    expect(page.entries.at(-1)!.seq).toBe(2000)
    expect(page.earlier).toBe(91)
    // A pass with no answer before the position is answered as a page.
    expect(entriesBefore(withAnswers, 2001, { limit: 5, throughPassId: 'pas_none' }).entries.map((e) => e.seq)).toEqual([1996, 1997, 1998, 1999, 2000])
    expect(entriesBefore(withAnswers, 50, { limit: 5, throughPassId: 'pas_a' }).entries.map((e) => e.seq)).toEqual([45, 46, 47, 48, 49])
  })

  it('answers a page for an entry it does not hold before the position, or past the most one answer holds', () => {
    expect(entriesBefore(all, 71, { limit: 5, fromEntryId: 'nope' }).entries.map((e) => e.seq)).toEqual([66, 67, 68, 69, 70])
    expect(entriesBefore(all, 71, { limit: 5, fromEntryId: 'e80' }).entries.map((e) => e.seq)).toEqual([66, 67, 68, 69, 70])
    const long = session(MAX_ENTRIES_PAGE + 10)
    const page = entriesBefore(long, long.length + 1, { limit: 5, fromEntryId: 'e1' })
    expect(page.entries).toHaveLength(MAX_ENTRIES_PAGE)
    expect(page.earlier).toBe(10)
  })
})
