/** A turn running when the connection to the host is lost: shown as unknown, not as running, what streamed kept. */
import { beforeEach, describe, expect, it } from 'vitest'
import { useChatStore } from '../../../src-renderer/state/chat'

const store = () => useChatStore.getState()

describe('the chat when the connection is lost', () => {
  beforeEach(() => store().sessionForgotten('s1'))

  it('stops showing the turn as running, drops its approvals, keeps what streamed and says why', () => {
    store().runStarted('s1')
    store().streamed('s1', [{ type: 'block_started', index: 0, kind: 'text' }, { type: 'text_delta', index: 0, text: 'Half an answer' }])
    store().approvalRequested('s1', { toolUseId: 't1', request: { tool: 'bash', summary: 'Run ls', suggestedRules: [] } as never })
    store().toolStarted('s1', 't0')
    const streamed = store().bySession.s1!.streaming
    expect(streamed.length).toBeGreaterThan(0)

    store().connectionLost('s1', 'Connection to Loupe lost.')
    const chat = store().bySession.s1!
    expect(chat).toMatchObject({ running: false, approvals: [], runningTools: [], listedActivity: null })
    expect(chat.streaming).toEqual(streamed)
  })
})

describe('a session read while its entries change', () => {
  beforeEach(() => store().sessionForgotten('s2'))

  it('keeps an entry an event brought that is newer than the snapshot read', () => {
    const entry = (seq: number, kind: string) => ({ id: `e${seq}`, sessionId: 's2', seq, at: seq, kind })
    // The mode switch's event came before the answer to session.get, whose snapshot was taken before it.
    store().entriesAppended('s2', [entry(3, 'mode_switched')])
    store().sessionLoaded({ session: { id: 's2' }, entries: [entry(1, 'user_message'), entry(2, 'assistant_message')], running: false, mode: 'plan', model: 'm', pendingApprovals: [] } as never)
    expect(store().bySession.s2!.entries.map((e) => e.kind)).toEqual(['user_message', 'assistant_message', 'mode_switched'])
    // An entry the snapshot already has is not doubled, nor one older than it kept.
    store().sessionLoaded({ session: { id: 's2' }, entries: [entry(1, 'user_message'), entry(2, 'assistant_message'), entry(3, 'mode_switched')], running: false, mode: 'plan', model: 'm', pendingApprovals: [] } as never)
    expect(store().bySession.s2!.entries.map((e) => e.id)).toEqual(['e1', 'e2', 'e3'])
  })
})

describe('a session read in the middle of a pass', () => {
  beforeEach(() => store().sessionForgotten('s3'))

  it('shows what the pass streamed so far, and goes on from the events', () => {
    // A delta that came before the answer is in the snapshot too: the snapshot replaces it rather than adding to it.
    store().streamed('s3', [{ type: 'block_started', index: 0, kind: 'text' }, { type: 'text_delta', index: 0, text: 'Half an ' }])
    const livePass = { passNumber: 1, model: 'm', startedAt: 1, firstDeltaAt: 2, events: [{ type: 'block_started', index: 0, kind: 'text' }, { type: 'text_delta', index: 0, text: 'Half an ' }] }
    store().sessionLoaded({ session: { id: 's3' }, entries: [], running: true, livePass, mode: 'build', model: 'm', pendingApprovals: [] } as never)
    expect(store().bySession.s3!.streaming).toEqual([{ index: 0, kind: 'text', text: 'Half an ' }])
    store().streamed('s3', [{ type: 'text_delta', index: 0, text: 'answer' }])
    expect(store().bySession.s3!.streaming[0]!.text).toBe('Half an answer')
  })

  it('shows nothing streaming when the turn is between passes', () => {
    store().sessionLoaded({ session: { id: 's3' }, entries: [], running: true, livePass: null, mode: 'build', model: 'm', pendingApprovals: [] } as never)
    expect(store().bySession.s3!.streaming).toEqual([])
  })
})
