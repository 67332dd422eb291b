import { deflateRawSync, inflateRawSync } from 'node:zlib'
import type { Entry, EntryBody, EntryId } from '../../engine/conversation/entries'
import { statement, type Db } from './database'
import { DEFLATE_LEVEL } from './blobs'
import { newId } from './ids'

interface EntryRow {
  id: string
  session_id: string
  seq: number
  at: number
  kind: string
  /** JSON text, or (for bodies over COMPRESS_MIN_CHARS that shrink) the JSON raw-deflated. */
  body: string | Buffer
}

/** Entries above this size (tool results, long answers) are compressed; small ones stay readable in the file. */
const COMPRESS_MIN_CHARS = 1024

export function encodeEntryBody(json: string): string | Buffer {
  if (json.length < COMPRESS_MIN_CHARS) return json
  const packed = deflateRawSync(Buffer.from(json, 'utf8'), { level: DEFLATE_LEVEL })
  return packed.length < Buffer.byteLength(json) * 0.9 ? packed : json
}

function decodeBody(body: string | Buffer): string {
  return typeof body === 'string' ? body : inflateRawSync(body).toString('utf8')
}

function toEntry(row: EntryRow): Entry {
  const body = JSON.parse(decodeBody(row.body)) as EntryBody
  return { ...body, id: row.id as EntryId, sessionId: row.session_id, seq: row.seq, at: row.at } as Entry
}

export class EntryRepo {
  constructor(private readonly db: Db) {}

  /** Appends entries at the end of the session, in order. Call inside a transaction to commit them with a pass. */
  append(sessionId: string, bodies: ReadonlyArray<EntryBody>, now: number): Entry[] {
    if (bodies.length === 0) return []
    const last = this.lastSeq(sessionId)
    const insert = statement(this.db, 'INSERT INTO entries (id, session_id, seq, at, kind, body) VALUES (?, ?, ?, ?, ?, ?)')
    const out: Entry[] = []
    bodies.forEach((body, i) => {
      const row: EntryRow = { id: newId('ent', now), session_id: sessionId, seq: last + i + 1, at: now, kind: body.kind, body: encodeEntryBody(JSON.stringify(body)) }
      insert.run(row.id, row.session_id, row.seq, row.at, row.kind, row.body)
      // The entry as it was given, not decoded back from the row it became (large bodies are stored deflated).
      out.push({ ...body, id: row.id as EntryId, sessionId, seq: row.seq, at: now } as Entry)
    })
    statement(this.db, 'UPDATE sessions SET updated_at = ? WHERE id = ?').run(now, sessionId)
    return out
  }

  list(sessionId: string): Entry[] {
    const rows = statement(this.db, 'SELECT * FROM entries WHERE session_id = ? ORDER BY seq').all(sessionId) as EntryRow[]
    return rows.map(toEntry)
  }

  /** The session's entries from position `seq` on, in order. */
  listFrom(sessionId: string, seq: number): Entry[] {
    const rows = statement(this.db, 'SELECT * FROM entries WHERE session_id = ? AND seq >= ? ORDER BY seq').all(sessionId, seq) as EntryRow[]
    return rows.map(toEntry)
  }

  /** The id and position of the session's newest entry, or null: one indexed row, no body read. */
  newestId(sessionId: string): { readonly id: string; readonly seq: number } | null {
    return (statement(this.db, 'SELECT id, seq FROM entries WHERE session_id = ? ORDER BY seq DESC LIMIT 1').get(sessionId) as { id: string; seq: number } | undefined) ?? null
  }

  /** The position of the session's newest entry, 0 for none: one indexed row, no body read. */
  lastSeq(sessionId: string): number {
    return (statement(this.db, 'SELECT COALESCE(MAX(seq), 0) FROM entries WHERE session_id = ?', 'pluck').get(sessionId) as number) ?? 0
  }

  count(sessionId: string): number {
    return statement(this.db, 'SELECT COUNT(*) FROM entries WHERE session_id = ?', 'pluck').get(sessionId) as number
  }

  /** The session's newest entry of `kind`, or null: one indexed row. */
  newest<K extends EntryBody['kind']>(sessionId: string, kind: K): (Entry & { readonly kind: K }) | null {
    const row = statement(this.db, 'SELECT * FROM entries WHERE session_id = ? AND kind = ? ORDER BY seq DESC LIMIT 1').get(sessionId, kind) as EntryRow | undefined
    return row ? (toEntry(row) as Entry & { readonly kind: K }) : null
  }

  /** The kind of the session's newest entry among `kinds`, or null: one indexed row, no body read. */
  newestOf(sessionId: string, kinds: ReadonlyArray<EntryBody['kind']>): EntryBody['kind'] | null {
    const marks = kinds.map(() => '?').join(', ')
    const kind = statement(this.db, `SELECT kind FROM entries WHERE session_id = ? AND kind IN (${marks}) ORDER BY seq DESC LIMIT 1`, 'pluck').get(sessionId, ...kinds)
    return (kind as EntryBody['kind'] | undefined) ?? null
  }
}
