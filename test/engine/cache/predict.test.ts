import { describe, expect, it } from 'vitest'
import { CacheState, predict, TokenScale, walkRequest, type PassCacheFacts } from '../../../src-main/engine/cache'
import { TOKENS_AFTER_LAST_BLOCK } from '../../../src-main/engine/cache/scale'
import type { CacheTtl, WireMessage } from '../../../src-main/engine/model/wire'
import { hasher, request, text, user } from './helpers'

/** A conversation of `n` single-block user messages with breakpoints on the given 1-based blocks. */
function blocks(n: number, marked: ReadonlyArray<number>, ttl: CacheTtl = '5m'): WireMessage[] {
  return Array.from({ length: n }, (_, i) => user(text(`block ${i + 1}`, 25, marked.includes(i + 1) ? ttl : null)))
}

function wrote(passId: string, seq: number, keys: ReadonlyArray<string>, at: number, ttl: CacheTtl = '5m', availableAt = at): PassCacheFacts {
  return {
    passId,
    seq,
    model: 'claude-sonnet-4-6',
    attempts: [{ startedAt: at, availableAt }],
    startedAt: at,
    reads: [],
    writes: keys.map((key) => ({ key, ttl })),
    anchors: [],
    breakpoints: [],
    totalTokens: null,
    outputTokens: 0,
    ratio: null,
  }
}

function run(messages: WireMessage[], facts: PassCacheFacts[], now: number, min = 0) {
  const walk = walkRequest(request(messages), hasher)
  const scale = new TokenScale({ walk, anchors: new Map(), realTotal: null, fallbackRatio: 1 })
  return { walk, prediction: predict({ walk, state: CacheState.at(facts, now), now, scale, minCacheableTokens: min }) }
}

describe('predict: the docs worked example (§6.4, turns of 10, 15 and 35 blocks)', () => {
  const t1 = run(blocks(10, [10]), [], 0)
  const turn1 = wrote('p1', 1, [t1.walk.keys[9]!], 0)

  it('turn 1 writes at block 10', () => {
    expect(t1.prediction.readPosition).toBe(-1)
    expect(t1.prediction.writes.map((w) => w.position)).toEqual([9])
  })

  it('turn 2 hits block 10 through the lookback and writes at 15', () => {
    const t2 = run(blocks(15, [15]), [turn1], 1000)
    expect(t2.prediction.readPosition).toBe(9)
    expect(t2.prediction.breakpoints[0]).toMatchObject({ position: 14, action: 'write', foundAt: 9 })
    expect(t2.prediction.tokens.read).toBe(t2.walk.cum[9])
    expect(t2.prediction.tokens.write5m).toBe(t2.walk.cum[14]! - t2.walk.cum[9]!)
  })

  it('turn 3 finds nothing from a single breakpoint at 35 (blocks 35..16 are the window), and hits 15 with a second one there', () => {
    const t2 = run(blocks(15, [15]), [turn1], 1000)
    const turn2 = wrote('p2', 2, [t2.walk.keys[14]!], 1000)
    const single = run(blocks(35, [35]), [turn1, turn2], 2000)
    expect(single.prediction.readPosition).toBe(-1)
    const two = run(blocks(35, [15, 35]), [turn1, turn2], 2000)
    expect(two.prediction.readPosition).toBe(14)
    expect(two.prediction.breakpoints.map((b) => b.action)).toEqual(['read', 'write'])
  })
})

describe('predict: TTL, refresh, availability and the minimum', () => {
  const first = run(blocks(4, [4]), [], 0)
  const key = first.walk.keys[3]!

  it('counts the TTL from the writing request start: 5 m later the entry is gone', () => {
    expect(run(blocks(5, [4, 5]), [wrote('p1', 1, [key], 0, '5m', 30_000)], 299_999).prediction.readPosition).toBe(3)
    expect(run(blocks(5, [4, 5]), [wrote('p1', 1, [key], 0, '5m', 30_000)], 300_000).prediction.readPosition).toBe(-1)
  })

  it('refreshes an entry on read, so a chain of reads keeps it alive past its first TTL', () => {
    const reader: PassCacheFacts = { ...wrote('p2', 2, [], 240_000), reads: [{ key, ttl: '5m', exact: true }] }
    expect(run(blocks(5, [4, 5]), [wrote('p1', 1, [key], 0), reader], 500_000).prediction.readPosition).toBe(3)
  })

  it('keeps a 1h entry through a 30-minute gap', () => {
    expect(run(blocks(5, [4, 5]), [wrote('p1', 1, [key], 0, '1h')], 30 * 60_000).prediction.readPosition).toBe(3)
  })

  it('cannot read an entry whose response has not begun (§5.1 concurrency)', () => {
    expect(run(blocks(5, [4, 5]), [wrote('p1', 1, [key], 0, '5m', 5_000)], 4_000).prediction.readPosition).toBe(-1)
    expect(run(blocks(5, [4, 5]), [wrote('p1', 1, [key], 0, '5m', 5_000)], 5_000).prediction.readPosition).toBe(3)
  })

  it('neither reads nor writes at a breakpoint below the minimum (§5.2)', () => {
    const small = run(blocks(5, [4, 5]), [wrote('p1', 1, [key], 0)], 1_000, 10_000)
    expect(small.prediction.readPosition).toBe(-1)
    expect(small.prediction.writes).toEqual([])
    expect(small.prediction.breakpoints.map((b) => b.action)).toEqual(['below_minimum', 'below_minimum'])
  })
})

