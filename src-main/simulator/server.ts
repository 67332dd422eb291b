/**
 * The request handler: routes, shared checks, faults, and the Messages pass (validate → sequence → cache lookup
 * → diagnostics → responder → compose → commit the cache writes as the response starts → JSON or SSE).
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Clock } from '../engine/ports'
import { PromptCache } from './cache'
import { compose } from './compose'
import { DiagnosticsStore } from './diagnostics'
import { SimApiError, invalidRequest } from './errors'
import { HeaderFaults, type Fault, type FaultPlan } from './faults'
import { BODY_HASH_HEADER, checkAuth, checkBetas, checkVersion, header, readBody, sendError, sendJson, sha256Hex, sleep, type AuthOptions } from './http'
import type { IdSource } from './ids'
import { SIM_MODELS, findSimModel, type SimModel } from './models'
import { formatEvent, messageJson, sseEvents, type RenderInput, type SseEvent } from './render'
import type { Responder } from './responder'
import { buildSequence } from './sequence'
import { checkLatestThinking } from './thinking'
import { validateRequest } from './validate'

/** `slow` is `realistic` with deltas every 250 ms: a stream to read along, or to photograph while it runs. */
export type Pace = 'instant' | 'realistic' | 'slow'

export interface ServerDeps extends AuthOptions {
  readonly clock: Clock
  readonly pace: Pace
  readonly ids: IdSource
  readonly responder: Responder
  readonly faults?: FaultPlan
  /** Whether `x-sim-fault` headers are obeyed. */
  readonly faultHeader: boolean
}

// Realistic pace, for the demo: a first byte after a base latency plus time to read the uncached prompt, then
// deltas at a readable speed. Instant pace writes everything at once (tests, benchmarks).
const REALISTIC_BASE_TTFB_MS = 350
const REALISTIC_MS_PER_1K_UNCACHED = 12
const REALISTIC_MS_PER_DELTA = 35
const SLOW_MS_PER_DELTA = 250

export class SimulatorServer {
  readonly cache = new PromptCache()
  readonly diagnostics = new DiagnosticsStore()
  private readonly headerFaults = new HeaderFaults()

  constructor(private readonly deps: ServerDeps) {}

  handle = (req: IncomingMessage, res: ServerResponse): void => {
    const startedAt = this.deps.clock.now()
    const requestId = this.deps.ids.requestId()
    res.setHeader('request-id', requestId)
    this.route(req, res, startedAt).catch((err: unknown) => {
      const error = err instanceof SimApiError ? err : new SimApiError(500, 'api_error', 'Internal server error')
      if (!(err instanceof SimApiError)) process.stderr.write(`simulator: ${err instanceof Error ? err.stack : String(err)}\n`)
      if (res.headersSent) res.destroy()
      else sendError(res, error, requestId)
    })
  }

  private async route(req: IncomingMessage, res: ServerResponse, startedAt: number): Promise<void> {
    const body = await readBody(req)
    res.setHeader(BODY_HASH_HEADER, sha256Hex(body))
    const path = new URL(req.url ?? '/', 'http://simulator').pathname.replace(/\/+$/, '')
    const method = req.method ?? 'GET'
    const known = (method === 'POST' && (path === '/v1/messages' || path === '/v1/messages/count_tokens')) || (method === 'GET' && (path === '/v1/models' || path.startsWith('/v1/models/')))
    if (!known) throw new SimApiError(404, 'not_found_error', 'The requested resource could not be found.')
    checkAuth(req.headers, this.deps)
    const version = checkVersion(req.headers)
    const betas = checkBetas(req.headers)
    if (method === 'GET') return this.models(res, path)
    const fault = this.pickFault(req, path)
    if (fault && (fault.kind === 'rate_limit' || fault.kind === 'overloaded' || fault.kind === 'server_error')) return this.statusFault(fault)
    let parsed: unknown
    try {
      parsed = JSON.parse(body.toString('utf8'))
    } catch {
      throw invalidRequest('There was an error parsing the body of your request: invalid JSON')
    }
    const counting = path === '/v1/messages/count_tokens'
    const { request, model } = validateRequest(parsed, version, counting)
    if (!counting) checkLatestThinking(request)
    const sequence = buildSequence(request, model)
    if (counting) return sendJson(res, 200, JSON.stringify({ input_tokens: sequence.totalTokens }))
    if (sequence.totalTokens > model.contextWindow) throw invalidRequest(`prompt is too long: ${sequence.totalTokens} tokens > ${model.contextWindow} maximum`)

    const plan = this.cache.lookup({ model: model.id, positions: sequence.entries, totalTokens: sequence.totalTokens, minCacheableTokens: model.minCacheableTokens, now: startedAt })
    const id = this.deps.ids.messageId()
    const diagnostics = this.diagnostics.diagnose(request, sequence, betas, id)
    const thinkingOn = request.thinking?.type === 'enabled' || request.thinking?.type === 'adaptive'
    // A pre-warm (max_tokens 0, §5.1) generates nothing: the responder is not asked.
    const output = request.max_tokens === 0 ? { content: [] } : await this.deps.responder.respond({ request, model, thinking: thinkingOn, now: startedAt })
    const display = (request.thinking && 'display' in request.thinking ? request.thinking.display : undefined) ?? model.defaultDisplay
    const composed = compose(output, { modelId: model.id, maxTokens: request.max_tokens, windowRoom: model.contextWindow - sequence.totalTokens, stopSequences: request.stop_sequences, display, ids: this.deps.ids })
    const render: RenderInput = { id, model: request.model, composed, usage: plan.usage, diagnostics }

    // The response starts here: hold the first byte if asked, then make this pass's cache writes readable (§5.1).
    const uncached = plan.usage.input_tokens + plan.usage.cache_creation_input_tokens
    await sleep((fault?.kind === 'slow_first_byte' ? (fault.delayMs ?? 1000) : 0) + (this.deps.pace !== 'instant' ? REALISTIC_BASE_TTFB_MS + (uncached / 1000) * REALISTIC_MS_PER_1K_UNCACHED : 0))
    if (res.destroyed) return
    this.cache.commit(plan)
    if (!request.stream) {
      if (this.deps.pace !== 'instant') await sleep(this.msPerDelta() * Math.ceil(composed.outputTokens / 4))
      const json = messageJson(render)
      return sendJson(res, 200, fault?.kind === 'malformed' ? json.slice(0, Math.floor(json.length / 2)) : json)
    }
    await this.stream(res, sseEvents(render), fault)
  }

