import { createHash } from 'node:crypto'
import { deflateRawSync, inflateRawSync } from 'node:zlib'
import type { Db } from './database'

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex')
}

const HEX_SHA256 = /^[0-9a-f]{64}$/

/**
 * The app names content by the hex of its sha256; the store keeps the 32 raw bytes (migration 4), half the size in
 * every row and index. These two convert at the store's edge.
 */
export function hashKey(hex: string): Buffer {
  if (!HEX_SHA256.test(hex)) throw new Error(`not a sha256: ${hex.slice(0, 80)}`)
  return Buffer.from(hex, 'hex')
}

export function hashHex(key: Buffer): string {
  return key.toString('hex')
}

export function isHashHex(text: string): boolean {
  return HEX_SHA256.test(text)
}

/**
 * Deflate level for new blobs and large entries: 3 writes about twice as fast as the default 6 (compression was a
 * fifth of an import's time) and, on session content, makes the store no larger (`npm run bench -- store`).
 */
export const DEFLATE_LEVEL = 3

/** Below this size compression saves too little to be worth a decode on every read. */
const COMPRESS_MIN_BYTES = 256

/** A blob's row as the table keeps it: deflated when that saves a tenth or more, its text's byte length as `size`. */
export function packBlob(text: string): { size: number; data: Buffer; encoding: 'deflate' | 'utf8' } {
  const bytes = Buffer.from(text, 'utf8')
  const packed = bytes.length >= COMPRESS_MIN_BYTES ? deflateRawSync(bytes, { level: DEFLATE_LEVEL }) : null
  return packed && packed.length < bytes.length * 0.9 ? { size: bytes.length, data: packed, encoding: 'deflate' } : { size: bytes.length, data: bytes, encoding: 'utf8' }
}

/**
 * Content-addressed text: each distinct string is stored once, under the sha256 of its text, compressed with raw
 * deflate when that saves at least a tenth (request texts — JSON, code, prose — usually shrink 3–5×).
 * `size` is always the text's own byte length.
 */
export class BlobRepo {
  private readonly insert
  private readonly select
  private readonly exists
  constructor(private readonly db: Db) {
    this.insert = db.prepare('INSERT OR IGNORE INTO blobs (hash, size, data, encoding) VALUES (?, ?, ?, ?)')
    this.select = db.prepare('SELECT data, encoding FROM blobs WHERE hash = ?')
    this.exists = db.prepare('SELECT 1 FROM blobs WHERE hash = ?').pluck()
  }

  /** Stores `text` once and returns its hash (hex). */
  put(text: string): string {
    const hash = sha256Hex(text)
    const key = Buffer.from(hash, 'hex')
    if (this.exists.get(key)) return hash
    const packed = packBlob(text)
    this.insert.run(key, packed.size, packed.data, packed.encoding)
    return hash
  }

  /** The text stored under a hash (hex); null when there is none, or when `hash` is not a sha256 at all. */
  get(hash: string): string | null {
    if (!isHashHex(hash)) return null
    const row = this.select.get(Buffer.from(hash, 'hex')) as { data: Buffer; encoding: string } | undefined
    if (!row) return null
    return (row.encoding === 'deflate' ? inflateRawSync(row.data) : row.data).toString('utf8')
  }

  /** Removes blobs no pass refers to any more (after a session is deleted). Returns how many went. */
  collectGarbage(): number {
    const result = this.db
      .prepare(
        `DELETE FROM blobs WHERE hash NOT IN (
           SELECT blob_hash FROM pass_blocks
           UNION SELECT skeleton_hash FROM passes
           UNION SELECT response_hash FROM passes WHERE response_hash IS NOT NULL
           UNION SELECT plan_hash FROM passes WHERE plan_hash IS NOT NULL
           UNION SELECT attribution_hash FROM passes WHERE attribution_hash IS NOT NULL
           UNION SELECT provenance_hash FROM pass_blocks
           UNION SELECT unhex(json_extract(a.value, '$.responseHash')) FROM passes, json_each(passes.attempts) a
             -- A NULL in a NOT IN list makes it never true: a value that is not hex must not stop every deletion.
             WHERE unhex(json_extract(a.value, '$.responseHash')) IS NOT NULL)`,
      )
      .run()
    return result.changes
  }

  totalBytes(): number {
    return (this.db.prepare('SELECT COALESCE(SUM(size), 0) FROM blobs').pluck().get() as number) ?? 0
  }
}
