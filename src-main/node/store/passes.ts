/**
 * Passes: one row per request sent to the model, its request body kept as content-addressed segments so storage
 * grows with new content, not with the square of the session (docs/design.md §5).
 *
 * A pass stores only the segments that differ from its base (the session's previous pass): `base_count` leading
 * segments are the base's, the rest are rows in pass_blocks. The exact body is re-assembled from them and checked
 * against the captured sha256 before anything is written.
 */
import type { Usage } from '../../engine/model/wire'
import { statement, type Db } from './database'
import { joinBody, joinParts, splitBody, type SplitBody } from './body-split'
import { isHopByHop } from '../hop-by-hop'
import { BlobRepo, hashHex, hashKey, sha256Hex } from './blobs'
import { newId } from './ids'

/** The most bases a pass's re-assembly walks through (see insert). */
export const MAX_CHAIN_DEPTH = 64

/** `keep_warm`: a cache pre-warm sent in an idle gap (max_tokens 0), not a conversation pass. */
export type PassKind = 'main' | 'summary' | 'count' | 'keep_warm'
export type PassStatus = 'done' | 'failed' | 'cancelled'
/**
 * Where the request body came from: `loupe` (sent by the app) and `proxy` (another agent's request, recorded by the
 * capture proxy) are exact wire bytes; `transcript` is reconstructed from a Claude Code transcript (the conversation
 * only: its system prompt, tools and injected reminders are never logged) and is not wire bytes.
 */
export type PassSource = 'loupe' | 'transcript' | 'proxy'

/** Metadata of one HTTP attempt; its raw response is a blob. */
export interface StoredAttempt {
  readonly startedAt: number
  readonly firstByteAt: number | null
  readonly endedAt: number
  readonly status: number | null
  readonly requestId: string | null
  readonly error: { readonly kind: string; readonly message: string } | null
  readonly responseHash: string | null
  readonly responseHeaders: Readonly<Record<string, string>>
  /**
   * What the attempt was billed (node/model/billed.ts), on an attempt the service answered with a 2xx: the last one's
   * is the pass's `usage`; an earlier one's is a stream that broke after its 200 and was sent again. Absent on an
   * attempt that was not billed, and on passes stored before attempts were priced.
   */
  readonly usage?: Usage
  readonly costUsd?: number | null
}

export interface SegmentMeta {
  readonly provenance: unknown
  readonly breakpoint: string | null
}

export interface NewPass {
  readonly sessionId: string
  readonly kind: PassKind
  readonly model: string
  readonly status: PassStatus
  readonly queuedAt: number
  readonly firstByteAt: number | null
  readonly doneAt: number
  /** The exact request body as captured on the wire. */
  readonly requestBody: string
  /** Provenance and breakpoint per segment path (`tools[0]`, `system[1]`, `messages[4]`). */
  readonly segmentMeta: (path: string) => SegmentMeta
  readonly attempts: ReadonlyArray<Omit<StoredAttempt, 'responseHash'> & { readonly responseBody: string }>
  readonly messageId: string | null
  readonly stopReason: string | null
  /** The last attempt's usage: the answer's (what attribution compares with its prediction). */
  readonly usage: Usage | null
  /** What the pass was billed, every attempt of it (StoredAttempt.costUsd): null when none was priced. */
  readonly costUsd: number | null
  readonly error: { readonly kind: string; readonly message: string } | null
  readonly plan: unknown
  /** Default `loupe`. */
  readonly source?: PassSource
}

/**
 * A request body its writer has already split (body-split `splitRecord`) and hashed, for `insertSplit`: a writer
 * whose bodies share all but their last items (the transcript importer) need not build, parse and hash each one.
 */
export interface SplitRequest {
  /** Strings whose concatenation is the body, cut wherever the writer likes. */
  readonly parts: ReadonlyArray<string>
  /** The sha256 (hex) and UTF-8 length of that concatenation. */
  readonly sha256: string
  readonly bytes: number
  /** What splitBody gives for the body, and the sha256 (hex) of each segment's text. */
  readonly split: SplitBody
  readonly segmentHashes: ReadonlyArray<string>
}

