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
