/**
 * Which compaction card is open is shared by the whole view. A compaction that ends in a session the app does not show
 * (one running there while the user reads another session's cards), or a draft applied just before the user picked
 * another session, must leave the card open there alone. Under Node, with the contract's client replaced by one whose
 * answers and events the test sends.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { answerHeld, held, heldListeners, settle } from '../../support/held-client'
import type { EntryView } from '../../../src-preload/contract'


vi.mock('../../../src-renderer/platform/client', async () => (await import('../../support/held-client')).heldClientModule)

const { connectCompactionEvents } = await import('../../../src-renderer/features/compaction/events')
const { applyDraft } = await import('../../../src-renderer/features/compaction/actions')
const { useCompactionStore } = await import('../../../src-renderer/state/compaction')
const { useSessionsStore } = await import('../../../src-renderer/state/sessions')
const { useChatStore } = await import('../../../src-renderer/state/chat')
const store = () => useCompactionStore.getState()

const checkpoint = (id: string) => ({ id, kind: 'checkpoint', seq: 9, at: 0 }) as unknown as EntryView
const record = (id: string) => ({ checkpoint: checkpoint(id), realTokensAfter: null, context: { before: { tokens: 1, measured: true, passSeq: null }, after: { tokens: 1, measured: false, passSeq: null, addedSince: 0 } }, passes: [] })
const list = (...ids: string[]) => ({ checkpoints: ids.map(record), drafts: [], live: null }) as never

const answer = (name: string, sessionId: string, value: unknown) => answerHeld(name, { sessionId }, value)

connectCompactionEvents()

beforeEach(() => {
  held.length = 0
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
    heldListeners.get('compaction.drafted')!({ sessionId: 'a', compactionId: 'd9', draft: { draftId: 'd9', focus: null } })
    expect(store().selection).toEqual({ kind: 'checkpoint', id: 'b1' })
    heldListeners.get('compaction.applied')!({ sessionId: 'a', compactionId: 'c9', checkpoint: checkpoint('a2'), pins: [] })
    expect(store().selection).toEqual({ kind: 'checkpoint', id: 'b1' })
    expect(store().bySession.a?.checkpoints.map((c) => c.checkpoint.id)).toEqual(['a1', 'a2'])
  })

  it("moves to the new card of the session shown", () => {
    heldListeners.get('compaction.applied')!({ sessionId: 'b', compactionId: 'c9', checkpoint: checkpoint('b3'), pins: [] })
    expect(store().selection).toEqual({ kind: 'checkpoint', id: 'b3' })
  })

  it('stays on the session picked while a draft of the one left was being applied', async () => {
    useSessionsStore.setState({ selectedId: 'a' })
    const applying = applyDraft('a', 'd1', null)
    useSessionsStore.setState({ selectedId: 'b' })
    store().selected({ kind: 'checkpoint', id: 'b1' })
    answer('compaction.apply', 'a', { status: 'applied', checkpoint: checkpoint('a2') })
    await settle()
    answer('compaction.list', 'a', list('a1', 'a2'))
    answer('pin.list', 'a', [])
    expect(await applying).toBeNull()
    expect(store().selection).toEqual({ kind: 'checkpoint', id: 'b1' })
  })
})
