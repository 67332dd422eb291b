import { create } from 'zustand'
import type { AppInfo } from '../../src-preload/contract'

export type Connection = 'connecting' | 'ready' | 'lost'

interface AppState {
  readonly info: AppInfo | null
  readonly connection: Connection
  readonly error: string | null
  /** Why nothing can be saved any more (the store's file went away), from the first answer that said so. */
  readonly storeLost: string | null
  appReady(): void
  infoLoaded(info: AppInfo): void
  connectionLost(): void
  failed(message: string): void
  storeLostSaid(message: string): void
}

export const useAppStore = create<AppState>()((set) => ({
  info: null,
  connection: 'connecting',
  error: null,
  storeLost: null,
  appReady: () => set({ connection: 'ready', error: null }),
  infoLoaded: (info) => set({ info }),
  connectionLost: () => set({ connection: 'lost' }),
  failed: (message) => set({ error: message }),
  storeLostSaid: (message) => set((s) => (s.storeLost === null ? { storeLost: message } : s)),
}))
