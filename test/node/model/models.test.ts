import { describe, expect, it } from 'vitest'
import { MODELS, costUsd, findModel } from '../../../src-main/node/model/models'

describe('model table', () => {
  it('finds models by id and by dated id', () => {
    expect(findModel('claude-haiku-4-5-20251001')?.id).toBe('claude-haiku-4-5')
    expect(findModel('claude-nope')).toBeNull()
  })

  it('applies the cache multipliers of docs/reference/anthropic-api.md §5.5', () => {
    for (const m of MODELS) {
      expect(m.prices.cacheWrite5mPerMTok).toBeCloseTo(m.prices.inputPerMTok * 1.25)
      expect(m.prices.cacheWrite1hPerMTok).toBeCloseTo(m.prices.inputPerMTok * 2)
      expect(m.prices.source.length).toBeGreaterThan(0)
    }
    expect(findModel('claude-sonnet-4-6')!.prices).toMatchObject({ inputPerMTok: 3, cacheWrite5mPerMTok: 3.75, cacheWrite1hPerMTok: 6, cacheReadPerMTok: 0.3, outputPerMTok: 15 })
    expect(findModel('claude-opus-5-5')!.prices.cacheReadPerMTok).toBeCloseTo(0.2)
  })

  it('prices a pass: input, 5m and 1h writes, reads and output each at their rate', () => {
    const usage = {
      input_tokens: 1_000_000,
      output_tokens: 1_000_000,
      cache_read_input_tokens: 1_000_000,
      cache_creation_input_tokens: 2_000_000,
      cache_creation: { ephemeral_5m_input_tokens: 1_000_000, ephemeral_1h_input_tokens: 1_000_000 },
    }
    expect(costUsd('claude-sonnet-4-6', usage)).toBeCloseTo(3 + 3.75 + 6 + 0.3 + 15)
  })

  it('prices writes as 5m when the usage has no TTL split, and knows nothing of unknown models', () => {
    const usage = { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 1_000_000 }
    expect(costUsd('claude-haiku-4-5', usage)).toBeCloseTo(1.25)
    expect(costUsd('claude-nope', usage)).toBeNull()
  })

  it('has a context window, max output and minimum cacheable length for every model', () => {
    for (const m of MODELS) {
      expect(m.contextWindow).toBeGreaterThanOrEqual(200_000)
      expect(m.maxOutputTokens).toBeGreaterThanOrEqual(64_000)
      expect([512, 1024, 2048, 4096]).toContain(m.minCacheableTokens)
    }
  })
})
