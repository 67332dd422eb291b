/**
 * The Claude Code dialog says an imported session's misses in the Cache view's figures: the same misses (a
 * compaction's first request is not one) and the same loss, with the misses that lost nothing told apart.
 */
import { describe, expect, it } from 'vitest'
import { missLine } from '../../../src-renderer/features/transcripts/miss-line'

const pass = (outcome: 'full' | 'partial' | 'miss' | null, cause: string | null, missTokens = 0, missUsd: number | null = 0) => ({ passId: `p${Math.random()}`, seq: 1, outcome, cause, summary: null, missTokens, missUsd })
const compaction = { trigger: 'auto', preTokens: 170_251, tokensAfter: 36_081, summaryChars: 15_743, costUsd: 0.2 }

describe("the dialog's miss line", () => {
  // 4d5611e5 as the Cache view shows it (review 23-cc-cache.png): three misses listed, two of them lost $0.9177.
  const passes = [
    pass(null, 'cold'),
    ...Array.from({ length: 134 }, () => pass('full', 'none')),
    pass('miss', 'ttl_expired', 0, 0), // 4.2 h: longer than any cache lifetime
    pass('miss', 'ttl_expired', 82_858, 0.4764),
    pass('partial', 'not_visible', 76_753, 0.4413),
    pass('miss', 'compaction', 0, 0),
  ]
  const cache = { passes, totals: { missTokens: 159_611, missUsd: 0.9177 } } as never

  it('counts the misses the Cache view lists, and says what they lost', () => {
    const line = missLine({ hits: 134, misses: { idle_gap: 2, not_visible: 1 }, compactions: [compaction] }, cache)
    expect(line).toBe(
      '134 hits; 3 misses or partial hits: 2 after a pause, 1 from a change the transcript does not record. Lost to misses: $0.9177 (159,611 tokens paid for that could have been read), from 2 of them. The other came after a pause longer than any cache entry is kept (1 h at most): nothing could have stayed cached. The first request after the compaction is not a miss: it sends a new, shorter history by design.',
    )
  })

  it("counts as the inspector's badges and the Cache view's rows do: the first request is neither, a partial hit is named so", () => {
    // tool_heavy as the review found it: the dialog said "2 hits; 1 miss", the inspector hit, hit, partial, hit, and
    // the Cache view "pass 3 partial". The first request read what was cached before the transcript begins.
    const imported = [pass(null, 'first'), pass('full', 'hit'), pass('partial', 'not_visible', 1_200, 0.0036), pass('full', 'hit')]
    const line = missLine({ hits: 2, misses: { not_visible: 1 }, compactions: [] }, { passes: imported, totals: { missTokens: 1_200, missUsd: 0.0036 } } as never)
    expect(line).toBe('2 hits; 1 partial hit, from a change the transcript does not record. Lost to misses: $0.0036 (1,200 tokens paid for that could have been read).')
  })

  it("says the transcript's own counts when the Cache figures cannot be read, and no miss when there is none", () => {
    expect(missLine({ hits: 134, misses: { idle_gap: 2, not_visible: 1 }, compactions: [] }, null)).toBe('134 hits; 3 misses: 2 after a pause, 1 from a change the transcript does not record.')
    expect(missLine({ hits: 1, misses: {}, compactions: [] }, null)).toBe('1 hit; no miss.')
    expect(missLine({ hits: 2, misses: { not_visible: 1 }, compactions: [] }, null)).toBe('2 hits; 1 miss, from a change the transcript does not record.')
  })
})
