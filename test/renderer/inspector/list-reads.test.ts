/**
 * Reads of the passes list overlap: the whole project's list (session.list, then a pass.list per session) takes
 * longer than one session's, and a session left and come back to is read twice. Under Node, with the contract's
 * client replaced by one whose answers the test releases in any order: the list shown is always the one last asked for.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { answerHeld, held, settle } from '../../support/held-client'
import type { ListedPass } from '../../../src-renderer/state/inspector'


vi.mock('../../../src-renderer/platform/client', async () => (await import('../../support/held-client')).heldClientModule)

const { loadPasses } = await import('../../../src-renderer/features/inspector/data/passes')
const { useInspectorStore } = await import('../../../src-renderer/state/inspector')
const { useSessionsStore } = await import('../../../src-renderer/state/sessions')
const store = () => useInspectorStore.getState()

function pass(id: string, seq: number, sessionId: string): ListedPass {
  return { id, sessionId, seq, kind: 'main', model: 'm', status: 'done', queuedAt: seq * 1000, firstByteAt: null, doneAt: null, requestSha256: 'x', requestBytes: 1, usage: null, costUsd: null, attempts: [], error: null, attribution: null }
}
const session = (id: string) => ({ id, projectId: 'p', title: `Session ${id}`, createdAt: 0, updatedAt: 0 })

/** Answers the oldest held request named `name` for `key` (a session's id, or the project's for session.list). */
const answer = (name: string, key: string, value: unknown) => answerHeld(name, (input) => (input.sessionId ?? input.projectId) === key, value)
const listed = () => store().passes.map((p) => p.id)

beforeEach(() => {
  held.length = 0
  useSessionsStore.setState({ byProject: { p: [session('s1'), session('s2')] as never } })
  useInspectorStore.setState({ sessionId: null, passes: [], loading: false, live: null, selectedPassId: null, liveSelected: false, compareToPassId: null })
  store().sessionShown('s1')
})

describe('reads of the passes list', () => {
  it("shows the session's own passes when the whole project's list, asked for before, answers after them", async () => {
    void loadPasses('s1', 'project')
    // The user goes back to the session's own passes while the project's sessions are being listed.
    void loadPasses('s1', 'session')
    answer('pass.list', 's1', [pass('a', 1, 's1')])
    await settle()
    expect(listed()).toEqual(['a'])
    answer('session.list', 'p', [session('s1'), session('s2')])
    await settle()
    answer('pass.list', 's1', [pass('a', 1, 's1')])
    answer('pass.list', 's2', [pass('x', 2, 's2')])
    await settle()
    expect(listed()).toEqual(['a'])
    expect(store().loading).toBe(false)
  })

  it('shows the newer list of a session left and come back to when the read made before leaving answers last', async () => {
    void loadPasses('s1', 'session')
    store().sessionShown('s2')
    void loadPasses('s2', 'session')
    store().sessionShown('s1')
    void loadPasses('s1', 'session')
    answer('pass.list', 's2', [])
    // The oldest held read of s1 is the first one: the newer one answers first, with a pass stored in between.
    const first = held.findIndex((r) => r.input.sessionId === 's1')
    const [older] = held.splice(first, 1)
    answer('pass.list', 's1', [pass('a', 1, 's1'), pass('b', 2, 's1')])
    await settle()
    older!.answer([pass('a', 1, 's1')])
    await settle()
    expect(listed()).toEqual(['a', 'b'])
    expect(store().selectedPassId).toBe('b')
  })
})
