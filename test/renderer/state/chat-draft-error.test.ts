/**
 * An error that refuses a message is about that draft: the chat shows it only while the message box holds that
 * message (errorApplies), whatever changed the box; an error about the session is shown whatever the box holds.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { useChatStore } from '../../../src-renderer/state/chat'
import { errorApplies } from '../../../src-renderer/features/chat/limits'

const store = () => useChatStore.getState()

describe("the chat's error about a refused message", () => {
  beforeEach(() => store().sessionForgotten('s1'))

  it('applies while the box holds the refused message, not once it holds another', () => {
    store().failed('s1', 'This message is 2.1 M characters', 'long text')
    const { error, errorAbout } = store().bySession.s1!
    expect(error).toBe('This message is 2.1 M characters')
    expect(errorApplies(errorAbout, '  long text \n')).toBe(true)
    expect(errorApplies(errorAbout, 'shorter text')).toBe(false)
    expect(errorApplies(errorAbout, '')).toBe(false)
  })

  it('an error about the session applies whatever the box holds', () => {
    store().failed('s1', 'A turn is already running in this session')
    expect(store().bySession.s1!.errorAbout).toBeNull()
    expect(errorApplies(store().bySession.s1!.errorAbout, 'anything')).toBe(true)
  })

  it('a turn started or a lost connection replaces it with no message attached', () => {
    store().sessionLoaded({ session: { id: 's1' }, entries: [], running: true, mode: 'build', model: 'm', pendingApprovals: [] } as never)
    store().failed('s1', 'too long', 'long text')
    store().connectionLost('s1', 'Connection to Loupe lost.')
    expect(store().bySession.s1).toMatchObject({ error: 'Connection to Loupe lost.', errorAbout: null })
    store().failed('s1', 'too long', 'long text')
    store().runStarted('s1')
    expect(store().bySession.s1).toMatchObject({ error: null, errorAbout: null })
  })
})
