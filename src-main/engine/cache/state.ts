/**
 * The cache entries this app's earlier passes left behind, rebuilt from what each pass did (its facts) by the rules
 * of docs/reference/anthropic-api.md §5.1 and §6.4:
 *
 * - a pass looks up at the start of its request; each entry it finds is refreshed to `start + ttl` (refresh on read),
 *   and a find exactly at a breakpoint with a longer TTL lifts the entry to that TTL (§6.4 design choice);
 * - a pass writes at its breakpoints; the entries expire at `start + ttl` (TTL counts from the request's start) but
 *   become readable only when its response begins (`availableAt`), so a pass sent before that cannot read them.
 *
 * Entries are keyed by the walk's prefix keys, which include the model, so the cache is per model by construction.
 */
import type { CacheTtl } from '../model/wire'

export const TTL_MS: Readonly<Record<CacheTtl, number>> = { '5m': 5 * 60_000, '1h': 60 * 60_000 }
/** The longest TTL the API offers (§5.1): no entry can bridge a longer idle gap. */
export const LONGEST_TTL_MS = TTL_MS['1h']

/** One HTTP attempt that reached the service and got a response under way. */
export interface FactAttempt {
  readonly startedAt: number
  /** When the response began (its first byte); the pass's writes are readable from then on. */
  readonly availableAt: number
}

export interface FactRead {
  readonly key: string
  /** The TTL of the breakpoint whose lookup found it. */
  readonly ttl: CacheTtl
  /** Found at the breakpoint itself (not through the lookback), which may lift the entry's TTL. */
  readonly exact: boolean
}

export interface FactWrite {
  readonly key: string
  readonly ttl: CacheTtl
}

/** A breakpoint as a later what-if needs it. `moving`: on a message (it moves every pass), not tools or system. */
export interface FactBreakpoint {
  readonly key: string
  readonly tokens: number
  readonly ttl: CacheTtl
  readonly moving: boolean
  /**
   * How far, in estimated tokens, `tokens` lay from a real count in this request (0: it is one). A later request
   * sharing the prefix scales from it when it is nearer than its own pinned points (TokenScale).
   */
  readonly span?: number
}

/** What one pass did to the cache, as far as the app can tell. Kept with the pass's attribution. */
export interface PassCacheFacts {
  readonly passId: string
  readonly seq: number
  readonly model: string
  readonly attempts: ReadonlyArray<FactAttempt>
  /** When the pass was sent (its last attempt's start), whether or not a response began. */
  readonly startedAt: number
  readonly reads: ReadonlyArray<FactRead>
  readonly writes: ReadonlyArray<FactWrite>
  /** Real cumulative token counts known at some prefixes (from the pass's usage). */
  readonly anchors: ReadonlyArray<{ readonly key: string; readonly tokens: number }>
  readonly breakpoints: ReadonlyArray<FactBreakpoint>
  /** Real input tokens of the request (read + written + uncached), null when no usage came back. */
  readonly totalTokens: number | null
  readonly outputTokens: number
  /** Real tokens per estimated token on this pass, null when unknown. */
  readonly ratio: number | null
}

export interface CacheEntry {
  readonly key: string
  ttlMs: number
  expiresAt: number
  availableAt: number
  /** Start of the request that last wrote or refreshed it: the idle time of an expired entry counts from here. */
  lastTouchedAt: number
  writtenBy: string
}

/** A lookup (at a request's start) or a commit (when its response began), replayed in time order. */
export type CacheEvent =
  | { readonly at: number; readonly seq: number; readonly order: 0; readonly kind: 'lookup'; readonly reads: ReadonlyArray<FactRead> }
  | { readonly at: number; readonly seq: number; readonly order: 1; readonly kind: 'commit'; readonly startedAt: number; readonly writes: ReadonlyArray<FactWrite>; readonly passId: string }

