/**
 * A session as one JSON document — its row, state, entries, passes, their segment rows and every blob they use —
 * and back. Importing an export gives the same rows, so exporting again gives the same document.
 */
import Database from 'better-sqlite3'
import { randomBytes } from 'node:crypto'
import { lstat, open, realpath, stat, unlink } from 'node:fs/promises'
import { dirname, isAbsolute, join, resolve, sep } from 'node:path'
import { MAX_PATH_CHARS } from '../../../src-preload/contract'
import { nearestExistingFolder } from '../files/paths'
import { isInside } from '../instructions/safe-read'
import { temporaryNameFor, writeFileAtomic } from '../fs/atomic-write'
import { ioCause } from '../fs/io-cause'
import { describeReadError, errorCode, FileReadError, readRegularFile } from '../fs/regular-file'
import { inflateRawSync } from 'node:zlib'
import { BlobRepo, hashHex, hashKey, isHashHex, packBlob } from './blobs'
import { checkImportSteps, ID, type CheckedImport } from './import-checks'
import { ImportError, isRow } from './import-error'
import { encodeEntryBody } from './entries'
import type { Db } from './database'
import { makeFolders } from '../fs/make-folders'
import { projectName } from './projects'
import { sessionTitle } from './sessions'

export { ImportError }

export const EXPORT_FORMAT = 'loupe-session'
export const EXPORT_VERSION = 1

type Row = Record<string, unknown>

/**
 * Columns that hold a sha256. The table keeps its 32 raw bytes; the export document, like the rest of the app,
 * spells it in hex, so the format did not change when the storage did (migration 4).
 */
const HASH_COLUMNS: Readonly<Record<'passes' | 'pass_blocks', ReadonlyArray<string>>> = {
  passes: ['request_sha256', 'skeleton_hash', 'response_hash', 'plan_hash', 'attribution_hash'],
  pass_blocks: ['blob_hash', 'provenance_hash'],
}

function hashesToHex(table: keyof typeof HASH_COLUMNS, row: Row): Row {
  const out = { ...row }
  for (const column of HASH_COLUMNS[table]) if (out[column] instanceof Buffer) out[column] = hashHex(out[column] as Buffer)
  return out
}

function hashesToKeys(table: keyof typeof HASH_COLUMNS, row: Row): Row {
  const out = { ...row }
  for (const column of HASH_COLUMNS[table]) {
    const value = out[column]
    if (value === null || value === undefined) continue
    if (typeof value !== 'string' || !isHashHex(value)) throw new ImportError(`${table}.${column} is not a sha256`)
    out[column] = hashKey(value)
  }
  return out
}

export interface SessionExport {
  readonly format: typeof EXPORT_FORMAT
  readonly version: number
  readonly project: { readonly name: string; readonly root: string }
  readonly session: Row
  readonly entries: ReadonlyArray<Row>
  readonly passes: ReadonlyArray<Row>
  readonly passBlocks: ReadonlyArray<Row>
  /** Blob texts by sha256. */
  readonly blobs: Readonly<Record<string, string>>
}

/**
 * The export's work as steps: it yields between units of work (an entry inflated, a blob read, a row written out),
 * so the host can run it in slices and go on answering other windows while a large session is exported
 * (`exportSessionToFile`). The rows are all read before the first yield: the document is the session as it was when
 * the export began, whatever a running turn adds meanwhile.
 */