export interface PassSummary {
  readonly id: string
  readonly sessionId: string
  readonly seq: number
  readonly kind: PassKind
  readonly model: string
  readonly status: PassStatus
  readonly queuedAt: number
  readonly firstByteAt: number | null
  readonly doneAt: number | null
  readonly requestSha256: string
  readonly requestBytes: number
  readonly messageId: string | null
  readonly stopReason: string | null
  readonly usage: Usage | null
  readonly costUsd: number | null
  readonly attempts: ReadonlyArray<StoredAttempt>
  readonly error: { readonly kind: string; readonly message: string } | null
  readonly attribution: unknown
  readonly source: PassSource
}

export interface StoredSegment {
  readonly ordinal: number
  readonly path: string
  readonly hash: string
  readonly bytes: number
  readonly provenance: unknown
  readonly breakpoint: string | null
}

export interface PassDetail extends PassSummary {
  readonly requestBody: string
  readonly segments: ReadonlyArray<StoredSegment>
  readonly responseRaw: string | null
  readonly plan: unknown
}

interface PassRow {
  id: string
  session_id: string
  seq: number
  kind: PassKind
  model: string
  status: PassStatus
  queued_at: number
  first_byte_at: number | null
  done_at: number | null
  request_sha256: string
  request_bytes: number
  skeleton_hash: string
  base_pass_id: string | null
  base_count: number
  chain_depth: number
  segment_count: number
  response_hash: string | null
  message_id: string | null
  stop_reason: string | null
  usage: string | null
  cost_usd: number | null
  attempts: string
  error: string | null
  plan_hash: string | null
  attribution_hash: string | null
  source: PassSource
}

interface BlockRow {
  ordinal: number
  blob_hash: string
  path: string
  provenance_hash: string
  breakpoint: string | null
  size: number
}

/** The hash columns of a pass row: hex in PassRow, 32 raw bytes in the table (migration 4). */
const PASS_HASH_COLUMNS = ['request_sha256', 'skeleton_hash', 'response_hash', 'plan_hash', 'attribution_hash'] as const

function decodePassRow(raw: unknown): PassRow {
  const row = { ...(raw as Record<string, unknown>) }
  for (const column of PASS_HASH_COLUMNS) if (row[column] instanceof Buffer) row[column] = hashHex(row[column] as Buffer)
  return row as unknown as PassRow
}

function encodePassRow(row: PassRow): Record<string, unknown> {
  const out: Record<string, unknown> = { ...row }
  for (const column of PASS_HASH_COLUMNS) if (typeof out[column] === 'string') out[column] = hashKey(out[column] as string)
  return out
}

/**
 * Hop-by-hop headers describe one connection's framing, not the response: they are not kept. Everything the service
 * said about the request (request-id, rate limits, retry-after …) is.
 */
function keptHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) if (!isHopByHop(name)) out[name] = value
  return out
}

function toSummary(row: PassRow, blobs: BlobRepo): PassSummary {
  return {
    id: row.id,
    sessionId: row.session_id,
    seq: row.seq,
    kind: row.kind,
    model: row.model,
    status: row.status,
    queuedAt: row.queued_at,
    firstByteAt: row.first_byte_at,
    doneAt: row.done_at,
    requestSha256: row.request_sha256,
    requestBytes: row.request_bytes,
    messageId: row.message_id,
    stopReason: row.stop_reason,
    usage: row.usage ? (JSON.parse(row.usage) as Usage) : null,
    costUsd: row.cost_usd,
    attempts: JSON.parse(row.attempts) as StoredAttempt[],
    error: row.error ? (JSON.parse(row.error) as PassSummary['error']) : null,
    attribution: row.attribution_hash ? (JSON.parse(blobs.get(row.attribution_hash) ?? 'null') as unknown) : null,
    source: row.source ?? 'loupe',
  }
}

export class PassRepo {
  private readonly blobs: BlobRepo
  /** The newest pass's segment hashes per session, so writing a pass does not walk the chain of bases. */
  private readonly lastSegments = new Map<string, { passId: string; keys: ReadonlyArray<string>; depth: number }>()
  private readonly setAttributionStatement
  /** Parsed provenance by blob hash: the same few hundred values recur in every pass of a session. */
  private readonly provenanceCache = new Map<string, unknown>()
  constructor(private readonly db: Db) {
    this.blobs = new BlobRepo(db)
    this.setAttributionStatement = db.prepare('UPDATE passes SET attribution_hash = ? WHERE id = ?')
  }

