/**
 * The embedded default (issue "Model access" item 10): with an API key, talk to the real API; without one, start
 * the simulator in-process on a free loopback port and talk to it with the same client. The label is what the
 * UI shows wherever the model is named.
 */
import type { Clock, ModelClient } from '../../engine/ports'
import { startSimulator, type Pace } from '../../simulator/index'
import { createModelClient } from './client'
import { resolveApiKey, type KeySource, type SecretStore } from './keys'

export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com'
export const SIMULATOR_LABEL = 'Offline simulator'
/** What the in-process simulator accepts as a key; it is not a secret. */
const SIMULATOR_KEY = 'sk-loupe-offline-simulator'

export interface ModelAccess {
  readonly client: ModelClient
  /** "Offline simulator" or "Anthropic API". */
  readonly label: string
  /** Where the key came from; null on the simulator. */
  readonly keySource: KeySource | null
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

export async function openModelAccess(options: OpenModelAccessOptions = {}): Promise<ModelAccess> {
  const resolved = await resolveApiKey({ ...(options.env ? { env: options.env } : {}), ...(options.store ? { store: options.store } : {}) })
  const common = { ...(options.clock ? { clock: options.clock } : {}), ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}) }
  if (resolved) {
    const baseUrl = options.env?.ANTHROPIC_BASE_URL?.trim() || ANTHROPIC_BASE_URL
    return {
      client: createModelClient({ baseUrl, apiKey: resolved.key, kind: 'anthropic', ...common }),
      label: 'Anthropic API',
      keySource: resolved.source,
      close: async () => {},
    }
  }
  const simulator = await startSimulator({ pace: options.simulatorPace ?? 'realistic', ...(options.clock ? { clock: options.clock } : {}) })
  return {
    client: createModelClient({ baseUrl: simulator.baseUrl, apiKey: SIMULATOR_KEY, kind: 'simulator', ...common }),
    label: SIMULATOR_LABEL,
    keySource: null,
    close: () => simulator.close(),
  }
}
