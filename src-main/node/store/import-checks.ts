/**
 * What a session export must be before any of it is written (export.ts `importSession`). The file may have been
 * made or edited by hand, or by someone who wants something from the importer: every row is checked against what the
 * store, the engine and the chat later read from it, so a refused file names what is wrong ("entry 12
 * (user_message): content is missing") and a file that passes can be read, listed and continued like any session.
 *
 * The checks run as steps (a yield per row), like the export, so a large file is checked without holding the host.
 */
import { PassSummarySchema, SessionSchema, UsageSchema } from '../../../src-preload/contract'
import { entryBodyProblem } from './entry-schema'
import type { Entry, EntryBody, EntryId } from '../../engine/conversation/entries'
import { HistoryCache, modelView } from '../../engine/conversation/history'
import type { HistoryMessage } from '../../engine/prompt/input'
import type { WireMessage } from '../../engine/model/wire'
import { isBlankText } from '../../engine/model/wire'
import { ImportError, isRow, type Row } from './import-error'
import { importableState } from './import-state'
import { estimateTokensFromChars } from '../../engine/prompt/estimate'
import { MODELS } from '../model/models'
import { isHashHex, sha256Hex } from './blobs'
import { MAX_CHAIN_DEPTH } from './passes'
import { sessionTitle } from './sessions'

/** Twice the largest context window of the models the app knows: the most of a conversation an import takes. */
const MAX_LIVE_HISTORY_TOKENS = 2 * Math.max(...MODELS.map((m) => m.contextWindow))


/** The rows of an export as it reads them (export.ts `SessionExport`). */
export interface ImportRows {
  readonly session: Row
  readonly entries: ReadonlyArray<unknown>
  readonly passes: ReadonlyArray<unknown>
  readonly passBlocks: ReadonlyArray<unknown>
  readonly blobs: Readonly<Record<string, unknown>>
}

/** The rows checked, ready to write: the session's own permissions taken out (decision 0033). */
export interface CheckedImport {
  readonly session: Row
  readonly entries: ReadonlyArray<Row>
  readonly passes: ReadonlyArray<Row>
  readonly passBlocks: ReadonlyArray<Row>
  readonly blobs: ReadonlyArray<readonly [hash: string, text: string]>
}

/** The ids the contract takes (src-preload/contract.ts `Id`): a row imported with another could never be asked for. */
export const ID = /^[A-Za-z0-9_-]{1,64}$/


const ORIGINS = SessionSchema.shape.origin.unwrap().options

function parseJson(text: unknown, what: string): unknown {
  if (typeof text !== 'string') throw new ImportError(`${what} is not JSON text`)
  try {
    return JSON.parse(text)
  } catch {
    throw new ImportError(`${what} is not JSON`)
  }
}

const isCount = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0
/**
 * The most a position in a session may be. The store gives the next entry or pass the highest plus one, so a position
 * near 2^53 (where doubles stop counting by one) would make every later write of the session collide with the last.
 */
export const MAX_SEQ = 2 ** 31 - 1
const isSeq = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 1 && (v as number) <= MAX_SEQ
const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v)
const isTextOrNull = (v: unknown) => v === null || v === undefined || typeof v === 'string'

/** The first issue of a failed zod parse, in words, with its path. */
function firstIssue(error: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> }): string {
  const issue = error.issues[0]!
  return `${issue.path.length > 0 ? issue.path.map(String).join('.') : 'the value'}: ${issue.message}`
}

/**
 * The session row as it will be written. An export carries the permission mode and rules its session had; they were
 * granted in another project, maybe by someone else: the import starts with a new session's (decision 0033).
 */
function checkSession(row: Row): Row {
  let session = row
  const { title, created_at: createdAt, updated_at: updatedAt, origin, origin_ref: originRef, state } = session
  if (typeof title !== 'string') throw new ImportError(title === undefined ? 'session.title is missing' : 'session.title is not text')
  if (!isTime(createdAt) || !isTime(updatedAt)) throw new ImportError('session.created_at and session.updated_at must be times')
  if (origin !== undefined && !(ORIGINS as ReadonlyArray<unknown>).includes(origin)) throw new ImportError(`session.origin ${JSON.stringify(origin)} is not one of ${ORIGINS.join(', ')}`)
  if (originRef !== undefined && originRef !== null) parseJson(originRef, 'session.origin_ref')
  // The title is kept as every name is (decision 0051): a long, multi-line or empty one is not a reason to refuse
  // the conversation. A clean title is its own clean form, so a file exported here imports back unchanged.
  const kept = sessionTitle(title, createdAt)
  if (kept !== title) session = { ...session, title: kept }
  if (state === undefined) return session
  const parsed = parseJson(state, 'session.state')
  if (!isRow(parsed)) throw new ImportError('session.state is not an object')
  const safe = importableState(parsed)
  // Where nothing had to change, the row is the file's: an export of a session imported back is the same file.
  const text = JSON.stringify(safe)
  return text === state ? session : { ...session, state: text }
}

