import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { CacheState, CacheTimeline, summarizeSession, walkRequest, whatIfKeepAlive, whatIfStaticTtl1h, type PassCacheFacts } from '../../../src-main/engine/cache'
import type { WireMessage } from '../../../src-main/engine/model/wire'
import { assistant, endOf, hasher, modelsWith, request, runSession, text, tool, user } from './helpers'

const SYSTEM = 'You are a careful agent. '.repeat(40)
const loupe = (messages: WireMessage[]) => request(messages, { system: SYSTEM, systemTtl: '5m', tools: [tool('read')] })
const u0 = (marked: boolean) => user(text('first request', 40, marked ? '5m' : null))
const a1 = assistant(text('answer one', 60))
const u2 = user(text('second request', 40, '5m'))
const first = loupe([u0(true)])
const second = loupe([u0(true), a1, u2])
const w2 = walkRequest(second, hasher)

describe('what-ifs', () => {
  it('a 1h TTL on the system breakpoint pays for itself over a 30-minute gap: 2× instead of 1.25× once, a read instead of a write after', () => {
    const out = runSession([
      { request: first, at: 0, readPosition: -1 },
      { request: second, at: 30 * 60_000, readPosition: -1 },
    ])
    // The same prefix, counted on each pass (the second knows more real counts than the first).
    const [written, read] = out.map((a) => a.facts.breakpoints.find((b) => !b.moving)!.tokens) as [number, number]
    const w = whatIfStaticTtl1h(out.map((a) => a.facts), modelsWith())
    // (6 − 3.75) more on the first write, (0.3 − 3.75) on the second pass, per million tokens at Sonnet prices.
    expect(w.deltaUsd).toBeCloseTo((written * (6 - 3.75) + read * (0.3 - 3.75)) / 1e6, 9)
    // Said under its title, which names the policy: the note does not name it again.
    expect(w.note).toMatch(/^saves \$0\.\d{4} on this session, replayed alone/)
    expect(w.note).not.toMatch(/1h TTL/)
  })

  it('a keep-alive bridges a 6-minute gap for one small request that reads the prefix', () => {
    const out = runSession([
      { request: first, at: 0, readPosition: -1 },
      { request: second, at: 6 * 60_000, readPosition: -1 },
    ])
    const prefix = Math.max(...out[0]!.facts.breakpoints.map((b) => b.tokens))
    const w = whatIfKeepAlive(out.map((a) => a.facts), modelsWith())
    const ping = prefix * 0.3 + 10 * 3 + 1 * 15
    expect(w.deltaUsd).toBeCloseTo((ping + prefix * (0.3 - 3.75)) / 1e6, 9)
    expect(w.note).toMatch(/^1 request through 1 idle gap: saves \$/)
  })

  it('has nothing to bridge in a session without idle gaps', () => {
    const out = runSession([
      { request: first, at: 0, readPosition: -1 },
      { request: second, at: 60_000, readPosition: endOf(w2, 0) },
    ])
    const w = whatIfKeepAlive(out.map((a) => a.facts), modelsWith())
    expect(w.deltaUsd).toBe(0)
    expect(w.note).toBe('no idle gap longer than the keep-alive interval: nothing to bridge')
  })
})

