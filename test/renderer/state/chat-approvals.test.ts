import { beforeEach, describe, expect, it } from 'vitest'
import { useChatStore, type PendingApproval } from '../../../src-renderer/state/chat'

const preview = (added: number) => ({ path: 'greet.ts', created: false, added, removed: 1, hunks: [], omitted: 0, note: null })
const asked = (added: number): PendingApproval => ({ toolUseId: 't1', request: { tool: 'edit_file', summary: 'Edit greet.ts', suggestedRules: [], preview: preview(added) } as never })
const store = () => useChatStore.getState()
const card = () => store().bySession.s1!.approvals

describe('an approval asked again with a new preview', () => {
  beforeEach(() => store().sessionForgotten('s1'))

  it('changes in place and says its file changed, until the file is back as it was first shown', () => {
    store().approvalRequested('s1', { toolUseId: 't0', request: { tool: 'bash', summary: 'Run ls', suggestedRules: [] } as never })
    store().approvalRequested('s1', asked(1))
    expect(card().map((a) => [a.toolUseId, a.refreshed ?? false])).toEqual([['t0', false], ['t1', false]])
    store().approvalRequested('s1', asked(2))
    expect(card().map((a) => [a.toolUseId, a.refreshed ?? false])).toEqual([['t0', false], ['t1', true]])
    // The file changed back: the card shows what it first showed, and no longer says it changed.
    store().approvalRequested('s1', asked(1))
    expect(card()[1]).toMatchObject({ toolUseId: 't1', refreshed: false })
  })
})

describe('an approval asked live and one read with the session', () => {
  beforeEach(() => store().sessionForgotten('s1'))

  it('marks only the one asked while the window was open, which alone takes the keyboard (Approval.tsx)', () => {
    store().sessionLoaded({ session: { id: 's1' }, entries: [], running: true, mode: 'build', model: 'm', pendingApprovals: [asked(1)] } as never)
    expect(card()[0]!.askedLive).toBeUndefined()
    store().approvalRequested('s1', { toolUseId: 't2', request: { tool: 'bash', summary: 'Run ls', suggestedRules: [] } as never })
    expect(card().map((a) => [a.toolUseId, a.askedLive ?? false])).toEqual([['t1', false], ['t2', true]])
    // Read again (a reconnection): nothing read is marked.
    store().sessionLoaded({ session: { id: 's1' }, entries: [], running: true, mode: 'build', model: 'm', pendingApprovals: [asked(1), { toolUseId: 't2', request: { tool: 'bash', summary: 'Run ls', suggestedRules: [] } as never }] } as never)
    expect(card().map((a) => a.askedLive ?? false)).toEqual([false, false])
  })
})