  private provenance(hash: string): unknown {
    let value = this.provenanceCache.get(hash)
    if (value === undefined) {
      value = JSON.parse(this.blobs.get(hash) ?? 'null') as unknown
      if (this.provenanceCache.size > 10_000) this.provenanceCache.clear()
      this.provenanceCache.set(hash, value)
    }
    return value
  }

  /**
   * Writes a pass. Call inside the transaction that also appends the pass's entries, so both land or neither
   * does. Throws if the segments do not re-assemble to the captured bytes (a bug, never silently stored).
   */
  insert(pass: NewPass): PassSummary {
    const requestSha256 = sha256Hex(pass.requestBody)
    const split = splitBody(pass.requestBody)
    const texts = split.segments.map((s) => s.text)
    if (sha256Hex(joinBody(split.skeleton, texts)) !== requestSha256) throw new Error('request body does not re-assemble to its captured bytes')
    return this.write(pass, { sha256: requestSha256, bytes: Buffer.byteLength(pass.requestBody, 'utf8'), split, segmentHashes: texts.map((t) => sha256Hex(t)) })
  }

  /**
   * `insert` for a body its writer has split and hashed (SplitRequest). Throws, like insert, if the segments do not
   * re-assemble to the body: joinParts of the skeleton and texts must concatenate to exactly `parts` (compared part
   * by part, so a segment text that is one of the parts costs nothing). Each segment written is hashed again as it
   * is stored and must match its given hash; those shared with the base pass are compared by the hashes given.
   */
  insertSplit(pass: Omit<NewPass, 'requestBody'>, body: SplitRequest): PassSummary {
    const texts = body.split.segments.map((s) => s.text)
    if (body.segmentHashes.length !== texts.length || !sameConcatenation(joinParts(body.split.skeleton, texts), body.parts)) {
      throw new Error('request body does not re-assemble to its captured bytes')
    }
    return this.write(pass, body)
  }

