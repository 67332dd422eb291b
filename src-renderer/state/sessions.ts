import { create } from 'zustand'
import type { Session } from '../../src-preload/contract'

interface SessionsState {
  /**
   * Sessions by project id, most recently active first, as session.list orders them (`updated_at`): a session written
   * to moves up (sessionWrittenTo). A session made or brought in here is put first, and a rename leaves its row where
   * it is (decision 0070).
   */
  readonly byProject: Readonly<Record<string, ReadonlyArray<Session>>>
  readonly selectedId: string | null
  readonly error: string | null
  /** The project the error is about (listing or starting its sessions): shown under that project only; null: any. */
  readonly errorProjectId: string | null
  /** The session whose name is being edited in the sidebar (double-click, F2, or the palette). */
  readonly renamingId: string | null
  /** The session the delete confirmation asks about. */
  readonly deletingId: string | null
  /** The export or import dialog open now: a session to write to a file, or a project to read one into. */
  readonly transfer: SessionTransfer | null
  /**
   * `askedAt`: when the list was asked for (the renderer's clock; the host's is the same machine's). A session listed
   * here already and made since (in this window or another) cannot be in the answer: it is kept, not dropped.
   */
  sessionsLoaded(projectId: string, sessions: ReadonlyArray<Session>, askedAt?: number): void
  sessionCreated(session: Session): void
  /** A session made elsewhere (another window): listed, not selected. */
  sessionAppeared(session: Session): void
  /**
   * Something was recorded in a session at `at` (entries appended: a message, an answer, a notice; or a pass the
   * proxy captured): the store keeps that as its activity, so its row moves up to where a new list would put it.
   */
  sessionWrittenTo(sessionId: string, at: number): void
  sessionSelected(id: string | null): void
  renameStarted(id: string): void
  renameEnded(): void
  sessionRenamed(session: Session): void
  deleteAsked(id: string): void
  deleteDismissed(): void
  /** `thenDelete`: asked from the delete confirmation ("Export it first…"), which comes back once the export closes. */
  exportAsked(sessionId: string, thenDelete?: boolean): void
  importAsked(projectId: string): void
  transferDismissed(): void
  /** `replacedBy`: the session that takes its place, shown instead when the one deleted (or one it started) was. */
  sessionDeleted(id: string, replacedBy?: string): void
  failed(message: string, projectId?: string): void
}

export type SessionTransfer = { readonly kind: 'export'; readonly sessionId: string; readonly thenDelete?: boolean } | { readonly kind: 'import'; readonly projectId: string }

export const useSessionsStore = create<SessionsState>()((set) => ({
  byProject: {},
  selectedId: null,
  error: null,
  errorProjectId: null,
  renamingId: null,
  deletingId: null,
  transfer: null,
  sessionsLoaded: (projectId, sessions, askedAt = Number.POSITIVE_INFINITY) =>
    set((s) => {
      const listed = new Set(sessions.map((x) => x.id))
      // One deleted while this window was not listening was made before the list was asked for: it goes.
      const since = (s.byProject[projectId] ?? []).filter((x) => !listed.has(x.id) && x.createdAt >= askedAt)
      return { byProject: { ...s.byProject, [projectId]: [...since, ...sessions] } }
    }),
  sessionCreated: (session) =>
    set((s) => {
      const existing = s.byProject[session.projectId] ?? []
      if (existing.some((x) => x.id === session.id)) return { selectedId: session.id }
      return { byProject: { ...s.byProject, [session.projectId]: [session, ...existing] }, selectedId: session.id, error: null }
    }),
  sessionAppeared: (session) =>
    set((s) => {
      const existing = s.byProject[session.projectId]
      // A project whose sessions were never loaded here lists them all when it is opened.
      if (!existing || existing.some((x) => x.id === session.id)) return {}
      return { byProject: { ...s.byProject, [session.projectId]: [session, ...existing] } }
    }),
  sessionWrittenTo: (sessionId, at) =>
    set((s) => {
      for (const [projectId, list] of Object.entries(s.byProject)) {
        const session = list.find((x) => x.id === sessionId)
        if (!session) continue
        // Events of one session arrive in order, but another's may cross them: an older time moves nothing.
        if (at <= session.updatedAt) return {}
        return { byProject: { ...s.byProject, [projectId]: movedUp(list, { ...session, updatedAt: at }) } }
      }
      return {}
    }),
  sessionSelected: (id) => set({ selectedId: id }),
  renameStarted: (id) => set({ renamingId: id, error: null }),
  renameEnded: () => set({ renamingId: null }),
  // A rename is not activity here, though the store's time moves with it: the row just named stays where the user
  // named it (decision 0070).
  sessionRenamed: (session) =>
    set((s) => ({
      byProject: { ...s.byProject, [session.projectId]: (s.byProject[session.projectId] ?? []).map((x) => (x.id === session.id ? session : x)) },
      // The event from another window's rename leaves a rename under way here alone.
      renamingId: s.renamingId === session.id ? null : s.renamingId,
      error: null,
    })),
  deleteAsked: (id) => set({ deletingId: id, error: null }),
  deleteDismissed: () => set({ deletingId: null }),
  exportAsked: (sessionId, thenDelete = false) => set({ transfer: { kind: 'export', sessionId, ...(thenDelete ? { thenDelete } : {}) }, deletingId: null, error: null }),
  importAsked: (projectId) => set({ transfer: { kind: 'import', projectId }, error: null }),
  // The delete the export was asked from is asked again: "Export it first" was a step on the way, not a change of mind.
  transferDismissed: () => set((s) => ({ transfer: null, deletingId: s.transfer?.kind === 'export' && s.transfer.thenDelete ? s.transfer.sessionId : s.deletingId })),
  sessionDeleted: (id, replacedBy) =>
    set((s) => {
      const gone = new Set(withStarted(s, id))
      const kept = (x: string | null) => (x !== null && gone.has(x) ? null : x)
      // Only a replacement listed in the same project: one filed elsewhere would be selected where nothing shows it.
      const list = Object.values(s.byProject).find((l) => l.some((y) => y.id === id)) ?? []
      const listed = (x: string | undefined): x is string => x !== undefined && list.some((y) => y.id === x)
      return {
        byProject: Object.fromEntries(Object.entries(s.byProject).map(([projectId, list]) => [projectId, list.filter((x) => !gone.has(x.id))])),
        selectedId: s.selectedId !== null && gone.has(s.selectedId) ? (listed(replacedBy) ? replacedBy : null) : s.selectedId,
        renamingId: kept(s.renamingId),
        deletingId: kept(s.deletingId),
        transfer: s.transfer?.kind === 'export' && gone.has(s.transfer.sessionId) ? null : s.transfer,
      }
    }),
  failed: (message, projectId) => set({ error: message, errorProjectId: projectId ?? null }),
}))