/** An entry row and its body, or the reason it is refused ("entry 12 (user_message): content is missing"). */
function checkEntry(row: unknown, i: number, sessionId: string, previousSeq: number): { row: Row; body: EntryBody } {
  if (!isRow(row)) throw new ImportError(`entry ${i + 1} is not a row`)
  if (row.session_id !== sessionId) throw new ImportError(`entry ${i + 1} belongs to another session (${String(row.session_id)}), not ${sessionId}`)
  if (typeof row.id !== 'string' || !ID.test(row.id)) throw new ImportError(`entry ${i + 1} has no valid id`)
  if (!isSeq(row.seq) || row.seq <= previousSeq) throw new ImportError(`entry ${i + 1}: seq must be a whole number above the previous entry's, at most ${MAX_SEQ}`)
  if (!isTime(row.at)) throw new ImportError(`entry ${i + 1}: at is not a time`)
  let body: unknown
  try {
    body = JSON.parse(String(row.body))
  } catch {
    throw new ImportError(`entry ${i + 1}: its body is not JSON`)
  }
  const kind = isRow(body) && typeof body.kind === 'string' ? body.kind : null
  const problem = entryBodyProblem(body)
  if (problem !== null) throw new ImportError(`entry ${i + 1}${kind !== null ? ` (${kind.slice(0, 40)})` : ''}: ${problem}`)
  // The column is what the store looks up without reading bodies (EntryRepo.newestOf).
  if (row.kind !== kind) throw new ImportError(`entry ${i + 1}: its kind column (${String(row.kind)}) is not its body's (${kind})`)
  return { row, body: body as EntryBody }
}

/**
 * What the prompt builder and the model service need of a conversation to send it: no larger than a model could be
 * sent, a history that starts with a user message (buildPromptPlan refuses any other), and nothing the Messages API
 * refuses (wireProblem). A file that broke these would import, and then fail every turn and every keep-warm pre-warm
 * of the session. (Each block being one the wire has is the entry schemas' part.) The history is made by the same
 * code as a pass's, once: the size is checked first, so it is never made of more than a model could take.
 */
function checkConversation(entries: ReadonlyArray<Entry>): void {
  let history: HistoryMessage[]
  try {
    const view = modelView(entries)
    // What the next pass sends of it: a conversation far larger than any model's window could never be sent (nor
    // compacted: the summary request sends it too), and every turn would spend minutes building it first.
    let chars = 0
    for (const e of view.entries) chars += JSON.stringify(e).length
    const tokens = estimateTokensFromChars(chars)
    if (tokens > MAX_LIVE_HISTORY_TOKENS) {
      throw new ImportError(`the conversation since its last compaction is ≈${tokens.toLocaleString('en-US')} tokens, more than twice the largest context window (${(MAX_LIVE_HISTORY_TOKENS / 2).toLocaleString('en-US')}): no model could be sent it`)
    }
    history = new HistoryCache().fromView(view)
  } catch (err) {
    if (err instanceof ImportError) throw err
    throw new ImportError(`the conversation cannot be read as a history: ${err instanceof Error ? err.message : String(err)}`)
  }
  if (history.length > 0 && history[0]!.message.role !== 'user') throw new ImportError('the conversation does not start with a user message')
  const problem = wireProblem(history.map((h) => h.message))
  if (problem !== null) throw new ImportError(`the conversation would be refused by the model service: ${problem}`)
}

/**
 * What the Messages API refuses in a history (docs/reference/anthropic-api.md): a tool call without its result in
 * the next message, a result naming no call of the message before it, a call id used twice, an empty text block. The
 * app's own loop never writes these; a file made by hand could, and then every turn would fail. The last message may
 * be calls still waiting for their results (an export made while an approval waited).
 */
