/**
 * Cache outcome of each request, from what a transcript can tell.
 *
 * A transcript has usage but no request bytes, so the first changed block cannot be found. What it does show: how
 * much the previous request left in the cache (its read + write: Claude Code moves its last breakpoint to the newest
 * message, so the whole previous prompt is written), how much this one read, the time between them, the models,
 * and the compaction boundaries. A read that falls short of what was left is a miss; its cause is the first of
 * compaction, model switch, expired TTL that applies, and otherwise "not visible in a transcript" (typically a change
 * in the system prompt, tools or injected reminders, which are never logged).
 */
import type { TranscriptCheckpoint } from './checkpoints'
import type { TranscriptRequest } from './requests'
import type { TranscriptThread } from './session'
import { cachedShare, sumUsage, type PriceFn, type UsageTotals } from './totals'

/** The cache keeps an entry this long after the start of the last request that read or wrote it (anthropic-api.md §5.1). */
export const CACHE_TTL_5M_MS = 5 * 60_000
export const CACHE_TTL_1H_MS = 60 * 60_000

export type MissCause =
  /** A compaction boundary lies between the two requests: the conversation was replaced by its summary. */
  | 'compaction'
  /** The cache is per model (anthropic-api.md §5.1, "Isolation"). */
  | 'model_switch'
  /** Longer than the TTL since the previous request started. */
  | 'idle_gap'
  /** Something before the breakpoint changed that the transcript does not record. */
  | 'not_visible'

export type CacheOutcome =
  /** The first request of the thread: nothing earlier to compare with. */
  | { readonly kind: 'first' }
  /** Neither the previous request nor this one used the cache (below the minimum cacheable length, or caching off). */
  | { readonly kind: 'not_cached' }
  /** Read at least everything the previous request left cached. */
  | { readonly kind: 'hit' }
  | { readonly kind: 'miss'; readonly cause: MissCause; readonly droppedTokens: number }

export interface RequestAttribution {
  readonly index: number
  readonly key: string
  readonly model: string
  readonly atMs: number | null
  readonly readTokens: number
  readonly writeTokens: number
  readonly uncachedTokens: number
  readonly outputTokens: number
  /** read / (read + write + uncached). */
  readonly cachedShare: number
  /** What the previous request left in the cache: its read + write. Null for the first request. */
  readonly expectedReadTokens: number | null
  /** From the previous request's first line to this one's: the age its cache entry had reached. */
  readonly sincePreviousMs: number | null
  readonly outcome: CacheOutcome
  readonly costUsd: number | null
}

function ttlAfter(previous: TranscriptRequest): number {
  return (previous.usage.cache_creation?.ephemeral_1h_input_tokens ?? 0) > 0 ? CACHE_TTL_1H_MS : CACHE_TTL_5M_MS
}

function compactedBetween(checkpoints: ReadonlyArray<TranscriptCheckpoint>, previousIndex: number, index: number): boolean {
  return checkpoints.some((c) => c.requestBefore === previousIndex && c.requestAfter === index)
}

function outcomeOf(
  previous: TranscriptRequest | undefined,
  current: TranscriptRequest,
  compacted: boolean,
  sinceMs: number | null,
): CacheOutcome {
  if (previous === undefined) return { kind: 'first' }
  const expected = previous.usage.cache_read_input_tokens + previous.usage.cache_creation_input_tokens
  const read = current.usage.cache_read_input_tokens
  if (expected === 0 && read === 0 && current.usage.cache_creation_input_tokens === 0) return { kind: 'not_cached' }
  if (read >= expected) return { kind: 'hit' }
  const droppedTokens = expected - read
  let cause: MissCause = 'not_visible'
  if (compacted) cause = 'compaction'
  else if (previous.model !== current.model) cause = 'model_switch'
  else if (sinceMs !== null && sinceMs > ttlAfter(previous)) cause = 'idle_gap'
  return { kind: 'miss', cause, droppedTokens }
}

/** One attribution per request of the thread, in order. */
export function attributeRequests(thread: TranscriptThread, price?: PriceFn): ReadonlyArray<RequestAttribution> {
  const out: RequestAttribution[] = []
  const requests = thread.requests
  for (const [index, current] of requests.entries()) {
    const previous = index > 0 ? requests[index - 1] : undefined
    const u = current.usage
    const sinceMs =
      previous?.firstLineAtMs != null && current.firstLineAtMs !== null ? current.firstLineAtMs - previous.firstLineAtMs : null
    const compacted = previous !== undefined && compactedBetween(thread.checkpoints, index - 1, index)
    out.push({
      index,
      key: current.key,
      model: current.model,
      atMs: current.firstLineAtMs,
      readTokens: u.cache_read_input_tokens,
      writeTokens: u.cache_creation_input_tokens,
      uncachedTokens: u.input_tokens,
      outputTokens: u.output_tokens,
      cachedShare: cachedShare(u),
      expectedReadTokens:
        previous === undefined ? null : previous.usage.cache_read_input_tokens + previous.usage.cache_creation_input_tokens,
      sincePreviousMs: sinceMs,
      outcome: outcomeOf(previous, current, compacted, sinceMs),
      costUsd: price === undefined ? null : price(current.model, u),
    })
  }
  return out
}

export interface ThreadCacheReport {
  readonly totals: UsageTotals
  readonly hits: number
  readonly misses: Readonly<Record<MissCause, number>>
  /** Tokens the misses had to write again: the sum of `droppedTokens`. */
  readonly droppedTokens: number
  readonly requests: ReadonlyArray<RequestAttribution>
}

/** Per-thread totals (read / write / uncached, cached share, $) with the per-request attribution. */
export function cacheReport(thread: TranscriptThread, price?: PriceFn): ThreadCacheReport {
  const requests = attributeRequests(thread, price)
  const misses: Record<MissCause, number> = { compaction: 0, model_switch: 0, idle_gap: 0, not_visible: 0 }
  let hits = 0
  let dropped = 0
  for (const r of requests) {
    if (r.outcome.kind === 'hit') hits++
    else if (r.outcome.kind === 'miss') {
      misses[r.outcome.cause]++
      dropped += r.outcome.droppedTokens
    }
  }
  return { totals: sumUsage(thread.requests, price), hits, misses, droppedTokens: dropped, requests }
}
