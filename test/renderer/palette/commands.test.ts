/** The palette's commands are filed under the thing they act on: taking a project out of the list is a project's. */
import { describe, expect, it, vi } from 'vitest'

vi.mock('../../../src-renderer/platform/client', () => ({ client: { request: () => Promise.resolve({ ok: true, value: {} }), on: () => () => {} } }))

const { buildCommands } = await import('../../../src-renderer/features/palette/commands')
const { useProjectsStore } = await import('../../../src-renderer/state/projects')

describe('the palette’s groups', () => {
  it('files removing the open project from the list under Project, not Session', () => {
    useProjectsStore.getState().projectsLoaded([{ id: 'p1', name: 'greeter', root: '/work/greeter', createdAt: 0, lastOpenedAt: 0 }])
    useProjectsStore.getState().projectSelected('p1')
    const remove = buildCommands().find((c) => c.id === 'project.remove')
    expect(remove).toMatchObject({ group: 'Project', label: 'Remove greeter from the list' })
    // Every command of a group is listed together, so the palette reads as groups.
    const groups = buildCommands().map((c) => c.group)
    expect(groups.filter((g, i) => g !== groups[i - 1])).toEqual([...new Set(groups)])
  })
})
