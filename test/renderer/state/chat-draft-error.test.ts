/** An error that refuses a message is about that draft: it goes once the draft says something else, and only then. */
import { beforeEach, describe, expect, it } from 'vitest'
import { useChatStore } from '../../../src-renderer/state/chat'

const store = () => useChatStore.getState()

describe("the chat's error about a refused message", () => {
  beforeEach(() => store().sessionForgotten('s1'))

  it('goes when the draft is changed to another text, not while it is the same text', () => {
    store().failed('s1', 'This message is 2.1 M characters', 'long text')
    const before = useChatStore.getState()
    store().draftEdited('s1', '  long text ')
    // Nothing changed: the same state object, so a keystroke re-renders nothing.
    expect(useChatStore.getState()).toBe(before)
    expect(store().bySession.s1!.error).toBe('This message is 2.1 M characters')
    store().draftEdited('s1', 'shorter text')
    expect(store().bySession.s1).toMatchObject({ error: null, errorAbout: null })
  })

  it("stays while the draft is edited when it is about the session, not the draft", () => {
    store().failed('s1', 'A turn is already running in this session')
    store().draftEdited('s1', 'anything')
    expect(store().bySession.s1!.error).toBe('A turn is already running in this session')
  })

  it('is replaced by a lost connection, which the draft does not clear', () => {
    store().sessionLoaded({ session: { id: 's1' }, entries: [], running: true, mode: 'build', model: 'm', pendingApprovals: [] } as never)
    store().failed('s1', 'too long', 'long text')
    store().connectionLost('s1', 'Connection to Loupe lost.')
    store().draftEdited('s1', 'other')
    expect(store().bySession.s1!.error).toBe('Connection to Loupe lost.')
  })
})
