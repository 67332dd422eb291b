/**
 * Prices for cache arithmetic (docs/reference/anthropic-api.md §5.5). The price table itself belongs to the model
 * adapter (src-main/node/model/models.ts); the engine takes each model's figures as values.
 */
import type { Usage } from '../model/wire'
import type { TokenSplit } from './predict'

/** USD per million tokens. */
export interface CachePrices {
  readonly inputPerMTok: number
  readonly outputPerMTok: number
  readonly cacheWrite5mPerMTok: number
  readonly cacheWrite1hPerMTok: number
  readonly cacheReadPerMTok: number
}

export interface CacheModel {
  readonly id: string
  /** §5.2: below this many prompt tokens a breakpoint neither reads nor writes. */
  readonly minCacheableTokens: number
  /** §2.5: the model drops earlier turns' thinking once a user message that is not only tool results arrives. */
  readonly stripsPriorThinking: boolean
  /** Null for a model the price table does not know: tokens are still attributed, dollars are not. */
  readonly prices: CachePrices | null
}

/** Finds a model's figures; unknown models get the most common minimum and no prices. */
export type ModelLookup = (modelId: string) => CacheModel

export const UNKNOWN_MODEL_MIN_CACHEABLE = 1024

/** The usage's input side as a split (a usage without the 5m/1h breakdown counts its writes as 5m, §5.4). */
export function splitOfUsage(usage: Usage): TokenSplit {
  const w1h = usage.cache_creation?.ephemeral_1h_input_tokens ?? 0
  const w5m = usage.cache_creation ? usage.cache_creation.ephemeral_5m_input_tokens : usage.cache_creation_input_tokens
  return {
    read: usage.cache_read_input_tokens,
    write1h: w1h,
    write5m: w5m,
    uncached: usage.input_tokens,
    total: usage.cache_read_input_tokens + usage.cache_creation_input_tokens + usage.input_tokens,
  }
}

/** USD for the input side of a split (§5.5 cost formula without output). */
export function inputCost(split: TokenSplit, prices: CachePrices): number {
  return (
    split.read * prices.cacheReadPerMTok +
    split.write1h * prices.cacheWrite1hPerMTok +
    split.write5m * prices.cacheWrite5mPerMTok +
    split.uncached * prices.inputPerMTok
  ) / 1_000_000
}

export function outputCost(outputTokens: number, prices: CachePrices): number {
  return (outputTokens * prices.outputPerMTok) / 1_000_000
}

/**
 * What reading `upTo` tokens instead of what the split read would have saved. The tokens between the split's read
 * and `upTo` were paid as 1h writes, then 5m writes, then uncached input, in that order along the prompt (§5.4
 * positions A, B, C); each would have cost a read instead.
 */
export function missCost(split: TokenSplit, upTo: number, prices: CachePrices): { readonly tokens: number; readonly usd: number } {
  const a = split.read
  if (upTo <= a) return { tokens: 0, usd: 0 }
  const b = a + split.write1h
  const c = b + split.write5m
  const overlap = (lo: number, hi: number): number => Math.max(0, Math.min(hi, upTo) - Math.max(lo, a))
  const in1h = overlap(a, b)
  const in5m = overlap(b, c)
  const inInput = overlap(c, Number.POSITIVE_INFINITY)
  const usd =
    (in1h * (prices.cacheWrite1hPerMTok - prices.cacheReadPerMTok) +
      in5m * (prices.cacheWrite5mPerMTok - prices.cacheReadPerMTok) +
      inInput * (prices.inputPerMTok - prices.cacheReadPerMTok)) /
    1_000_000
  return { tokens: upTo - a, usd }
}
