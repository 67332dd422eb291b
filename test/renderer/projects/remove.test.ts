/** The sidebar's list after a project is taken out of it: the one shown gives way to its neighbour. */
import { beforeEach, describe, expect, it } from 'vitest'
import { useProjectsStore } from '../../../src-renderer/state/projects'

const project = (id: string) => ({ id, name: id, root: `/tmp/${id}`, createdAt: 0, lastOpenedAt: 0 })
const store = () => useProjectsStore.getState()

describe('a project removed from the list', () => {
  beforeEach(() => {
    store().projectsLoaded([project('a'), project('b'), project('c')])
    store().projectSelected('b')
  })

  it('leaves the list; the selection moves to the project below it, else above, else none', () => {
    store().projectRemoved('b')
    expect(store().projects.map((p) => p.id)).toEqual(['a', 'c'])
    expect(store().selectedId).toBe('c')
    store().projectRemoved('c')
    expect(store().selectedId).toBe('a')
    store().projectRemoved('a')
    expect(store().selectedId).toBeNull()
  })

  it('keeps the selection when another project goes, and ignores one it does not list', () => {
    store().projectRemoved('a')
    expect(store().selectedId).toBe('b')
    store().projectRemoved('zzz')
    expect(store().projects.map((p) => p.id)).toEqual(['b', 'c'])
  })
})
