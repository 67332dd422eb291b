import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { PromptCache, TTL_MS, type CachePosition } from '../../src-main/simulator/cache'
import type { Ttl } from '../../src-main/simulator/request'

/** Positions for blocks `names` (each `tokens` tokens), keyed by their prefix, with breakpoints where asked. */
function positions(names: ReadonlyArray<string>, breakpoints: Readonly<Record<number, Ttl>>, tokens = 100): CachePosition[] {
  return names.map((_, i) => ({ key: names.slice(0, i + 1).join('/'), cum: (i + 1) * tokens, breakpoint: breakpoints[i] ?? null }))
}

const blocks = (n: number): string[] => Array.from({ length: n }, (_, i) => `b${i + 1}`)

function pass(cache: PromptCache, pos: CachePosition[], now: number, options: { model?: string; min?: number; tail?: number } = {}) {
  const plan = cache.lookup({ model: options.model ?? 'm', positions: pos, totalTokens: (pos[pos.length - 1]?.cum ?? 0) + (options.tail ?? 3), minCacheableTokens: options.min ?? 0, now })
  cache.commit(plan)
  return plan.usage
}

describe('PromptCache: the docs worked example (docs/reference/anthropic-api.md §6.4)', () => {
  it('turn 2 hits the turn-1 write at block 10 and writes at 15', () => {
    const cache = new PromptCache()
    pass(cache, positions(blocks(10), { 9: '5m' }), 0)
    const usage = pass(cache, positions(blocks(15), { 14: '5m' }), 1000)
    expect(usage.cache_read_input_tokens).toBe(1000)
    expect(usage.cache_creation_input_tokens).toBe(500)
  })

  it('turn 3 with one breakpoint at 35 misses block 15 (the window is 35..16)', () => {
    const cache = new PromptCache()
    pass(cache, positions(blocks(10), { 9: '5m' }), 0)
    pass(cache, positions(blocks(15), { 14: '5m' }), 1000)
    const usage = pass(cache, positions(blocks(35), { 34: '5m' }), 2000)
    expect(usage.cache_read_input_tokens).toBe(0)
    expect(usage.cache_creation_input_tokens).toBe(3500)
  })

  it('turn 3 hits block 15 when a second breakpoint sits there', () => {
    const cache = new PromptCache()
    pass(cache, positions(blocks(10), { 9: '5m' }), 0)
    pass(cache, positions(blocks(15), { 14: '5m' }), 1000)
    const usage = pass(cache, positions(blocks(35), { 14: '5m', 34: '5m' }), 2000)
    expect(usage.cache_read_input_tokens).toBe(1500)
    expect(usage.cache_creation_input_tokens).toBe(2000)
  })

  it('the lookback reaches exactly 20 positions, the breakpoint included', () => {
    const cache = new PromptCache()
    pass(cache, positions(blocks(10), { 9: '5m' }), 0)
    expect(pass(new PromptCache(), positions(blocks(29), { 28: '5m' }), 1).cache_read_input_tokens).toBe(0)
    expect(pass(cache, positions(blocks(29), { 28: '5m' }), 1).cache_read_input_tokens).toBe(1000)
    const cache2 = new PromptCache()
    pass(cache2, positions(blocks(10), { 9: '5m' }), 0)
    expect(pass(cache2, positions(blocks(30), { 29: '5m' }), 1).cache_read_input_tokens).toBe(0)
  })
})

describe('PromptCache: usage arithmetic (§5.4)', () => {
  it('reproduces the docs 1-hour example: input 2048, read 1800, creation 248 = 148 (5m) + 100 (1h)', () => {
    const cache = new PromptCache()
    const shared = [{ key: 'p', cum: 1800, breakpoint: '1h' as Ttl }]
    pass(cache, shared, 0)
    const usage = pass(cache, [...shared, { key: 'p/a', cum: 1900, breakpoint: '1h' }, { key: 'p/a/b', cum: 2048, breakpoint: '5m' }], 1000, { tail: 2048 })
    expect(usage).toEqual({
      input_tokens: 2048,
      cache_read_input_tokens: 1800,
      cache_creation_input_tokens: 248,
      cache_creation: { ephemeral_5m_input_tokens: 148, ephemeral_1h_input_tokens: 100 },
    })
  })

  it('without breakpoints everything is input and the cache fields are zero', () => {
    const usage = pass(new PromptCache(), positions(blocks(3), {}), 0)
    expect(usage).toEqual({ input_tokens: 303, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 } })
  })
})

