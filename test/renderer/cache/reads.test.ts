/**
 * The Cache view reads a session's figures again each time one of its passes completes, and reads overlap (the first
 * read attributes every pass, and takes longer). Under Node, with the contract's client replaced by one whose answers
 * the test releases in any order: the figures shown are those of the latest read.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest'

type Pending = { name: string; input: { sessionId?: string }; answer: (value: unknown) => void }
const pending: Pending[] = []

vi.mock('../../../src-renderer/platform/client', () => {
  const request = (name: string, input: Pending['input']) => new Promise((resolve) => pending.push({ name, input, answer: (value) => resolve({ ok: true, value }) }))
  return {
    client: { request, on: () => () => {} },
    call: async (name: string, input: Pending['input']) => ((await request(name, input)) as { value: unknown }).value,
  }
})
// The theme touches the document, which Node has not.
vi.mock('../../../src-renderer/features/settings/theme', () => ({ applyTheme: () => {} }))

const { loadCache } = await import('../../../src-renderer/features/cache/actions')
const { useCacheStore } = await import('../../../src-renderer/state/cache')
const { useChatStore } = await import('../../../src-renderer/state/chat')
const { useSettingsStore } = await import('../../../src-renderer/state/settings')

/** Answers the oldest pending summary and pass list, as a session with `passes` passes has them. */
function answerOldest(passes: number): void {
  for (const name of ['session.cacheSummary', 'pass.list']) {
    const i = pending.findIndex((p) => p.name === name)
    const value = name === 'pass.list' ? Array.from({ length: passes }, (_, n) => ({ id: `pass${n + 1}` })) : { passes }
    pending.splice(i, 1)[0]!.answer(value)
  }
}
const flush = () => new Promise((r) => setTimeout(r, 0))
const shown = () => useCacheStore.getState().bySession.s1

beforeEach(() => {
  pending.length = 0
  useCacheStore.setState({ bySession: {} })
  // The chat and the settings are loaded: a read of the figures reads nothing more.
  useChatStore.setState({ bySession: { s1: { loaded: true } as never } })
  useSettingsStore.setState({ data: {} as never })
})

describe("a session's cache figures", () => {
  it('are those read after the last pass when a read made before it answers last', async () => {
    void loadCache('s1')
    // A pass completes while the first read is on its way: the view reads again.
    void loadCache('s1')
    // The second read answers first, with the pass that completed; the first one last, without it.
    const [first, second] = [pending.splice(0, 2), pending.splice(0, 2)]
    pending.push(...second, ...first)
    answerOldest(2)
    await flush()
    answerOldest(1)
    await flush()
    expect(shown()?.passes).toHaveLength(2)
    expect(shown()?.summary).toEqual({ passes: 2 })
    expect(shown()?.loading).toBe(false)
  })
})