/**
 * `list` with `session` taken out and put back before the first row less recently active than it (session.list's
 * order: `updated_at`, then id, both descending). Only that row moves: the others keep their order, so rows a rename
 * or a creation placed are not shuffled by another session's activity.
 */
function movedUp(list: ReadonlyArray<Session>, session: Session): Session[] {
  const others = list.filter((x) => x.id !== session.id)
  const after = others.findIndex((x) => x.updatedAt < session.updatedAt || (x.updatedAt === session.updatedAt && x.id < session.id))
  return after === -1 ? [...others, session] : [...others.slice(0, after), session, ...others.slice(after)]
}

/**
 * A session and the sessions it started (an imported session's subagents and compaction calls), which the store
 * deletes with it.
 */
export function withStarted(s: Pick<SessionsState, 'byProject'>, id: string): string[] {
  return [id, ...Object.values(s.byProject).flatMap((list) => list.filter((x) => x.parentSessionId === id).map((x) => x.id))]
}

/** The session with this id, in whichever project's list holds it. */
export function findSession(s: Pick<SessionsState, 'byProject'>, id: string | null): Session | null {
  if (id === null) return null
  for (const list of Object.values(s.byProject)) {
    const found = list.find((x) => x.id === id)
    if (found) return found
  }
  return null
}

/** Each listed session's title, in the order the list first names it: the sidebar's, else the one read with the list. */
export function sessionTitles(passes: ReadonlyArray<{ readonly sessionId: string; readonly sessionTitle?: string }>, byProject: Readonly<Record<string, ReadonlyArray<Session>>>): Map<string, string> {
  const known = new Map<string, string>()
  for (const list of Object.values(byProject)) for (const session of list) known.set(session.id, session.title)
  const titles = new Map<string, string>()
  for (const p of passes) if (!titles.has(p.sessionId)) titles.set(p.sessionId, known.get(p.sessionId) ?? p.sessionTitle ?? p.sessionId)
  return titles
}

/**
 * Short labels that tell a project's sessions apart where a list mixes them (the inspector's whole-project passes).
 * Titles often start alike ("Session 2026-11-29 14:02", "Claude Code: …"): the whole words a title shares with a
 * differently named session are left out ("…14:02"). Sessions with the same title are numbered in the order given,
 * the number first so a narrow column still shows it ("2 · Session 2026-11-29 14:02").
 */
export function sessionLabels(sessions: ReadonlyArray<{ readonly id: string; readonly title: string }>): Map<string, string> {
  const titles = [...new Set(sessions.map((s) => s.title))]
  const shortened = new Map<string, string>()
  for (const title of titles) {
    let shared = 0
    for (const other of titles) if (other !== title) shared = Math.max(shared, sharedWordsLength(title, other))
    shortened.set(title, shared > 0 ? `…${title.slice(shared)}` : title)
  }
  const labels = new Map<string, string>()
  const seen = new Map<string, number>()
  for (const s of sessions) {
    if (labels.has(s.id)) continue
    const nth = (seen.get(s.title) ?? 0) + 1
    seen.set(s.title, nth)
    labels.set(s.id, nth === 1 ? shortened.get(s.title)! : `${nth} · ${shortened.get(s.title)!}`)
  }
  return labels
}

/** Characters of the whole words (each with the space after it) that `a` starts with and `b` starts with too. */
function sharedWordsLength(a: string, b: string): number {
  let same = 0
  while (same < a.length && same < b.length && a[same] === b[same]) same++
  // Keep at least the last word of `a`: a title that is all shared would leave nothing to show.
  const limit = Math.min(same, a.length - 1)
  if (limit <= 0) return 0
  return a.lastIndexOf(' ', limit - 1) + 1
}
