/**
 * Where a session came from (migration 3: `sessions.origin`, `origin_ref`, `parent_session_id`): a Loupe session,
 * a Claude Code transcript imported into the store, or the capture proxy's session for one client. The session
 * repository knows only Loupe's own columns; the importer and the proxy read and write these through here.
 */
import type { Store } from '../store'

export type SessionOrigin = 'loupe' | 'transcript' | 'captured'

/** What an imported transcript session records about its file, so a second import can tell if it changed. */
export interface TranscriptRef {
  readonly kind: 'claude-code'
  /** The session file as resolved when imported. */
  readonly path: string
  /** Claude Code's session id (or, for a child, the agent id / sidechain root). */
  readonly transcriptId: string
  readonly bytes: number
  readonly modifiedMs: number
  readonly threadKind: 'main' | 'task' | 'compaction' | 'sidechain'
  /** A subagent: the Task tool_use in the parent that started it, when known. */
  readonly parentToolUseId: string | null
  readonly importedAt: number
  /**
   * The lines of this thread's file that could not be read, left out of the import: how many, and how many for each
   * of the parser's reasons (decision 0068). Absent for a file read whole, for a subagent written inline in the main
   * file (counted there), and from imports made before it was recorded.
   */
  readonly skippedLines?: { readonly total: number; readonly by: Readonly<Record<string, number>> }
}

export interface CapturedRef {
  readonly kind: 'proxy'
  /** The client key (docs/proxy.md "One session per client"): never an API key. */
  readonly client: string
  readonly userAgent: string | null
  readonly upstream: string
  readonly startedAt: number
}

/** A Loupe session that continues an imported conversation. */
export interface ContinuedRef {
  readonly kind: 'continued'
  readonly fromSessionId: string
  readonly at: number
  /** How many entries came from the imported conversation (the first ones); absent from older stores. */
  readonly inherited?: number
  /** The model the imported conversation's last request used; absent from older stores and without passes. */
  readonly fromModel?: string
}

export type OriginRef = TranscriptRef | CapturedRef | ContinuedRef

export interface SessionOriginRow {
  readonly sessionId: string
  readonly projectId: string
  readonly origin: SessionOrigin
  readonly ref: OriginRef | null
  readonly parentSessionId: string | null
}

interface Row {
  id: string
  project_id: string
  origin: SessionOrigin
  origin_ref: string | null
  parent_session_id: string | null
}

function toOrigin(row: Row): SessionOriginRow {
  let ref: OriginRef | null = null
  try {
    ref = row.origin_ref === null ? null : (JSON.parse(row.origin_ref) as OriginRef)
  } catch {
    ref = null
  }
  return { sessionId: row.id, projectId: row.project_id, origin: row.origin, ref, parentSessionId: row.parent_session_id }
}

export function markSession(store: Store, sessionId: string, origin: SessionOrigin, ref: OriginRef | null, parentSessionId: string | null = null): void {
  store.db
    .prepare('UPDATE sessions SET origin = ?, origin_ref = ?, parent_session_id = ? WHERE id = ?')
    .run(origin, ref === null ? null : JSON.stringify(ref), parentSessionId, sessionId)
}

export function sessionOrigin(store: Store, sessionId: string): SessionOriginRow | null {
  const row = store.db.prepare('SELECT id, project_id, origin, origin_ref, parent_session_id FROM sessions WHERE id = ?').get(sessionId) as Row | undefined
  return row ? toOrigin(row) : null
}

/** Top-level sessions imported from transcripts (children are reached through `childSessions`), of one project if given. */
export function importedSessions(store: Store, projectId?: string): SessionOriginRow[] {
  const sql = "SELECT id, project_id, origin, origin_ref, parent_session_id FROM sessions WHERE origin = 'transcript' AND parent_session_id IS NULL"
  const rows = (projectId === undefined ? store.db.prepare(sql).all() : store.db.prepare(`${sql} AND project_id = ?`).all(projectId)) as Row[]
  return rows.map(toOrigin)
}

/** The imported session made from the transcript file at `path`, if any. */
export function importedFrom(store: Store, path: string): SessionOriginRow | null {
  return importedSessions(store).find((s) => s.ref?.kind === 'claude-code' && s.ref.path === path) ?? null
}

/**
 * The Loupe sessions continued from the imported session `sessionId` (their origin_ref names it), oldest first:
 * continuing it again numbers the new one after them.
 */
export function continuationsOf(store: Store, sessionId: string): SessionOriginRow[] {
  const rows = store.db
    .prepare(
      "SELECT id, project_id, origin, origin_ref, parent_session_id FROM sessions WHERE origin = 'loupe' AND origin_ref IS NOT NULL AND json_valid(origin_ref) AND json_extract(origin_ref, '$.kind') = 'continued' AND json_extract(origin_ref, '$.fromSessionId') = ? ORDER BY created_at, id",
    )
    .all(sessionId) as Row[]
  return rows.map(toOrigin)
}

/**
 * The sessions continued from `fromSessionId` are continued from `toSessionId` now (its file imported again in its
 * place): the link from a continuation to its conversation, and the note that it was continued, outlive a re-import.
 */
export function moveContinuations(store: Store, fromSessionId: string, toSessionId: string): void {
  for (const row of continuationsOf(store, fromSessionId)) {
    if (row.ref?.kind === 'continued') markSession(store, row.sessionId, row.origin, { ...row.ref, fromSessionId: toSessionId }, row.parentSessionId)
  }
}

export function childSessions(store: Store, parentSessionId: string): SessionOriginRow[] {
  const rows = store.db
    .prepare('SELECT id, project_id, origin, origin_ref, parent_session_id FROM sessions WHERE parent_session_id = ? ORDER BY created_at, id')
    .all(parentSessionId) as Row[]
  return rows.map(toOrigin)
}