describe('PromptCache: TTL, minimum, models, availability', () => {
  it('expires a 5m entry after five minutes measured from the writing request start', () => {
    const cache = new PromptCache()
    pass(cache, positions(blocks(2), { 1: '5m' }), 0)
    expect(pass(cache, positions(blocks(2), { 1: '5m' }), TTL_MS['5m'] - 1).cache_read_input_tokens).toBe(200)
    // That read refreshed the entry: five more minutes from the reading request's start.
    expect(pass(cache, positions(blocks(2), { 1: '5m' }), 2 * TTL_MS['5m'] - 2).cache_read_input_tokens).toBe(200)
    expect(pass(cache, positions(blocks(2), { 1: '5m' }), 4 * TTL_MS['5m']).cache_read_input_tokens).toBe(0)
  })

  it('keeps a 1h entry past five minutes', () => {
    const cache = new PromptCache()
    pass(cache, positions(blocks(2), { 1: '1h' }), 0)
    expect(pass(cache, positions(blocks(2), { 1: '5m' }), 30 * 60_000).cache_read_input_tokens).toBe(200)
    expect(pass(cache, positions(blocks(2), { 1: '5m' }), 95 * 60_000).cache_read_input_tokens).toBe(0)
  })

  it('neither reads nor writes below the minimum cacheable length', () => {
    const cache = new PromptCache()
    const usage = pass(cache, positions(blocks(2), { 1: '5m' }), 0, { min: 1024 })
    expect(usage.cache_creation_input_tokens).toBe(0)
    expect(usage.input_tokens).toBe(203)
    expect(cache.liveEntries('m', 0)).toHaveLength(0)
  })

  it('keeps a cache per model', () => {
    const cache = new PromptCache()
    pass(cache, positions(blocks(2), { 1: '5m' }), 0, { model: 'a' })
    expect(pass(cache, positions(blocks(2), { 1: '5m' }), 1, { model: 'b' }).cache_read_input_tokens).toBe(0)
    expect(pass(cache, positions(blocks(2), { 1: '5m' }), 2, { model: 'a' }).cache_read_input_tokens).toBe(200)
  })

  it('makes a write readable only once the writing response has started (commit)', () => {
    const cache = new PromptCache()
    const query = { model: 'm', positions: positions(blocks(2), { 1: '5m' as Ttl }), totalTokens: 203, minCacheableTokens: 0, now: 0 }
    const first = cache.lookup(query)
    const parallel = cache.lookup({ ...query, now: 1 })
    expect(parallel.usage.cache_read_input_tokens).toBe(0)
    cache.commit(first)
    expect(cache.lookup({ ...query, now: 2 }).usage.cache_read_input_tokens).toBe(200)
  })
})

describe('PromptCache: property', () => {
  /**
   * Random passes over prefixes of one long conversation (so they share prefixes), with random breakpoints and
   * clock jumps: read + creation + input equals the request's total, and a read never exceeds the longest
   * prefix written and still alive.
   */
  it('keeps the usage arithmetic and never reads more than was written within TTL', () => {
    const passArb = fc.record({
      length: fc.integer({ min: 1, max: 45 }),
      branch: fc.integer({ min: 0, max: 2 }),
      breakpoints: fc.uniqueArray(fc.record({ at: fc.integer({ min: 0, max: 44 }), ttl: fc.constantFrom<Ttl>('5m', '1h') }), { maxLength: 4, selector: (b) => b.at }),
      jumpMs: fc.constantFrom(0, 1000, 4 * 60_000, 6 * 60_000, 61 * 60_000),
      min: fc.constantFrom(0, 500, 2000),
    })
    fc.assert(
      fc.property(fc.array(passArb, { minLength: 1, maxLength: 25 }), (passes) => {
        const cache = new PromptCache()
        let now = 0
        for (const p of passes) {
          now += p.jumpMs
          // Blocks after position 20 differ per branch, so prefixes are shared up to there and diverge after.
          const names = Array.from({ length: p.length }, (_, i) => (i < 20 ? `s${i}` : `x${p.branch}-${i}`))
          // TTLs must not increase along the sequence (1h before 5m), as the API requires.
          const marks = p.breakpoints.filter((b) => b.at < p.length).sort((a, b) => a.at - b.at)
          const firstFive = marks.findIndex((b) => b.ttl === '5m')
          const bps: Record<number, Ttl> = {}
          marks.forEach((b, i) => (bps[b.at] = firstFive >= 0 && i > firstFive ? '5m' : b.ttl))
          const pos = names.map((_, i) => ({ key: names.slice(0, i + 1).join('/'), cum: (i + 1) * 37, breakpoint: bps[i] ?? null }))
          const total = pos[pos.length - 1]!.cum + 3
          const live = cache.liveEntries('m', now)
          const longest = Math.max(0, ...live.filter((e) => pos.some((q) => q.key === e.key)).map((e) => e.tokens))
          const plan = cache.lookup({ model: 'm', positions: pos, totalTokens: total, minCacheableTokens: p.min, now })
          const u = plan.usage
          expect(u.cache_read_input_tokens + u.cache_creation_input_tokens + u.input_tokens).toBe(total)
          expect(u.cache_creation.ephemeral_5m_input_tokens + u.cache_creation.ephemeral_1h_input_tokens).toBe(u.cache_creation_input_tokens)
          expect(u.cache_read_input_tokens).toBeLessThanOrEqual(longest)
          expect(Math.min(u.input_tokens, u.cache_read_input_tokens, u.cache_creation.ephemeral_5m_input_tokens, u.cache_creation.ephemeral_1h_input_tokens)).toBeGreaterThanOrEqual(0)
          cache.commit(plan)
        }
      }),
      { numRuns: 300 },
    )
  })
})

describe('PromptCache: an expired entry written again', () => {
  it('takes the new write\'s TTL, not the expired 1h one, whenever the sweep runs', () => {
    const cache = new PromptCache()
    const min = 60_000
    pass(cache, positions(blocks(3), { 2: '1h' }), 0)
    // 61 minutes on, the 1h entry has expired: the same prefix is written again, for 5 minutes.
    expect(pass(cache, positions(blocks(3), { 2: '5m' }), 61 * min).cache_creation_input_tokens).toBe(300)
    // Read 3 minutes later, it is refreshed for 5 minutes from then (64 → 69)...
    expect(pass(cache, positions(blocks(3), { 2: '5m' }), 64 * min).cache_read_input_tokens).toBe(300)
    // ...so 30 minutes later it is gone; kept as the expired 1h entry it would still be read.
    expect(pass(cache, positions(blocks(3), { 2: '5m' }), 94 * min).cache_read_input_tokens).toBe(0)
  })
})
