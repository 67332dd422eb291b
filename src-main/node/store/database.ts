/**
 * Opens the Loupe database (one SQLite file in the user-data folder) and brings its schema up to date.
 *
 * better-sqlite3 is synchronous, which is what we want in the main process: each pass is committed in one short
 * transaction before the next is sent, and there is no interleaving to reason about.
 * The Electron host loads an Electron-ABI build of the native module through `nativeBinding`
 * (docs/decisions/0002-better-sqlite3-two-abis.md); everything else uses the Node build npm installed.
 */
import Database from 'better-sqlite3'
import { dirname } from 'node:path'
import { migrations } from './migrations'
import { makeFoldersSync } from '../fs/make-folders'

export type Db = Database.Database

export interface OpenOptions {
  /** Path to an Electron-ABI `better_sqlite3.node`, used only by the Electron host. */
  readonly nativeBinding?: string
}

export function openDatabase(file: string, options: OpenOptions = {}): Db {
  let db: Db | null = null
  try {
    if (file !== ':memory:') makeFoldersSync(dirname(file))
    db = new Database(file, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {})
    // WAL: readers never block the writer, and a killed process loses at most the transaction in flight.
    db.pragma('journal_mode = WAL')
    // NORMAL is durable across process crashes in WAL mode (only an OS crash can lose the last commits).
    db.pragma('synchronous = NORMAL')
    db.pragma('foreign_keys = ON')
    db.pragma('busy_timeout = 5000')
    migrate(db)
    // A file this process may read but not write (read-only, or on a read-only mount) opens without complaint, and
    // would fail only at the first pass. Writing the schema version back, unchanged, is the smallest write: it fails
    // here, at once, with SQLITE_READONLY, and the store is refused with what to do. Busy means another process
    // (the proxy, an import) holds the write lock longer than the busy timeout: it writes, so the file is writable.
    try {
      db.pragma(`user_version = ${schemaVersion(db)}`)
    } catch (err) {
      if ((err as { code?: unknown }).code !== 'SQLITE_BUSY') throw err
    }
    return db
  } catch (err) {
    db?.close()
    throw new Error(openFailure(file, err))
  }
}

/** SQLite's words for why a store would not open, turned into what happened to which file and what to do. */
function openFailure(file: string, err: unknown): string {
  const raw = (err as { code?: unknown }).code
  // SQLite's extended codes (SQLITE_READONLY_DIRECTORY: the file can be written, its folder cannot) say the same.
  const code = typeof raw === 'string' && raw.startsWith('SQLITE_READONLY') ? 'SQLITE_READONLY' : raw
  const message = err instanceof Error ? err.message : String(err)
  const aside = `Move ${file} aside (Loupe then starts with an empty store), or choose another data folder (LOUPE_HOME).`
  switch (code) {
    case 'SQLITE_NOTADB':
      return `${file} is not a Loupe store (not an SQLite database). ${aside}`
    case 'SQLITE_CORRUPT':
      return `${file} is damaged (${message}). ${aside}`
    case 'SQLITE_CANTOPEN':
      return `${file} cannot be opened: check that its folder exists and is writable by you. ${message}`
    case 'SQLITE_READONLY':
      return `${file} is read-only: Loupe writes every pass to it. Make it and its folder writable, or choose another data folder (LOUPE_HOME).`
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return `The folder of ${file} cannot be written (${code}): make it writable, or choose another data folder (LOUPE_HOME).`
    default:
      return message.includes(file) ? message : `${file}: ${message}`
  }
}

export function migrate(db: Db): void {
  const current = db.pragma('user_version', { simple: true }) as number
  const newest = migrations.at(-1)!.version
  // A database a newer Loupe wrote: writing to it with this version's idea of the tables could corrupt it.
  if (current > newest) throw new Error(`This data folder was written by a newer Loupe (store version ${current}; this one knows up to ${newest}). Update Loupe, or choose another data folder.`)
  for (const migration of migrations) {
    if (migration.version <= current) continue
    // foreign_keys cannot change inside a transaction, so it is switched off around a rebuilding migration.
    const foreignKeys = db.pragma('foreign_keys', { simple: true }) as number
    if (migration.rebuildsTables) db.pragma('foreign_keys = OFF')
    try {
      db.transaction(() => {
        db.exec(migration.sql)
        if (migration.rebuildsTables) {
          const broken = db.pragma('foreign_key_check') as unknown[]
          if (broken.length > 0) throw new Error(`migration ${migration.version} (${migration.name}) left ${broken.length} dangling references`)
        }
        db.pragma(`user_version = ${migration.version}`)
      })()
    } finally {
      if (migration.rebuildsTables && foreignKeys) db.pragma('foreign_keys = ON')
    }
  }
}

/** Prepared statements by SQL, per database. Preparing parses the SQL; the store's hot paths run the same few again and again. */
const statements = new WeakMap<Db, Map<string, Database.Statement>>()

/**
 * The prepared statement for `sql` on `db`, made once. `pluck` statements (first column only) are kept apart,
 * since plucking is a mode of the statement itself.
 */
export function statement(db: Db, sql: string, mode: 'rows' | 'pluck' = 'rows'): Database.Statement {
  let byDb = statements.get(db)
  if (!byDb) statements.set(db, (byDb = new Map()))
  const key = `${mode}:${sql}`
  let prepared = byDb.get(key)
  if (!prepared) {
    prepared = db.prepare(sql)
    if (mode === 'pluck') prepared.pluck()
    byDb.set(key, prepared)
  }
  return prepared
}

export function schemaVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number
}