describe('TokenScale: a count no usage pinned is scaled from the request that made it nearest a real one', () => {
  // Ten blocks, then a long tail: the first request pinned its total just after block 10; a later one sends the same
  // ten blocks with a long tail whose ratio of real to estimated tokens is another.
  const first = walkRequest(request(blocks(11, [10, 11])), hasher)
  const later = walkRequest(request([...blocks(10, [10]), ...Array.from({ length: 40 }, (_, i) => user(text(`tail ${i}`, 25, i === 39 ? '5m' : null)))]), hasher)

  it('takes the earlier count where it lay nearer a real one, and not where this request has a nearer one', () => {
    const firstScale = new TokenScale({ walk: first, anchors: new Map([[first.keys[10]!, 110]]), realTotal: 113, fallbackRatio: 1 })
    const at10 = firstScale.at(9)
    expect(firstScale.span(10)).toBe(0)
    const estimates = new Map([[first.keys[9]!, { tokens: at10, span: firstScale.span(9) }]])
    // The later request's own scale takes the tail's ratio (real total ×3): its count at block 10 is far off.
    const own = new TokenScale({ walk: later, anchors: new Map(), realTotal: later.estimatedTotal * 3, fallbackRatio: 1 })
    expect(own.at(9)).toBeGreaterThan(at10 * 2)
    expect(firstScale.span(9)).toBeLessThan(own.span(9))
    const scaled = new TokenScale({ walk: later, anchors: new Map(), estimates, realTotal: later.estimatedTotal * 3, fallbackRatio: 1 })
    expect(scaled.at(9)).toBe(at10)
    // Scaled from it, not a real count: a read of exactly that many tokens is not "known" there.
    expect(scaled.exact(9)).toBe(false)
    expect(scaled.span(9)).toBe(firstScale.span(9))
    // A real count at the same key beats it.
    const pinned = new TokenScale({ walk: later, anchors: new Map([[later.keys[9]!, at10 + 7]]), estimates, realTotal: later.estimatedTotal * 3, fallbackRatio: 1 })
    expect(pinned.at(9)).toBe(at10 + 7)
  })

  it('leaves out an earlier count that does not lie between the real counts around it', () => {
    const estimates = new Map([[later.keys[9]!, { tokens: 5, span: 1 }]])
    const scale = new TokenScale({ walk: later, anchors: new Map([[later.keys[4]!, 50]]), estimates, realTotal: later.estimatedTotal, fallbackRatio: 1 })
    expect(scale.at(9)).toBeGreaterThan(50)
  })
})

describe('TokenScale: a prefix counted with the service counter is a real count', () => {
  const later = walkRequest(request([...blocks(10, [10]), ...Array.from({ length: 40 }, (_, i) => user(text(`tail ${i}`, 25, i === 39 ? '5m' : null)))]), hasher)

  it('pins the count where no usage did, exactly, and yields to a usage count of the same prefix', () => {
    const skewed = new TokenScale({ walk: later, anchors: new Map(), realTotal: later.estimatedTotal * 3, fallbackRatio: 1 })
    expect(skewed.exact(9)).toBe(false)
    const counted = new TokenScale({ walk: later, anchors: new Map(), counted: new Map([[later.keys[9]!, 104]]), realTotal: later.estimatedTotal * 3, fallbackRatio: 1 })
    expect(counted.exact(9)).toBe(true)
    expect(counted.at(9)).toBe(104)
    expect(counted.span(9)).toBe(0)
    // Counts before it are scaled between the start and it, not by the tail's ratio.
    expect(counted.at(4)).toBeLessThan(skewed.at(4))
    const both = new TokenScale({ walk: later, anchors: new Map([[later.keys[9]!, 101]]), counted: new Map([[later.keys[9]!, 104]]), realTotal: null, fallbackRatio: 1 })
    expect(both.at(9)).toBe(101)
  })
})

describe('predict: a prefix at the edge of the minimum', () => {
  // As the service counts: its total holds the tokens after the last block (TOKENS_AFTER_LAST_BLOCK), which no prefix
  // holds. A request of 4,098 tokens with its breakpoint on its last block has a 4,095-token prefix.
  const messages = blocks(10, [10])
  const walk = walkRequest(request(messages), hasher)
  const at = (total: number) => predict({ walk, state: CacheState.at([], 0), now: 0, scale: new TokenScale({ walk, anchors: new Map(), realTotal: total, fallbackRatio: 1 }), minCacheableTokens: 4096 })

  it('writes nothing when the total is over the minimum by no more than the tokens after the last block', () => {
    const p = at(4096 + TOKENS_AFTER_LAST_BLOCK - 1)
    expect(p.breakpoints.at(-1)).toMatchObject({ action: 'below_minimum', tokens: 4096 - 1 })
    expect(p.tokens).toMatchObject({ write5m: 0, uncached: 4096 + TOKENS_AFTER_LAST_BLOCK - 1 })
  })

  it('writes the prefix, not the total, once the prefix reaches the minimum', () => {
    const p = at(4096 + TOKENS_AFTER_LAST_BLOCK)
    expect(p.breakpoints.at(-1)).toMatchObject({ action: 'write', tokens: 4096 })
    expect(p.tokens).toMatchObject({ write5m: 4096, uncached: TOKENS_AFTER_LAST_BLOCK })
  })
})
