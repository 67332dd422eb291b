/** The palette's commands are filed under the thing they act on: taking a project out of the list is a project's. */
import { describe, expect, it, vi } from 'vitest'

vi.mock('../../../src-renderer/platform/client', () => ({ client: { request: () => Promise.resolve({ ok: true, value: {} }), on: () => () => {} } }))

const { buildCommands, filterCommands } = await import('../../../src-renderer/features/palette/commands')
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

describe('the palette’s files', () => {
  const node = (path: string, absPath: string, kind: 'instruction' | 'memory') => ({ path, absPath, kind, tier: null, status: 'included' as const, reason: null, chars: 10, tokens: 3, patterns: [], importedBy: null, editable: true, children: [] })
  const listing = {
    root: '/work/greeter',
    instructions: [node('AGENTS.md', '/work/greeter/AGENTS.md', 'instruction')],
    memory: [node('.loupe/memory.md', '/work/greeter/.loupe/memory.md', 'memory'), node('~/.loupe/memory.md', '/home/u/.loupe/memory.md', 'memory')],
    creatable: [{ path: '~/.loupe/AGENTS.md', kind: 'global_instructions' as const, label: 'Global instructions (every project)' }],
    notes: [],
    sessionBlockTokens: 0,
    budgetChars: 0,
    usedChars: 0,
  }

  it('offers to edit every file the Files view lists, by the names it uses, without the view having been opened', () => {
    useProjectsStore.getState().projectsLoaded([{ id: 'p1', name: 'greeter', root: '/work/greeter', createdAt: 0, lastOpenedAt: 0 }])
    useProjectsStore.getState().projectSelected('p1')
    const commands = buildCommands(listing as never)
    expect(filterCommands(commands, 'agents').map((c) => c.label)).toEqual(['Edit AGENTS.md'])
    expect(filterCommands(commands, 'edit memory').map((c) => c.label)).toEqual(['Edit .loupe/memory.md (project memory)', 'Edit ~/.loupe/memory.md (user memory)'])
    expect(filterCommands(commands, 'global instructions').map((c) => c.label)).toEqual(['Create Global instructions (every project)'])
  })
})
