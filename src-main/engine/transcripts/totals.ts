/**
 * Token and cost totals over deduplicated requests. Price-agnostic: the caller passes a `PriceFn` (the price table
 * lives with the model adapters), so the same totals work for any price list, or none.
 */
import type { Usage } from '../model/wire'
import type { TranscriptRequest } from './requests'

/** USD for one request's usage at the model's prices; null when the model has no known price. */
export type PriceFn = (model: string, usage: Usage) => number | null

export interface UsageTotals {
  readonly requests: number
  /** Input billed at the base rate: not read from cache and not written to it. */
  readonly uncachedInputTokens: number
  readonly cacheReadTokens: number
  readonly cacheWriteTokens: number
  readonly cacheWrite5mTokens: number
  readonly cacheWrite1hTokens: number
  readonly outputTokens: number
  /** uncached + read + write: everything the requests sent. */
  readonly inputTokens: number
  /** cacheRead / inputTokens, 0 when nothing was sent. */
  readonly cachedShare: number
  /** Sum over the requests a price was known for; null when no PriceFn was given. */
  readonly costUsd: number | null
  /** Requests whose model the PriceFn did not know (their cost is not in `costUsd`). */
  readonly unpricedRequests: number
}

export function cachedShare(usage: Usage): number {
  const sent = usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens
  return sent === 0 ? 0 : usage.cache_read_input_tokens / sent
}

export function sumUsage(requests: ReadonlyArray<TranscriptRequest>, price?: PriceFn): UsageTotals {
  let uncached = 0
  let read = 0
  let write = 0
  let write5m = 0
  let write1h = 0
  let output = 0
  let cost = 0
  let unpriced = 0
  for (const { usage, model } of requests) {
    uncached += usage.input_tokens
    read += usage.cache_read_input_tokens
    write += usage.cache_creation_input_tokens
    // Older lines have no split; all writes then were 5-minute writes (the 1h TTL came later).
    write1h += usage.cache_creation?.ephemeral_1h_input_tokens ?? 0
    write5m += usage.cache_creation?.ephemeral_5m_input_tokens ?? usage.cache_creation_input_tokens
    output += usage.output_tokens
    if (price !== undefined) {
      const usd = price(model, usage)
      if (usd === null) unpriced++
      else cost += usd
    }
  }
  const input = uncached + read + write
  return {
    requests: requests.length,
    uncachedInputTokens: uncached,
    cacheReadTokens: read,
    cacheWriteTokens: write,
    cacheWrite5mTokens: write5m,
    cacheWrite1hTokens: write1h,
    outputTokens: output,
    inputTokens: input,
    cachedShare: input === 0 ? 0 : read / input,
    costUsd: price === undefined ? null : cost,
    unpricedRequests: unpriced,
  }
}

/** Totals per model, in order of first use (a session may switch models; each has its own prices and cache). */
export function sumByModel(requests: ReadonlyArray<TranscriptRequest>, price?: PriceFn): ReadonlyMap<string, UsageTotals> {
  const groups = new Map<string, TranscriptRequest[]>()
  for (const r of requests) {
    const group = groups.get(r.model)
    if (group === undefined) groups.set(r.model, [r])
    else group.push(r)
  }
  return new Map([...groups].map(([model, rs]) => [model, sumUsage(rs, price)]))
}
