/**
 * The composition root: builds everything a host needs — store, services, handlers, the dispatcher — from a
 * data folder. Both hosts (src-main/electron/main.ts, and the browser host src-main/server/host.ts, started by
 * src-main/server/cli.ts) call `createApp` and then only carry requests and events.
 */
import { homedir } from 'node:os'
import type { AppInfo } from '../../src-preload/contract'
import type { Clock, Logger } from '../engine/ports'
import { createDispatcher, type Dispatch } from '../rpc/dispatch'
import { EventHub } from '../rpc/events'
import { createHandlers } from '../rpc/handlers'
import type { PickFile, Services } from '../rpc/services'
import { browserDataDir, databaseFile } from './data-dir'
import { openModelEndpoint, type ModelEndpoint } from './model/endpoint'
import { fileSecretStore, type SecretStore } from './model/keys'
import { openSettings, SettingsService } from './settings'
import { SessionManager } from './session/manager'
import type { Scheduler } from './session/keep-warm'
import { nodeHasher } from './hasher'
import { createLogger } from './log'
import { openStore, type Store } from './store'
import { lockDataDir } from './store/lock'
import { APP_VERSION } from './version'

export interface AppOptions {
  readonly host: AppInfo['host']
  readonly dataDir: string
  readonly clock?: Clock
  readonly log?: Logger
  readonly homeDir?: string
  readonly pickFolder?: () => Promise<string | null>
  /** The host's file dialog, where it has one (Electron): null when the user cancels. */
  readonly pickFile?: PickFile
  /** Loupe's own folder for global instructions and user memory (`LOUPE_HOME` or ~/.loupe). */
  readonly loupeHome?: string
  /** Where the API key is kept: the OS keychain in Electron; by default a 0600 file in the data folder. */
  readonly secrets?: SecretStore
  /** Model access; by default the real API with a configured key, else the embedded simulator. */
  readonly endpoint?: ModelEndpoint
  /** Where ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, LOUPE_MODEL and LOUPE_SIM_PACE are read; process.env by default. */
  readonly env?: Readonly<Record<string, string | undefined>>
  /** Electron-ABI build of better-sqlite3 (Electron host only). */
  readonly sqliteNativeBinding?: string
  /** Timers for the sessions' cache keep-warm; Node's by default (tests run them on a manual clock). */
  readonly scheduler?: Scheduler
}

export interface App {
  readonly dispatch: Dispatch
  readonly events: EventHub
  readonly services: Services
  close(): Promise<void>
}

export async function createApp(options: AppOptions): Promise<App> {
  const clock = options.clock ?? { now: () => Date.now() }
  const log = options.log ?? createLogger()
  // One app per data folder: a second one would run its own runtimes on the same sessions (store/lock.ts).
  const lock = lockDataDir(options.dataDir)
  let store: Store
  try {
    store = openStore(databaseFile(options.dataDir), { nativeBinding: options.sqliteNativeBinding })
  } catch (err) {
    lock.release()
    throw err
  }
  const events = new EventHub()
  const secrets = options.secrets ?? fileSecretStore(options.dataDir)
  const env = options.env ?? process.env
  const endpoint = options.endpoint ?? (await openModelEndpoint({ secrets, clock, env }))
  const homeDir = options.homeDir ?? homedir()
  const loupeHome = options.loupeHome ?? browserDataDir()
  const settings = new SettingsService({
    store: await openSettings(options.dataDir),
    secrets,
    env,
    endpoint,
    dataDir: options.dataDir,
    loupeHome,
    // A key set or removed in Settings takes effect at the next pass (connect.ts); a fixed endpoint needs a restart.
    ...(endpoint.reconnect ? { reconnect: () => endpoint.reconnect!() } : {}),
    now: () => clock.now(),
  })
  // New sessions start with the model chosen in Settings; a session keeps the model it started with.
  const sessionEndpoint: ModelEndpoint = {
    get client() {
      return endpoint.client
    },
    get kind() {
      return endpoint.kind
    },
    get label() {
      return endpoint.label
    },
    get model() {
      return settings.effectiveModel()
    },
    close: () => endpoint.close(),
  }
  const sessions = new SessionManager({
    store,
    endpoint: sessionEndpoint,
    clock,
    hasher: nodeHasher,
    log,
    events,
    loupeHome,
    homeDir,
    preferences: () => settings.preferences(),
    ...(options.scheduler ? { scheduler: options.scheduler } : {}),
  })
  const closers: Array<() => Promise<unknown> | unknown> = []
  const info: AppInfo = {
    name: 'Loupe',
    version: APP_VERSION,
    host: options.host,
    dataDir: options.dataDir,
    capabilities: { folderDialog: options.pickFolder !== undefined, fileDialog: options.pickFile !== undefined },
    // What answers now: it changes when the API key does.
    get model() {
      return { kind: endpoint.kind, label: endpoint.label, model: endpoint.model }
    },
  }
  const services: Services = {
    store,
    clock,
    events,
    log,
    info,
    homeDir,
    sessions,
    secrets,
    atClose: (fn) => void closers.push(fn),
    loupeHome,
    settings,
    ...(options.pickFolder ? { pickFolder: options.pickFolder } : {}),
    ...(options.pickFile ? { pickFile: options.pickFile } : {}),
  }
  const handle = createDispatcher(createHandlers(services), log)
  // A store file deleted or replaced under the app goes on taking writes that the next start will not see: from the
  // first request that finds it so, every request is refused with what happened and what to do (a stat per request).
  let lost: string | null = null
  const dispatch: Dispatch = async (name, input) => {
    if (lost === null) {
      const problem = store.fileProblem()
      if (problem !== null) {
        lost = `${problem}; nothing more can be saved to it. Quit Loupe and put the file back, or start Loupe again to begin with an empty store.`
        log.error('store file lost', { problem })
      }
    }
    return lost === null ? handle(name, input) : { ok: false, error: { code: 'store_lost', message: lost } }
  }
  return {
    dispatch,
    events,
    services,
    async close() {
      for (const fn of closers.reverse()) {
        try {
          await fn()
        } catch (err) {
          log.warn('cleanup at close failed', { error: err instanceof Error ? err.message : String(err) })
        }
      }
      await sessions.close()
      await endpoint.close()
      store.close()
      lock.release()
    },
  }
}
