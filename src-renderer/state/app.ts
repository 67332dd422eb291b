import { create } from 'zustand'
import type { AppInfo } from '../../src-preload/contract'

/**
 * `connecting`: before the first `app.ready`; `ready`: connected; `lost`: the connection dropped and is being made
 * again (browser mode only); `refused`: the host no longer accepts this page (it was restarted with a new token), so
 * nothing is tried any more.
 */
export type Connection = 'connecting' | 'ready' | 'lost' | 'refused'

interface AppState {
  readonly info: AppInfo | null
  readonly connection: Connection
  readonly error: string | null
  /** Why nothing can be saved any more (the store's file went away), from the first answer that said so. */
  readonly storeLost: string | null
  appReady(): void
  infoLoaded(info: AppInfo): void
  connectionLost(): void
  connectionRefused(): void
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
  // A refusal is final: no later attempt is made, so nothing turns it back into "reconnecting".
  connectionLost: () => set((s) => (s.connection === 'refused' ? s : { connection: 'lost' })),
  connectionRefused: () => set({ connection: 'refused' }),
  failed: (message) => set({ error: message }),
  storeLostSaid: (message) => set((s) => (s.storeLost === null ? { storeLost: message } : s)),
}))

/** What the header says of the connection. */
export function connectionLabel(connection: Connection): string {
  return { connecting: 'connecting…', ready: 'connected', lost: 'reconnecting…', refused: 'disconnected' }[connection]
}

/** What the banner above every view says while not connected, or null when connected. */
export function connectionNotice(connection: Connection): string | null {
  if (connection === 'lost') {
    return 'Connection to Loupe lost — reconnecting… Until it is back, what you ask fails, and whether a running turn is still running is unknown.'
  }
  if (connection === 'refused') {
    return 'Loupe’s host was restarted and no longer accepts this page, so it stopped reconnecting. Open the new URL the host printed when it started (http://127.0.0.1:…/#token=…).'
  }
  return null
}