describe('summarizeSession', () => {
  describe('keep-alive what-if after keep-warm', () => {
    const a2 = assistant(text('answer two', 60))
    const third = loupe([u0(false), a1, u2, a2, user(text('third', 40, '5m'))])
    // The pre-warm after the first pass: the history through its answer, the answer marked 1h, a placeholder after it.
    const prewarm = request([u0(false), assistant(text('answer one', 60, '1h')), user(text('placeholder', 5))], { system: SYSTEM, systemTtl: '1h', tools: [tool('read')] })
    const wp = walkRequest(prewarm, hasher)
    const w3 = walkRequest(third, hasher)
    const gapMs = 8 * 60_000

    /** A pause bridged by a pre-warm, then (keep-warm turned off) one that expired. */
    function keptThenExpired() {
      return runSession([
        { request: first, at: 0, readPosition: -1 },
        { request: prewarm, at: 4.5 * 60_000, readPosition: endOf(wp, 0), keepWarm: true },
        { request: second, at: 12 * 60_000, readPosition: endOf(w2, 1) },
        // Only the pre-warm's 1h entry, through the first answer, outlived the second pause.
        { request: third, at: 12 * 60_000 + gapMs, readPosition: endOf(w3, 1) },
      ])
    }

    it('offers as a saving to be had only the gap no pre-warm bridged, and says apart the one the session had', () => {
      const out = keptThenExpired()
      expect(out.map((a) => a.cause.kind)).toEqual(['cold', 'none', 'none', 'ttl_expired'])
      const s = summarizeSession(out, modelsWith())
      const w = s.whatIfs.keepAlive
      // Through the second gap alone: one request re-reading what the second pass left, then a read instead of a write.
      const prefix = Math.max(...out[2]!.facts.breakpoints.map((b) => b.tokens))
      const ping = prefix * 0.3 + 10 * 3 + 1 * 15
      expect(w.deltaUsd).toBeCloseTo((ping + prefix * (0.3 - 3.75)) / 1e6, 9)
      const prewarmUsd = s.keepWarm.usd!
      expect(w.note).toMatch(
        new RegExp(
          `^keep-warm sent 1 pre-warm \\(\\$${prewarmUsd.toFixed(4)}\\), which bridged 1 idle gap: without it, that gap would have cost \\$\\d+\\.\\d{4} more; ` +
            `1 idle gap was not kept warm: a keep-alive through it, 1 request, would have saved \\$${Math.abs(w.deltaUsd).toFixed(4)}$`,
        ),
      )
    })

    it('has nothing more to offer when the pre-warms bridged every gap', () => {
      const s = summarizeSession(keptThenExpired().slice(0, 3), modelsWith())
      expect(s.whatIfs.keepAlive.deltaUsd).toBe(0)
      expect(s.whatIfs.keepAlive.note).toMatch(/^keep-warm sent 1 pre-warm \(\$\d+\.\d{4}\), which bridged 1 idle gap: without it, that gap would have cost \$\d+\.\d{4} more; no other idle gap to bridge$/)
    })

    it('calls no gap bridged when the pass after the pre-warm still expired', () => {
      const out = runSession([
        { request: first, at: 0, readPosition: -1 },
        { request: prewarm, at: 4.5 * 60_000, readPosition: endOf(wp, 0), keepWarm: true },
        // Back after the pre-warm's hour: everything had expired.
        { request: second, at: 70 * 60_000, readPosition: -1 },
      ])
      expect(out[2]!.cause.kind).toBe('ttl_expired')
      const note = summarizeSession(out, modelsWith()).whatIfs.keepAlive.note
      expect(note).toMatch(/^keep-warm sent 1 pre-warm \(\$\d+\.\d{4}\), which bridged no idle gap; /)
    })
  })

  it('adds up the session against its limit, by cause, with the agreement rate', () => {
    const third = loupe([u0(false), a1, u2, assistant(text('answer two', 60)), user(text('third', 40, '5m'))])
    const out = runSession([
      { request: first, at: 0, readPosition: -1 },
      { request: second, at: 60_000, readPosition: endOf(w2, 0) },
      { request: third, at: 10 * 60_000, readPosition: -1 },
    ])
    const s = summarizeSession(out, modelsWith())
    expect(s.totals.passes).toBe(3)
    expect(s.totals.read).toBe(out[1]!.actual!.tokens.read)
    expect(s.totals.limitRead).toBe(out[1]!.limit.tokens + out[2]!.limit.tokens)
    expect(s.totals.cachedShare).toBeLessThan(s.totals.limitShare)
    expect(s.byCause.map((c) => [c.kind, c.passes])).toEqual([
      ['ttl_expired', 1],
      ['cold', 1],
    ])
    expect(s.totals.missTokens).toBe(out[2]!.limit.tokens)
    expect(s.agreement).toEqual({ compared: 3, agreed: 3, rate: 1, unexplained: 0 })
    expect(s.totals.bestUsd! + s.totals.missUsd!).toBeCloseTo(s.totals.actualUsd!, 12)
  })
})

describe('CacheTimeline', () => {
  const keys = ['k0', 'k1', 'k2', 'k3']
  const fact = fc.record({
    start: fc.integer({ min: 0, max: 2 * 3_600_000 }),
    delay: fc.integer({ min: 0, max: 60_000 }),
    writes: fc.subarray(keys),
    reads: fc.subarray(keys),
    ttl: fc.constantFrom('5m' as const, '1h' as const),
  })

  it('gives, pass after pass, the entries a replay from the first pass gives', () => {
    fc.assert(
      fc.property(fc.array(fact, { minLength: 1, maxLength: 12 }), fc.boolean(), (specs, ordered) => {
        const list = ordered ? [...specs].sort((a, b) => a.start - b.start) : specs
        const facts: PassCacheFacts[] = list.map((f, i) => ({
          passId: `p${i}`,
          seq: i + 1,
          model: 'm',
          attempts: [{ startedAt: f.start, availableAt: f.start + f.delay }],
          startedAt: f.start,
          reads: f.reads.map((key) => ({ key, ttl: f.ttl, exact: true })),
          writes: f.writes.map((key) => ({ key, ttl: f.ttl })),
          anchors: [],
          breakpoints: [],
          totalTokens: null,
          outputTokens: 0,
          ratio: null,
        }))
        const timeline = new CacheTimeline()
        for (const f of facts) {
          const now = f.startedAt
          const live = timeline.stateAt(now)
          const replayed = CacheState.at(timeline.facts, now)
          for (const key of keys) {
            expect(live.live(key, now)?.expiresAt ?? null).toBe(replayed.live(key, now)?.expiresAt ?? null)
            expect(live.pending(key)?.passId ?? null).toBe(replayed.pending(key)?.passId ?? null)
          }
          timeline.add(f)
        }
      }),
    )
  })
})
