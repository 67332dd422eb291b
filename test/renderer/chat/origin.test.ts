/** Who made a session's conversation, told from its passes, and what the chat calls the author of each message. */
import { describe, expect, it } from 'vitest'
import { authorOf, sessionSourceOf } from '../../../src-renderer/features/chat/origin'

const pass = (id: string, sessionId: string, source?: 'loupe' | 'transcript' | 'proxy') => ({ id, sessionId, ...(source ? { source } : {}) })

describe('sessionSourceOf', () => {
  it('is the source of the session’s reconstructed or captured passes', () => {
    expect(sessionSourceOf([pass('p1', 's1', 'transcript'), pass('p2', 's1', 'transcript')], 's1')).toBe('transcript')
    expect(sessionSourceOf([pass('p1', 's2', 'proxy')], 's2')).toBe('proxy')
  })

  it('is Loupe for a session without passes, with its own passes, or with passes of older hosts (no source)', () => {
    expect(sessionSourceOf([], 's1')).toBe('loupe')
    expect(sessionSourceOf([pass('p1', 's1', 'loupe'), pass('p2', 's1')], 's1')).toBe('loupe')
  })

  it('looks only at the session’s own passes (a whole-project list mixes sessions)', () => {
    expect(sessionSourceOf([pass('p1', 'imported', 'transcript'), pass('p2', 'continued', 'loupe')], 'continued')).toBe('loupe')
  })
})

describe('authorOf', () => {
  it('names who wrote a message', () => {
    expect([authorOf('loupe'), authorOf(undefined), authorOf('transcript'), authorOf('proxy')]).toEqual(['Loupe', 'Loupe', 'Claude Code', 'Captured agent'])
  })
})
