/**
 * The attribution over the usage recorded in the real Claude Code sessions (test/fixtures/real/spotter/): per
 * request, the cached share and where it falls short of the best possible hit.
 */
import { describe, expect, it } from 'vitest'
import { usageLimits, usageRequestsOf } from '../../../src-main/engine/cache'
import { importSessionText } from '../../../src-main/engine/transcripts'
import { readFixture, SPOTTER_SESSIONS } from '../transcripts/fixtures'

const usage = (read: number, write: number, input = 3) => ({ input_tokens: input, output_tokens: 1, cache_read_input_tokens: read, cache_creation_input_tokens: write })

describe('usageLimits', () => {
  it('counts the previous prompt as readable, nothing on the first request or after an hour', () => {
    const hour = 3_600_000
    const out = usageLimits([
      { model: 'm', startedAt: 0, usage: usage(0, 1000), afterCompaction: false },
      { model: 'm', startedAt: 60_000, usage: usage(1003, 200), afterCompaction: false },
      { model: 'm', startedAt: 120_000, usage: usage(500, 710), afterCompaction: false },
      { model: 'm', startedAt: 120_000 + hour + 1, usage: usage(0, 1300), afterCompaction: false },
      { model: 'm', startedAt: 130_000 + hour, usage: usage(300, 100), afterCompaction: true },
    ])
    expect(out.requests.map((r) => [r.reason, r.limit, r.shortfall])).toEqual([
      ['first', 0, 0],
      ['previous_prompt', 1003, 0],
      ['previous_prompt', 1206, 706],
      ['idle_beyond_ttl', 0, 0],
      ['after_compaction', 300, 0],
    ])
    expect(out.limitShare).toBeGreaterThan(out.cachedShare)
  })

  it.each(SPOTTER_SESSIONS)('session %s: Claude Code cached 96–99% of its input, and the limit is at least that', (id) => {
    const session = importSessionText(readFixture('spotter', `${id}.jsonl`).text)
    const result = usageLimits(usageRequestsOf(session))
    expect(result.cachedShare).toBeGreaterThan(0.95)
    expect(result.cachedShare).toBeLessThan(0.99)
    expect(result.limitShare).toBeGreaterThanOrEqual(result.cachedShare)
    expect(result.limitShare).toBeLessThan(1)
    // Every request is accounted for, and no request is said to have read more than its limit.
    expect(result.requests).toHaveLength(session.requests.length)
    expect(result.requests.every((r) => r.read <= r.limit)).toBe(true)
  })
})
