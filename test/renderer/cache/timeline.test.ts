import { describe, expect, it } from 'vitest'
import type { CacheSummaryView, PassSummaryView } from '../../../src-preload/contract'
import { buildTimeline, pricesLookup, savedByCache } from '../../../src-renderer/features/cache/model/timeline'

const MIN = 60_000
const usage = { input_tokens: 3, output_tokens: 20, cache_read_input_tokens: 5_000, cache_creation_input_tokens: 200 }
const pass = (id: string, seq: number, at: number, answered: boolean) =>
  ({ id, seq, kind: 'main', model: 'claude-sonnet-4-6', queuedAt: at, doneAt: at + 2_000, attempts: [{ startedAt: at }], usage: answered ? usage : null, costUsd: answered ? 0.01 : 0, status: answered ? 'done' : 'failed' }) as unknown as PassSummaryView
const row = (passId: string, seq: number, cause: string) => ({ passId, seq, outcome: cause === 'no_response' ? 'miss' : 'full', cause, summary: null, missTokens: 0, missUsd: 0 })

describe('the cache timeline', () => {
  it('measures an idle gap from the last pass that got a response: one that got none touched no entry', () => {
    const passes = [pass('a', 1, 0, true), pass('b', 2, 3 * MIN, false), pass('c', 3, 6 * MIN, true)]
    const summary = { passes: [row('a', 1, 'cold'), row('b', 2, 'no_response'), row('c', 3, 'ttl_expired')] } as unknown as CacheSummaryView
    const idle = buildTimeline(passes, summary, []).markers.filter((m) => m.kind === 'idle')
    expect(idle).toEqual([expect.objectContaining({ beforeIndex: 2, label: 'idle 6 m since the last pass that got a response (longer than the 5 m TTL)' })])
  })

  it('says nothing of a gap shorter than the TTL', () => {
    const passes = [pass('a', 1, 0, true), pass('c', 2, 3 * MIN, true)]
    const summary = { passes: [row('a', 1, 'cold'), row('c', 2, 'none')] } as unknown as CacheSummaryView
    expect(buildTimeline(passes, summary, []).markers).toEqual([])
  })
})

describe('what the cache saved', () => {
  const sonnet = { input: 3, output: 15, cacheWrite5m: 3.75, cacheWrite1h: 6, cacheRead: 0.3 }
  const models = [{ id: 'claude-sonnet-4-6', prices: sonnet }]

  it('prices a pass whose model is named with a date, as Claude Code names it, by the model table', () => {
    const dated = { ...pass('a', 1, 0, true), model: 'claude-sonnet-4-6-20251001' } as PassSummaryView
    const bars = buildTimeline([dated], null, []).bars
    // 5,000 read at 0.3 instead of 3, 200 written at 3.75 instead of 3, per million.
    expect(savedByCache(bars, pricesLookup(models))).toBeCloseTo((5_000 * 2.7 - 200 * 0.75) / 1_000_000, 12)
  })

  it('says nothing (null) for a model the table does not know, nor for a date that is not one', () => {
    const lookup = pricesLookup(models)
    expect(lookup('claude-sonnet-4-6')).toBe(sonnet)
    expect(lookup('claude-sonnet-4-6-latest')).toBeNull()
    expect(lookup('gpt-5')).toBeNull()
  })
})
