/**
 * The Cache view's summary of a session imported from a Claude Code transcript (docs/claude-code-import.md). Its
 * passes are rebuilt from the log, not the bytes that were sent, so the cache engine cannot walk them: each pass's
 * figures are its recorded usage, its best possible hit is the usage-only limit (engine/cache/usage-only.ts: the
 * previous request's whole prompt, unless an hour passed or a compaction came between), and its cause is what the
 * transcript can tell (the attribution stored at import, node/transcripts/pass-attribution.ts). There is no
 * prediction to agree with and no what-if: both need the request bytes.
 */
import { missCost, splitOfUsage, usageLimits, type ModelLookup, type UsageRequest } from '../../engine/cache'
import type { PassSummary } from '../store/passes'
import { cacheModels } from './models'

/** The transcript's cause kinds, in the cache engine's words where they mean the same. */
const CAUSE_KIND: Readonly<Record<string, string>> = {
  first: 'cold',
  hit: 'none',
  not_cached: 'not_cached',
  compaction: 'compaction',
  model_switch: 'model_changed',
  idle_gap: 'ttl_expired',
  not_visible: 'not_visible',
}

interface StoredTranscriptAttribution {
  readonly outcome: 'full' | 'partial' | 'miss' | null
  readonly cause: { readonly kind: string; readonly label: string }
  readonly summary: string
  readonly transcript?: { readonly outcome?: { readonly kind?: string; readonly cause?: string; readonly droppedTokens?: number } }
}

function stored(value: unknown): StoredTranscriptAttribution | null {
  if (typeof value !== 'object' || value === null) return null
  const v = value as Partial<StoredTranscriptAttribution>
  return typeof v.summary === 'string' && typeof v.cause === 'object' && v.cause !== null ? (v as StoredTranscriptAttribution) : null
}

/** The engine's or transcript's cause kind of a stored transcript pass: a miss is named by its cause. */
function causeKind(a: StoredTranscriptAttribution | null): string | null {
  if (!a) return null
  const outcome = a.transcript?.outcome
  const kind = outcome?.kind === 'miss' ? outcome.cause : outcome?.kind
  return (kind && CAUSE_KIND[kind]) ?? a.cause.kind
}

const addUsd = (a: number | null, b: number | null): number | null => (a === null || b === null ? null : a + b)

export function transcriptCacheSummary(sessionId: string, passes: ReadonlyArray<PassSummary>, models: ModelLookup = cacheModels) {
  // What each pass's import recorded of it, read once.
  const recorded = new Map(passes.map((p) => [p.id, stored(p.attribution)]))
  const measured = passes.filter((p): p is PassSummary & { usage: NonNullable<PassSummary['usage']> } => p.usage !== null)
  const requests: UsageRequest[] = measured.map((p) => ({
    model: p.model,
    startedAt: p.attempts[0]?.startedAt ?? p.queuedAt,
    usage: p.usage,
    afterCompaction: causeKind(recorded.get(p.id) ?? null) === 'compaction',
  }))
  const limits = usageLimits(requests)
  const rows = new Map<string, { missTokens: number; missUsd: number | null }>()
  const byCause = new Map<string, { passes: number; tokens: number; usd: number | null }>()
  let write5m = 0
  let write1h = 0
  let uncached = 0
  let actualUsd: number | null = 0
  let missUsd: number | null = 0
  let missTokens = 0
  measured.forEach((p, i) => {
    const split = splitOfUsage(p.usage)
    write5m += split.write5m
    write1h += split.write1h
    uncached += split.uncached
    actualUsd = addUsd(actualUsd, p.costUsd)
    const limit = limits.requests[i]!
    const prices = models(p.model).prices
    const attribution = recorded.get(p.id) ?? null
    const kind = causeKind(attribution) ?? 'not_visible'
    // Lost only where the transcript sees a miss: a hit read everything the previous request cached, and the few
    // tokens the usage-only limit adds above it (the previous request's uncached tail) are not a miss anyone can fix.
    // A compaction's first request is at its limit (it sends a new, shorter history by design): nothing was lost there.
    // Nor after a pause longer than every TTL: no cache bridges it, the best possible hit is zero there (usageLimits),
    // and "lost" is what lies between the read and the best possible, as in the app's own sessions.
    const missed = kind !== 'none' && kind !== 'cold' && kind !== 'compaction' && limit.reason !== 'idle_beyond_ttl'
    // What the miss re-billed, as the transcript counts it (what the previous request left cached, less what this one
    // read), so the pass's own line and the totals say the same number.
    const dropped = attribution?.transcript?.outcome?.droppedTokens ?? limit.shortfall
    const miss = !missed ? { tokens: 0, usd: 0 } : prices ? missCost(split, split.read + dropped, prices) : { tokens: dropped, usd: null }
    rows.set(p.id, { missTokens: miss.tokens, missUsd: miss.usd })
    missTokens += miss.tokens
    missUsd = addUsd(missUsd, miss.usd)
    const total = byCause.get(kind) ?? { passes: 0, tokens: 0, usd: 0 }
    byCause.set(kind, { passes: total.passes + 1, tokens: total.tokens + miss.tokens, usd: addUsd(total.usd, miss.usd) })
  })
  const notComputed = { baselineUsd: 0, whatIfUsd: 0, deltaUsd: 0, note: 'not computed for an imported transcript: it needs the bytes each request sent, which the transcript does not record' }
  return {
    sessionId,
    basis: 'transcript' as const,
    totals: {
      passes: passes.length,
      measured: measured.length,
      read: limits.read,
      write5m,
      write1h,
      uncached,
      inputTotal: limits.total,
      cachedShare: limits.cachedShare,
      limitRead: limits.limit,
      limitShare: limits.limitShare,
      actualUsd,
      bestUsd: actualUsd === null || missUsd === null ? null : actualUsd - missUsd,
      missTokens,
      missUsd,
    },
    byCause: [...byCause].map(([kind, t]) => ({ kind, ...t })),
    agreement: { compared: 0, agreed: 0, rate: null, unexplained: 0 },
    diagnosticsDisagreements: 0,
    whatIfs: { staticTtl1h: notComputed, keepAlive: notComputed },
    passes: passes.map((p) => {
      const a = recorded.get(p.id) ?? null
      const row = rows.get(p.id)
      return { passId: p.id, seq: p.seq, outcome: a?.outcome ?? null, cause: causeKind(a), summary: a?.summary ?? null, missTokens: row?.missTokens ?? 0, missUsd: row?.missUsd ?? null }
    }),
  }
}
