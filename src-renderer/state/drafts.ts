/**
 * What the user has typed in each session's message box and not sent yet. The chat is unmounted when another view
 * or session is shown; kept here, a half-written message waits for the chat to come back.
 *
 * In memory only, not in localStorage: a draft may hold what the user pasted without meaning to store it (a key, a
 * log), and what matters is surviving a switch of view or session. A reload starts with empty boxes.
 */
import { create } from 'zustand'

interface DraftsState {
  readonly bySession: Readonly<Record<string, string>>
  draftChanged(sessionId: string, text: string): void
  /**
   * The message was sent: the box empties. What the user typed after it while it was on its way (the box still
   * starts with the message) stays; a box the user changed otherwise is left as it is.
   */
  draftSent(sessionId: string, sentText: string): void
  sessionForgotten(sessionId: string): void
}

const without = (drafts: Readonly<Record<string, string>>, sessionId: string) => Object.fromEntries(Object.entries(drafts).filter(([id]) => id !== sessionId))

export const useDraftsStore = create<DraftsState>()((set) => ({
  bySession: {},
  draftChanged: (sessionId, text) => set((s) => ({ bySession: text === '' ? without(s.bySession, sessionId) : { ...s.bySession, [sessionId]: text } })),
  draftSent: (sessionId, sentText) =>
    set((s) => {
      const now = s.bySession[sessionId]
      if (now === undefined || !now.startsWith(sentText)) return {}
      const typedSince = now.slice(sentText.length).replace(/^\s+/, '')
      return { bySession: typedSince === '' ? without(s.bySession, sessionId) : { ...s.bySession, [sessionId]: typedSince } }
    }),
  sessionForgotten: (sessionId) => set((s) => ({ bySession: without(s.bySession, sessionId) })),
}))

export const selectDraft = (sessionId: string) => (s: DraftsState): string => s.bySession[sessionId] ?? ''
