/**
 * What-ifs over a session's recorded passes: what the input side would have cost had every static breakpoint (the
 * tools and system ones, which never move) used the 1h TTL, or had the idle gaps been bridged by a keep-alive.
 *
 * Both replay the passes through the same simplified cache: an entry is found only at a breakpoint's own key (the
 * app's kept tail marker makes every hit exact, so the 20-block lookback is left out), TTLs from each request's
 * start, refresh on read (docs/reference/anthropic-api.md §5.1), writes priced by their TTL (§5.5). The baseline
 * is the same replay with the TTLs as sent, so a difference is the policy's alone.
 */
import { usd } from '../../../src-preload/money'
import type { CacheTtl } from '../model/wire'
import { inputCost, outputCost, type ModelLookup } from './pricing'
import { TTL_MS, type PassCacheFacts } from './state'

/** A keep-alive is a small request that re-reads the prefix before its 5-minute entry expires. */
export const KEEPALIVE_INTERVAL_MS = 4.5 * 60_000
/** Tokens a keep-alive adds beyond the cached prefix it reads: a one-word message and a one-token answer. */
export const KEEPALIVE_INPUT_TOKENS = 10
export const KEEPALIVE_OUTPUT_TOKENS = 1

export interface WhatIf {
  /** Input-side cost (and keep-alive requests) as recorded policy, in the replay. */
  readonly baselineUsd: number
  readonly whatIfUsd: number
  /** whatIf − baseline: negative means the policy would have saved money. */
  readonly deltaUsd: number
  readonly note: string
}

interface KeepAlivePolicy {
  readonly intervalMs: number
  readonly maxGapMs: number
  /**
   * The gaps a keep-warm pre-warm bridged as the session ran, by the conversation pass that starts each: they are
   * bridged free of charge (what the pre-warms cost is counted from their own usage) and left out of the counts, so
   * the replay prices only what a keep-alive would add.
   */
  readonly keptWarm: ReadonlySet<string>
  /** Bridge those gaps alone: the session as keep-warm left it. */
  readonly keptWarmOnly: boolean
}

interface Policy {
  readonly ttl: (bp: PassCacheFacts['breakpoints'][number]) => CacheTtl
  readonly keepAlive: KeepAlivePolicy | null
}

interface Replay {
  readonly usd: number
  /** The keep-alive requests priced (none in a gap kept warm). */
  readonly pings: number
  /** The gaps those requests bridged. */
  readonly bridgedGaps: number
}

/**
 * `sideRequests`: the passes that are not the conversation's (a compaction's summary request). They are replayed, as
 * they read and wrote, but an idle gap is measured between the conversation's passes: a summary request that read
 * part of the prefix does not end the gap for the rest of it.
 */
function replay(facts: ReadonlyArray<PassCacheFacts>, models: ModelLookup, policy: Policy, sideRequests: ReadonlySet<string> = new Set()): Replay {
  const sorted = [...facts].filter((f) => f.attempts.length > 0).sort((a, b) => a.startedAt - b.startedAt || a.seq - b.seq)
  const entries = new Map<string, { expiresAt: number; ttlMs: number }>()
  let usd = 0
  let pings = 0
  let bridgedGaps = 0
  // The last conversation pass, and the keep-alive's next request after it (a side request in the gap replays the
  // pings due before it; the next pass goes on from there).
  let last: PassCacheFacts | null = null
  let nextPing = 0
  let bridged = false
  for (const f of sorted) {
    const model = models(f.model)
    const now = f.startedAt
    if (policy.keepAlive && last) {
      const gap = now - last.startedAt
      // A gap a pre-warm bridged is bridged whatever its length: its 1h entry outlived it, as the pass after it read.
      const keptWarm = policy.keepAlive.keptWarm.has(last.passId)
      // The keep-alive re-reads the previous pass's prefix every interval through a gap the 5m entries would not
      // survive, as long as the gap is one it is set to bridge.
      if (gap > TTL_MS['5m'] && (keptWarm || (!policy.keepAlive.keptWarmOnly && gap <= policy.keepAlive.maxGapMs))) {
        const lastModel = models(last.model)
        const prefix = Math.max(0, ...last.breakpoints.filter((b) => b.tokens >= lastModel.minCacheableTokens).map((b) => b.tokens))
        if (!bridged && !keptWarm) bridgedGaps++
        bridged = true
        for (let t = nextPing; t < now; t += policy.keepAlive.intervalMs) {
          nextPing = t + policy.keepAlive.intervalMs
          for (const bp of last.breakpoints) {
            const e = entries.get(bp.key)
            if (e && e.expiresAt > t) e.expiresAt = Math.max(e.expiresAt, t + e.ttlMs)
          }
          if (keptWarm) continue
          pings++
          if (lastModel.prices) {
            usd += inputCost({ read: prefix, write1h: 0, write5m: 0, uncached: KEEPALIVE_INPUT_TOKENS, total: prefix + KEEPALIVE_INPUT_TOKENS }, lastModel.prices)
            usd += outputCost(KEEPALIVE_OUTPUT_TOKENS, lastModel.prices)
          }
        }
      }
    }
    if (!sideRequests.has(f.passId)) {
      last = f
      nextPing = f.startedAt + (policy.keepAlive?.intervalMs ?? 0)
      bridged = false
    }
    const eligible = f.breakpoints.filter((b) => b.tokens >= model.minCacheableTokens)
    let read = 0
    for (const bp of eligible) {
      const e = entries.get(bp.key)
      if (e && e.expiresAt > now) {
        read = Math.max(read, bp.tokens)
        e.ttlMs = Math.max(e.ttlMs, TTL_MS[policy.ttl(bp)])
        e.expiresAt = Math.max(e.expiresAt, now + e.ttlMs)
      }
    }
    let b = read
    let c = read
    for (const bp of eligible) {
      if (bp.tokens <= read) continue
      const ttl = policy.ttl(bp)
      entries.set(bp.key, { expiresAt: now + TTL_MS[ttl], ttlMs: TTL_MS[ttl] })
      if (ttl === '1h') b = Math.max(b, bp.tokens)
      c = Math.max(c, bp.tokens)
    }
    if (f.totalTokens === null || !model.prices) continue
    usd += inputCost({ read, write1h: b - read, write5m: Math.max(0, c - b), uncached: Math.max(0, f.totalTokens - c), total: f.totalTokens }, model.prices)
  }
  return { usd, pings, bridgedGaps }
}

