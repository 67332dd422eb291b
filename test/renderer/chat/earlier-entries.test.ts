/**
 * Earlier entries of a long session read page by page (decision 0039): a view that needs an entry further back than
 * one page (a pass the user chose in the inspector from the session's first hour) reads on as each page arrives,
 * until it is among the entries. Under Node, with the contract's client held until the test answers.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { answerHeld, held, settle } from '../../support/held-client'

vi.mock('../../../src-renderer/platform/client', async () => (await import('../../support/held-client')).heldClientModule)

const { loadEarlierEntries } = await import('../../../src-renderer/features/chat/actions')
const { useChatStore } = await import('../../../src-renderer/state/chat')
const store = () => useChatStore.getState()

const entry = (seq: number) => ({ id: `e${seq}`, sessionId: 's1', seq, at: seq, kind: 'user_message', content: [] })
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => entry(from + i))

describe('reading a long session back page by page', () => {
  beforeEach(() => {
    held.length = 0
    store().sessionForgotten('s1')
    store().sessionLoaded({ session: { id: 's1' }, entries: range(2001, 3000), earlier: 2000, landmarks: [], seqs: {}, running: false, mode: 'build', model: 'm', pendingApprovals: [] } as never)
  })

  it('reads the next page when a view asks for it as the previous page arrives', async () => {
    // As the chat does for a pass chosen from before the entries read: each change of the entries, if what it needs
    // is still not among them, asks for more.
    const stop = useChatStore.subscribe((s) => {
      if ((s.bySession.s1?.entries[0]?.seq ?? 0) > 1) void loadEarlierEntries('s1')
    })
    try {
      void loadEarlierEntries('s1')
      answerHeld('session.entries', { beforeSeq: 2001 }, { entries: range(1001, 2000), earlier: 1000, seqs: {} })
      await settle()
      answerHeld('session.entries', { beforeSeq: 1001 }, { entries: range(1, 1000), earlier: 0, seqs: {} })
      await settle()
      expect(store().bySession.s1!.entries[0]!.seq).toBe(1)
      expect(store().bySession.s1!.earlier).toBe(0)
      expect(held).toEqual([])
    } finally {
      stop()
    }
  })

  it('reads on to an entry further back than one answer holds', async () => {
    // A checkpoint's detail compares from the first entry it summarised, 20,000 and more entries before the window.
    store().sessionLoaded({ session: { id: 's1' }, entries: range(25_001, 26_000), earlier: 25_000, landmarks: [], seqs: {}, running: false, mode: 'build', model: 'm', pendingApprovals: [] } as never)
    const read = loadEarlierEntries('s1', 'e1')
    answerHeld('session.entries', { beforeSeq: 25_001, fromEntryId: 'e1' }, { entries: range(5_001, 25_000), earlier: 5_000, seqs: {} })
    await settle()
    answerHeld('session.entries', { beforeSeq: 5_001, fromEntryId: 'e1' }, { entries: range(1, 5_000), earlier: 0, seqs: {} })
    await read
    expect(store().bySession.s1!.entries[0]!.id).toBe('e1')
    expect(held).toEqual([])
  })

  it('does not read on for an entry the session does not hold', async () => {
    // The host answers a page of the nearest entries for an id it does not know.
    const read = loadEarlierEntries('s1', 'unknown')
    answerHeld('session.entries', { beforeSeq: 2001, fromEntryId: 'unknown' }, { entries: range(1001, 2000), earlier: 1000, seqs: {} })
    await read
    expect(held).toEqual([])
  })

  it('reads back to a pass chosen from far before the entries held in one read, and not at all once it is held', async () => {
    store().sessionLoaded({ session: { id: 's1' }, entries: range(25_001, 26_000), earlier: 25_000, landmarks: [], seqs: {}, running: false, mode: 'build', model: 'm', pendingApprovals: [] } as never)
    const read = loadEarlierEntries('s1', undefined, 'pas_early')
    expect(held.map((r) => r.input)).toEqual([{ sessionId: 's1', beforeSeq: 25_001, throughPassId: 'pas_early' }])
    const answer = { ...entry(110), kind: 'assistant_message', passId: 'pas_early' }
    answerHeld('session.entries', { throughPassId: 'pas_early' }, { entries: [...range(100, 109), answer, ...range(111, 25_000)], earlier: 99, seqs: {} })
    await read
    expect(store().bySession.s1!.entries[0]!.seq).toBe(100)
    await loadEarlierEntries('s1', undefined, 'pas_early')
    expect(held).toEqual([])
  })

  it('reads one page at a time', async () => {
    void loadEarlierEntries('s1')
    void loadEarlierEntries('s1')
    expect(held.map((r) => r.input.beforeSeq)).toEqual([2001])
    answerHeld('session.entries', { beforeSeq: 2001 }, { entries: range(1001, 2000), earlier: 1000, seqs: {} })
    await settle()
    expect(held).toEqual([])
    expect(store().bySession.s1!.entries[0]!.seq).toBe(1001)
  })
})

describe('a long session read again after its earlier entries were read', () => {
  beforeEach(() => store().sessionForgotten('s2'))

  it('keeps each landmark once: those now among the entries kept are not also landmarks before them', () => {
    const at = (seq: number, kind = 'user_message') => ({ id: `f${seq}`, sessionId: 's2', seq, at: seq, kind, content: [] })
    const window = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => at(from + i))
    const landmarks = [at(10, 'checkpoint'), at(500, 'model_switched')]
    const state = { session: { id: 's2' }, entries: window(1001, 2000), earlier: 1000, landmarks, seqs: { f5: 5 }, running: false, mode: 'build', model: 'm', pendingApprovals: [] }
    store().sessionLoaded(state as never)
    // The chat read back to the first entry (the checkpoint names entry 5, among them now).
    store().earlierLoaded('s2', { entries: [...window(1, 9), at(10, 'checkpoint'), ...window(11, 499), at(500, 'model_switched'), ...window(501, 1000)], earlier: 0, seqs: {} })
    expect(store().bySession.s2!.landmarks).toEqual([])
    // The session opened again (another session in between, or a reconnect): the window and its landmarks come again.
    store().sessionLoaded(state as never)
    const chat = store().bySession.s2!
    expect(chat.entries).toHaveLength(2000)
    expect(chat.earlier).toBe(0)
    expect(chat.landmarks).toEqual([])
    // What the cache timeline marks: each once.
    expect([...chat.landmarks, ...chat.entries].filter((e) => e.kind !== 'user_message').map((e) => e.seq)).toEqual([10, 500])
  })

  it('keeps the landmarks before the entries kept', () => {
    const at = (seq: number, kind = 'user_message') => ({ id: `g${seq}`, sessionId: 's2', seq, at: seq, kind, content: [] })
    const window = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => at(from + i))
    const state = { session: { id: 's2' }, entries: window(1001, 2000), earlier: 1000, landmarks: [at(10, 'checkpoint'), at(700, 'model_switched')], seqs: {}, running: false, mode: 'build', model: 'm', pendingApprovals: [] }
    store().sessionLoaded(state as never)
    store().earlierLoaded('s2', { entries: [...window(501, 699), at(700, 'model_switched'), ...window(701, 1000)], earlier: 500, seqs: {} })
    store().sessionLoaded(state as never)
    expect(store().bySession.s2!.earlier).toBe(500)
    expect(store().bySession.s2!.landmarks.map((e) => e.seq)).toEqual([10])
  })
})

describe('a checkpoint written while the window is open', () => {
  beforeEach(() => store().sessionForgotten('s3'))

  it("keeps the positions the event gives of its range's ends, read before the window's entries", () => {
    const at = (seq: number, kind = 'user_message') => ({ id: `h${seq}`, sessionId: 's3', seq, at: seq, kind, content: [] })
    store().sessionLoaded({ session: { id: 's3' }, entries: Array.from({ length: 1000 }, (_, i) => at(2001 + i)), earlier: 2000, landmarks: [], seqs: { x: 7 }, running: false, mode: 'build', model: 'm', pendingApprovals: [] } as never)
    store().entriesAppended('s3', [{ ...at(3001, 'checkpoint'), replaced: { fromEntryId: 'h1', toEntryId: 'h2990', entries: 2990 } } as never], { h1: 1 })
    expect(store().bySession.s3!.seqs).toEqual({ x: 7, h1: 1 })
  })
})
