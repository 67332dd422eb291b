/**
 * The conversation drawn in parts (parts.ts): showing earlier entries, reading a page of them from the host, or an
 * entry arriving at the end draws only the parts whose entries changed or read something else from what they are
 * drawn in (entry-context.ts); every part already drawn stays as it is.
 */
import { describe, expect, it } from 'vitest'
import type { EntryView } from '../../../src-preload/contract'
import { conversationParts, PART_POSITIONS, partDrawsSame, type ConversationPartEntries } from '../../../src-renderer/features/chat/parts'
import { entryContext, entryFacts, type DrawnWith, type EntryContext } from '../../../src-renderer/features/chat/entry-context'
import { TAKE_BACK_SOURCE } from '../../../src-renderer/features/chat/take-back'

const entry = (seq: number): EntryView => ({ id: `e${seq}`, sessionId: 's', seq, at: seq, kind: 'user_message', content: [] }) as unknown as EntryView
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => entry(from + i))
const nothingFolded: ReadonlySet<string> = new Set()

const drawnWith: DrawnWith = { sessionId: 's', selectedPassId: null, onSelectPass: () => {}, passSources: new Map(), source: 'loupe', inherited: null, continuedText: '', runningTools: [], turnRunning: false, tabStop: null, canTakeBack: true }
/** What the conversation draws `entries` in, as it works it out (Conversation.tsx). */
const contextOf = (entries: ReadonlyArray<EntryView>, drawn: Partial<DrawnWith> = {}): EntryContext => entryContext(entryFacts(entries, {}, null), { ...drawnWith, ...drawn })
const context = contextOf(range(1, 10))

/** The conversation's parts for `entries` shown from index `from`, and the context they are drawn in (Conversation.tsx). */
function drawing(entries: ReadonlyArray<EntryView>, from: number, drawn: Partial<DrawnWith> = {}): { parts: ConversationPartEntries[]; context: EntryContext } {
  const facts = entryFacts(entries, {}, null)
  return { parts: conversationParts(entries, from, facts.taken.folded), context: entryContext(facts, { ...drawnWith, ...drawn }) }
}

/**
 * The parts of `after` that React would draw again, by key, against those drawn from `before` (in the context `was`,
 * now drawn in `now`).
 */
function drawnAgain(before: ReadonlyArray<ConversationPartEntries>, after: ReadonlyArray<ConversationPartEntries>, was = context, now = was): number[] {
  const drawn = new Map(before.map((p) => [p.key, p]))
  return after.filter((p) => {
    const part = drawn.get(p.key)
    return !part || !partDrawsSame({ entries: part.entries, context: was }, { entries: p.entries, context: now })
  }).map((p) => p.key)
}

/**
 * A session's turns, five positions each from `fromSeq`: the user's message, an answer calling a tool, the tool's
 * result, the answer after it, the turn's end.
 */
