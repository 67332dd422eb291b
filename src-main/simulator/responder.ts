/**
 * What answers a pass. The server does everything the API does around the model (validation, tokens, cache,
 * ids, signatures, max_tokens and stop sequences, SSE); a Responder only decides the assistant's content.
 * The scripted model (scripted/) is the default; a replay responder that answers with recorded assistant
 * messages can be plugged in through `SimulatorOptions.responder`.
 */
import type { SimModel } from './models'
import type { SimRequest } from './request'

export interface ResponderInput {
  readonly request: SimRequest
  readonly model: SimModel
  /** Whether the request turned thinking on (`enabled` or `adaptive`). */
  readonly thinking: boolean
  /** The request's start on the simulator's clock, epoch ms. */
  readonly now: number
}

export type DraftBlock =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'thinking'; readonly thinking: string }
  /** `id` may be given (a replay keeps recorded ids); otherwise the server assigns one. */
  | { readonly type: 'tool_use'; readonly name: string; readonly input: Readonly<Record<string, unknown>>; readonly id?: string }

export interface ResponderOutput {
  readonly content: ReadonlyArray<DraftBlock>
  /** Defaults to `tool_use` when the content calls a tool, else `end_turn`. */
  readonly stopReason?: 'end_turn' | 'tool_use' | 'refusal' | 'pause_turn'
}

export interface Responder {
  respond(input: ResponderInput): ResponderOutput | Promise<ResponderOutput>
}