function wireProblem(messages: ReadonlyArray<WireMessage>): string | null {
  const ids = new Set<string>()
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!
    const calls: string[] = []
    for (const b of m.content) {
      if (b.type === 'text' && isBlankText(b.text)) return `messages[${i}] has a text block that is empty or only spaces and line breaks`
      if (b.type === 'tool_use') {
        if (ids.has(b.id)) return `the tool call id ${b.id.slice(0, 40)} is used twice`
        ids.add(b.id)
        calls.push(b.id)
      }
    }
    const next = messages[i + 1]
    const answered = new Set(next?.role === 'user' ? next.content.flatMap((b) => (b.type === 'tool_result' ? [b.tool_use_id] : [])) : [])
    if (m.role === 'assistant' && next !== undefined) {
      const missing = calls.find((id) => !answered.has(id))
      if (missing !== undefined) return `messages[${i}] calls a tool (${missing.slice(0, 40)}) whose result the next message does not hold`
    }
    if (m.role === 'user') {
      const before = i > 0 && messages[i - 1]!.role === 'assistant' ? new Set(messages[i - 1]!.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : []))) : new Set<string>()
      const orphan = m.content.find((b) => b.type === 'tool_result' && !before.has(b.tool_use_id))
      if (orphan && orphan.type === 'tool_result') return `messages[${i}] holds a result for a tool call (${orphan.tool_use_id.slice(0, 40)}) the message before it did not make`
    }
  }
  return null
}

/** A pass row, its JSON columns parsed and their shapes checked as pass.list will answer them. */
function checkPass(row: unknown, i: number, sessionId: string, earlier: ReadonlySet<string>, blobText: (hash: string) => string | null): Row {
  if (!isRow(row)) throw new ImportError(`pass ${i + 1} is not a row`)
  const p = row
  if (p.session_id !== sessionId) throw new ImportError(`pass ${i + 1} belongs to another session (${String(p.session_id)}), not ${sessionId}`)
  if (typeof p.id !== 'string' || !ID.test(p.id)) throw new ImportError(`pass ${i + 1} has no valid id`)
  const json = (column: string) => (p[column] === null || p[column] === undefined ? null : parseJson(p[column], `pass ${i + 1}: ${column}`))
  const usage = json('usage')
  if (usage !== null && !UsageSchema.safeParse(usage).success) throw new ImportError(`pass ${i + 1}: usage is not a usage (${firstIssue(UsageSchema.safeParse(usage).error!)})`)
  const attempts = json('attempts') ?? []
  if (Array.isArray(attempts)) {
    for (const a of attempts as Array<{ responseHash?: unknown } | null>) {
      const hash = isRow(a) ? a.responseHash : undefined
      if (hash !== null && hash !== undefined && (typeof hash !== 'string' || !isHashHex(hash))) throw new ImportError(`pass ${i + 1}: attempts name a response that is not a sha256`)
    }
  }
  const summary = PassSummarySchema.safeParse({
    id: p.id,
    sessionId: p.session_id,
    seq: p.seq,
    kind: p.kind,
    model: p.model,
    status: p.status,
    queuedAt: p.queued_at,
    firstByteAt: p.first_byte_at ?? null,
    doneAt: p.done_at ?? null,
    requestSha256: p.request_sha256,
    requestBytes: p.request_bytes,
    usage,
    costUsd: p.cost_usd ?? null,
    attempts,
    error: json('error'),
    attribution: null,
    source: p.source,
  })
  if (!summary.success) throw new ImportError(`pass ${i + 1}: ${firstIssue(summary.error)}`)
  if (!isSeq(p.seq)) throw new ImportError(`pass ${i + 1}: seq is not a whole number from 1 to ${MAX_SEQ}`)
  if (!isTextOrNull(p.message_id) || !isTextOrNull(p.stop_reason)) throw new ImportError(`pass ${i + 1}: message_id and stop_reason must be text or null`)
  // Re-assembly walks the bases: each is an earlier pass of this session, never another session's.
  if (p.base_pass_id !== null && p.base_pass_id !== undefined && !earlier.has(String(p.base_pass_id))) throw new ImportError(`pass ${i + 1}: its base is not an earlier pass of this export`)
  for (const column of ['base_count', 'chain_depth', 'segment_count'] as const) {
    if (p[column] !== undefined && !isCount(p[column])) throw new ImportError(`pass ${i + 1}: ${column} is not a count`)
  }
  if (typeof p.chain_depth === 'number' && p.chain_depth > MAX_CHAIN_DEPTH) throw new ImportError(`pass ${i + 1}: chain_depth is over ${MAX_CHAIN_DEPTH}`)
  for (const column of ['skeleton_hash', 'response_hash', 'plan_hash', 'attribution_hash'] as const) {
    const hash = p[column]
    if (hash === null || hash === undefined) continue
    const text = typeof hash === 'string' && isHashHex(hash) ? blobText(hash) : null
    if (text === null) throw new ImportError(`pass ${i + 1}: ${column} names a blob the export does not hold`)
    if (column === 'plan_hash' && !isRow(parseJson(text, `pass ${i + 1}: its plan`))) throw new ImportError(`pass ${i + 1}: its plan is not an object`)
    // An attribution of another version is made again when next needed; one of any version is an object.
    if (column === 'attribution_hash' && !isRow(parseJson(text, `pass ${i + 1}: its attribution`))) throw new ImportError(`pass ${i + 1}: its attribution is not an object`)
  }
  return p
}