  private write(pass: Omit<NewPass, 'requestBody'>, body: Omit<SplitRequest, 'parts'>): PassSummary {
    const { split, sha256: requestSha256, segmentHashes: hashes } = body

    const base = statement(this.db, "SELECT id FROM passes WHERE session_id = ? ORDER BY seq DESC LIMIT 1", 'pluck')
      .get(pass.sessionId) as string | undefined
    let baseCount = 0
    let chainDepth = 0
    // A segment is the base's only if its bytes and its breakpoint tag are: the same message is the newest tail
    // (BP4) in one pass and the previous tail (BP3) in the next, with the same bytes.
    const metas = split.segments.map((segment) => pass.segmentMeta(segment.path))
    const keys = metas.map((meta, i) => segmentKey(hashes[i]!, meta.breakpoint))
    if (base) {
      const cached = this.lastSegments.get(pass.sessionId)
      const baseKeys = cached?.passId === base ? cached.keys : this.segmentHashes(base).map((s) => segmentKey(s.hash, s.breakpoint))
      const baseDepth = cached?.passId === base ? cached.depth : ((statement(this.db, 'SELECT chain_depth FROM passes WHERE id = ?', 'pluck').get(base) as number) ?? 0)
      while (baseCount < baseKeys.length && baseCount < keys.length && baseKeys[baseCount] === keys[baseCount]) baseCount++
      chainDepth = baseCount > 0 ? baseDepth + 1 : 0
      // Every MAX_CHAIN_DEPTH passes the whole segment list is written again, so reading any pass walks at most
      // that many bases; the cost is one list of hashes (not texts) per MAX_CHAIN_DEPTH passes.
      if (chainDepth > MAX_CHAIN_DEPTH) {
        baseCount = 0
        chainDepth = 0
      }
    }

    const seq = ((statement(this.db, 'SELECT COALESCE(MAX(seq), 0) FROM passes WHERE session_id = ?', 'pluck').get(pass.sessionId) as number) ?? 0) + 1
    const id = newId('pas', pass.queuedAt)
    const skeletonHash = this.blobs.put(split.skeleton)
    const attempts: StoredAttempt[] = pass.attempts.map(({ responseBody, responseHeaders, ...a }) => ({
      ...a,
      responseHeaders: keptHeaders(responseHeaders),
      responseHash: responseBody ? this.blobs.put(responseBody) : null,
    }))
    const responseHash = attempts.at(-1)?.responseHash ?? null
    const row: PassRow = {
      id,
      session_id: pass.sessionId,
      seq,
      kind: pass.kind,
      model: pass.model,
      status: pass.status,
      queued_at: pass.queuedAt,
      first_byte_at: pass.firstByteAt,
      done_at: pass.doneAt,
      request_sha256: requestSha256,
      request_bytes: body.bytes,
      skeleton_hash: skeletonHash,
      base_pass_id: baseCount > 0 ? (base ?? null) : null,
      base_count: baseCount,
      chain_depth: chainDepth,
      segment_count: hashes.length,
      response_hash: responseHash,
      message_id: pass.messageId,
      stop_reason: pass.stopReason,
      usage: pass.usage ? JSON.stringify(pass.usage) : null,
      cost_usd: pass.costUsd,
      attempts: JSON.stringify(attempts),
      error: pass.error ? JSON.stringify(pass.error) : null,
      plan_hash: this.blobs.put(JSON.stringify(pass.plan ?? {})),
      attribution_hash: null,
      source: pass.source ?? 'loupe',
    }
    statement(this.db, `INSERT INTO passes (id, session_id, seq, kind, model, status, queued_at, first_byte_at, done_at, request_sha256,
           request_bytes, skeleton_hash, base_pass_id, base_count, chain_depth, segment_count, response_hash, message_id, stop_reason,
           usage, cost_usd, attempts, error, plan_hash, attribution_hash, source)
         VALUES (@id, @session_id, @seq, @kind, @model, @status, @queued_at, @first_byte_at, @done_at, @request_sha256,
           @request_bytes, @skeleton_hash, @base_pass_id, @base_count, @chain_depth, @segment_count, @response_hash, @message_id,
           @stop_reason, @usage, @cost_usd, @attempts, @error, @plan_hash, @attribution_hash, @source)`)
      .run(encodePassRow(row))
    const insertBlock = statement(this.db, 'INSERT INTO pass_blocks (pass_id, ordinal, blob_hash, path, provenance_hash, breakpoint) VALUES (?, ?, ?, ?, ?, ?)')
    for (let i = baseCount; i < split.segments.length; i++) {
      const segment = split.segments[i]!
      const meta = metas[i]!
      const hex = this.blobs.put(segment.text)
      if (hex !== hashes[i]) throw new Error(`request segment ${segment.path} does not have the hash given for it`)
      const blobHash = hashKey(hex)
      insertBlock.run(id, i, blobHash, segment.path, hashKey(this.blobs.put(JSON.stringify(meta.provenance ?? null))), meta.breakpoint)
    }
    this.lastSegments.set(pass.sessionId, { passId: id, keys, depth: chainDepth })
    return toSummary(row, this.blobs)
  }

  /** Forgets cached segment lists (after a rolled-back transaction the cache could name a pass that is not there). */
  forgetCache(): void {
    this.lastSegments.clear()
  }

  setAttribution(passId: string, attribution: unknown): void {
    this.setAttributionStatement.run(hashKey(this.blobs.put(JSON.stringify(attribution))), passId)
  }

  /**
   * The stored cache attributions of the app's own passes (source `loupe`, every session) queued at `since` or
   * later, and before `until` when given: what the prompt cache holds for a pass of any session (one session reads
   * the entries another wrote).
   */
  attributionsSince(since: number, until = Number.POSITIVE_INFINITY): Array<{ readonly id: string; readonly sessionId: string; readonly attribution: unknown }> {
    const rows = statement(this.db, "SELECT id, session_id, attribution_hash FROM passes WHERE source = 'loupe' AND attribution_hash IS NOT NULL AND queued_at >= ? AND queued_at < ?").all(
      since,
      Number.isFinite(until) ? until : Number.MAX_SAFE_INTEGER,
    ) as Array<{ id: string; session_id: string; attribution_hash: Buffer }>
    return rows.map((r) => ({ id: r.id, sessionId: r.session_id, attribution: JSON.parse(this.blobs.get(hashHex(r.attribution_hash)) ?? 'null') as unknown }))
  }