function* exportSteps(db: Db, sessionId: string): Generator<void, SessionExport | null> {
  const row = db.prepare('SELECT * FROM sessions WHERE id = ?').get(sessionId) as Row | undefined
  if (!row) return null
  // The names as the app shows them (decision 0051), not as an older version may have stored them.
  const session: Row = { ...row, title: sessionTitle(String(row.title), Number(row.created_at)) }
  const stored = db.prepare('SELECT name, root FROM projects WHERE id = ?').get(session.project_id) as { name: string; root: string }
  const project = { name: projectName(stored.name, stored.root), root: stored.root }
  const entryRows = db.prepare('SELECT * FROM entries WHERE session_id = ? ORDER BY seq').all(sessionId) as Row[]
  const passRows = db.prepare('SELECT * FROM passes WHERE session_id = ? ORDER BY seq').all(sessionId) as Row[]
  const blockRows = db.prepare('SELECT b.* FROM pass_blocks b JOIN passes p ON p.id = b.pass_id WHERE p.session_id = ? ORDER BY p.seq, b.ordinal').all(sessionId) as Row[]
  // Entry bodies go out as JSON text whatever their stored encoding (see entries.ts).
  const entries: Row[] = []
  for (const e of entryRows) {
    entries.push({ ...e, body: typeof e.body === 'string' ? e.body : inflateRawSync(e.body as Buffer).toString('utf8') })
    yield
  }
  const passes = passRows.map((p) => hashesToHex('passes', p))
  const passBlocks = blockRows.map((b) => hashesToHex('pass_blocks', b))
  const hashes = new Set<string>()
  for (const p of passes) {
    hashes.add(String(p.skeleton_hash))
    if (p.response_hash) hashes.add(String(p.response_hash))
    if (p.plan_hash) hashes.add(String(p.plan_hash))
    if (p.attribution_hash) hashes.add(String(p.attribution_hash))
    for (const a of JSON.parse(String(p.attempts)) as Array<{ responseHash: string | null }>) if (a.responseHash) hashes.add(a.responseHash)
  }
  for (const b of passBlocks) {
    hashes.add(String(b.blob_hash))
    hashes.add(String(b.provenance_hash))
  }
  const blobs: Record<string, string> = {}
  const repo = new BlobRepo(db)
  for (const hash of [...hashes].sort()) {
    blobs[hash] = repo.get(hash) ?? ''
    yield
  }
  // Between slices the session may have been deleted, and its blobs collected: an export with holes is refused.
  if (!db.prepare('SELECT 1 FROM sessions WHERE id = ?').get(sessionId)) throw new ImportError(`The session ${sessionId} was deleted while it was being exported`)
  return { format: EXPORT_FORMAT, version: EXPORT_VERSION, project, session, entries, passes, passBlocks, blobs }
}

/** The document's text, as `JSON.stringify(doc)` writes it, in pieces (a yield between rows and blobs). */
function* serializeSteps(doc: SessionExport): Generator<void, string[]> {
  const parts: string[] = [`{"format":${JSON.stringify(doc.format)},"version":${JSON.stringify(doc.version)},"project":${JSON.stringify(doc.project)},"session":${JSON.stringify(doc.session)}`]
  for (const [key, rows] of [['entries', doc.entries], ['passes', doc.passes], ['passBlocks', doc.passBlocks]] as const) {
    parts.push(`,${JSON.stringify(key)}:[`)
    for (let i = 0; i < rows.length; i++) {
      parts.push(i === 0 ? JSON.stringify(rows[i]) : `,${JSON.stringify(rows[i])}`)
      yield
    }
    parts.push(']')
  }
  parts.push(',"blobs":{')
  let first = true
  for (const [hash, text] of Object.entries(doc.blobs)) {
    parts.push(`${first ? '' : ','}${JSON.stringify(hash)}:${JSON.stringify(text)}`)
    first = false
    yield
  }
  parts.push('}}')
  return parts
}

/** Runs steps to the end at once. */
function drain<T>(steps: Generator<void, T>): T {
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
  }
}

/** How long the host works on an export before it lets other requests and events through. */
const EXPORT_SLICE_MS = 12

/** Runs steps in slices of EXPORT_SLICE_MS, letting the event loop run between them. */
async function drainSliced<T>(steps: Generator<void, T>, sliceMs: number): Promise<T> {
  let sliceStart = performance.now()
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
    if (performance.now() - sliceStart >= sliceMs) {
      await new Promise<void>((resolve) => setImmediate(resolve))
      sliceStart = performance.now()
    }
  }
}

export function exportSession(db: Db, sessionId: string): SessionExport | null {
  return drain(exportSteps(db, sessionId))
}

