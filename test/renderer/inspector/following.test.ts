/**
 * Following the newest pass, and the pass in flight, when the inspector was not looking: a pass stored while another
 * view was shown (a compaction from its view), and a session left and shown again while its pass streams.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { ListedPass } from '../../../src-renderer/state/inspector'

type Listener = (payload: unknown) => void
const listeners = new Map<string, Set<Listener>>()
function emit(name: string, payload: unknown): void {
  for (const listener of listeners.get(name) ?? []) listener(payload)
}
vi.mock('../../../src-renderer/platform/client', () => ({
  client: {
    request: () => Promise.resolve({ ok: false, error: { code: 'internal', message: 'not asked in this test' } }),
    on: (name: string, listener: Listener) => {
      const set = listeners.get(name) ?? new Set<Listener>()
      set.add(listener)
      listeners.set(name, set)
      return () => set.delete(listener)
    },
  },
  call: () => Promise.reject(new Error('not asked in this test')),
}))

const { useInspectorStore } = await import('../../../src-renderer/state/inspector')
const { followPassEvents } = await import('../../../src-renderer/features/inspector/data/passes')
const store = () => useInspectorStore.getState()

function pass(id: string, seq: number, kind: ListedPass['kind'] = 'main', sessionId = 's1'): ListedPass {
  return { id, sessionId, seq, kind, model: 'm', status: 'done', queuedAt: seq * 1000, firstByteAt: null, doneAt: null, requestSha256: 'x', requestBytes: 1, usage: null, costUsd: null, attempts: [], error: null, attribution: null }
}
const text = (t: string) => [{ type: 'block_started', index: 0, kind: 'text' }, { type: 'text_delta', index: 0, text: t }]

beforeEach(() => {
  useInspectorStore.setState({ sessionId: null, passes: [], loading: false, live: null, liveElsewhere: {}, selectedPassId: null, liveSelected: false, following: true, compareToPassId: null })
  store().sessionShown('s1')
})

describe('following the newest pass', () => {
  it('survives a pass stored while the inspector was not shown: the list read again moves to it, and the next pass is followed', () => {
    store().passesLoaded('s1', [pass('a', 1), pass('b', 2)])
    store().passSelected('b') // End in the list
    // The Compaction view: its summary pass is stored while no event reaches the inspector. Back in the chat:
    store().passesLoading()
    store().passesLoaded('s1', [pass('a', 1), pass('b', 2), pass('s', 3, 'summary')])
    expect(store().selectedPassId).toBe('s')
    store().passStarted({ sessionId: 's1', passNumber: 1, model: 'm' })
    expect(store().liveSelected).toBe(true)
    store().passCompleted({ sessionId: 's1', pass: pass('c', 4) })
    expect(store().selectedPassId).toBe('c')
  })

  it('is left by choosing an older pass, which a list read again keeps', () => {
    store().passesLoaded('s1', [pass('a', 1), pass('b', 2)])
    store().passSelected('a')
    store().passesLoaded('s1', [pass('a', 1), pass('b', 2), pass('c', 3)])
    expect(store().selectedPassId).toBe('a')
    store().passStarted({ sessionId: 's1', passNumber: 1, model: 'm' })
    expect(store().liveSelected).toBe(false)
  })

  it('is taken up again by choosing the newest pass or the live row', () => {
    store().passesLoaded('s1', [pass('a', 1), pass('b', 2)])
    store().passSelected('a')
    store().passSelected('b')
    store().passStarted({ sessionId: 's1', passNumber: 1, model: 'm' })
    expect(store().liveSelected).toBe(true)
    // The last stored pass, chosen while a newer one streams, is looking back, not following.
    store().passSelected('b')
    store().passCompleted({ sessionId: 's1', pass: pass('c', 3) })
    expect(store().selectedPassId).toBe('b')
    store().passStarted({ sessionId: 's1', passNumber: 2, model: 'm' })
    expect(store().liveSelected).toBe(false)
    store().liveSelectedChosen()
    store().passCompleted({ sessionId: 's1', pass: pass('d', 4) })
    store().passStarted({ sessionId: 's1', passNumber: 3, model: 'm' })
    expect(store().liveSelected).toBe(true)
  })

  it('hears a pass stored while the inspector is not shown, once it was shown', () => {
    followPassEvents()
    store().passesLoaded('s1', [pass('a', 1)])
    // Nothing mounted now (the Compaction view): the compaction's pass still reaches the list, and is followed.
    emit('pass.completed', { sessionId: 's1', pass: pass('s', 2, 'summary') })
    expect(store().passes.map((p) => p.id)).toEqual(['a', 's'])
    expect(store().selectedPassId).toBe('s')
  })
})

describe('a session shown again while its pass streams', () => {
  it('shows its live row, with what streamed while another session was shown, selected when it was followed', () => {
    store().passesLoaded('s1', [pass('a', 1)])
    store().passStarted({ sessionId: 's1', passNumber: 1, model: 'm' })
    store().streamDeltaReceived({ sessionId: 's1', events: text('hel') })
    store().sessionShown('s2') // + New session
    expect(store().live).toBeNull()
    store().passesLoaded('s2', [])
    store().streamDeltaReceived({ sessionId: 's1', events: [{ type: 'text_delta', index: 0, text: 'lo' }] })
    store().sessionShown('s1')
    store().passesLoading()
    store().passesLoaded('s1', [pass('a', 1)])
    expect(store().live).toMatchObject({ sessionId: 's1', passNumber: 1 })
    expect(store().live!.blocks[0]!.text).toBe('hello')
    expect(store().liveSelected).toBe(true)
    store().passCompleted({ sessionId: 's1', pass: pass('b', 2) })
    expect(store().live).toBeNull()
    expect(store().selectedPassId).toBe('b')
  })

  it('shows a pass that started while the session was not shown', () => {
    store().sessionShown('s2')
    store().passStarted({ sessionId: 's1', passNumber: 2, model: 'm' })
    store().sessionShown('s1')
    store().passesLoaded('s1', [pass('a', 1)])
    expect(store().live).toMatchObject({ passNumber: 2 })
  })

  it('shows no live row for a pass that ended while its session was not shown', () => {
    store().passesLoaded('s1', [pass('a', 1)])
    store().passStarted({ sessionId: 's1', passNumber: 1, model: 'm' })
    store().sessionShown('s2')
    store().passCompleted({ sessionId: 's1', pass: pass('b', 2) })
    store().sessionShown('s1')
    expect(store().live).toBeNull()
  })

  it('drops the live passes of sessions not shown after a reconnect (their end may have been missed)', () => {
    store().passStarted({ sessionId: 's2', passNumber: 1, model: 'm' })
    store().reconnected()
    store().sessionShown('s2')
    expect(store().live).toBeNull()
  })
})