  /** The segments of a pass in order, following the chain of bases for the shared leading ones. */
  segmentHashes(passId: string): StoredSegment[] {
    const chain: Array<{ row: PassRow; blocks: BlockRow[] }> = []
    let id: string | null = passId
    let need = Number.POSITIVE_INFINITY
    while (id && need > 0) {
      const raw = statement(this.db, 'SELECT * FROM passes WHERE id = ?').get(id)
      if (!raw) throw new Error(`pass ${id} missing from its chain`)
      const row = decodePassRow(raw)
      const blocks = (
        statement(this.db, `SELECT b.ordinal, b.blob_hash, b.path, b.provenance_hash, b.breakpoint, o.size
             FROM pass_blocks b JOIN blobs o ON o.hash = b.blob_hash WHERE b.pass_id = ? ORDER BY b.ordinal`)
          .all(id) as Array<Omit<BlockRow, 'blob_hash' | 'provenance_hash'> & { blob_hash: Buffer; provenance_hash: Buffer }>
      ).map((b): BlockRow => ({ ...b, blob_hash: hashHex(b.blob_hash), provenance_hash: hashHex(b.provenance_hash) }))
      chain.push({ row, blocks })
      need = Math.min(need, row.base_count)
      id = row.base_count > 0 ? row.base_pass_id : null
    }
    // Walk from the oldest base forward: each pass overrides from its base_count on.
    const out: StoredSegment[] = []
    for (let i = chain.length - 1; i >= 0; i--) {
      const { row, blocks } = chain[i]!
      out.length = Math.min(out.length, row.base_count)
      for (const b of blocks) {
        out[b.ordinal] = { ordinal: b.ordinal, path: b.path, hash: b.blob_hash, bytes: b.size, provenance: this.provenance(b.provenance_hash), breakpoint: b.breakpoint }
      }
      out.length = row.segment_count
    }
    return out
  }

  /** The exact request body of a pass, re-assembled from the store. */
  requestBody(passId: string): string {
    const key = statement(this.db, 'SELECT skeleton_hash FROM passes WHERE id = ?', 'pluck').get(passId) as Buffer | undefined
    if (!key) throw new Error(`no pass ${passId}`)
    const skeleton = this.blobs.get(hashHex(key))
    if (skeleton === null) throw new Error(`pass ${passId}: skeleton missing`)
    return joinBody(skeleton, this.segmentHashes(passId).map((s) => this.blobs.get(s.hash) ?? ''))
  }

  list(sessionId: string): PassSummary[] {
    return statement(this.db, 'SELECT * FROM passes WHERE session_id = ? ORDER BY seq')
      .all(sessionId)
      .map((raw) => toSummary(decodePassRow(raw), this.blobs))
  }

  /** The model of the session's newest main pass (a conversation pass, not a summary or a count), or null. */
  lastMainModel(sessionId: string): string | null {
    const row = statement(this.db, "SELECT model FROM passes WHERE session_id = ? AND kind = 'main' ORDER BY seq DESC LIMIT 1").get(sessionId) as { model: string } | undefined
    return row?.model ?? null
  }

  get(passId: string): PassDetail | null {
    const raw = statement(this.db, 'SELECT * FROM passes WHERE id = ?').get(passId)
    if (!raw) return null
    const row = decodePassRow(raw)
    return {
      ...toSummary(row, this.blobs),
      requestBody: this.requestBody(passId),
      segments: this.segmentHashes(passId),
      responseRaw: row.response_hash ? this.blobs.get(row.response_hash) : null,
      plan: row.plan_hash ? (JSON.parse(this.blobs.get(row.plan_hash) ?? '{}') as unknown) : {},
    }
  }

  blobText(hash: string): string | null {
    return this.blobs.get(hash)
  }
}

function segmentKey(hash: string, breakpoint: string | null): string {
  return breakpoint === null ? hash : `${hash}|${breakpoint}`
}

/** Whether two lists of strings concatenate to the same text, without concatenating them. */
function sameConcatenation(a: ReadonlyArray<string>, b: ReadonlyArray<string>): boolean {
  let i = 0
  let j = 0
  let ai = 0
  let bj = 0
  for (;;) {
    while (i < a.length && ai === a[i]!.length) (i++, (ai = 0))
    while (j < b.length && bj === b[j]!.length) (j++, (bj = 0))
    if (i === a.length || j === b.length) return i === a.length && j === b.length
    const x = a[i]!
    const y = b[j]!
    // The same string at the same place: equal without comparing characters.
    if (ai === 0 && bj === 0 && x === y) {
      ai = x.length
      bj = y.length
      continue
    }
    const n = Math.min(x.length - ai, y.length - bj)
    if (x.slice(ai, ai + n) !== y.slice(bj, bj + n)) return false
    ai += n
    bj += n
  }
}
