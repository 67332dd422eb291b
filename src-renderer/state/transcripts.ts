/**
 * The Claude Code sessions panel: whether it is open, the folder listed and what it holds, what is being imported,
 * the totals of the imported session picked, and the capture proxy's status.
 */
import { create } from 'zustand'
import type { ProxyStatusView, RequestOutput, TranscriptTotalsView } from '../../src-preload/contract'

export type TranscriptListingView = RequestOutput<'transcripts.list'>

interface TranscriptsState {
  readonly open: boolean
  /** The folder typed by the user; null means the host's default (~/.claude/projects). */
  readonly folder: string | null
  readonly listing: TranscriptListingView | null
  readonly loading: boolean
  readonly error: string | null
  /** Session file paths being imported (`*` while importing all). */
  readonly importing: ReadonlyArray<string>
  /** Totals of the imported session picked in the list, by file path. */
  readonly picked: { readonly path: string; readonly totals: TranscriptTotalsView } | null
  readonly proxy: ProxyStatusView | null
  readonly proxyBusy: boolean
  panelOpened(): void
  panelClosed(): void
  folderChosen(folder: string | null): void
  listingStarted(): void
  listingLoaded(listing: TranscriptListingView): void
  failed(message: string): void
  /** The folder asked for could not be listed: the last folder's listing goes too, or its buttons would import from it. */
  listingFailed(message: string): void
  importStarted(path: string): void
  importFinished(path: string): void
  totalsShown(path: string, totals: TranscriptTotalsView): void
  proxyChanging(): void
  proxyUpdated(status: ProxyStatusView): void
}

export const useTranscriptsStore = create<TranscriptsState>()((set) => ({
  open: false,
  folder: null,
  listing: null,
  loading: false,
  error: null,
  importing: [],
  picked: null,
  proxy: null,
  proxyBusy: false,
  panelOpened: () => set({ open: true, error: null }),
  panelClosed: () => set({ open: false }),
  folderChosen: (folder) => set({ folder: folder?.trim() ? folder.trim() : null }),
  listingStarted: () => set({ loading: true, error: null }),
  listingLoaded: (listing) => set({ listing, loading: false }),
  failed: (message) => set({ error: message, loading: false, proxyBusy: false }),
  listingFailed: (message) => set({ error: message, loading: false, listing: null, picked: null }),
  importStarted: (path) => set((s) => ({ importing: [...s.importing, path], error: null })),
  importFinished: (path) => set((s) => ({ importing: s.importing.filter((p) => p !== path) })),
  totalsShown: (path, totals) => set({ picked: { path, totals } }),
  proxyChanging: () => set({ proxyBusy: true, error: null }),
  proxyUpdated: (status) => set({ proxy: status, proxyBusy: false }),
}))