/** Checks every row, a yield after each; the rows to write, or an ImportError naming the first thing wrong. */
export function* checkImportSteps(d: ImportRows, sessionId: string, storedBlob: (hash: string) => string | null): Generator<void, CheckedImport> {
  const session = checkSession(d.session)
  const blobs: Array<readonly [string, string]> = []
  const docBlobs = new Map<string, string>()
  for (const [hash, text] of Object.entries(d.blobs)) {
    if (!isHashHex(hash) || typeof text !== 'string' || sha256Hex(text) !== hash) throw new ImportError(`blob ${hash.slice(0, 12)}… does not match its text`)
    blobs.push([hash, text])
    docBlobs.set(hash, text)
    yield
  }
  const blobText = (hash: string) => docBlobs.get(hash) ?? storedBlob(hash)

  const entryRows: Row[] = []
  const entries: Entry[] = []
  let previousSeq = 0
  for (let i = 0; i < d.entries.length; i++) {
    const { row, body } = checkEntry(d.entries[i], i, sessionId, previousSeq)
    previousSeq = row.seq as number
    entryRows.push(row)
    entries.push({ ...body, id: row.id as EntryId, sessionId, seq: row.seq as number, at: row.at as number } as Entry)
    yield
  }
  checkConversation(entries)
  yield

  const passes: Row[] = []
  const passIds = new Set<string>()
  for (let i = 0; i < d.passes.length; i++) {
    passes.push(checkPass(d.passes[i], i, sessionId, passIds, blobText))
    passIds.add(passes[i]!.id as string)
    yield
  }

  const provenanceRead = new Set<string>()
  const passBlocks: Row[] = []
  for (let i = 0; i < d.passBlocks.length; i++) {
    const b = d.passBlocks[i]
    if (!isRow(b)) throw new ImportError(`passBlocks[${i}] is not a row`)
    if (!passIds.has(String(b.pass_id))) throw new ImportError(`passBlocks[${i}] belongs to a pass this export does not hold (${String(b.pass_id)})`)
    if (!isCount(b.ordinal) || typeof b.path !== 'string' || !isTextOrNull(b.breakpoint)) throw new ImportError(`passBlocks[${i}]: ordinal, path or breakpoint is not what a segment row holds`)
    for (const column of ['blob_hash', 'provenance_hash'] as const) {
      const hash = b[column]
      if (typeof hash !== 'string' || !isHashHex(hash) || (column === 'blob_hash' && !docBlobs.has(hash) && storedBlob(hash) === null)) throw new ImportError(`passBlocks[${i}]: ${column} names a blob the export does not hold`)
    }
    const provenance = b.provenance_hash as string
    if (!provenanceRead.has(provenance)) {
      const text = blobText(provenance)
      if (text === null) throw new ImportError(`passBlocks[${i}]: provenance_hash names a blob the export does not hold`)
      parseJson(text, `passBlocks[${i}]: its provenance`)
      provenanceRead.add(provenance)
    }
    passBlocks.push(b)
    yield
  }
  return { session, entries: entryRows, passes, passBlocks, blobs }
}
