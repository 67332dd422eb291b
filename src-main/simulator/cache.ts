/**
 * The prompt cache, as docs/reference/anthropic-api.md §5–6 state it. Written from the spec alone; it shares no
 * code with the app's own prediction (src-main/engine/cache/), because the app is judged by how well it agrees
 * with this model.
 *
 * - An entry is written only at a breakpoint, keyed by the cumulative prefix hash, per model (§5.1).
 * - A breakpoint reads by looking back at most 20 positions, itself included (§5.1, §6.4).
 * - A breakpoint whose prefix is below the model's minimum neither reads nor writes (§5.2, §6.4).
 * - TTLs run from the request's start and are refreshed on read (§5.1); time comes from an injected clock.
 * - Entries become readable only when the writing response starts: `lookup` plans, `commit` stores (§5.1).
 */
import type { Ttl } from './request'

export const LOOKBACK_POSITIONS = 20
export const TTL_MS: Readonly<Record<Ttl, number>> = { '5m': 5 * 60_000, '1h': 60 * 60_000 }

/** One position of the canonical sequence, as the cache sees it. */
export interface CachePosition {
  readonly key: string
  readonly cum: number
  readonly breakpoint: Ttl | null
}

export interface CacheQuery {
  readonly model: string
  readonly positions: ReadonlyArray<CachePosition>
  readonly totalTokens: number
  readonly minCacheableTokens: number
  /** The request's start, epoch ms. */
  readonly now: number
}

export interface CacheUsage {
  readonly input_tokens: number
  readonly cache_read_input_tokens: number
  readonly cache_creation_input_tokens: number
  readonly cache_creation: { readonly ephemeral_5m_input_tokens: number; readonly ephemeral_1h_input_tokens: number }
}

export interface CacheWrite {
  readonly key: string
  readonly ttl: Ttl
  readonly tokens: number
}

export interface CachePlan {
  readonly model: string
  readonly startedAt: number
  /** Index of the longest prefix read from cache, or -1. */
  readonly hitIndex: number
  readonly writes: ReadonlyArray<CacheWrite>
  readonly usage: CacheUsage
}

interface Entry {
  expiresAt: number
  ttl: Ttl
  readonly tokens: number
}

function longer(a: Ttl, b: Ttl): Ttl {
  return TTL_MS[a] >= TTL_MS[b] ? a : b
}

export class PromptCache {
  private readonly entries = new Map<string, Entry>()
  private operations = 0

  /** Finds what this request reads, refreshes what it read, and plans its writes (§6.4). */
  lookup(query: CacheQuery): CachePlan {
    this.sweep(query.now)
    const { positions, now, minCacheableTokens } = query
    const breakpoints = positions.map((p, i) => ({ p, i })).filter(({ p }) => p.breakpoint !== null)
    let hitIndex = -1
    for (let b = breakpoints.length - 1; b >= 0; b--) {
      const { p: bp, i: at } = breakpoints[b]!
      if (bp.cum < minCacheableTokens) continue
      for (let j = at; j >= Math.max(0, at - LOOKBACK_POSITIONS + 1); j--) {
        const entry = this.entries.get(this.storeKey(query.model, positions[j]!.key))
        if (entry && entry.expiresAt > now) {
          hitIndex = Math.max(hitIndex, j)
          // Refresh on read. A hit found exactly at a breakpoint takes that breakpoint's TTL if it is longer.
          if (j === at) entry.ttl = longer(entry.ttl, bp.breakpoint!)
          entry.expiresAt = Math.max(entry.expiresAt, now + TTL_MS[entry.ttl])
          break
        }
      }
    }
    const read = hitIndex >= 0 ? positions[hitIndex]!.cum : 0
    const writing = breakpoints.filter(({ p }) => p.cum >= minCacheableTokens && p.cum > read)
    const last1h = [...writing].reverse().find(({ p }) => p.breakpoint === '1h')
    const lastWrite = writing[writing.length - 1]
    const b = last1h ? last1h.p.cum : read
    const c = lastWrite ? lastWrite.p.cum : read
    return {
      model: query.model,
      startedAt: now,
      hitIndex,
      writes: writing.map(({ p }) => ({ key: p.key, ttl: p.breakpoint!, tokens: p.cum })),
      usage: {
        input_tokens: query.totalTokens - Math.max(read, c),
        cache_read_input_tokens: read,
        cache_creation_input_tokens: c - read,
        cache_creation: { ephemeral_5m_input_tokens: c - b, ephemeral_1h_input_tokens: b - read },
      },
    }
  }

  /** Stores a plan's writes. Called when the writing response starts; TTLs still run from the request's start. */
  commit(plan: CachePlan): void {
    for (const write of plan.writes) {
      const key = this.storeKey(plan.model, write.key)
      const expiresAt = plan.startedAt + TTL_MS[write.ttl]
      const existing = this.entries.get(key)
      // An entry that had expired when this request started is gone (the sweep may not have deleted it yet): the
      // write makes a new one, with its own TTL, not the expired entry's longer one.
      if (existing && existing.expiresAt > plan.startedAt) {
        existing.ttl = longer(existing.ttl, write.ttl)
        existing.expiresAt = Math.max(existing.expiresAt, expiresAt)
      } else {
        this.entries.set(key, { expiresAt, ttl: write.ttl, tokens: write.tokens })
      }
    }
  }

  /** Live entries for a model, for tests and the property check ("a read never exceeds what was written"). */
  liveEntries(model: string, now: number): ReadonlyArray<{ readonly key: string; readonly tokens: number; readonly expiresAt: number }> {
    const prefix = `${model}|`
    return [...this.entries]
      .filter(([k, e]) => k.startsWith(prefix) && e.expiresAt > now)
      .map(([k, e]) => ({ key: k.slice(prefix.length), tokens: e.tokens, expiresAt: e.expiresAt }))
  }

  private storeKey(model: string, key: string): string {
    return `${model}|${key}`
  }

  /** Expired entries are deleted "promptly, though not immediately" (§5.1): here, every 256 lookups. */
  private sweep(now: number): void {
    if (++this.operations % 256 !== 0) return
    for (const [k, e] of this.entries) if (e.expiresAt <= now) this.entries.delete(k)
  }
}
