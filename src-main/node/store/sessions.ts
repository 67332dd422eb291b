import type { Session } from '../../../src-preload/contract'
import { cleanName, NAME_NEEDS_VISIBLE_TEXT } from '../../../src-preload/names'
import { defaultSessionTitle } from '../../engine/conversation/title'
import { statement, type Db } from './database'
import { newId } from './ids'

interface SessionRow {
  id: string
  project_id: string
  title: string
  created_at: number
  updated_at: number
  /** Migration 3; the column's default is 'loupe'. */
  origin?: 'loupe' | 'transcript' | 'captured'
  origin_ref?: string | null
  /** Migration 3: the session that started this one (an imported subagent's or compaction call's parent). */
  parent_session_id?: string | null
}

/** For a session that continues an imported conversation: which, and how many of its first entries came from it. */
function continuedOf(row: SessionRow): Session['continued'] {
  if (!row.origin_ref) return undefined
  try {
    const ref = JSON.parse(row.origin_ref) as { kind?: unknown; fromSessionId?: unknown; inherited?: unknown; fromModel?: unknown }
    if (ref.kind !== 'continued' || typeof ref.fromSessionId !== 'string') return undefined
    return { fromSessionId: ref.fromSessionId, inherited: typeof ref.inherited === 'number' ? ref.inherited : null, fromModel: typeof ref.fromModel === 'string' ? ref.fromModel : null }
  } catch {
    return undefined
  }
}

/** For an imported session: the lines of its file the import left out, when there were any. */
function skippedLinesOf(row: SessionRow): Session['skippedLines'] {
  if (row.origin !== 'transcript' || !row.origin_ref) return undefined
  try {
    const skipped = (JSON.parse(row.origin_ref) as { skippedLines?: { total?: unknown; by?: unknown } }).skippedLines
    // Read from a column a session file brought in may have written (session.import): only counts are taken.
    const count = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0
    if (!count(skipped?.total) || skipped.total === 0) return undefined
    const by = Object.fromEntries(Object.entries(typeof skipped.by === 'object' && skipped.by !== null ? skipped.by : {}).filter((e): e is [string, number] => count(e[1])))
    return { total: skipped.total, by }
  } catch {
    return undefined
  }
}

/**
 * The name a session shows (decision 0051): its title kept as every name is, or the time it was made when nothing of
 * it shows. Applied on the way in and again on the way out, so a row written before the rule (or by an older
 * version, or an import) shows the same as one written since; a clean title is its own clean form.
 */
export function sessionTitle(title: string, createdAt: number): string {
  return cleanName(title) || defaultSessionTitle(createdAt)
}

function toSession(row: SessionRow): Session {
  const continued = continuedOf(row)
  const skippedLines = skippedLinesOf(row)
  return { id: row.id, projectId: row.project_id, title: sessionTitle(row.title, row.created_at), createdAt: row.created_at, updatedAt: row.updated_at, origin: row.origin ?? 'loupe', ...(continued ? { continued } : {}), ...(row.parent_session_id ? { parentSessionId: row.parent_session_id } : {}), ...(skippedLines ? { skippedLines } : {}) }
}

export class SessionRepo {
  constructor(private readonly db: Db) {}

  /** A title with nothing that shows names the session by the time it was made. */
  create(projectId: string, title: string, now: number): Session {
    const row: SessionRow = { id: newId('ses', now), project_id: projectId, title: sessionTitle(title, now), created_at: now, updated_at: now }
    statement(this.db, 'INSERT INTO sessions (id, project_id, title, created_at, updated_at) VALUES (@id, @project_id, @title, @created_at, @updated_at)')
      .run(row)
    return toSession(row)
  }

  get(id: string): Session | null {
    const row = statement(this.db, 'SELECT * FROM sessions WHERE id = ?').get(id) as SessionRow | undefined
    return row ? toSession(row) : null
  }

  /** The session's JSON state column (src-main/node/session/state.ts). */
  state(id: string): string {
    return (statement(this.db, 'SELECT state FROM sessions WHERE id = ?', 'pluck').get(id) as string | undefined) ?? '{}'
  }

  saveState(id: string, state: string): void {
    statement(this.db, 'UPDATE sessions SET state = ? WHERE id = ?').run(state, id)
  }

  /**
   * Throws on a title with nothing that shows: the caller asked for that name, and the session keeps the one it has
   * (the contract refuses such a rename before it comes here).
   */
  rename(id: string, title: string, now: number): Session | null {
    const kept = cleanName(title)
    if (kept === '') throw new Error(`The session ${id} kept its name: ${NAME_NEEDS_VISIBLE_TEXT}`)
    statement(this.db, 'UPDATE sessions SET title = ?, updated_at = ? WHERE id = ?').run(kept, now, id)
    return this.get(id)
  }

  /**
   * Something was recorded in the session at `at` without an entry (a pass the proxy captured): it is listed as
   * active then, as an entry would (EntryRepo.append). A time before the one it has moves nothing.
   */
  writtenTo(id: string, at: number): void {
    statement(this.db, 'UPDATE sessions SET updated_at = MAX(updated_at, ?) WHERE id = ?').run(at, id)
  }

  /** Deletes the session with its entries and passes (cascade); the caller collects unreferenced blobs. */
  delete(id: string): boolean {
    return statement(this.db, 'DELETE FROM sessions WHERE id = ?').run(id).changes > 0
  }

  listByProject(projectId: string): Session[] {
    const rows = statement(this.db, 'SELECT * FROM sessions WHERE project_id = ? ORDER BY updated_at DESC, id DESC')
      .all(projectId) as SessionRow[]
    return rows.map(toSession)
  }
}
