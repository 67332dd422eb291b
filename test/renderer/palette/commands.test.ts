/** The palette's commands are filed under the thing they act on: taking a project out of the list is a project's. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { MODEL_NAMES } from '../../../src-preload/models'

// Under plain Node there is no page to put the keyboard in: where it would go is not what these tests look at.
vi.mock('../../../src-renderer/ui/focus-when-shown', () => ({ focusWhenShown: () => {}, fieldTarget: () => () => null }))
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

describe('the palette’s model switch', () => {
  // Which models are offered depends on the day: on this one Sonnet 4.5 is retired (decision 0065), Opus 4.5 is not.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(new Date('2026-12-03T09:00:00Z'))
  })
  afterEach(() => vi.useRealTimers())
  const served = MODEL_NAMES.filter((m) => m.id !== 'claude-sonnet-4-5')

  it('offers the other models, and asks the chat’s question instead of switching', async () => {
    const { useSessionsStore } = await import('../../../src-renderer/state/sessions')
    const { useChatStore } = await import('../../../src-renderer/state/chat')
    const { useModelSwitchRequest } = await import('../../../src-renderer/features/chat/model-switch-request')
    const { client } = await import('../../../src-renderer/platform/client')
    const request = vi.spyOn(client, 'request')
    useProjectsStore.getState().projectsLoaded([{ id: 'p1', name: 'greeter', root: '/work/greeter', createdAt: 0, lastOpenedAt: 0 }])
    useProjectsStore.getState().projectSelected('p1')
    useSessionsStore.setState({ byProject: { p1: [{ id: 's1', title: 'A session', createdAt: 1, updatedAt: 2 } as never] }, selectedId: 's1' })
    useChatStore.setState({ bySession: { s1: { ...useChatStore.getState().bySession.s1, entries: [], running: false, streaming: [], approvals: [], loaded: true, model: 'claude-sonnet-4-6' } as never } })
    // The app's models the API serves, every one but the session's, with no settings read (src-preload/models.ts).
    const switches = filterCommands(buildCommands(null), 'switch model')
    expect(switches).toHaveLength(served.length - 1)
    expect(switches.map((c) => c.label)).not.toContain('Switch model to Claude Sonnet 4.5…')
    expect(switches.map((c) => c.label)).toContain('Switch model to Claude Opus 4.5 (retires 22 Jan 2027)…')
    expect(switches.map((c) => c.label)).toContain('Switch model to Claude Opus 4.6…')
    expect(switches.map((c) => c.label)).not.toContain('Switch model to Claude Sonnet 4.6…')
    const toOpus = filterCommands(buildCommands(null), 'switch model opus 4.6')[0]!
    expect(toOpus.label).toBe('Switch model to Claude Opus 4.6…')
    toOpus.run()
    expect(useModelSwitchRequest.getState().asked).toEqual({ sessionId: 's1', model: 'claude-opus-4-6' })
    expect(request.mock.calls.map(([name]) => name)).not.toContain('session.setModel')
  })

  it('on a dated id offers the other models, not the same one undated; on a model the app does not know, every model', async () => {
    const { useSessionsStore } = await import('../../../src-renderer/state/sessions')
    const { useChatStore } = await import('../../../src-renderer/state/chat')
    useProjectsStore.getState().projectsLoaded([{ id: 'p1', name: 'greeter', root: '/work/greeter', createdAt: 0, lastOpenedAt: 0 }])
    useProjectsStore.getState().projectSelected('p1')
    useSessionsStore.setState({ byProject: { p1: [{ id: 's1', title: 'A session', createdAt: 1, updatedAt: 2 } as never] }, selectedId: 's1' })
    const onModel = (model: string) => {
      useChatStore.setState({ bySession: { s1: { ...useChatStore.getState().bySession.s1, entries: [], running: false, streaming: [], approvals: [], loaded: true, model } as never } })
      return filterCommands(buildCommands(null), 'switch model').map((c) => c.label)
    }
    const dated = onModel('claude-haiku-4-5-20251001')
    expect(dated).toHaveLength(served.length - 1)
    expect(dated).not.toContain('Switch model to Claude Haiku 4.5…')
    expect(dated).toContain('Switch model to Claude Sonnet 4.6…')
    const unknown = onModel('claude-retired-3')
    expect(unknown).toEqual(served.map((m) => `Switch model to ${m.label}${'endOfLife' in m ? ' (retires 22 Jan 2027)' : ''}…`))
    // A session on a retired model is offered every served one.
    expect(onModel('claude-sonnet-4-5')).toEqual(unknown)
  })
})

describe('the palette’s inspector views', () => {
  it('bring the inspector wherever it is out of sight: collapsed in a wide window, or replaced by the chat in a narrow one', async () => {
    const { useSessionsStore } = await import('../../../src-renderer/state/sessions')
    const { useChatStore } = await import('../../../src-renderer/state/chat')
    const { useInspectorStore, selectInspectorHidden } = await import('../../../src-renderer/state/inspector')
    useProjectsStore.getState().projectsLoaded([{ id: 'p1', name: 'greeter', root: '/work/greeter', createdAt: 0, lastOpenedAt: 0 }])
    useProjectsStore.getState().projectSelected('p1')
    useSessionsStore.setState({ byProject: { p1: [{ id: 's1', title: 'A session', createdAt: 1, updatedAt: 2 } as never] }, selectedId: 's1' })
    useChatStore.setState({ bySession: { s1: { ...useChatStore.getState().bySession.s1, entries: [], running: false, streaming: [], approvals: [], loaded: true, model: 'claude-sonnet-4-6' } as never } })
    const showResponse = () => buildCommands(null).find((c) => c.id === 'inspector.response')!.run()

    // A wide window, the inspector collapsed to its bar by the user.
    useInspectorStore.setState((s) => ({ workspaceWidth: 1400, layout: { ...s.layout, dock: 'right', collapsed: true }, view: 'request' }))
    expect(selectInspectorHidden(useInspectorStore.getState())).toBe(true)
    showResponse()
    expect(selectInspectorHidden(useInspectorStore.getState())).toBe(false)
    expect(useInspectorStore.getState().view).toBe('response')
    // Shown already: the command leaves it shown rather than toggling it away.
    showResponse()
    expect(selectInspectorHidden(useInspectorStore.getState())).toBe(false)

    // A narrow window showing the chat alone.
    useInspectorStore.setState((s) => ({ workspaceWidth: 500, aloneShown: 'chat', layout: { ...s.layout, collapsed: false } }))
    expect(selectInspectorHidden(useInspectorStore.getState())).toBe(true)
    showResponse()
    expect(selectInspectorHidden(useInspectorStore.getState())).toBe(false)
  })
})

describe('a new session asked for while the open one is still being read', () => {
  afterEach(() => vi.restoreAllMocks())

  const newRow = (id: string) => ({ id, projectId: 'p1', title: 'New session', createdAt: 5, updatedAt: 5 })
  const projects = [
    { id: 'p1', name: 'greeter', root: '/work/greeter', createdAt: 0, lastOpenedAt: 0 },
    { id: 'p2', name: 'other', root: '/work/other', createdAt: 0, lastOpenedAt: 0 },
  ]

  /**
   * Project p1 shown, `open` the session shown, whose chat is not read yet; the host answers session.get with
   * `entries` (after `meanwhile`, what the user does while the read is on its way) and session.create with a new one.
   * Returns the requests startSession sent.
   */
  async function startWhileRead(open: string, listed: string[], entries: unknown[], meanwhile: () => void = () => {}): Promise<string[]> {
    const { startSession } = await import('../../../src-renderer/features/palette/commands')
    const { useSessionsStore } = await import('../../../src-renderer/state/sessions')
    const { useChatStore } = await import('../../../src-renderer/state/chat')
    const { client } = await import('../../../src-renderer/platform/client')
    const request = vi.spyOn(client, 'request').mockImplementation(((name: string) => {
      if (name !== 'session.get') return Promise.resolve({ ok: true, value: newRow('s-second') })
      meanwhile()
      return Promise.resolve({ ok: true, value: { session: newRow(open), entries, earlier: 0, seqs: {}, running: false, mode: 'build', model: 'claude-sonnet-4-6', pendingApprovals: [] } })
    }) as never)
    useProjectsStore.getState().projectsLoaded(projects)
    useProjectsStore.getState().projectSelected('p1')
    useSessionsStore.setState({ byProject: { p1: listed.map((id) => newRow(id) as never) }, selectedId: open })
    useChatStore.setState({ bySession: {} })
    await startSession('p1')
    const asked = request.mock.calls.map(([name]) => name as string)
    request.mockRestore()
    return asked
  }
  const entry = { id: 'e1', seq: 1, kind: 'user_message', text: 'hello', createdAt: 6 }

  it('reads the open session first, and shows it again when nothing has happened in it: no second empty session', async () => {
    const { useSessionsStore } = await import('../../../src-renderer/state/sessions')
    const asked = await startWhileRead('s-new', ['s-new'], [])
    expect(asked).toContain('session.get')
    expect(asked).not.toContain('session.create')
    expect(useSessionsStore.getState().selectedId).toBe('s-new')
  })

  it('makes a new one when the read shows the open session in use', async () => {
    expect(await startWhileRead('s-used', ['s-used'], [entry])).toContain('session.create')
  })

  it('makes none when another session or project is chosen while the read is under way: that choice stands', async () => {
    const { useSessionsStore } = await import('../../../src-renderer/state/sessions')
    for (const chooseElsewhere of [() => useSessionsStore.getState().sessionSelected('s-other'), () => useProjectsStore.getState().projectSelected('p2')]) {
      expect(await startWhileRead('s-used', ['s-used', 's-other'], [entry], chooseElsewhere)).not.toContain('session.create')
    }
  })
})