  private async stream(res: ServerResponse, events: SseEvent[], fault: Fault | null): Promise<void> {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' })
    res.flushHeaders()
    const after = fault?.afterEvents ?? 3
    const frames: string[] = []
    for (const [i, event] of events.entries()) {
      // The client went away (an abort): stop pacing the rest.
      if (res.destroyed) return
      if (fault && i === after) {
        if (fault.kind === 'reset') {
          // Let what was written reach the client first, then drop the connection without ending the response.
          const socket = res.socket
          if (frames.length > 0) await new Promise<void>((resolve) => res.write(frames.join(''), () => resolve()))
          socket?.destroy()
          return
        }
        if (fault.kind === 'stream_error') {
          frames.push(formatEvent({ event: 'error', data: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } }))
          break
        }
        if (fault.kind === 'truncate') break
        if (fault.kind === 'stall') {
          // What was sent reaches the client; then nothing more, the connection held open until the client drops it.
          await this.flush(res, frames)
          if (!res.destroyed) await new Promise<void>((resolve) => res.once('close', () => resolve()))
          return
        }
      }
      if (fault?.kind === 'truncate' && event.event === 'message_stop') break
      const frame = formatEvent(event)
      frames.push(fault?.kind === 'malformed' && i === after ? frame.slice(0, frame.indexOf('data: ') + 20) + '\n\n' : frame)
      if (this.deps.pace !== 'instant' && event.event === 'content_block_delta') await this.flush(res, frames, this.msPerDelta())
    }
    await this.flush(res, frames)
    if (!res.destroyed) res.end()
  }

  private msPerDelta(): number {
    return this.deps.pace === 'slow' ? SLOW_MS_PER_DELTA : REALISTIC_MS_PER_DELTA
  }

  private async flush(res: ServerResponse, frames: string[], thenWaitMs = 0): Promise<void> {
    if (frames.length > 0 && !res.destroyed) res.write(frames.join(''))
    frames.length = 0
    await sleep(thenWaitMs)
  }

  private pickFault(req: IncomingMessage, path: string): Fault | null {
    const planned = this.deps.faults?.next({ method: req.method ?? 'GET', path, retryCount: Number(header(req.headers, 'x-stainless-retry-count') ?? 0), headers: req.headers }) ?? null
    return planned ?? (this.deps.faultHeader ? this.headerFaults.next(req.headers) : null)
  }

  private statusFault(fault: Fault): never {
    switch (fault.kind) {
      case 'rate_limit': {
        const ms = fault.retryAfterMs ?? 1
        throw new SimApiError(429, 'rate_limit_error', 'This request would exceed your organization\'s rate limit of 30,000 input tokens per minute (simulated fault).', {
          'retry-after': String(Math.max(0.001, ms / 1000)),
          'retry-after-ms': String(ms),
        })
      }
      case 'overloaded':
        throw new SimApiError(529, 'overloaded_error', 'Overloaded', { 'x-should-retry': 'true' })
      default:
        throw new SimApiError(500, 'api_error', 'Internal server error')
    }
  }

  private models(res: ServerResponse, path: string): void {
    const info = (m: SimModel): Record<string, unknown> => ({
      type: 'model',
      id: m.id,
      display_name: m.displayName,
      created_at: '2026-01-01T00:00:00Z',
      max_input_tokens: m.contextWindow,
      max_tokens: m.maxOutput,
    })
    if (path === '/v1/models') {
      const data = SIM_MODELS.map(info)
      return sendJson(res, 200, JSON.stringify({ data, has_more: false, first_id: SIM_MODELS[0]!.id, last_id: SIM_MODELS[SIM_MODELS.length - 1]!.id }))
    }
    const model = findSimModel(decodeURIComponent(path.slice('/v1/models/'.length)))
    if (!model) throw new SimApiError(404, 'not_found_error', `model: ${path.slice('/v1/models/'.length)}`)
    sendJson(res, 200, JSON.stringify(info(model)))
  }
}