/** The events of one pass: a lookup and a commit per attempt that got a response under way. */
export function eventsOf(f: PassCacheFacts): CacheEvent[] {
  const out: CacheEvent[] = []
  for (const a of f.attempts) {
    out.push({ at: a.startedAt, seq: f.seq, order: 0, kind: 'lookup', reads: f.reads })
    out.push({ at: a.availableAt, seq: f.seq, order: 1, kind: 'commit', startedAt: a.startedAt, writes: f.writes, passId: f.passId })
  }
  return out
}

/** Time order; on a tie, the earlier pass first, and a pass's lookup before its own commit. */
export function compareEvents(a: CacheEvent, b: CacheEvent): number {
  return a.at - b.at || a.seq - b.seq || a.order - b.order
}

/** A write whose response had not begun at the time the state describes. */
export interface PendingWrite {
  readonly key: string
  readonly passId: string
  readonly startedAt: number
  readonly availableAt: number
}

export class CacheState {
  private readonly entries = new Map<string, CacheEntry>()
  private pendingWrites = new Map<string, PendingWrite>()

  /**
   * The entries as they stood at `now`: every lookup that started and every commit that became readable by then,
   * in time order.
   */
  static at(facts: ReadonlyArray<PassCacheFacts>, now: number): CacheState {
    const events = facts.flatMap(eventsOf).sort(compareEvents)
    const state = new CacheState()
    for (const e of events) if (e.at <= now) state.apply(e)
    state.setPending(events, now)
    return state
  }

  apply(e: CacheEvent): void {
    if (e.kind === 'lookup') for (const r of e.reads) this.refresh(r, e.at)
    else for (const w of e.writes) this.write(w, e.startedAt, e.at, e.passId)
  }

  /** Writes sent by `now` whose response had not begun: the commits among `events` still to come. */
  setPending(events: Iterable<CacheEvent>, now: number): void {
    this.pendingWrites = new Map()
    for (const e of events) {
      if (e.kind !== 'commit' || e.at <= now || e.startedAt > now) continue
      for (const w of e.writes) this.pendingWrites.set(w.key, { key: w.key, passId: e.passId, startedAt: e.startedAt, availableAt: e.at })
    }
  }

  /** An entry that is readable at `now`: written, its response begun, not expired. */
  live(key: string, now: number): CacheEntry | null {
    const e = this.entries.get(key)
    return e && e.availableAt <= now && e.expiresAt > now ? e : null
  }

  /** Any entry ever written under `key`, live or not. */
  entry(key: string): CacheEntry | null {
    return this.entries.get(key) ?? null
  }

  /** A write sent before `now` whose response had not begun by then: readable later, not yet. */
  pending(key: string): PendingWrite | null {
    return this.pendingWrites.get(key) ?? null
  }

  /** Refresh on read (§5.1): a minimum lifetime from this request's start, never shortened. */
  refresh(read: FactRead, now: number): void {
    const e = this.live(read.key, now)
    if (!e) return
    if (read.exact) e.ttlMs = Math.max(e.ttlMs, TTL_MS[read.ttl])
    e.expiresAt = Math.max(e.expiresAt, now + e.ttlMs)
    e.lastTouchedAt = Math.max(e.lastTouchedAt, now)
  }

  write(write: FactWrite, startedAt: number, availableAt: number, passId: string): void {
    const ttlMs = TTL_MS[write.ttl]
    const e = this.entries.get(write.key)
    if (e && e.expiresAt > availableAt) {
      // Rewritten while alive (two passes wrote it): it lives as long as the longer of the two says.
      e.ttlMs = Math.max(e.ttlMs, ttlMs)
      e.expiresAt = Math.max(e.expiresAt, startedAt + ttlMs)
      e.availableAt = Math.min(e.availableAt, availableAt)
      e.lastTouchedAt = Math.max(e.lastTouchedAt, startedAt)
      return
    }
    this.entries.set(write.key, { key: write.key, ttlMs, expiresAt: startedAt + ttlMs, availableAt, lastTouchedAt: startedAt, writtenBy: passId })
  }
}
