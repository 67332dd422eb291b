/**
 * The prediction for one request: for each breakpoint, read or write, and the expected read / write / uncached
 * split. The rules are docs/reference/anthropic-api.md §6.4:
 *
 *   for each breakpoint p, last first:
 *     skip p if its prefix is below the model's minimum (§5.2)
 *     look at p, then back one block at a time, 20 positions in all (p itself is the first): the first entry found
 *     that is readable and not expired is a hit, and is refreshed
 *   A = the highest position found; breakpoints above A (and above the minimum) write
 *   read = tokens(A); 1h write = up to the highest 1h writer; 5m write = from there to the last writer
 */
import type { CacheTtl } from '../model/wire'
import type { TokenScale } from './scale'
import type { CacheState, FactRead, FactWrite } from './state'
import type { RequestWalk } from './walk'

/** §5.1: a breakpoint checks at most 20 positions, itself included. */
export const LOOKBACK_POSITIONS = 20

export type BreakpointAction = 'read' | 'write' | 'below_minimum'

export interface BreakpointPrediction {
  readonly position: number
  readonly ttl: CacheTtl
  /** Real (or scaled) cumulative tokens through the breakpoint. */
  readonly tokens: number
  /** `read`: the prefix up to here comes from the cache; `write`: an entry is written here. */
  readonly action: BreakpointAction
  /** Where this breakpoint's own lookup found an entry, or null. */
  readonly foundAt: number | null
}

export interface TokenSplit {
  readonly read: number
  readonly write5m: number
  readonly write1h: number
  readonly uncached: number
  readonly total: number
}

export interface Prediction {
  /** The highest position read from the cache, -1 for none. */
  readonly readPosition: number
  readonly breakpoints: ReadonlyArray<BreakpointPrediction>
  readonly tokens: TokenSplit
  /** Entries the lookups found (each is refreshed), with the positions they end at. */
  readonly reads: ReadonlyArray<FactRead & { readonly position: number }>
  /** Entries written, with the positions they end at. */
  readonly writes: ReadonlyArray<FactWrite & { readonly position: number }>
}

export interface PredictInput {
  readonly walk: RequestWalk
  readonly state: CacheState
  /** The request's start. */
  readonly now: number
  readonly scale: TokenScale
  readonly minCacheableTokens: number
}

/**
 * The entry a breakpoint at `position` finds (§6.4): the first readable one walking back from it, at most
 * LOOKBACK_POSITIONS positions (itself included), and not at or before `floor`. Null for none.
 */
export function lookback(walk: RequestWalk, state: CacheState, now: number, position: number, floor = -1): number | null {
  for (let j = position; j > floor && j > position - LOOKBACK_POSITIONS; j--) if (state.live(walk.keys[j]!, now)) return j
  return null
}

export function predict(input: PredictInput): Prediction {
  const { walk, state, now, scale, minCacheableTokens } = input
  const found = new Map<number, number | null>()
  const reads: Array<FactRead & { position: number }> = []
  let readPosition = -1
  for (let b = walk.breakpoints.length - 1; b >= 0; b--) {
    const p = walk.breakpoints[b]!
    if (scale.at(p) < minCacheableTokens) continue
    const hit = lookback(walk, state, now, p)
    found.set(p, hit)
    if (hit !== null) {
      reads.push({ key: walk.keys[hit]!, ttl: walk.blocks[p]!.ttl!, exact: hit === p, position: hit })
      readPosition = Math.max(readPosition, hit)
    }
  }
  return finishPrediction(input, readPosition, found, reads)
}

/** The split and the per-breakpoint actions for a given read position (predicted, or taken from usage). */
export function finishPrediction(
  input: Pick<PredictInput, 'walk' | 'scale' | 'minCacheableTokens'>,
  readPosition: number,
  found: ReadonlyMap<number, number | null>,
  reads: ReadonlyArray<FactRead & { readonly position: number }>,
): Prediction {
  const { walk, scale, minCacheableTokens } = input
  const breakpoints: BreakpointPrediction[] = []
  const writes: Array<FactWrite & { position: number }> = []
  let highest1h = -1
  let lastWriter = -1
  for (const p of walk.breakpoints) {
    const tokens = scale.at(p)
    const ttl = walk.blocks[p]!.ttl!
    let action: BreakpointAction
    if (tokens < minCacheableTokens) action = 'below_minimum'
    else if (p <= readPosition) action = 'read'
    else {
      action = 'write'
      writes.push({ key: walk.keys[p]!, ttl, position: p })
      lastWriter = p
      if (ttl === '1h') highest1h = p
    }
    breakpoints.push({ position: p, ttl, tokens, action, foundAt: found.get(p) ?? null })
  }
  const total = scale.total()
  const read = scale.at(readPosition)
  const b = highest1h >= 0 ? scale.at(highest1h) : read
  const c = lastWriter >= 0 ? scale.at(lastWriter) : read
  return {
    readPosition,
    breakpoints,
    tokens: { read, write1h: Math.max(0, b - read), write5m: Math.max(0, c - Math.max(b, read)), uncached: Math.max(0, total - Math.max(read, c)), total },
    reads,
    writes,
  }
}
