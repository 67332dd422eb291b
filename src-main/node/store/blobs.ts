import { createHash } from 'node:crypto'
import type { Db } from './database'

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex')
}

/** Content-addressed text: each distinct string is stored once, under its sha256. */
export class BlobRepo {
  private readonly insert
  private readonly select
  constructor(private readonly db: Db) {
    this.insert = db.prepare('INSERT OR IGNORE INTO blobs (hash, size, data) VALUES (?, ?, ?)')
    this.select = db.prepare('SELECT data FROM blobs WHERE hash = ?').pluck()
  }

  put(text: string): string {
    const hash = sha256Hex(text)
    const bytes = Buffer.from(text, 'utf8')
    this.insert.run(hash, bytes.length, bytes)
    return hash
  }

  get(hash: string): string | null {
    const data = this.select.get(hash) as Buffer | undefined
    return data ? data.toString('utf8') : null
  }

  /** Removes blobs no pass refers to any more (after a session is deleted). Returns how many went. */
  collectGarbage(): number {
    const result = this.db
      .prepare(
        `DELETE FROM blobs WHERE hash NOT IN (
           SELECT blob_hash FROM pass_blocks
           UNION SELECT skeleton_hash FROM passes
           UNION SELECT response_hash FROM passes WHERE response_hash IS NOT NULL)`,
      )
      .run()
    return result.changes
  }

  totalBytes(): number {
    return (this.db.prepare('SELECT COALESCE(SUM(size), 0) FROM blobs').pluck().get() as number) ?? 0
  }
}
