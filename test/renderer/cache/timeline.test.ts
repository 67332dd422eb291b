import { describe, expect, it } from 'vitest'
import type { CacheSummaryView, PassSummaryView } from '../../../src-preload/contract'
import { buildTimeline } from '../../../src-renderer/features/cache/model/timeline'

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
