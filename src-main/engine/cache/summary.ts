/**
 * A session's cache figures: what its passes read, wrote and paid in full, the cached share of input tokens
 * achieved against the best possible (the limit), what the misses cost by cause, how often the prediction agreed
 * with the service, and the what-ifs.
 */
import type { PassAttribution } from './attribute'
import type { MissCauseKind } from './causes'
import type { ModelLookup } from './pricing'
import { TTL_MS } from './state'
import { whatIfKeepAlive, whatIfStaticTtl1h, type WhatIf } from './what-if'

export interface SessionCacheTotals {
  readonly passes: number
  /** Passes with usage from the service. */
  readonly measured: number
  readonly read: number
  readonly write5m: number
  readonly write1h: number
  readonly uncached: number
  readonly inputTotal: number
  /** read / input total. */
  readonly cachedShare: number
  /** Tokens the best possible hits would have read. */
  readonly limitRead: number
  readonly limitShare: number
  readonly actualUsd: number | null
  readonly bestUsd: number | null
  readonly missTokens: number
  readonly missUsd: number | null
}

export interface CauseTotal {
  readonly kind: MissCauseKind
  readonly passes: number
  readonly tokens: number
  readonly usd: number | null
}

/** The keep-warm pre-warms of a session (keep-warm.ts): what they read, wrote and cost. */
export interface KeepWarmTotals {
  readonly passes: number
  readonly read: number
  readonly write5m: number
  readonly write1h: number
  readonly uncached: number
  readonly usd: number | null
}

export interface SessionCacheSummary {
  /** The conversation's passes: keep-warm pre-warms are left out (they are nearly all reads), and counted apart. */
  readonly totals: SessionCacheTotals
  readonly keepWarm: KeepWarmTotals
  /** Passes short of the limit, by cause (cold starts and others at the limit included with 0 tokens). */
  readonly byCause: ReadonlyArray<CauseTotal>
  readonly agreement: { readonly compared: number; readonly agreed: number; readonly rate: number | null; readonly unexplained: number }
  readonly diagnosticsDisagreements: number
  readonly whatIfs: { readonly staticTtl1h: WhatIf; readonly keepAlive: WhatIf }
}

const addUsd = (a: number | null, b: number | null): number | null => (a === null || b === null ? null : a + b)

