/**
 * Settings as the main process holds them (`settings.get`), and the renderer's own preferences: which main view
 * is shown (Chat, Compaction, Cache, Files, Settings), the theme (mirrored in localStorage so the first paint has the
 * right colours before the main process answers), and whether the command palette is open.
 */
import { create } from 'zustand'
import { persist } from 'zustand/middleware'
import type { SettingsViewData } from '../../src-preload/contract'

export type MainView = 'chat' | 'compaction' | 'cache' | 'files' | 'settings'
export type Theme = 'light' | 'dark' | 'system'

export const MAIN_VIEWS: ReadonlyArray<{ readonly id: MainView; readonly label: string; readonly key: string }> = [
  { id: 'chat', label: 'Chat', key: '1' },
  { id: 'compaction', label: 'Compaction', key: '2' },
  { id: 'cache', label: 'Cache', key: '3' },
  { id: 'files', label: 'Files', key: '4' },
  { id: 'settings', label: 'Settings', key: '5' },
]

interface SettingsState {
  readonly data: SettingsViewData | null
  readonly loading: boolean
  /** What the last settings request did wrong, in words; null when it went well. */
  readonly error: string | null
  /** A change being written ("Saving…" after a second). */
  readonly saving: boolean
  readonly view: MainView
  readonly theme: Theme
  readonly paletteOpen: boolean
  /** Counts theme choices, so an answer that left before the latest choice does not undo it. */
  readonly themeEdits: number

  settingsLoading(): void
  /** `edits`: themeEdits when the request left; an older count keeps the theme chosen since. */
  settingsLoaded(data: SettingsViewData, edits: number): void
  settingsFailed(message: string): void
  savingStarted(): void
  viewChosen(view: MainView): void
  themeChosen(theme: Theme): void
  paletteOpened(): void
  paletteClosed(): void
}

export const useSettingsStore = create<SettingsState>()(
  persist(
    (set) => ({
      data: null,
      loading: false,
      error: null,
      saving: false,
      view: 'chat',
      theme: 'system',
      paletteOpen: false,
      themeEdits: 0,

      settingsLoading: () => set({ loading: true }),
      settingsLoaded: (data, edits) => set((s) => ({ data, loading: false, saving: false, error: null, theme: edits === s.themeEdits ? data.app.theme : s.theme })),
      settingsFailed: (message) => set({ loading: false, saving: false, error: message }),
      savingStarted: () => set({ saving: true, error: null }),
      viewChosen: (view) => set({ view, paletteOpen: false }),
      themeChosen: (theme) => set((s) => ({ theme, themeEdits: s.themeEdits + 1 })),
      paletteOpened: () => set({ paletteOpen: true }),
      paletteClosed: () => set({ paletteOpen: false }),
    }),
    {
      name: 'loupe.settings',
      version: 1,
      partialize: (s) => ({ view: s.view, theme: s.theme }),
    },
  ),
)
