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