/** `exportSession` and its text, made in slices so the host stays responsive while a large session is exported. */
export async function exportSessionText(db: Db, sessionId: string, sliceMs = EXPORT_SLICE_MS): Promise<string | null> {
  const pieces = await exportSessionPieces(db, sessionId, sliceMs)
  return pieces === null ? null : pieces.join('')
}

/** The export's text in pieces, in order: written one batch at a time, never joined into one string. */
async function exportSessionPieces(db: Db, sessionId: string, sliceMs = EXPORT_SLICE_MS): Promise<string[] | null> {
  const doc = await drainSliced(exportSteps(db, sessionId), sliceMs)
  return doc === null ? null : drainSliced(serializeSteps(doc), sliceMs)
}

/** The export's session is in the store already (an export keeps its ids, so it imports once per store). */
export class AlreadyImported extends ImportError {
  constructor(readonly sessionId: string) {
    super(`session ${sessionId} is already in the store`)
  }
}

/** Largest export file accepted for import: its text is parsed in one piece, which holds the host while it runs. */
export const MAX_IMPORT_BYTES = 256 * 1024 * 1024
/**
 * Most rows (entries, passes, segment rows and blobs together) one import writes: twenty times a long real session.
 * The parse and the final copy (writeImportSteps) hold the host for a time that grows with the rows, not the bytes.
 */
export const MAX_IMPORT_ROWS = 200_000

/** The tables an import writes beside the session's own row, in the order their references need. */
const STAGED_TABLES = ['blobs', 'entries', 'passes', 'pass_blocks'] as const
type StagedTable = (typeof STAGED_TABLES)[number]

/**
 * Imports an export into `projectId`, at once. Refuses a document of another format or version, a session that is
 * already in the store (its id is kept, so an import is identical to what was exported), and rows that do not belong
 * to it or would not read back (import-checks.ts); a refused import writes nothing.
 */
export function importSession(db: Db, doc: unknown, projectId: string): string {
  return drain(importSteps(db, doc, projectId))
}

/** `importSession` in slices of `sliceMs`, letting the host answer other windows while a large export is imported. */
export function importSessionSliced(db: Db, doc: unknown, projectId: string, sliceMs = EXPORT_SLICE_MS): Promise<string> {
  return drainSliced(importSteps(db, doc, projectId), sliceMs)
}

function* importSteps(db: Db, doc: unknown, projectId: string): Generator<void, string> {
  const d = doc as Partial<SessionExport> | null
  if (!isRow(d) || d.format !== EXPORT_FORMAT) throw new ImportError('not a Loupe session export')
  if (d.version !== EXPORT_VERSION) throw new ImportError(`unsupported export version ${String(d.version)}`)
  if (!isRow(d.session) || !Array.isArray(d.entries) || !Array.isArray(d.passes) || !Array.isArray(d.passBlocks) || !isRow(d.blobs)) {
    throw new ImportError('the export is incomplete')
  }
  const sessionId = d.session.id
  if (typeof sessionId !== 'string' || !ID.test(sessionId)) throw new ImportError('session.id is not a session id (letters, digits, _ and -, at most 64)')
  if (db.prepare('SELECT 1 FROM sessions WHERE id = ?').get(sessionId)) throw new AlreadyImported(sessionId)
  const rows = d.entries.length + d.passes.length + d.passBlocks.length + Object.keys(d.blobs).length
  if (rows > MAX_IMPORT_ROWS) throw new ImportError(`the export holds ${rows} rows, more than the ${MAX_IMPORT_ROWS} an import takes`)
  const blobs = new BlobRepo(db)
  try {
    const checked = yield* checkImportSteps(d as SessionExport, sessionId, (hash) => blobs.get(hash))
    yield* writeImportSteps(db, checked, sessionId, projectId)
  } catch (err) {
    if (err instanceof ImportError) throw err
    // Rows this store holds already under another session: an export keeps its ids, so the file is a copy of a
    // session here (or of its export) with the session's id changed. Said in those words, not SQLite's.
    const taken = err instanceof Database.SqliteError ? /^UNIQUE constraint failed: (entries|passes)\.id$/.exec(err.message) : null
    if (taken) throw new ImportError(`its ${taken[1]} are already in this store, under another session: an export keeps its ids, so this file copies a session that is here already, with its session id changed`)
    // A constraint or a column the store does not have: the file does not fit, and the transaction wrote nothing.
    if (err instanceof Database.SqliteError) throw new ImportError(`the export does not fit this store: ${err.message}`)
    // better-sqlite3 refuses a value SQLite cannot hold (an object, a boolean) with a TypeError of its own.
    if (err instanceof TypeError && /SQLite3 can only bind/.test(err.message)) throw new ImportError(`the export holds a value this store cannot keep: ${err.message}`)
    throw err
  }
  return sessionId
}

