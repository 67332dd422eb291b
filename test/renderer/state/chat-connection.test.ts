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

describe('a long session read in windows (decision 0039)', () => {
  beforeEach(() => store().sessionForgotten('s4'))
  const entry = (seq: number) => ({ id: `e${seq}`, sessionId: 's4', seq, at: seq, kind: 'user_message' })
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => entry(from + i))
  const loaded = (from: number, to: number, extra: object = {}) =>
    store().sessionLoaded({ session: { id: 's4' }, entries: range(from, to), earlier: from - 1, running: false, mode: 'build', model: 'm', pendingApprovals: [], ...extra } as never)

  it('puts earlier entries in front of those held, only when they reach up to them', () => {
    loaded(51, 60, { landmarks: [entry(5), entry(52)], seqs: { e3: 3 } })
    expect(store().bySession.s4).toMatchObject({ earlier: 50, seqs: { e3: 3 } })
    // A page that does not end right before the first held (an answer overtaken by another) is dropped.
    store().earlierLoaded('s4', { entries: range(30, 40), earlier: 29, seqs: {} })
    expect(store().bySession.s4!.entries[0]!.seq).toBe(51)
    store().earlierLoaded('s4', { entries: range(41, 50), earlier: 40, seqs: { e1: 1 } })
    const chat = store().bySession.s4!
    expect(chat.entries.map((e) => e.seq)).toEqual(range(41, 60).map((e) => e.seq))
    expect(chat.earlier).toBe(40)
    expect(chat.seqs).toEqual({ e3: 3, e1: 1 })
    // A landmark now among the entries held is no longer one.
    expect(chat.landmarks.map((e) => e.seq)).toEqual([5])
  })

  it('keeps the earlier entries read when the session is read again, and new ones after', () => {
    loaded(51, 60)
    store().earlierLoaded('s4', { entries: range(41, 50), earlier: 40, seqs: {} })
    store().entriesAppended('s4', [entry(61)])
    // Read again (a reconnect): the window is the newest, and the earlier entries read stay in front of it.
    loaded(52, 61)
    const chat = store().bySession.s4!
    expect(chat.entries.map((e) => e.seq)).toEqual(range(41, 61).map((e) => e.seq))
    expect(chat.earlier).toBe(40)
  })

  it('keeps nothing from before a window that the entries held do not reach', () => {
    loaded(11, 20)
    loaded(31, 40)
    expect(store().bySession.s4).toMatchObject({ earlier: 30 })
    expect(store().bySession.s4!.entries.map((e) => e.seq)).toEqual(range(31, 40).map((e) => e.seq))
  })
})

describe('an answer that broke off and is sent again', () => {
  beforeEach(() => store().sessionForgotten('s4'))

  it('drops what streamed for a line that says why, and the next attempt streams under it', () => {
    store().runStarted('s4')
    store().streamed('s4', [{ type: 'block_started', index: 0, kind: 'text' }, { type: 'text_delta', index: 0, text: 'Half an ' }, { type: 'block_started', index: 1, kind: 'tool_use', toolName: 'read_file' }])
    store().streamed('s4', [{ type: 'retrying', kind: 'connection', message: 'Nothing arrived for 90 s after the service had begun to answer, so the stream was given up: the connection had stalled (a network change or the computer sleeping can leave one open but silent)', retry: 1, retries: 2 }])
    const note = 'The answer broke off: Nothing arrived for 90 s after the service had begun to answer, so the stream was given up: the connection had stalled (a network change or the computer sleeping can leave one open but silent). Sending the request again (retry 1 of 2); the answer starts over.'
    expect(store().bySession.s4!.streaming).toEqual([{ index: -1, kind: 'retry', text: note }])
    store().streamed('s4', [{ type: 'block_started', index: 0, kind: 'text' }, { type: 'text_delta', index: 0, text: 'A whole answer' }])
    expect(store().bySession.s4!.streaming).toEqual([
      { index: -1, kind: 'retry', text: note },
      { index: 0, kind: 'text', text: 'A whole answer' },
    ])
    // The stored answer replaces what streamed, the note with it.
    store().entriesAppended('s4', [{ id: 'e1', sessionId: 's4', seq: 1, at: 1, kind: 'assistant_message' }])
    expect(store().bySession.s4!.streaming).toEqual([])
  })
})
