import { create } from 'zustand'
import type { Session } from '../../src-preload/contract'

interface SessionsState {
  /** Sessions by project id, newest first. */
  readonly byProject: Readonly<Record<string, ReadonlyArray<Session>>>
  readonly selectedId: string | null
  readonly error: string | null
  sessionsLoaded(projectId: string, sessions: ReadonlyArray<Session>): void
  sessionCreated(session: Session): void
  sessionSelected(id: string | null): void
  failed(message: string): void
}

export const useSessionsStore = create<SessionsState>()((set) => ({
  byProject: {},
  selectedId: null,
  error: null,
  sessionsLoaded: (projectId, sessions) => set((s) => ({ byProject: { ...s.byProject, [projectId]: sessions } })),
  sessionCreated: (session) =>
    set((s) => {
      const existing = s.byProject[session.projectId] ?? []
      if (existing.some((x) => x.id === session.id)) return { selectedId: session.id }
      return { byProject: { ...s.byProject, [session.projectId]: [session, ...existing] }, selectedId: session.id, error: null }
    }),
  sessionSelected: (id) => set({ selectedId: id }),
  failed: (message) => set({ error: message }),
}))