/**
 * Writes checked rows in slices, and still all or nothing.
 *
 * better-sqlite3's transactions are synchronous, so a transaction cannot simply span the slices: left open across a
 * yield on the host's one connection, it would take in whatever else the host writes meanwhile (a turn of another
 * session) and lose it on a rollback; committed slice by slice, other windows would read a half session, and a
 * garbage collection (session.delete) could remove blobs whose passes are not written yet. So the rows go first,
 * slice by slice, into staging tables in this connection's TEMP database — private to it, seen by no read of the
 * store, without constraints — and are then copied into the store's tables by one transaction of INSERT … SELECT.
 * That copy is the one part that holds the host, and SQLite alone does it, a small part of the work of the inserts.
 */
function* writeImportSteps(db: Db, checked: CheckedImport, sessionId: string, projectId: string): Generator<void, void> {
  const tag = randomBytes(6).toString('hex')
  const staged = (table: StagedTable) => `temp.import_${tag}_${table}`
  const columns = {} as Record<StagedTable, string>
  try {
    for (const table of STAGED_TABLES) {
      const info = db.prepare(`PRAGMA main.table_info(${table})`).all() as Array<{ name: string; type: string; dflt_value: string | null }>
      columns[table] = info.map((c) => c.name).join(', ')
      // The store's columns with their defaults (a row of an older export lacks the newer ones), nothing else.
      db.exec(`CREATE TABLE ${staged(table)} (${info.map((c) => `${c.name} ${c.type}${c.dflt_value !== null ? ` DEFAULT ${c.dflt_value}` : ''}`).join(', ')})`)
    }
    const stored = db.prepare('SELECT 1 FROM main.blobs WHERE hash = ?').pluck()
    const stageBlob = db.prepare(`INSERT INTO ${staged('blobs')} (hash, size, data, encoding) VALUES (?, ?, ?, ?)`)
    for (const [hash, text] of checked.blobs) {
      const key = hashKey(hash)
      if (!stored.get(key)) {
        const packed = packBlob(text)
        stageBlob.run(key, packed.size, packed.data, packed.encoding)
      }
      yield
    }
    const stage = stager(db)
    for (const e of checked.entries) {
      stage(staged('entries'), { ...e, body: encodeEntryBody(String(e.body)) })
      yield
    }
    for (const p of checked.passes) {
      stage(staged('passes'), hashesToKeys('passes', p))
      yield
    }
    for (const b of checked.passBlocks) {
      stage(staged('pass_blocks'), hashesToKeys('pass_blocks', b))
      yield
    }
    db.transaction(() => {
      // The same file imported twice at once: the second finds the first's session here when its copy begins.
      if (db.prepare('SELECT 1 FROM sessions WHERE id = ?').get(sessionId)) throw new AlreadyImported(sessionId)
      // A subagent's session exported alone names a parent this project may not have: it comes in as a session of
      // its own (its origin_ref still says where it came from), never under a session of another project.
      const parent = checked.session.parent_session_id
      const parentHere = typeof parent === 'string' && db.prepare('SELECT 1 FROM sessions WHERE id = ? AND project_id = ?').get(parent, projectId) !== undefined
      stager(db)('main.sessions', { ...checked.session, project_id: projectId, ...(parent !== undefined && !parentHere ? { parent_session_id: null } : {}) })
      db.exec(`INSERT OR IGNORE INTO main.blobs (${columns.blobs}) SELECT ${columns.blobs} FROM ${staged('blobs')} ORDER BY rowid`)
      for (const table of ['entries', 'passes', 'pass_blocks'] as const) {
        db.exec(`INSERT INTO main.${table} (${columns[table]}) SELECT ${columns[table]} FROM ${staged(table)} ORDER BY rowid`)
      }
    })()
  } finally {
    for (const table of STAGED_TABLES) db.exec(`DROP TABLE IF EXISTS ${staged(table)}`)
  }
}

