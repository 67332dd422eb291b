/**
 * The embedded default (docs/decisions/0003-simulator.md): with an API key, talk to the real API; without one, start
 * the simulator in-process on a free loopback port and talk to it with the same client. The label is what the
 * UI shows wherever the model is named.
 *
 * The choice is made again whenever the key changes (`refresh()`, after Settings stores or forgets a key): the
 * client handed out here is one object for the life of the app, and each call goes to what answers at the moment
 * it starts. A pass already sent finishes where it started (its retries too); the next one uses the new key, or
 * the simulator when the key was removed — as at start-up. The simulator, once started, runs until `close()`, so a
 * stream it is answering is never cut by a switch, and switching back finds its cache as it was.
 */
import type { WireRequest } from '../../engine/model/wire'
import type { Clock, ModelClient, ModelOutcome, ModelSendOptions } from '../../engine/ports'
import { startSimulator, type Pace, type RunningSimulator } from '../../simulator/index'
import { createModelClient } from './client'
import { resolveApiKey, type KeySource, type SecretStore } from './keys'

export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com'
export const SIMULATOR_LABEL = 'Offline simulator'
export const API_LABEL = 'Anthropic API'
/** What the in-process simulator accepts as a key; it is not a secret. */
const SIMULATOR_KEY = 'sk-loupe-offline-simulator'

export interface ModelAccess {
  /** One client for the app's life: each call goes to what answers when it starts. */
  readonly client: ModelClient
  /** "Offline simulator" or "Anthropic API", as of now. */
  readonly label: string
  /** Where the key in use came from; null on the simulator. */
  readonly keySource: KeySource | null
  /**
   * Reads the key again (ANTHROPIC_API_KEY first, then the store) and points the next call at the API with it,
   * or at the simulator when there is none. Resolves true when what answers changed (another key, or the other
   * service). Calls are applied one after another, in order.
   */
  refresh(): Promise<boolean>
  /** Stops the embedded simulator, if one was started. */
  close(): Promise<void>
}

export interface OpenModelAccessOptions {
  readonly env?: Readonly<Record<string, string | undefined>>
  readonly store?: SecretStore
  /** The simulator's pace when it is used. Default `realistic`, so the offline demo streams visibly. */
  readonly simulatorPace?: Pace
  readonly clock?: Clock
  readonly maxRetries?: number
}

type Prewarm = (request: WireRequest, options: { readonly signal?: AbortSignal }) => Promise<ModelOutcome>

interface Current {
  readonly client: ModelClient
  readonly label: string
  readonly keySource: KeySource | null
  /** The key the client was made with (null: the simulator). Kept here only to tell a new key from the same one. */
  readonly key: string | null
}

export async function openModelAccess(options: OpenModelAccessOptions = {}): Promise<ModelAccess> {
  const common = { ...(options.clock ? { clock: options.clock } : {}), ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}) }
  let simulator: RunningSimulator | null = null
  let simulatorClient: ModelClient | null = null
  let current: Current | null = null
  let closed = false
  let queue: Promise<unknown> = Promise.resolve()

  async function choose(): Promise<boolean> {
    if (closed) return false
    const resolved = await resolveApiKey({ ...(options.env ? { env: options.env } : {}), ...(options.store ? { store: options.store } : {}) })
    if (resolved) {
      if (current?.key === resolved.key) {
        if (current.keySource !== resolved.source) current = { ...current, keySource: resolved.source }
        return false
      }
      const baseUrl = options.env?.ANTHROPIC_BASE_URL?.trim() || ANTHROPIC_BASE_URL
      current = { client: createModelClient({ baseUrl, apiKey: resolved.key, kind: 'anthropic', ...common }), label: API_LABEL, keySource: resolved.source, key: resolved.key }
      return true
    }
    if (current !== null && current.key === null) return false
    if (!simulator) {
      const started = await startSimulator({ pace: options.simulatorPace ?? 'realistic', ...(options.clock ? { clock: options.clock } : {}) })
      if (closed) {
        await started.close()
        return false
      }
      simulator = started
    }
    simulatorClient ??= createModelClient({ baseUrl: simulator.baseUrl, apiKey: SIMULATOR_KEY, kind: 'simulator', ...common })
    current = { client: simulatorClient, label: SIMULATOR_LABEL, keySource: null, key: null }
    return true
  }

  const refresh = (): Promise<boolean> => {
    const next = queue.then(choose)
    queue = next.catch(() => undefined)
    return next
  }

  await refresh()
  const now = (): Current => {
    if (!current) throw new Error('The model access is not open')
    return current
  }
  const client = {
    get endpoint() {
      return now().client.endpoint
    },
    send: (request: WireRequest, send: ModelSendOptions) => now().client.send(request, send),
    countTokens: (request: Omit<WireRequest, 'max_tokens' | 'stream'>) => now().client.countTokens(request),
    /** The cache pre-warm of the client that answers now, when it has one. */
    get prewarm(): Prewarm | undefined {
      const target = now().client as ModelClient & { readonly prewarm?: Prewarm }
      const prewarm = target.prewarm
      return prewarm ? (request, options) => prewarm.call(target, request, options) : undefined
    },
  }
  return {
    client: client as ModelClient,
    get label() {
      return now().label
    },
    get keySource() {
      return now().keySource
    },
    refresh,
    async close() {
      closed = true
      await queue
      await simulator?.close()
      simulator = null
    },
  }
}
