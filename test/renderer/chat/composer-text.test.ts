/**
 * Esc is named on the control it triggers, and on no other: during a compaction in the session (a `/compact` sent
 * from the chat, with its turn running) Esc cancels the compaction, so the progress card's "Cancel (Esc)" names the
 * key and the composer's Stop does not; in an ordinary turn Esc stops it, and Stop names the key.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest'

const asked: string[] = []
vi.mock('../../../src-renderer/platform/client', () => ({
  client: {
    request: (name: string) => {
      asked.push(name)
      return Promise.resolve({ ok: true, value: { cancelled: true } })
    },
    on: () => () => {},
  },
}))

const { stopRunning } = await import('../../../src-renderer/features/palette/commands')
const { composerPlaceholder, stopLabel } = await import('../../../src-renderer/features/chat/composer-text')
const { useChatStore } = await import('../../../src-renderer/state/chat')
const { useCompactionStore } = await import('../../../src-renderer/state/compaction')

const sessionId = 'ses_a'
const running = (compacting: boolean) => {
  useChatStore.setState((s) => ({ bySession: { ...s.bySession, [sessionId]: { ...s.bySession[sessionId], running: true } as never } }))
  useCompactionStore.setState((s) => ({ bySession: { ...s.bySession, [sessionId]: { ...s.bySession[sessionId], live: compacting ? ({ compactionId: 'cmp_1' } as never) : null } as never } }))
}

beforeEach(() => {
  asked.length = 0
})

describe('what Esc does, and which control says so', () => {
  it('during a compaction started from the chat, Esc cancels the compaction, and only Cancel names Esc', () => {
    running(true)
    expect(stopRunning(sessionId)).toBe(true)
    expect(asked).toEqual(['compaction.cancel'])
    expect(stopLabel(true)).not.toContain('Esc')
    expect(composerPlaceholder(false, true, true)).toBe('Compacting… (Esc to cancel)')
  })

  it('in an ordinary turn, Esc stops the turn, and Stop names Esc', () => {
    running(false)
    expect(stopRunning(sessionId)).toBe(true)
    expect(asked).toEqual(['run.cancel'])
    expect(stopLabel(false)).toBe('Stop (Esc)')
    expect(composerPlaceholder(false, true, false)).toBe('The agent is working… (Esc to stop)')
  })
})