/** Inserts a row by its own columns, one prepared statement per table and set of columns. */
function stager(db: Db): (table: string, row: Row) => void {
  const statements = new Map<string, Database.Statement>()
  return (table, row) => {
    const names = Object.keys(row)
    if (names.some((c) => !/^[a-z_0-9]+$/.test(c))) throw new ImportError(`unexpected column in ${table.replace(/^\w+\.(import_\w+?_)?/, '')}`)
    const key = `${table}(${names.join(',')})`
    let statement = statements.get(key)
    if (statement === undefined) {
      statement = db.prepare(`INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map((c) => `@${c}`).join(', ')})`)
      statements.set(key, statement)
    }
    statement.run(row)
  }
}

/** A file-system failure met while writing an export (answered as io_error, with its cause in words). */
export class ExportIoError extends Error {}

/** Whether an export may not be written in `folder` (real): inside the data folder (real), but for its exports/. */
function inDataFolder(folder: string, data: string): boolean {
  return isInside(folder, data) && folder !== join(data, 'exports')
}

/** The longest name of one file or folder most file systems take, in bytes. */
const MAX_NAME_BYTES = 255

/**
 * Where an export may go, checked before a byte of the session is serialized: a path the file system cannot take
 * (a NUL, a name over 255 bytes) is refused as input, and the folder is created and tried with a file of its own, so
 * a parent that is a file, a folder that takes no new files (/proc) or a read-only disk answer io_error with their
 * cause, not an `internal` after the whole session was serialized. The data folder is judged by where the file would
 * really land: the nearest folder on the way that exists, every symbolic link resolved (as the Files view does), so a
 * link into the data folder followed by folders not made yet lands there too.
 */
async function checkExportTarget(path: string, dataDir: string, own: boolean): Promise<{ target: string; existing: boolean; data: string }> {
  if (path.includes('\0')) throw new ImportError('The path contains a NUL character')
  if (!isAbsolute(path)) throw new ImportError('Give an absolute path for the export')
  if (path.length > MAX_PATH_CHARS) throw new ImportError(`The path is longer than ${MAX_PATH_CHARS} characters`)
  const target = resolve(path)
  const long = target.split(sep).find((name) => Buffer.byteLength(name) > MAX_NAME_BYTES)
  if (long !== undefined) throw new ImportError(`The name ${long.slice(0, 40)}… is longer than ${MAX_NAME_BYTES} bytes`)
  const data = await realpath(dataDir).catch(() => resolve(dataDir))
  const ancestor = await nearestExistingFolder(target)
  if (ancestor === null) throw new ExportIoError(`No folder of ${target} exists`)
  const folder = ancestor.real + dirname(target).slice(ancestor.folder.length)
  if (inDataFolder(folder, data)) throw new ImportError(`Loupe keeps its own files in ${dataDir}: export somewhere else, or into ${join(dataDir, 'exports')}`)
  const existing = await lstat(target).catch(() => null)
  // A folder is named as one: the export is a file, and its name goes after the folder's.
  if (existing?.isDirectory()) throw new ImportError(`${target} is a folder: give the name of a new file in it, such as ${join(target, 'session.json')}`)
  if (!own && existing) throw new ImportError(`${target} already exists: choose a new file name (an export never replaces a file)`)
  if (!(await stat(ancestor.folder).then((s) => s.isDirectory(), () => false))) throw new ExportIoError(`Cannot export to ${target}: ${ancestor.folder} is a file, not a folder`)
  try {
    await makeFolders(dirname(target))
  } catch (err) {
    throw new ExportIoError(`Cannot create the folder ${dirname(target)}: ${ioCause(err)}`)
  }
  // The same kind of file the atomic write begins with, made and removed at once.
  const probe = temporaryNameFor(target)
  try {
    await (await open(probe, 'wx')).close()
    await unlink(probe)
  } catch (err) {
    throw new ExportIoError(`Cannot write in ${dirname(target)}: ${ioCause(err)}`)
  }
  return { target, existing: existing !== null, data }
}

