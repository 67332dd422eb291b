import type { AppInfo } from '../../src-preload/contract'
import type { Clock, Logger } from '../engine/ports'
import type { Store } from '../node/store'
import type { SessionManager } from '../node/session/manager'
import type { EventHub } from './events'

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
  /** Present only where the host has a native folder dialog (Electron). */
  readonly pickFolder?: () => Promise<string | null>
}
