/** Drafts by session: kept while the chat is away, emptied once sent, kept when the user typed more since. */
import { beforeEach, describe, expect, it } from 'vitest'
import { selectDraft, useDraftsStore } from '../../../src-renderer/state/drafts'

const store = () => useDraftsStore.getState()
const draft = (sessionId: string) => selectDraft(sessionId)(store())

describe('the drafts store', () => {
  beforeEach(() => useDraftsStore.setState({ bySession: {} }))

  it('keeps one draft per session', () => {
    store().draftChanged('s1', 'half a thought')
    store().draftChanged('s2', 'another')
    expect([draft('s1'), draft('s2'), draft('s3')]).toEqual(['half a thought', 'another', ''])
  })

  it('empties the box once the message is sent, unless something else was typed meanwhile', () => {
    store().draftChanged('s1', 'read README.md')
    store().draftSent('s1', 'read README.md')
    expect(draft('s1')).toBe('')
    store().draftChanged('s2', 'first')
    store().draftChanged('s2', 'second, typed while the first was on its way')
    store().draftSent('s2', 'first')
    expect(draft('s2')).toBe('second, typed while the first was on its way')
    // Typed on straight after Enter: the message leaves the box, what came after it stays.
    store().draftChanged('s3', 'read README.md')
    store().draftChanged('s3', 'read README.md and then also x')
    store().draftSent('s3', 'read README.md')
    expect(draft('s3')).toBe('and then also x')
  })

  it('forgets a deleted session', () => {
    store().draftChanged('s1', 'x')
    store().sessionForgotten('s1')
    expect(store().bySession).toEqual({})
  })
})
