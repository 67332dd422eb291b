/**
 * The Cache view reads a session's figures again each time one of its passes completes, and reads overlap (the first
 * read attributes every pass, and takes longer). Under Node, with the contract's client replaced by one whose answers
 * the test releases in any order: the figures shown are those of the latest read.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { answerHeld, held, settle } from '../../support/held-client'


vi.mock('../../../src-renderer/platform/client', async () => (await import('../../support/held-client')).heldClientModule)
// The theme touches the document, which Node has not.
vi.mock('../../../src-renderer/features/settings/theme', () => ({ applyTheme: () => {} }))

const { loadCache } = await import('../../../src-renderer/features/cache/actions')
const { useCacheStore } = await import('../../../src-renderer/state/cache')
const { useChatStore } = await import('../../../src-renderer/state/chat')
const { useSettingsStore } = await import('../../../src-renderer/state/settings')

/** Answers the oldest held summary and pass list, as a session with `passes` passes has them. */
function answerOldest(passes: number): void {
  answerHeld('session.cacheSummary', {}, { passes })
  answerHeld('pass.list', {}, Array.from({ length: passes }, (_, n) => ({ id: `pass${n + 1}` })))
}
const shown = () => useCacheStore.getState().bySession.s1

beforeEach(() => {
  held.length = 0
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
    const [first, second] = [held.splice(0, 2), held.splice(0, 2)]
    held.push(...second, ...first)
    answerOldest(2)
    await settle()
    answerOldest(1)
    await settle()
    expect(shown()?.passes).toHaveLength(2)
    expect(shown()?.summary).toEqual({ passes: 2 })
    expect(shown()?.loading).toBe(false)
  })
})
