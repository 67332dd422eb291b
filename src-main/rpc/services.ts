import type { AppInfo } from '../../src-preload/contract'
import type { Clock, Logger } from '../engine/ports'
import type { Store } from '../node/store'
import type { SessionManager } from '../node/session/manager'
import type { SettingsService } from '../node/settings'
import type { SecretStore } from '../node/model/keys'
import type { EventHub } from './events'

/**
 * The host's file dialog for a session export: where to save one (`export`, starting at `defaultPath`), or which one
 * to import. Null when the user cancels.
 */
export type PickFile = (request: { readonly purpose: 'export' | 'import'; readonly defaultPath?: string }) => Promise<string | null>

/**
 * What the handlers work with. The composition root (src-main/node/app.ts) builds it once per process; the
 * hosts add what only they can do (the native folder dialog).
 */
export interface Services {
  readonly store: Store
  readonly clock: Clock
  readonly events: EventHub
  readonly log: Logger
  readonly info: AppInfo
  readonly homeDir: string
  readonly sessions: SessionManager
  /** Loupe's own folder (global instructions, user memory): `LOUPE_HOME` or ~/.loupe. */
  readonly loupeHome: string
  readonly settings: SettingsService
  /** Where the API key is kept (the host's secret storage). The key itself never crosses the contract. */
  readonly secrets: SecretStore
  /** Registers cleanup for app.close() (a running proxy, a watcher …); run in reverse order of registration. */
  atClose(fn: () => Promise<unknown> | unknown): void
  /** Present only where the host has a native folder dialog (Electron). */
  readonly pickFolder?: () => Promise<string | null>
  /** Present only where the host has native file dialogs (Electron): a session export's file, saved or opened. */
  readonly pickFile?: PickFile
}
