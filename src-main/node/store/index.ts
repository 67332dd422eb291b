import { statSync } from 'node:fs'
import { openDatabase, type Db, type OpenOptions } from './database'
import { ProjectRepo } from './projects'
import { SessionRepo } from './sessions'
import { EntryRepo } from './entries'
import { PassRepo } from './passes'
import { BlobRepo } from './blobs'
import { PrefixCountRepo } from './prefix-counts'

export { openDatabase, schemaVersion } from './database'
export type { Db } from './database'
export type { PassSummary, PassDetail, NewPass, PassKind, PassStatus, StoredSegment, StoredAttempt } from './passes'

/** The store: one SQLite database and a repository per table family. */
export interface Store {
  readonly db: Db
  readonly projects: ProjectRepo
  readonly sessions: SessionRepo
  readonly entries: EntryRepo
  readonly passes: PassRepo
  readonly blobs: BlobRepo
  readonly prefixCounts: PrefixCountRepo
  /** Runs `fn` in one transaction: everything it writes lands together or not at all. */
  transaction<T>(fn: () => T): T
  /**
   * Why the database file at the store's path is no longer the one open (deleted, or replaced by another file), or
   * null. SQLite keeps writing to the open file either way, so nothing fails: what is written after that is lost
   * at the next start, unless someone asks.
   */
  fileProblem(): string | null
  close(): void
}

export function openStore(file: string, options: OpenOptions = {}): Store {
  const db = openDatabase(file, options)
  const passes = new PassRepo(db)
  const identity = file === ':memory:' ? null : statSync(file)
  return {
    db,
    projects: new ProjectRepo(db),
    sessions: new SessionRepo(db),
    entries: new EntryRepo(db),
    passes,
    blobs: new BlobRepo(db),
    prefixCounts: new PrefixCountRepo(db),
    transaction: <T>(fn: () => T): T => {
      try {
        return db.transaction(fn)()
      } catch (err) {
        passes.forgetCache()
        throw err
      }
    },
    fileProblem: () => {
      if (identity === null) return null
      let now
      try {
        now = statSync(file)
      } catch {
        return `Loupe's store, ${file}, was deleted while Loupe was running`
      }
      return now.ino === identity.ino && now.dev === identity.dev ? null : `Loupe's store, ${file}, was replaced by another file while Loupe was running`
    },
    close: () => db.close(),
  }
}