/**
 * Writes the session's export to `path`, atomically. Null when there is no such session. An export makes a new file:
 * it never replaces one that exists (a path typed by mistake would otherwise overwrite a source file, or the store
 * itself), and it writes nothing inside the data folder but its `exports/` folder. Only the session's own default
 * export, `exports/<sessionId>.json`, is written again (a newer snapshot of the same session; `replaced` says so).
 */
export async function exportSessionToFile(db: Db, sessionId: string, path: string, dataDir: string): Promise<{ path: string; bytes: number; replaced: boolean } | null> {
  if (!db.prepare('SELECT 1 FROM sessions WHERE id = ?').get(sessionId)) return null
  const own = isAbsolute(path) && resolve(path) === resolve(defaultExportPath(dataDir, sessionId))
  const { target, existing, data } = await checkExportTarget(path, dataDir, own)
  const pieces = await exportSessionPieces(db, sessionId)
  if (pieces === null) return null
  try {
    await writeFileAtomic(target, pieces, {
      // Serializing a large session takes a while: the folder is judged again where the file is about to be named (a
      // folder swapped for a link into the data folder meanwhile is refused), and a new file never replaces one.
      beforeRename: async (folderReal) => {
        if (inDataFolder(folderReal, data)) throw new ImportError(`${dirname(target)} now leads into ${dataDir}: export somewhere else`)
      },
      noReplace: !own,
    })
  } catch (err) {
    if (err instanceof ImportError) throw err
    if ((err as NodeJS.ErrnoException).code === 'EEXIST' && !own) throw new ImportError(`${target} already exists: choose a new file name (an export never replaces a file)`)
    throw new ExportIoError(`Cannot write ${target}: ${ioCause(err)}`)
  }
  return { path, bytes: pieces.reduce((n, piece) => n + Buffer.byteLength(piece), 0), replaced: existing }
}

/** Reads an export file (size-checked, parsed) and imports it; ImportError says what is wrong with the file. */
export async function importSessionFromFile(db: Db, path: string, projectId: string): Promise<string> {
  // As for an export: a relative path would be read from wherever the host process happens to run.
  if (!isAbsolute(path)) throw new ImportError('Give an absolute path for the file to import')
  // Through the reading door: a FIFO, a device (/dev/stdin, /dev/zero) or a socket is named for what it is and never
  // read, as is a file swapped for one between the check and the open.
  let bytes: Buffer
  try {
    bytes = await readRegularFile(path, { maxBytes: MAX_IMPORT_BYTES })
  } catch (error) {
    if (error instanceof FileReadError && error.code === 'ETOOLARGE') throw new ImportError(`${path} is larger than ${MAX_IMPORT_BYTES / 2 ** 20} MB`)
    if (error instanceof FileReadError && error.detail === 'a folder') throw new ImportError(`${path} is a folder: give the export file in it`)
    if (error instanceof FileReadError) throw new ImportError(`${error.message}: give the export file`)
    const code = errorCode(error)
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new ImportError(`No file at ${path}`)
    throw new ImportError(describeReadError(path, error))
  }
  let doc: unknown
  try {
    // One parse, the part of an import that is not sliced: MAX_IMPORT_BYTES bounds it.
    doc = JSON.parse(bytes.toString('utf8'))
  } catch {
    throw new ImportError(`${path} is not valid JSON`)
  }
  return importSessionSliced(db, doc, projectId)
}

export function defaultExportPath(dataDir: string, sessionId: string): string {
  return join(dataDir, 'exports', `${sessionId}.json`)
}
