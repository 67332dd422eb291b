/**
 * The cache view's state, per session: the session's cache summary (`session.cacheSummary`: totals, misses by
 * cause, the what-ifs, one line per pass) and its passes (`pass.list`: usage and cost per pass), refreshed when a
 * pass completes. The timeline's markers come from the session's entries (the chat store holds them).
 */
import { create } from 'zustand'
import type { CacheSummaryView, PassSummaryView } from '../../src-preload/contract'

export interface SessionCache {
  readonly summary: CacheSummaryView | null
  readonly passes: ReadonlyArray<PassSummaryView>
  readonly loading: boolean
  readonly error: string | null
}

const EMPTY: SessionCache = { summary: null, passes: [], loading: false, error: null }

interface CacheState {
  readonly bySession: Readonly<Record<string, SessionCache>>
  /** The pass the timeline points at (hovered or clicked). */
  readonly focusedPassId: string | null
  cacheLoading(sessionId: string): void
  cacheLoaded(sessionId: string, summary: CacheSummaryView, passes: ReadonlyArray<PassSummaryView>): void
  cacheFailed(sessionId: string, message: string): void
  passFocused(passId: string | null): void
}

export const useCacheStore = create<CacheState>()((set) => {
  const update = (sessionId: string, fn: (s: SessionCache) => Partial<SessionCache>) =>
    set((state) => ({ bySession: { ...state.bySession, [sessionId]: { ...(state.bySession[sessionId] ?? EMPTY), ...fn(state.bySession[sessionId] ?? EMPTY) } } }))
  return {
    bySession: {},
    focusedPassId: null,
    cacheLoading: (sessionId) => update(sessionId, () => ({ loading: true })),
    cacheLoaded: (sessionId, summary, passes) => update(sessionId, () => ({ summary, passes, loading: false, error: null })),
    cacheFailed: (sessionId, message) => update(sessionId, () => ({ loading: false, error: message })),
    passFocused: (focusedPassId) => set({ focusedPassId }),
  }
})

export function selectCache(sessionId: string) {
  return (s: CacheState): SessionCache => s.bySession[sessionId] ?? EMPTY
}
