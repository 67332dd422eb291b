/**
 * The sessions store as rename and delete leave it, and the short labels that tell sessions apart in a list that
 * mixes them (the inspector's whole-project passes).
 */
import { beforeEach, describe, expect, it } from 'vitest'
import type { Session } from '../../../src-preload/contract'
import { sessionLabels, sessionTitles, useSessionsStore } from '../../../src-renderer/state/sessions'

const session = (id: string, title: string, projectId = 'p1'): Session => ({ id, projectId, title, createdAt: 0, updatedAt: 0 })
const store = () => useSessionsStore.getState()

describe('sessionLabels', () => {
  it('leaves out the words a title shares with another, whole words only', () => {
    const labels = sessionLabels([
      { id: 'a', title: 'Session 2026-11-29 14:02' },
      { id: 'b', title: 'Session 2026-11-29 14:05' },
      { id: 'c', title: 'Session 2026-11-30 09:00' },
    ])
    expect([...labels.values()]).toEqual(['…14:02', '…14:05', '…2026-11-30 09:00'])
  })

  it('keeps a title whole when it shares nothing, and at least its last word when all of it is shared', () => {
    expect([...sessionLabels([{ id: 'a', title: 'Greeter refactor' }, { id: 'b', title: 'Alpha' }, { id: 'c', title: 'Alpha beta' }]).values()]).toEqual(['Greeter refactor', 'Alpha', 'Alpha beta'])
    expect([...sessionLabels([{ id: 'a', title: 'Alpha beta' }, { id: 'b', title: 'Alpha beta gamma' }]).values()]).toEqual(['…beta', '…beta gamma'])
  })

  it('numbers sessions with the same title, the number first, each session once', () => {
    const labels = sessionLabels([
      { id: 'a', title: 'Session 2026-11-29 14:02' },
      { id: 'a', title: 'Session 2026-11-29 14:02' },
      { id: 'b', title: 'Session 2026-11-29 14:02' },
    ])
    expect(labels).toEqual(new Map([['a', 'Session 2026-11-29 14:02'], ['b', '2 · Session 2026-11-29 14:02']]))
  })
})

describe('sessionTitles', () => {
  it("names each listed session as the sidebar does now, else by the title read with the list, else by its id", () => {
    const byProject = { p1: [session('s1', 'list src')] }
    const passes = [
      { sessionId: 's1', sessionTitle: 'Session 2026-12-03 12:50' },
      { sessionId: 's2', sessionTitle: 'Old' },
      { sessionId: 's1' },
      { sessionId: 's3' },
    ]
    expect(sessionTitles(passes, byProject)).toEqual(new Map([['s1', 'list src'], ['s2', 'Old'], ['s3', 's3']]))
  })
})

describe('the sessions store', () => {
  beforeEach(() => {
    useSessionsStore.setState({ byProject: { p1: [session('s2', 'Two'), session('s1', 'One')] }, selectedId: 's2', renamingId: null, deletingId: null, error: null })
  })

  it('replaces a renamed session in place and ends the rename', () => {
    store().renameStarted('s1')
    store().sessionRenamed(session('s1', 'Renamed'))
    expect(store().byProject.p1!.map((s) => s.title)).toEqual(['Two', 'Renamed'])
    expect(store().renamingId).toBeNull()
  })

  it('forgets a deleted session, and the selection when it was selected', () => {
    store().deleteAsked('s2')
    store().sessionDeleted('s2')
    expect(store().byProject.p1!.map((s) => s.id)).toEqual(['s1'])
    expect(store()).toMatchObject({ selectedId: null, deletingId: null })
    store().sessionSelected('s1')
    store().sessionDeleted('s9')
    expect(store().selectedId).toBe('s1')
  })

  it('forgets with a deleted session the sessions it started, as the store deletes them with it', () => {
    const child = { ...session('c1', 'A subagent'), parentSessionId: 's1' }
    useSessionsStore.setState({ byProject: { p1: [session('s2', 'Two'), session('s1', 'One'), child] }, selectedId: 'c1' })
    store().sessionDeleted('s1')
    expect(store().byProject.p1!.map((s) => s.id)).toEqual(['s2'])
    expect(store().selectedId).toBeNull()
  })

  it('shows the session that replaces a deleted one (a grown file imported again) when the deleted one was shown', () => {
    const child = { ...session('c1', 'A subagent'), parentSessionId: 's1' }
    useSessionsStore.setState({ byProject: { p1: [session('s3', 'One again'), session('s2', 'Two'), session('s1', 'One'), child] }, selectedId: 'c1' })
    store().sessionDeleted('s1', 's3')
    expect(store().selectedId).toBe('s3')
    // Not when another session was shown, nor for a replacement this window does not list.
    store().sessionSelected('s2')
    store().sessionDeleted('s3', 's4')
    expect(store().selectedId).toBe('s2')
    store().sessionSelected('s2')
    store().sessionDeleted('s2', 'elsewhere')
    expect(store().selectedId).toBeNull()
    // Nor for one filed in another project: nothing would show it.
    useSessionsStore.setState({ byProject: { p1: [session('s5', 'Five')], p2: [session('s6', 'Six', 'p2')] }, selectedId: 's5' })
    store().sessionDeleted('s5', 's6')
    expect(store().selectedId).toBeNull()
  })
})

