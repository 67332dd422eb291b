/**
 * The offline Anthropic-compatible simulator: a plain Node HTTP server on 127.0.0.1 that answers the Messages API
 * (JSON and SSE), count_tokens and the model list, validates like the real API, runs the prompt-cache model of
 * docs/reference/anthropic-api.md §5–6 on an injectable clock, injects faults on demand, and answers with a
 * scripted agent (or any Responder). docs/simulator.md describes it and every departure from the spec.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Clock } from '../engine/ports'
import type { FaultPlan } from './faults'
import { IdSource } from './ids'
import type { Responder } from './responder'
import { createScriptedResponder } from './scripted/responder'
import { SimulatorServer, type Pace } from './server'

export type { Fault, FaultKind, FaultPlan, FaultContext } from './faults'
export { faultQueue, FAULT_KINDS } from './faults'
export type { Responder, ResponderInput, ResponderOutput, DraftBlock } from './responder'
export { BODY_HASH_HEADER } from './http'
export type { Pace } from './server'

export interface SimulatorOptions {
  /** 0 (the default) picks a free port. */
  readonly port?: number
  /** Drives cache TTLs; tests move it instead of sleeping. Defaults to the wall clock. */
  readonly clock?: Clock
  /** `instant` writes every response at once; `realistic` paces the first byte and the deltas. Default instant. */
  readonly pace?: Pace
  /** Faults to inject, in addition to the `x-sim-fault` header. */
  readonly faults?: FaultPlan
  /** What answers each pass. Defaults to the scripted agent. */
  readonly responder?: Responder
  /** Seed for message, tool-use and request ids; random by default. */
  readonly seed?: string
  /** Accept only these API keys (default: any non-empty key). */
  readonly apiKeys?: ReadonlyArray<string>
  /** Obey the test-only `x-sim-fault` header. Default true. */
  readonly faultHeader?: boolean
}

export interface RunningSimulator {
  /** `http://127.0.0.1:PORT`: the server root, as the SDK's baseURL wants it (no `/v1`). */
  readonly baseUrl: string
  close(): Promise<void>
}

const systemClock: Clock = { now: () => Date.now() }

export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const simulator = new SimulatorServer({
    clock: options.clock ?? systemClock,
    pace: options.pace ?? 'instant',
    ids: new IdSource(options.seed),
    responder: options.responder ?? createScriptedResponder(),
    faultHeader: options.faultHeader ?? true,
    ...(options.faults ? { faults: options.faults } : {}),
    ...(options.apiKeys ? { apiKeys: options.apiKeys } : {}),
  })
  const server: Server = createServer(simulator.handle)
  // The SDK keeps connections alive; a long idle timeout avoids resets between passes of one session.
  server.keepAliveTimeout = 60_000
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()))
        server.closeAllConnections()
      }),
  }
}
