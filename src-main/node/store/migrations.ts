/**
 * Numbered schema migrations. Each runs once, in order, inside a transaction; `PRAGMA user_version` records the
 * last one applied. Never edit a migration that has shipped: add a new one.
 */
export interface Migration {
  readonly version: number
  readonly name: string
  readonly sql: string
}

export const migrations: ReadonlyArray<Migration> = [
  {
    version: 1,
    name: 'projects and sessions',
    sql: `
      CREATE TABLE projects (
        id             TEXT PRIMARY KEY,
        name           TEXT NOT NULL,
        root           TEXT NOT NULL UNIQUE,
        created_at     INTEGER NOT NULL,
        last_opened_at INTEGER NOT NULL
      );
      CREATE TABLE sessions (
        id          TEXT PRIMARY KEY,
        project_id  TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        title       TEXT NOT NULL,
        created_at  INTEGER NOT NULL,
        updated_at  INTEGER NOT NULL
      );
      CREATE INDEX sessions_by_project ON sessions(project_id, updated_at DESC);
    `,
  },
]
