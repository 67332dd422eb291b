import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DEFAULT_MODEL_ID, MODELS, costUsd, findModel, modelProblem, servedModels } from '../../../src-main/node/model/models'
import { isRetired, lifeOf, lifeWords, MODEL_NAMES, nextLifeChange } from '../../../src-preload/models'

/**
 * The SDK's own list of deprecated models and their end of life ("November 30th, 2026"), read from its file: the SDK
 * does not export it, and warns from it on every request naming one of them.
 */
function sdkEndsOfLife(): Map<string, string> {
  const sdkRoot = dirname(createRequire(import.meta.url).resolve('@anthropic-ai/sdk'))
  const text = readFileSync(join(sdkRoot, 'internal/data/deprecated-models.js'), 'utf8')
  const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']
  const out = new Map<string, string>()
  for (const [, id, month, day, year] of text.matchAll(/'([\w.-]+)': '(\w+) (\d+)\w*, (\d{4})'/g)) {
    out.set(id!, `${year}-${String(months.indexOf(month!) + 1).padStart(2, '0')}-${day!.padStart(2, '0')}`)
  }
  return out
}

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

describe("a model's end of life (decision 0065)", () => {
  it('is the day the SDK names for every model of the list it marks deprecated, and none for the others', () => {
    const sdk = sdkEndsOfLife()
    expect(sdk.size).toBeGreaterThan(0)
    for (const { id } of MODEL_NAMES) expect({ id, endOfLife: lifeOf(id, 0)?.endOfLife ?? null }).toEqual({ id, endOfLife: sdk.get(id) ?? null })
    // A dated id has the day of its model.
    expect(lifeOf('claude-sonnet-4-5-20250929', 0)?.endOfLife).toBe(sdk.get('claude-sonnet-4-5-20250929'))
  })

  it('retires the model from the first moment of that day, UTC', () => {
    expect(lifeOf('claude-sonnet-4-5', Date.parse('2026-11-29T23:59:59.999Z'))).toEqual({ state: 'retiring', endOfLife: '2026-11-30' })
    expect(lifeOf('claude-sonnet-4-5', Date.parse('2026-11-30T00:00:00Z'))).toEqual({ state: 'retired', endOfLife: '2026-11-30' })
    expect(lifeWords(lifeOf('claude-sonnet-4-5', Date.parse('2026-12-03T00:00:00Z'))!)).toBe('retired 30 Nov 2026')
    expect(lifeWords(lifeOf('claude-opus-4-5', Date.parse('2026-12-03T00:00:00Z'))!)).toBe('retires 22 Jan 2027')
    expect(lifeOf('claude-sonnet-4-6', Date.parse('2030-01-01T00:00:00Z'))).toBeNull()
    expect(lifeOf('claude-nonesuch-9', Date.parse('2030-01-01T00:00:00Z'))).toBeNull()
    expect(isRetired('claude-sonnet-4-5', Date.parse('2030-01-01T00:00:00Z'))).toBe(true)
  })

  it('tells a view open across a day when to draw its model list again: the first moment of the next end of life', () => {
    // Sonnet 4.5 first, then Opus 4.5, then none: a window open on 3 Dec 2026 waits for 22 Jan 2027.
    expect(nextLifeChange(Date.parse('2026-11-29T12:00:00Z'))).toBe(Date.parse('2026-11-30T00:00:00Z'))
    expect(nextLifeChange(Date.parse('2026-11-30T00:00:00Z'))).toBe(Date.parse('2027-01-22T00:00:00Z'))
    expect(nextLifeChange(Date.parse('2026-12-03T09:00:00Z'))).toBe(Date.parse('2027-01-22T00:00:00Z'))
    expect(nextLifeChange(Date.parse('2027-01-22T00:00:00Z'))).toBeNull()
    // Settings watches the days of the host's table, where a model may have none (null) and one may be malformed.
    expect(nextLifeChange(0, [null, '2027-03-01', 'soon', '', '2027-02-01'])).toBe(Date.parse('2027-02-01T00:00:00Z'))
    expect(nextLifeChange(0, [])).toBeNull()
  })

  it('is announced for no model the app starts on by default: an SDK update that deprecates it needs a new default', () => {
    expect(lifeOf(DEFAULT_MODEL_ID, 0)).toBeNull()
  })

  it('takes a retired model out of the choices but keeps it in the table, to price the passes it made', () => {
    const now = Date.parse('2026-12-03T09:00:00Z')
    expect(servedModels(now).map((m) => m.id)).not.toContain('claude-sonnet-4-5')
    expect(servedModels(now).map((m) => m.id)).toContain('claude-opus-4-5')
    expect(findModel('claude-sonnet-4-5')).not.toBeNull()
    expect(modelProblem('claude-sonnet-4-5-20250929', now)).toMatch(/^Claude Sonnet 4\.5 \(claude-sonnet-4-5-20250929\) was retired on 30 Nov 2026: the API no longer serves it; choose one of claude-opus-5-5, .*claude-opus-4-5$/)
    expect(modelProblem('claude-opus-4-5', now)).toBeNull()
    expect(modelProblem('claude-sonnet-4-5', Date.parse('2026-11-01T00:00:00Z'))).toBeNull()
    expect(modelProblem('claude-nonesuch-9', now)).toMatch(/^Unknown model claude-nonesuch-9: choose one of /)
  })
})
