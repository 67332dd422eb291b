/**
 * Which model service the app talks to: the real API when a key is configured, else the embedded simulator,
 * started in-process on a free loopback port. Both are reached through the same SDK client.
 */
import type { Clock, ModelClient } from '../../engine/ports'
import { startSimulator, type RunningSimulator } from '../../simulator'
import type { Pace } from '../../simulator'
import { createModelClient } from './client'
import { resolveApiKey, type SecretStore } from './keys'
import { DEFAULT_MODEL_ID, findModel } from './models'

/** The key the app presents to its own simulator; it is not a secret and never leaves the machine. */
const SIMULATOR_KEY = 'loupe-offline-simulator'

export interface ModelEndpoint {
  readonly client: ModelClient
  readonly kind: 'simulator' | 'anthropic'
  readonly label: string
  readonly model: string
  close(): Promise<void>
}

export interface EndpointOptions {
  readonly env?: Readonly<Record<string, string | undefined>>
  readonly secrets?: SecretStore
  readonly clock?: Clock
  /** Simulator streaming pace: realistic for people, instant for tests (LOUPE_SIM_PACE). */
  readonly pace?: Pace
  /** Forces the simulator even when a key exists (tests, demos). */
  readonly forceSimulator?: boolean
}

export async function openModelEndpoint(options: EndpointOptions = {}): Promise<ModelEndpoint> {
  const env = options.env ?? process.env
  const model = env.LOUPE_MODEL && findModel(env.LOUPE_MODEL) ? env.LOUPE_MODEL : DEFAULT_MODEL_ID
  const key = options.forceSimulator || env.LOUPE_SIMULATOR === '1' ? null : await resolveApiKey({ env, ...(options.secrets ? { store: options.secrets } : {}) })
  if (key) {
    const baseUrl = env.ANTHROPIC_BASE_URL ?? 'https://api.anthropic.com'
    return {
      client: createModelClient({ baseUrl, apiKey: key.key, kind: 'anthropic', ...(options.clock ? { clock: options.clock } : {}) }),
      kind: 'anthropic',
      label: findModel(model)?.label ?? model,
      model,
      close: async () => {},
    }
  }
  const pace: Pace = options.pace ?? (env.LOUPE_SIM_PACE === 'realistic' ? 'realistic' : 'instant')
  const simulator: RunningSimulator = await startSimulator({ pace, ...(options.clock ? { clock: options.clock } : {}) })
  return {
    client: createModelClient({ baseUrl: simulator.baseUrl, apiKey: SIMULATOR_KEY, kind: 'simulator', ...(options.clock ? { clock: options.clock } : {}) }),
    kind: 'simulator',
    label: 'Offline simulator',
    model,
    close: () => simulator.close(),
  }
}
