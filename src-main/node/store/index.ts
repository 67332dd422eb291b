import { openDatabase, type Db, type OpenOptions } from './database'
import { ProjectRepo } from './projects'
import { SessionRepo } from './sessions'

export { openDatabase, schemaVersion } from './database'
export type { Db } from './database'

/** The store: one SQLite database and a repository per table family. */
export interface Store {
  readonly db: Db
  readonly projects: ProjectRepo
  readonly sessions: SessionRepo
  close(): void
}

export function openStore(file: string, options: OpenOptions = {}): Store {
  const db = openDatabase(file, options)
  return {
    db,
    projects: new ProjectRepo(db),
    sessions: new SessionRepo(db),
    close: () => db.close(),
  }
}
