/**
 * The model service the app talks to, with the model it uses: the real API when a key is configured, else the
 * embedded simulator (openModelAccess in connect.ts decides and starts it).
 */
import type { Clock, ModelClient } from '../../engine/ports'
import type { Pace } from '../../simulator'
import { openModelAccess } from './connect'
import type { SecretStore } from './keys'
import { DEFAULT_MODEL_ID, findModel } from './models'

export interface ModelEndpoint {
  readonly client: ModelClient
  readonly kind: 'simulator' | 'anthropic'
  /** What the UI shows wherever the model is named: "Offline simulator" or the model's name. */
  readonly label: string
  readonly model: string
  close(): Promise<void>
}

export interface EndpointOptions {
  readonly env?: Readonly<Record<string, string | undefined>>
  readonly secrets?: SecretStore
  readonly clock?: Clock
}

/** `LOUPE_MODEL` picks the model; `LOUPE_SIM_PACE=instant` makes the simulator answer at once (tests). */
export async function openModelEndpoint(options: EndpointOptions = {}): Promise<ModelEndpoint> {
  const env = options.env ?? process.env
  const model = env.LOUPE_MODEL && findModel(env.LOUPE_MODEL) ? env.LOUPE_MODEL : DEFAULT_MODEL_ID
  const pace: Pace = env.LOUPE_SIM_PACE === 'instant' ? 'instant' : 'realistic'
  const access = await openModelAccess({ env, ...(options.secrets ? { store: options.secrets } : {}), simulatorPace: pace, ...(options.clock ? { clock: options.clock } : {}) })
  const kind = access.client.endpoint.kind
  return {
    client: access.client,
    kind,
    label: kind === 'simulator' ? access.label : (findModel(model)?.label ?? model),
    model,
    close: () => access.close(),
  }
}
