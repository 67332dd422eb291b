/**
 * The conversation drawn in parts (parts.ts): showing earlier entries, reading a page of them from the host, or an
 * entry arriving at the end draws only the parts whose entries changed; every part already drawn stays as it is.
 */
import { describe, expect, it } from 'vitest'
import type { EntryView } from '../../../src-preload/contract'
import { conversationParts, PART_POSITIONS, partDrawsSame, type ConversationPartEntries } from '../../../src-renderer/features/chat/parts'

const entry = (seq: number): EntryView => ({ id: `e${seq}`, sessionId: 's', seq, at: seq, kind: 'user_message', content: [] }) as unknown as EntryView
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => entry(from + i))
const nothingFolded: ReadonlySet<string> = new Set()
const context = { drawnIn: 'one context' }

/** The parts of `after` that React would draw again, by key, against those drawn from `before`. */
function drawnAgain(before: ReadonlyArray<ConversationPartEntries>, after: ReadonlyArray<ConversationPartEntries>): number[] {
  const drawn = new Map(before.map((p) => [p.key, p]))
  return after.filter((p) => {
    const was = drawn.get(p.key)
    return !was || !partDrawsSame({ entries: was.entries, context }, { entries: p.entries, context })
  }).map((p) => p.key)
}

describe('the conversation in parts', () => {
  it('groups the entries shown by runs of positions, whatever index they are shown from', () => {
    const entries = range(1, 400)
    const parts = conversationParts(entries, 250, nothingFolded)
    expect(parts.map((p) => p.key)).toEqual([5, 6, 7, 8])
    expect(parts[0]!.entries.map((e) => e.seq)).toEqual(range(251, 299).map((e) => e.seq))
    expect(parts.every((p) => p.entries.every((e) => Math.floor(e.seq / PART_POSITIONS) === p.key))).toBe(true)
    expect(parts.flatMap((p) => p.entries)).toEqual(entries.slice(250))
  })

  it('draws only the parts an earlier step fills when earlier entries are shown', () => {
    const entries = range(1, 1000)
    const before = conversationParts(entries, 850, nothingFolded)
    const after = conversationParts(entries, 700, nothingFolded)
    // Parts 14 to 16 are new; part 17 held positions 851–899 and gains 850. Those after it are as they were.
    expect(drawnAgain(before, after)).toEqual([14, 15, 16, 17])
  })

  it('draws nothing again when a page of earlier entries is read in front of those held', () => {
    const held = range(1001, 2000)
    const before = conversationParts(held, 850, nothingFolded)
    // The page read goes in front: the same entries, the same objects, at other indexes.
    const withPage = [...range(1, 1000), ...held]
    expect(drawnAgain(before, conversationParts(withPage, 1850, nothingFolded))).toEqual([])
  })

  it('draws only the last part again when an entry arrives at the end', () => {
    const entries = range(1, 340)
    const before = conversationParts(entries, 190, nothingFolded)
    expect(drawnAgain(before, conversationParts([...entries, entry(341)], 190, nothingFolded))).toEqual([6])
  })

  it('draws a part again when one of its entries is a new object, or the context it is drawn in changes', () => {
    const entries = range(1, 100)
    const [first] = conversationParts(entries, 0, nothingFolded)
    const changed = [...entries]
    changed[10] = { ...entries[10]! }
    const [firstChanged] = conversationParts(changed, 0, nothingFolded)
    expect(partDrawsSame({ entries: first!.entries, context }, { entries: firstChanged!.entries, context })).toBe(false)
    expect(partDrawsSame({ entries: first!.entries, context }, { entries: first!.entries, context: { drawnIn: 'another' } })).toBe(false)
  })

  it('leaves out the entries folded under a take-back', () => {
    const entries = range(1, 60)
    const parts = conversationParts(entries, 0, new Set(['e3', 'e55']))
    expect(parts.flatMap((p) => p.entries).map((e) => e.id)).not.toContain('e3')
    expect(parts.flatMap((p) => p.entries)).toHaveLength(58)
  })
})