describe('the sessions store, following another window', () => {
  beforeEach(() => {
    useSessionsStore.setState({ byProject: { p1: [session('s2', 'Two'), session('s1', 'One')] }, selectedId: 's1', renamingId: 's1', deletingId: 's1', error: null })
  })

  it('lists a session made elsewhere without selecting it, once, and only in a project already listed', () => {
    store().sessionAppeared(session('s3', 'Three'))
    store().sessionAppeared(session('s3', 'Three'))
    store().sessionAppeared(session('x1', 'Elsewhere', 'p2'))
    expect(store().byProject.p1!.map((s) => s.id)).toEqual(['s3', 's2', 's1'])
    expect(store().byProject.p2).toBeUndefined()
    expect(store().selectedId).toBe('s1')
  })

  it('takes a rename or a delete of another session without ending the rename or the confirmation under way here', () => {
    store().sessionRenamed(session('s2', 'Two, renamed'))
    store().sessionDeleted('s2')
    expect(store()).toMatchObject({ selectedId: 's1', renamingId: 's1', deletingId: 's1' })
    expect(store().byProject.p1!.map((s) => s.title)).toEqual(['One'])
  })
})

describe("a project's list answering after a session was made", () => {
  beforeEach(() => useSessionsStore.setState({ byProject: {}, selectedId: null }))

  it('keeps a session made since the list was asked for, selected, and drops one made before it that the list no longer has', () => {
    const made = (id: string, createdAt: number): Session => ({ ...session(id, `Session ${id}`), createdAt })
    store().sessionsLoaded('p1', [made('old', 100), made('gone', 200)])
    // The list is asked for at 1,000; a session is made at 1,005, before the answer (which cannot hold it) arrives.
    store().sessionCreated(made('new', 1005))
    store().sessionsLoaded('p1', [made('old', 100)], 1000)
    expect(store().byProject.p1!.map((s) => s.id)).toEqual(['new', 'old'])
    expect(store().selectedId).toBe('new')
  })
})

describe('the sessions list, as sessions are written to', () => {
  const at = (id: string, updatedAt: number, projectId = 'p1'): Session => ({ ...session(id, `Session ${id}`, projectId), createdAt: updatedAt, updatedAt })
  const ids = (projectId = 'p1') => store().byProject[projectId]!.map((s) => s.id)
  beforeEach(() => useSessionsStore.setState({ byProject: { p1: [at('c', 300), at('b', 200), at('a', 100)], p2: [at('x', 50, 'p2')] }, selectedId: 'b', renamingId: null, deletingId: null }))

  it('moves a session written to up to where session.list would list it, leaving the selection alone', () => {
    store().sessionWrittenTo('a', 400)
    expect(ids()).toEqual(['a', 'c', 'b'])
    expect(store().byProject.p1![0]!.updatedAt).toBe(400)
    store().sessionWrittenTo('b', 250)
    expect(ids()).toEqual(['a', 'c', 'b'])
    store().sessionWrittenTo('b', 300)
    // A tie is ordered as session.list orders it: by id, descending.
    expect(ids()).toEqual(['a', 'c', 'b'])
    store().sessionWrittenTo('b', 401)
    expect(ids()).toEqual(['b', 'a', 'c'])
    expect(store().selectedId).toBe('b')
    expect(ids('p2')).toEqual(['x'])
  })

  it('moves nothing for a time older than the one it has, or a session not listed', () => {
    const before = store().byProject
    store().sessionWrittenTo('c', 250)
    store().sessionWrittenTo('nowhere', 1_000)
    expect(store().byProject).toBe(before)
  })

  it('orders as a list read again would, one event at a time', () => {
    const sessions = [at('c', 300), at('b', 200), at('a', 100), at('d', 150)]
    useSessionsStore.setState({ byProject: { p1: [...sessions].sort((x, y) => y.updatedAt - x.updatedAt) } })
    const writes: Array<[string, number]> = [['a', 310], ['d', 320], ['b', 305], ['a', 330]]
    for (const [id, time] of writes) store().sessionWrittenTo(id, time)
    const latest = new Map(sessions.map((s) => [s.id, s.updatedAt]))
    for (const [id, time] of writes) latest.set(id, Math.max(latest.get(id)!, time))
    const reread = [...latest].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? 1 : -1)).map(([id]) => id)
    expect(ids()).toEqual(reread)
  })

  it('keeps a renamed row where it is, and puts a session written to above it', () => {
    store().sessionRenamed({ ...at('a', 100), title: 'Named', updatedAt: 500 })
    expect(ids()).toEqual(['c', 'b', 'a'])
    store().sessionWrittenTo('b', 600)
    expect(ids()).toEqual(['b', 'c', 'a'])
  })
})