export function summarizeSession(all: ReadonlyArray<PassAttribution>, models: ModelLookup): SessionCacheSummary {
  const attributions = all.filter((a) => !a.keepWarm)
  // Prediction agreement counts every pass, pre-warms included: their reads are predicted like any other.
  let compared = 0
  let agreed = 0
  let unexplained = 0
  const keepWarm = { passes: 0, read: 0, write5m: 0, write1h: 0, uncached: 0, usd: 0 as number | null }
  for (const a of all) {
    if (!a.keepWarm) continue
    keepWarm.passes++
    if (a.actual) {
      keepWarm.read += a.actual.tokens.read
      keepWarm.write5m += a.actual.tokens.write5m
      keepWarm.write1h += a.actual.tokens.write1h
      keepWarm.uncached += a.actual.tokens.uncached
      keepWarm.usd = addUsd(keepWarm.usd, a.miss.actualUsd)
    }
    if (a.agrees !== null) compared++
    if (a.agrees) agreed++
    if (a.cause.kind === 'unexplained') unexplained++
  }
  let measured = 0
  let read = 0
  let write5m = 0
  let write1h = 0
  let uncached = 0
  let limitRead = 0
  let actualUsd: number | null = 0
  let bestUsd: number | null = 0
  let missTokens = 0
  let missUsd: number | null = 0
  let disagreements = 0
  const causes = new Map<MissCauseKind, { passes: number; tokens: number; usd: number | null }>()
  for (const a of attributions) {
    if (a.actual) {
      measured++
      read += a.actual.tokens.read
      write5m += a.actual.tokens.write5m
      write1h += a.actual.tokens.write1h
      uncached += a.actual.tokens.uncached
      // A pass at its limit read what it could (the limit's tokens are estimates, a few off the billed count); one
      // that read beyond the computed limit shows the limit was too strict. The share never claims less than was read.
      limitRead += a.atLimit ? a.actual.tokens.read : Math.min(Math.max(a.limit.tokens, a.actual.tokens.read), a.actual.tokens.total)
      actualUsd = addUsd(actualUsd, a.miss.actualUsd)
      bestUsd = addUsd(bestUsd, a.miss.bestUsd)
      missTokens += a.miss.tokens
      missUsd = addUsd(missUsd, a.miss.usd)
    }
    if (a.agrees !== null) {
      compared++
      if (a.agrees) agreed++
    }
    if (a.cause.kind === 'unexplained') unexplained++
    if (a.diagnostics.disagree) disagreements++
    if (a.cause.kind !== 'none') {
      const c = causes.get(a.cause.kind) ?? { passes: 0, tokens: 0, usd: 0 }
      c.passes++
      c.tokens += a.miss.tokens
      c.usd = addUsd(c.usd, a.miss.usd)
      causes.set(a.cause.kind, c)
    }
  }
  const inputTotal = read + write5m + write1h + uncached
  // The what-ifs replay the conversation alone, as if nothing had been sent in its gaps: they price the alternatives.
  // The keep-alive's is told which gaps the pre-warms bridged, so it offers as a saving only what they did not.
  const facts = attributions.map((a) => a.facts)
  const compactionCalls = new Set(attributions.filter((a) => a.compactionCall).map((a) => a.passId))
  return {
    totals: {
      passes: attributions.length,
      measured,
      read,
      write5m,
      write1h,
      uncached,
      inputTotal,
      cachedShare: inputTotal > 0 ? read / inputTotal : 0,
      limitRead,
      limitShare: inputTotal > 0 ? limitRead / inputTotal : 0,
      actualUsd,
      bestUsd,
      missTokens,
      missUsd,
    },
    keepWarm,
    byCause: [...causes].map(([kind, c]) => ({ kind, ...c })).sort((a, b) => b.tokens - a.tokens),
    agreement: { compared, agreed, rate: compared > 0 ? agreed / compared : null, unexplained },
    diagnosticsDisagreements: disagreements,
    whatIfs: { staticTtl1h: whatIfStaticTtl1h(facts, models), keepAlive: whatIfKeepAlive(facts, models, compactionCalls, { gaps: gapsKeptWarm(all), prewarms: keepWarm.passes, usd: keepWarm.usd }) },
  }
}

/**
 * The idle gaps a pre-warm bridged, by the conversation pass that starts each, as the Cache view's timeline marks them
 * "kept warm" (src-renderer/features/cache/model/timeline.ts): a pre-warm that got a response was sent in the gap, the
 * pass that ends it came within the hour the pre-warm's entry lives, and its read did not expire. A gap with no
 * pre-warm, or whose pass after it still expired, was not kept warm, whatever else keep-warm did in the session.
 */
function gapsKeptWarm(all: ReadonlyArray<PassAttribution>): Set<string> {
  const kept = new Set<string>()
  const answered = all.filter((a) => a.facts.attempts.length > 0).sort((a, b) => a.facts.startedAt - b.facts.startedAt || a.facts.seq - b.facts.seq)
  let last: PassAttribution | null = null
  let prewarm: PassAttribution | null = null
  for (const a of answered) {
    if (a.keepWarm) {
      prewarm = a
      continue
    }
    // A compaction's summary request neither ends the gap nor is the pass it is measured from (what-if.ts).
    if (a.compactionCall) continue
    if (last && prewarm && a.facts.startedAt - last.facts.startedAt > TTL_MS['5m'] && a.facts.startedAt - prewarm.facts.startedAt <= TTL_MS['1h'] && a.cause.kind !== 'ttl_expired') kept.add(last.passId)
    last = a
    prewarm = null
  }
  return kept
}
