/**
 * The model service the app talks to, with the model it uses: the real API when a key is configured, else the
 * embedded simulator (openModelAccess in connect.ts decides and starts it). `reconnect()` makes the choice again
 * after the key changed in Settings, so the next pass uses the new key without a restart.
 */
import type { Clock, ModelClient } from '../../engine/ports'
import type { Pace } from '../../simulator'
import { openModelAccess } from './connect'
import type { SecretStore } from './keys'
import { DEFAULT_MODEL_ID, findModel } from './models'

/** The name of the real API wherever the UI says what answers (its address is in Settings). */
export const ANTHROPIC_API_LABEL = 'Anthropic API'

export interface ModelEndpoint {
  /** Calls go to what answers when each starts (a reconnect switches the next call, not one in flight). */
  readonly client: ModelClient
  readonly kind: 'simulator' | 'anthropic'
  /**
   * What answers, as the UI names it: "Offline simulator", or "Anthropic API". Not a model's name: each session has
   * its own model (decision 0021), which the chat's header names.
   */
  readonly label: string
  readonly model: string
  /**
   * Reads the API key again and switches what answers the next call: the API with the new key, or the simulator
   * when there is none. Resolves true when something changed. Absent when the host fixed the endpoint.
   */
  reconnect?(): Promise<boolean>
  close(): Promise<void>
}

export interface EndpointOptions {
  readonly env?: Readonly<Record<string, string | undefined>>
  readonly secrets?: SecretStore
  readonly clock?: Clock
}

/**
 * `LOUPE_SIM_PACE` sets the simulator's pace: `instant` answers at once (tests), `slow` streams text at a reading
 * pace (a screenshot of a stream in flight); anything else is `realistic`.
 */
export function simulatorPace(env: Readonly<Record<string, string | undefined>>): Pace {
  const asked = env.LOUPE_SIM_PACE
  return asked === 'instant' || asked === 'slow' ? asked : 'realistic'
}

/** `LOUPE_MODEL` picks the model; `LOUPE_SIM_PACE` the simulator's pace (above). */
export async function openModelEndpoint(options: EndpointOptions = {}): Promise<ModelEndpoint> {
  const env = options.env ?? process.env
  const model = env.LOUPE_MODEL && findModel(env.LOUPE_MODEL) ? env.LOUPE_MODEL : DEFAULT_MODEL_ID
  const access = await openModelAccess({ env, ...(options.secrets ? { store: options.secrets } : {}), simulatorPace: simulatorPace(env), ...(options.clock ? { clock: options.clock } : {}) })
  return {
    client: access.client,
    get kind() {
      return access.client.endpoint.kind
    },
    get label() {
      return access.client.endpoint.kind === 'simulator' ? access.label : ANTHROPIC_API_LABEL
    },
    model,
    reconnect: () => access.refresh(),
    close: () => access.close(),
  }
}