const asSent: Policy = { ttl: (bp) => bp.ttl, keepAlive: null }

/** Every breakpoint on tools or system (they never move) with a 1h TTL; message breakpoints as sent. */
export function whatIfStaticTtl1h(facts: ReadonlyArray<PassCacheFacts>, models: ModelLookup): WhatIf {
  const base = replay(facts, models, asSent)
  const alt = replay(facts, models, { ttl: (bp) => (bp.moving ? bp.ttl : '1h'), keepAlive: null })
  const delta = alt.usd - base.usd
  return {
    baselineUsd: base.usd,
    whatIfUsd: alt.usd,
    deltaUsd: delta,
    // The note follows its title ("1h TTL on the static prefix"), so it says only what the policy does.
    note: `${delta <= 0 ? 'saves' : 'costs'} ${usd(Math.abs(delta))} ${delta <= 0 ? '' : 'more '}on this session, replayed alone (1h writes cost 2× input, 5m writes 1.25×)`,
  }
}

/** What keep-warm did in a session: its pre-warms, and the idle gaps they bridged (summary.ts finds them). */
export interface KeptWarm {
  /** The conversation passes whose following idle gap a pre-warm bridged: the pass after it read on. */
  readonly gaps: ReadonlySet<string>
  readonly prewarms: number
  /** What every pre-warm cost, null when a price is unknown. */
  readonly usd: number | null
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`
const NO_KEEP_WARM: KeptWarm = { gaps: new Set(), prewarms: 0, usd: 0 }

/**
 * A keep-alive every 4.5 minutes through each idle gap of up to 1h between the conversation's passes (`sideRequests`:
 * the passes that are not, a compaction's summary requests).
 *
 * With keep-warm on (`keptWarm`), the gaps its pre-warms bridged are a saving the session had, and the others one
 * still to be had: the figures (baseline, what-if, delta) are the latter's alone — the session with the bridged gaps
 * kept, against a keep-alive through the rest too — and the note says both parts apart. Calling the whole replay
 * without the pre-warms a saving already had would count the gaps that expired, which the same session lists as
 * misses.
 */
export function whatIfKeepAlive(facts: ReadonlyArray<PassCacheFacts>, models: ModelLookup, sideRequests: ReadonlySet<string> = new Set(), keptWarm: KeptWarm = NO_KEEP_WARM): WhatIf {
  const keepAlive = { intervalMs: KEEPALIVE_INTERVAL_MS, maxGapMs: TTL_MS['1h'], keptWarm: keptWarm.gaps }
  const base = replay(facts, models, { ...asSent, keepAlive: { ...keepAlive, keptWarmOnly: true } }, sideRequests)
  const alt = replay(facts, models, { ...asSent, keepAlive: { ...keepAlive, keptWarmOnly: false } }, sideRequests)
  const delta = alt.usd - base.usd
  const figures = { baselineUsd: base.usd, whatIfUsd: alt.usd, deltaUsd: delta }
  if (keptWarm.prewarms === 0) {
    const note =
      alt.bridgedGaps === 0
        ? 'no idle gap longer than the keep-alive interval: nothing to bridge'
        : `${plural(alt.pings, 'request')} through ${plural(alt.bridgedGaps, 'idle gap')}: ${delta <= 0 ? 'saves' : 'costs'} ${usd(Math.abs(delta))}${delta <= 0 ? '' : ' more'}`
    return { ...figures, note }
  }
  const sent = `${plural(keptWarm.prewarms, 'pre-warm')}${keptWarm.usd === null ? '' : ` (${usd(keptWarm.usd)})`}`
  let had = `keep-warm sent ${sent}, which bridged no idle gap`
  if (keptWarm.gaps.size > 0) {
    // What the bridged gaps would have cost had they expired; the pre-warms' own cost is the figure before it.
    const kept = replay(facts, models, asSent, sideRequests).usd - base.usd
    const them = keptWarm.gaps.size === 1 ? 'that gap' : 'those gaps'
    had = `keep-warm sent ${sent}, which bridged ${plural(keptWarm.gaps.size, 'idle gap')}: without ${keptWarm.prewarms === 1 ? 'it' : 'them'}, ${them} would have cost ${usd(Math.abs(kept))} ${kept >= 0 ? 'more' : 'less'}`
  }
  const gaps = alt.bridgedGaps
  const rest =
    gaps === 0
      ? 'no other idle gap to bridge'
      : `${plural(gaps, 'idle gap')} ${gaps === 1 ? 'was' : 'were'} not kept warm: a keep-alive through ${gaps === 1 ? 'it' : 'them'}, ${plural(alt.pings, 'request')}, would have ${delta <= 0 ? 'saved' : 'cost'} ${usd(Math.abs(delta))}${delta <= 0 ? '' : ' more'}`
  return { ...figures, note: `${had}; ${rest}` }
}
