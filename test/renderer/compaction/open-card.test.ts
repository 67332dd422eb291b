/**
 * Which compaction card is open is shared by the whole view. A compaction that ends in a session the app does not show
 * (one running there while the user reads another session's cards), or a draft applied just before the user picked
 * another session, must leave the card open there alone. Under Node, with the contract's client replaced by one whose
 * answers and events the test sends.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { EntryView } from '../../../src-preload/contract'

type Pending = { name: string; input: { sessionId?: string }; answer: (value: unknown) => void }
const pending: Pending[] = []
const listeners = new Map<string, (e: unknown) => void>()

vi.mock('../../../src-renderer/platform/client', () => ({
  client: {
    request: (name: string, input: Pending['input']) => new Promise((resolve) => pending.push({ name, input, answer: (value) => resolve({ ok: true, value }) })),
    on: (name: string, listener: (e: unknown) => void) => {
      listeners.set(name, listener)
      return () => listeners.delete(name)
    },
  },
}))

const { connectCompactionEvents } = await import('../../../src-renderer/features/compaction/events')
const { applyDraft } = await import('../../../src-renderer/features/compaction/actions')
const { useCompactionStore } = await import('../../../src-renderer/state/compaction')
const { useSessionsStore } = await import('../../../src-renderer/state/sessions')
const { useChatStore } = await import('../../../src-renderer/state/chat')
const store = () => useCompactionStore.getState()

const checkpoint = (id: string) => ({ id, kind: 'checkpoint', seq: 9, at: 0 }) as unknown as EntryView
const record = (id: string) => ({ checkpoint: checkpoint(id), realTokensAfter: null, context: { before: { tokens: 1, measured: true, passSeq: null }, after: { tokens: 1, measured: false, passSeq: null, addedSince: 0 } }, passes: [] })
const list = (...ids: string[]) => ({ checkpoints: ids.map(record), drafts: [], live: null }) as never

function answer(name: string, sessionId: string, value: unknown): void {
  const i = pending.findIndex((p) => p.name === name && p.input.sessionId === sessionId)
  if (i < 0) throw new Error(`no pending ${name} for ${sessionId}: ${JSON.stringify(pending.map((p) => [p.name, p.input]))}`)
  pending.splice(i, 1)[0]!.answer(value)
}
const flush = () => new Promise((r) => setTimeout(r, 0))

connectCompactionEvents()

beforeEach(() => {
  pending.length = 0
  useCompactionStore.setState({ bySession: {}, selection: null, summaryEdits: {}, lostEdit: null })
  store().listLoaded('a', list('a1'), [])
  store().listLoaded('b', list('b1', 'b2'), [])
  // Session b is shown, its older checkpoint open.
  useSessionsStore.setState({ selectedId: 'b' })
  store().selected({ kind: 'checkpoint', id: 'b1' })
  // The chats are loaded: reading the compactions reads nothing more.
  useChatStore.setState({ bySession: { a: { loaded: true } as never, b: { loaded: true } as never } })
})

describe('the open compaction card', () => {
  it('stays when a compaction in a session not shown is drafted or applied', () => {
    listeners.get('compaction.drafted')!({ sessionId: 'a', compactionId: 'd9', draft: { draftId: 'd9', focus: null } })
    expect(store().selection).toEqual({ kind: 'checkpoint', id: 'b1' })
    listeners.get('compaction.applied')!({ sessionId: 'a', compactionId: 'c9', checkpoint: checkpoint('a2'), pins: [] })
    expect(store().selection).toEqual({ kind: 'checkpoint', id: 'b1' })
    expect(store().bySession.a?.checkpoints.map((c) => c.checkpoint.id)).toEqual(['a1', 'a2'])
  })

  it("moves to the new card of the session shown", () => {
    listeners.get('compaction.applied')!({ sessionId: 'b', compactionId: 'c9', checkpoint: checkpoint('b3'), pins: [] })
    expect(store().selection).toEqual({ kind: 'checkpoint', id: 'b3' })
  })

  it('stays on the session picked while a draft of the one left was being applied', async () => {
    useSessionsStore.setState({ selectedId: 'a' })
    const applying = applyDraft('a', 'd1', null)
    useSessionsStore.setState({ selectedId: 'b' })
    store().selected({ kind: 'checkpoint', id: 'b1' })
    answer('compaction.apply', 'a', { status: 'applied', checkpoint: checkpoint('a2') })
    await flush()
    answer('compaction.list', 'a', list('a1', 'a2'))
    answer('pin.list', 'a', [])
    expect(await applying).toBeNull()
    expect(store().selection).toEqual({ kind: 'checkpoint', id: 'b1' })
  })
})
