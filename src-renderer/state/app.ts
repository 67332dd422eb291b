import { create } from 'zustand'
import type { AppInfo } from '../../src-preload/contract'

/**
 * `connecting`: before the first `app.ready`; `ready`: connected; `lost`: the connection dropped and is being made
 * again (browser mode only); `refused`: the host no longer accepts this page's token (it was restarted with a new
 * one), so nothing is tried any more; `keyless`: the page was opened without a token, so nothing was ever tried.
 */
export type Connection = 'connecting' | 'ready' | 'lost' | 'refused' | 'keyless'

interface AppState {
  readonly info: AppInfo | null
  readonly connection: Connection
  /** Whether this page was ever connected: until it is, the stores hold nothing the host said. */
  readonly connectedOnce: boolean
  readonly error: string | null
  /** Why nothing can be saved any more (the store's file went away), from the first answer that said so. */
  readonly storeLost: string | null
  appReady(): void
  infoLoaded(info: AppInfo): void
  connectionLost(): void
  connectionRefused(): void
  openedWithoutKey(): void
  failed(message: string): void
  storeLostSaid(message: string): void
}

export const useAppStore = create<AppState>()((set) => ({
  info: null,
  connection: 'connecting',
  connectedOnce: false,
  error: null,
  storeLost: null,
  appReady: () => set({ connection: 'ready', connectedOnce: true, error: null }),
  infoLoaded: (info) => set({ info }),
  // A refusal is final: no later attempt is made, so nothing turns it back into "reconnecting".
  connectionLost: () => set((s) => (s.connection === 'refused' ? s : { connection: 'lost' })),
  connectionRefused: () => set({ connection: 'refused' }),
  openedWithoutKey: () => set({ connection: 'keyless' }),
  failed: (message) => set({ error: message }),
  storeLostSaid: (message) => set((s) => (s.storeLost === null ? { storeLost: message } : s)),
}))

/** What the header says of the connection. */
export function connectionLabel(connection: Connection): string {
  return { connecting: 'connecting…', ready: 'connected', lost: 'reconnecting…', refused: 'disconnected', keyless: 'not connected' }[connection]
}

/**
 * Whether the page can show nothing but why: it was never connected, and never will be (no token, or one the host
 * refused from the first attempt). Its stores are empty for that reason, not because the host holds nothing, so it
 * shows no projects list, no views and no empty states that would say otherwise.
 */
export function shutOut(connection: Connection, connectedOnce: boolean): boolean {
  return connection === 'keyless' || (connection === 'refused' && !connectedOnce)
}

/** What the banner above every view says while not connected, or null when connected. */
export function connectionNotice(connection: Connection): string | null {
  if (connection === 'lost') {
    return 'Connection to Loupe lost — reconnecting… Until it is back, what you ask fails, and whether a running turn is still running is unknown.'
  }
  if (connection === 'refused') {
    return 'Loupe’s host was restarted and no longer accepts this page, so it stopped reconnecting. Open the new URL the host printed when it started (http://127.0.0.1:…/#token=…).'
  }
  if (connection === 'keyless') {
    // The address bar leaves the key out on purpose (platform/client.ts), so a copy of it opens this page: it says
    // why, and the two ways that bring the key along.
    return 'This page was opened without its access key, and Loupe’s host lets in only a page opened with the key it printed. A Loupe tab’s address bar leaves the key out, to keep it out of history and shared screens: open the URL the host printed when it started (http://127.0.0.1:…/#token=…), or duplicate a tab where Loupe is open — the copy keeps its key.'
  }
  return null
}
