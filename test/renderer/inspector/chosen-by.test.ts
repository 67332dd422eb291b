/**
 * Who chose the selected pass: the chat brings a pass's message into view only when the user chose it. After a
 * reload in the middle of a turn, the chat (session.get) and the list (pass.list, then pass.live) answer in either
 * order; the newest stored pass the list then selects is the inspector's choice in both.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { ListedPass } from '../../../src-renderer/state/inspector'

vi.mock('../../../src-renderer/platform/client', async () => (await import('../../support/held-client')).heldClientModule)
const { answerHeld, held, settle } = await import('../../support/held-client')
const { useInspectorStore } = await import('../../../src-renderer/state/inspector')
const { loadPasses } = await import('../../../src-renderer/features/inspector/data/passes')
const { useChatStore } = await import('../../../src-renderer/state/chat')
const { loadSession } = await import('../../../src-renderer/features/chat/actions')
const store = () => useInspectorStore.getState()

function pass(id: string, seq: number): ListedPass {
  return { id, sessionId: 's1', seq, kind: 'main', model: 'm', status: 'done', queuedAt: seq * 1000, firstByteAt: null, doneAt: null, requestSha256: 'x', requestBytes: 1, usage: null, costUsd: null, attempts: [], error: null, attribution: null }
}
const snapshot = {
  session: { id: 's1' },
  entries: [{ id: 'e1', sessionId: 's1', seq: 1, at: 1, kind: 'user_message', content: [] }, { id: 'e2', sessionId: 's1', seq: 2, at: 2, kind: 'assistant_message', passId: 'b', content: [] }],
  running: true,
  mode: 'build',
  model: 'm',
  pendingApprovals: [],
  runningTools: [],
  livePass: { passNumber: 1, model: 'm', startedAt: 0, firstDeltaAt: 1, events: [] },
}
const live = { passNumber: 1, model: 'm', startedAt: 0, firstDeltaAt: 1, events: [] }

beforeEach(() => {
  held.length = 0
  useInspectorStore.setState({ sessionId: null, passes: [], loading: false, live: null, liveElsewhere: {}, selectedPassId: null, chosenByUser: false, liveSelected: false, following: true, compareToPassId: null })
  store().sessionShown('s1')
})

describe('a pass the inspector selects itself', () => {
  for (const chatFirst of [true, false]) {
    it(`is not the user's choice after a reload mid-turn, the ${chatFirst ? 'chat' : 'list'} answering first`, async () => {
      void loadSession('s1')
      void loadPasses('s1', 'session')
      const answerChat = async () => {
        answerHeld('session.get', { sessionId: 's1' }, snapshot)
        await settle()
        expect(useChatStore.getState().bySession.s1?.loaded).toBe(true)
      }
      if (chatFirst) await answerChat()
      answerHeld('pass.list', { sessionId: 's1' }, [pass('a', 1), pass('b', 2)])
      await settle()
      expect(store().selectedPassId).toBe('b')
      expect(store().chosenByUser).toBe(false)
      if (!chatFirst) await answerChat()
      answerHeld('pass.live', { sessionId: 's1' }, live)
      await settle()
      expect(store().liveSelected).toBe(true)
      expect(store().chosenByUser).toBe(false)
    })
  }

  it('is not the user’s choice when following moves it to the next pass; a row chosen is', () => {
    store().passesLoaded('s1', [pass('a', 1)])
    store().passSelected('a')
    expect(store().chosenByUser).toBe(true)
    // Choosing the last row is following: the next pass stored is selected by the inspector.
    store().passCompleted({ sessionId: 's1', pass: pass('b', 2) } as Parameters<ReturnType<typeof store>['passCompleted']>[0])
    expect(store().selectedPassId).toBe('b')
    expect(store().chosenByUser).toBe(false)
    // A user looking at an older pass keeps it, and their choice, when the list is read again.
    store().passSelected('a')
    store().passesLoaded('s1', [pass('a', 1), pass('b', 2), pass('c', 3)])
    expect(store().selectedPassId).toBe('a')
    expect(store().chosenByUser).toBe(true)
  })
})