function turns(fromSeq: number, count: number): EntryView[] {
  return Array.from({ length: count }, (_, t) => {
    const seq = fromSeq + t * 5
    const at = (i: number, kind: string, rest: Record<string, unknown>) => ({ id: `e${seq + i}`, sessionId: 's', seq: seq + i, at: seq + i, kind, ...rest }) as unknown as EntryView
    return [
      at(0, 'user_message', { content: [{ type: 'text', text: `question ${seq}` }] }),
      at(1, 'assistant_message', { passId: `pas${seq}`, content: [{ type: 'tool_use', id: `call${seq}`, name: 'read_file', input: {} }] }),
      at(2, 'tool_result', { toolUseId: `call${seq}`, toolName: 'read_file', content: 'text', outcome: 'ran' }),
      at(3, 'assistant_message', { passId: `pas${seq + 3}`, content: [{ type: 'text', text: 'read it' }] }),
      at(4, 'turn_ended', { reason: 'end_turn' }),
    ]
  }).flat()
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

  it('draws only the parts a page read from the host fills, though what the entries say of one another is worked out anew', () => {
    // The window holds positions 1001–2000, 150 of them shown; "Show earlier" reads 1–1000 and shows 150 more.
    const held = turns(1001, 200)
    const withPage = [...turns(1, 200), ...held]
    const before = drawing(held, held.length - 150)
    const after = drawing(withPage, withPage.length - 300)
    // The page brings answers, tool results and messages to take back: not the context the parts were drawn in.
    expect(after.context).not.toBe(before.context)
    expect(after.context.results.size).toBe(before.context.results.size * 2)
    expect(before.parts.map((p) => p.key)).toEqual([37, 38, 39, 40])
    // Parts 34 to 36 are new (positions 1701–1850); part 37 held 1851–1899 and gains 1850. Those after it are as they were.
    expect(drawnAgain(before.parts, after.parts, before.context, after.context)).toEqual([34, 35, 36, 37])
  })

  it('draws again a part already drawn when a page changes what its entries show: a take-back of a message in the page', () => {
    // Positions 996–1149 are taken back at 1150 (the first of part 23); until the page is read, the take-back finds none of them.
    const takeBack = { id: 'e1150', sessionId: 's', seq: 1150, at: 1150, kind: 'context_edit', source: TAKE_BACK_SOURCE, edits: [{ entryId: 'e996' }] } as unknown as EntryView
    const held = [...turns(1001, 30), takeBack, ...turns(1151, 30)]
    const withPage = [...turns(1, 200), ...held]
    const before = drawing(held, held.indexOf(takeBack))
    const after = drawing(withPage, withPage.indexOf(takeBack))
    expect(after.context.takenUnder.get('e1150')?.[0]?.id).toBe('e996')
    expect(before.parts.map((p) => p.key)).toEqual([23, 24, 25, 26])
    expect(drawnAgain(before.parts, after.parts, before.context, after.context)).toEqual([23])
  })

  it('draws again a part already drawn when a page changes what its entries show: a failure the page repeats', () => {
    const failure = (seq: number) => ({ id: `e${seq}`, sessionId: 's', seq, at: seq, kind: 'turn_failed', message: 'overloaded' }) as unknown as EntryView
    // A Retry that failed the same way (1050) as the failure before it (1049, in the page): counted twice, once read.
    const held = [failure(1050), ...turns(1051, 30)]
    const withPage = [...turns(1, 209), failure(1046), failure(1047), failure(1048), failure(1049), ...held]
    const before = drawing(held, 0)
    const after = drawing(withPage, withPage.indexOf(held[0]!))
    expect(after.context.repeated.times.get('e1050')).toBe(5)
    expect(drawnAgain(before.parts, after.parts, before.context, after.context)).toEqual([21])
  })

  it('draws again only the part of a call whose result arrives, and the part the result goes in', () => {
    // The call at 147 (part 2) waits on its result while the turn runs; the result arrives at the end (part 6).
    const entries = turns(1, 60).filter((e) => e.id !== 'e148')
    const result = { id: 'e301', sessionId: 's', seq: 301, at: 301, kind: 'tool_result', toolUseId: 'call146', toolName: 'read_file', content: 'text', outcome: 'ran' } as unknown as EntryView
    const before = drawing(entries, 0, { turnRunning: true })
    const after = drawing([...entries, result], 0, { turnRunning: true })
    expect(drawnAgain(before.parts, after.parts, before.context, after.context)).toEqual([2, 6])
  })

  it('draws again only the answers whose author a pass listed changes', () => {
    // The inspector lists the passes as they run: a new list, in which only pass 146's source is said (captured).
    const entries = turns(1, 60)
    const before = drawing(entries, 0)
    const after = drawing(entries, 0, { passSources: new Map([['pas146', 'proxy']]) })
    expect(drawnAgain(before.parts, after.parts, before.context, after.context)).toEqual([2])
    // A new list that says what was taken already (made by Loupe) draws nothing again.
    const same = drawing(entries, 0, { passSources: new Map([['pas146', 'loupe']]) })
    expect(drawnAgain(before.parts, same.parts, before.context, same.context)).toEqual([])
  })

  it('draws every part again when something all of them are drawn with changes', () => {
    const entries = turns(1, 30)
    const before = drawing(entries, 0)
    const after = drawing(entries, 0, { source: 'proxy' })
    expect(drawnAgain(before.parts, after.parts, before.context, after.context)).toEqual(before.parts.map((p) => p.key))
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
    const takeBackOffered = contextOf(entries, { canTakeBack: false })
    expect(partDrawsSame({ entries: first!.entries, context }, { entries: first!.entries, context: takeBackOffered })).toBe(false)
  })

  it('leaves out the entries folded under a take-back', () => {
    const entries = range(1, 60)
    const parts = conversationParts(entries, 0, new Set(['e3', 'e55']))
    expect(parts.flatMap((p) => p.entries).map((e) => e.id)).not.toContain('e3')
    expect(parts.flatMap((p) => p.entries)).toHaveLength(58)
  })
})
