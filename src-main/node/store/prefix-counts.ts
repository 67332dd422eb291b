/**
 * Prompt prefix sizes counted with the model service's counter (table `prefix_counts`, migration 6), by the prefix's
 * cache key. Few rows: one per tool and system breakpoint of each static prefix the app has sent.
 */
import type { Db } from './database'

/** Rows kept: the newest by the time they were counted. */
export const MAX_PREFIX_COUNTS = 2_000

export class PrefixCountRepo {
  private readonly upsert
  private readonly selectAll
  private readonly prune

  constructor(db: Db) {
    this.upsert = db.prepare('INSERT INTO prefix_counts (key, tokens, counted_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET tokens = excluded.tokens, counted_at = excluded.counted_at')
    this.selectAll = db.prepare('SELECT key, tokens FROM prefix_counts ORDER BY counted_at, rowid')
    this.prune = db.prepare('DELETE FROM prefix_counts WHERE key IN (SELECT key FROM prefix_counts ORDER BY counted_at DESC, rowid DESC LIMIT -1 OFFSET ?)')
  }

  /** Every count kept, oldest first. */
  all(): Map<string, number> {
    const out = new Map<string, number>()
    for (const row of this.selectAll.iterate() as Iterable<{ key: string; tokens: number }>) out.set(row.key, row.tokens)
    return out
  }

  /** Keeps a count (replacing one of the same prefix), and drops the oldest past MAX_PREFIX_COUNTS. */
  put(key: string, tokens: number, at: number): void {
    if (!Number.isSafeInteger(tokens) || tokens < 0) throw new Error(`a prefix's token count must be a whole number ≥ 0, not ${tokens}`)
    this.upsert.run(key, tokens, at)
    this.prune.run(MAX_PREFIX_COUNTS)
  }
}
