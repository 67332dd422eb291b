/**
 * The engine's ModelClient, on `@anthropic-ai/sdk` 1.x. One implementation for the real API and the embedded
 * simulator: streaming with `messages.stream`, abort through the caller's AbortSignal, the SDK's own retries
 * for 408/409/429/5xx (it honours retry-after, retry-after-ms and x-should-retry), plus retries of streams that
 * fail after their 200 (connection reset, stream cut short, overloaded mid-stream), which the SDK does not
 * retry. A body that goes silent is given up after STREAM_IDLE_TIMEOUT_MS (watchdog.ts) and retried as a connection
 * failure. Every HTTP attempt is captured as it went over the wire (capture.ts). Never throws from `send`.
 */
import Anthropic from '@anthropic-ai/sdk'
import type { Clock, ModelAttempt, ModelClient, ModelErrorKind, ModelOutcome, ModelSendOptions, ModelStreamEvent } from '../../engine/ports'
import type { AssistantMessage, WireRequest } from '../../engine/model/wire'
import { capturingFetch, serviceErrorOf, serviceWords, type Fetch } from './capture'
import { cacheMissReason, classifyError, toAssistantMessage, toPartialMessage, toStreamEvent, type ClassifiedError } from './convert'
import { idleWatchdogFetch, stalledCause, STREAM_IDLE_TIMEOUT_MS } from './watchdog'

/** docs/reference/anthropic-api.md §0, §6: the beta that turns on `diagnostics.previous_message_id`. */
export const CACHE_DIAGNOSIS_BETA = 'cache-diagnosis-2026-04-07'

export interface ModelClientOptions {
  readonly baseUrl: string
  readonly apiKey: string
  readonly kind: 'simulator' | 'anthropic'
  /** Retries per pass, for the SDK's status retries and again for mid-stream failures. Default 2 (the SDK's). */
  readonly maxRetries?: number
  /** Time allowed until response headers arrive, per attempt. Default 10 minutes (the SDK's). */
  readonly timeoutMs?: number
  /** Time a response body may stay silent before the attempt is given up as a stalled connection. Default 90 s. */
  readonly streamIdleTimeoutMs?: number
  /** Send `diagnostics.previous_message_id` with the cache-diagnosis beta. Default true. */
  readonly cacheDiagnostics?: boolean
  /** Extra headers on every request (tests use `x-sim-fault`). */
  readonly defaultHeaders?: Readonly<Record<string, string>>
  /** Wait before retrying a stream that failed after its 200; default 0.5 s × 2^(n−1), at most 8 s (§4.3). */
  readonly streamRetryDelayMs?: (retry: number) => number
  readonly clock?: Clock
  /** The fetch the capture wraps. Defaults to the global fetch. */
  readonly fetch?: Fetch
}

/** Failures after a 200 that are worth another attempt; status errors were already retried by the SDK. */
const RETRYABLE_MID_STREAM: ReadonlySet<ModelErrorKind> = new Set(['connection', 'incomplete_stream', 'overloaded', 'rate_limited', 'server_error'])

const systemClock: Clock = { now: () => Date.now() }

function defaultRetryDelayMs(retry: number): number {
  return Math.min(500 * 2 ** (retry - 1), 8000)
}

function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve()
    const timer = setTimeout(done, ms)
    function done(): void {
      clearTimeout(timer)
      signal?.removeEventListener('abort', done)
      resolve()
    }
    signal?.addEventListener('abort', done, { once: true })
  })
}

/** The request body as the SDK wants it: the engine's WireRequest minus `stream` (the helper sets it). */
function streamParams(request: WireRequest, diagnostics: { previous_message_id: string | null } | null): Anthropic.Messages.MessageStreamParams {
  const { stream: _stream, ...body } = request
  return { ...body, ...(diagnostics ? { diagnostics } : {}) } as unknown as Anthropic.Messages.MessageStreamParams
}

type Attempted =
  | { readonly ok: true; readonly message: AssistantMessage; readonly cacheMissReason: ReturnType<typeof cacheMissReason> }
  | { readonly ok: false; readonly kind: ModelErrorKind; readonly message: string; readonly status: number | null; readonly partial: AssistantMessage | null; readonly afterHeaders: boolean }

/** classifyError, and a stream given up as stalled: a connection failure, in words that say what happened. */
function classify(err: unknown, aborted: boolean): ClassifiedError {
  const stalled = aborted ? null : stalledCause(err)
  return stalled ? { kind: 'connection', message: stalled.message, status: null } : classifyError(err, aborted)
}

/**
 * A 400 that names the cache diagnostics: a gateway or proxy in front of the API (ANTHROPIC_BASE_URL) that does not
 * know the beta header or the `diagnostics` field refuses every request carrying them ("Unexpected value(s)
 * `cache-diagnosis-…` for the `anthropic-beta` header", "diagnostics: Extra inputs are not permitted").
 */
function refusesDiagnostics(result: { readonly status: number | null; readonly message: string; readonly afterHeaders: boolean }): boolean {
  return result.status === 400 && !result.afterHeaders && /diagnostics|cache-diagnosis|anthropic-beta/i.test(result.message)
}

/**
 * The `retrying` event for an attempt the service refused, when the SDK will send it again (its rules: `x-should-retry`
 * when given, else 408, 409, 429 and 5xx, while retries remain), with the wait it will take: `retry-after-ms`, else
 * `retry-after`, else (null) its own backoff of half a second doubling to 8 s. The SDK waits as long as the service
 * asks, a minute or more on a rate limit; nothing streams meanwhile, so the chat says what the pass waits for.
 */
export function sdkRetryOf(attempt: ModelAttempt, maxRetries: number): ModelStreamEvent | null {
  const status = attempt.status
  if (status === null || status < 400) return null
  const headers = attempt.responseHeaders
  const told = headers['x-should-retry']
  const retryable = told === 'true' || (told !== 'false' && (status === 408 || status === 409 || status === 429 || status >= 500))
  const done = Number(attempt.requestHeaders['x-stainless-retry-count'] ?? 0)
  if (!retryable || !(done < maxRetries)) return null
  const ms = parseFloat(headers['retry-after-ms'] ?? '')
  const after = headers['retry-after'] ?? ''
  // Seconds, or an HTTP date (a gateway may send one), as the SDK reads it.
  const untilMs = /^\s*[\d.]+\s*$/.test(after) ? parseFloat(after) * 1000 : Date.parse(after) - attempt.endedAt
  const waitMs = ms > 0 ? ms : untilMs > 0 ? untilMs : null
  const message = serviceWords(serviceErrorOf(attempt.responseBody)) || `HTTP ${status}`
  return { type: 'retrying', kind: (attempt.error?.kind ?? 'unknown') as ModelErrorKind, message, retry: done + 1, retries: maxRetries, status, waitMs }
}

export function createModelClient(options: ModelClientOptions): ModelClient {
  const clock = options.clock ?? systemClock
  const maxRetries = options.maxRetries ?? 2
  // Turned off for the client's life when what answers refuses them (refusesDiagnostics).
  let diagnosticsOn = options.cacheDiagnostics ?? true
  const retryDelay = options.streamRetryDelayMs ?? defaultRetryDelayMs
  // Under the capture, so an attempt given up as stalled is recorded with that cause.
  const baseFetch: Fetch = idleWatchdogFetch(options.fetch ?? ((input, init) => fetch(input, init)), options.streamIdleTimeoutMs ?? STREAM_IDLE_TIMEOUT_MS)
  const sdk = new Anthropic({
    apiKey: options.apiKey,
    authToken: null,
    baseURL: options.baseUrl,
    maxRetries,
    ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
    ...(options.defaultHeaders ? { defaultHeaders: { ...options.defaultHeaders } } : {}),
    openTelemetry: false,
  })

  function capturing(attempts: ModelAttempt[], onEvent?: (event: ModelStreamEvent) => void): Anthropic {
    const onAttempt = (a: ModelAttempt) => {
      attempts.push(a)
      const again = onEvent ? sdkRetryOf(a, maxRetries) : null
      if (again) onEvent!(again)
    }
    return sdk.withOptions({ fetch: capturingFetch(baseFetch, { clock, secrets: [options.apiKey], onAttempt }) })
  }

  async function attempt(client: Anthropic, request: WireRequest, send: ModelSendOptions, attempts: ModelAttempt[], withDiagnostics: boolean): Promise<Attempted> {
    const diagnostics = withDiagnostics ? { previous_message_id: send.previousMessageId ?? null } : null
    const stream = client.messages.stream(streamParams(request, diagnostics), {
      ...(send.signal ? { signal: send.signal } : {}),
      ...(diagnostics ? { headers: { 'anthropic-beta': CACHE_DIAGNOSIS_BETA } } : {}),
    })
    let snapshot: Anthropic.Messages.Message | null = null
    stream.on('streamEvent', (event, messageSnapshot) => {
      snapshot = messageSnapshot
      const mapped = toStreamEvent(event)
      if (mapped && send.onEvent) send.onEvent(mapped)
    })
    const before = attempts.length
    try {
      const final = await stream.finalMessage()
      return { ok: true, message: toAssistantMessage(final), cacheMissReason: cacheMissReason(final) }
    } catch (err) {
      const classified = classify(err, send.signal?.aborted === true)
      const last = attempts[attempts.length - 1]
      const afterHeaders = attempts.length > before && last?.status === 200
      // The HTTP exchange may have ended cleanly (or been cancelled by the SDK on an `event: error`) while the SSE
      // inside it failed: record the real cause on the attempt.
      const overwrite = last !== undefined && (last.error === null || (last.error.kind === 'aborted' && classified.kind !== 'aborted'))
      if (afterHeaders && last && overwrite) attempts[attempts.length - 1] = { ...last, error: { kind: classified.kind, message: classified.message } }
      const partial = snapshot as Anthropic.Messages.Message | null
      return { ok: false, ...classified, partial: partial ? toPartialMessage(partial) : null, afterHeaders }
    }
  }

  const endpoint = { kind: options.kind, baseUrl: options.baseUrl } as const

  return {
    endpoint,

    async send(request, send): Promise<ModelOutcome> {
      return { ...(await sendPass(request, send)), endpoint }
    },

    async prewarm(request, send): Promise<ModelOutcome> {
      return { ...(await sendPrewarm(request, send)), endpoint }
    },

    async countTokens(request): Promise<number> {
      const { max_tokens: _max, stream: _stream, metadata: _metadata, ...body } = request as WireRequest
      const result = await sdk.messages.countTokens(body as unknown as Anthropic.Messages.MessageCountTokensParams)
      return result.input_tokens
    },
  }

  async function sendPass(request: WireRequest, send: ModelSendOptions): Promise<ModelOutcome> {
    const attempts: ModelAttempt[] = []
    const client = capturing(attempts, send.onEvent)
    // Per pass as well as for the client: a pass sent while another's refusal turned them off may still carry them.
    let withDiagnostics = diagnosticsOn
    for (let retry = 0; ; retry++) {
      const result = await attempt(client, request, send, attempts, withDiagnostics)
      if (result.ok) {
        return { ok: true, message: result.message, attempts, ...(result.cacheMissReason !== undefined ? { cacheMissReason: result.cacheMissReason } : {}) }
      }
      if (withDiagnostics && refusesDiagnostics(result)) {
        // Refused before anything was generated (nothing billed): sent again at once without them, and never again.
        diagnosticsOn = false
        withDiagnostics = false
        retry--
        continue
      }
      const again = result.afterHeaders && RETRYABLE_MID_STREAM.has(result.kind) && retry < maxRetries && !send.signal?.aborted
      if (!again) {
        return { ok: false, error: { kind: result.kind, message: result.message, status: result.status }, partial: result.partial, attempts }
      }
      send.onEvent?.({ type: 'retrying', kind: result.kind, message: result.message, retry: retry + 1, retries: maxRetries })
      await wait(retryDelay(retry + 1), send.signal)
      if (send.signal?.aborted) {
        return { ok: false, error: { kind: 'aborted', message: 'The request was cancelled.', status: null }, partial: result.partial, attempts }
      }
    }
  }

  async function sendPrewarm(request: WireRequest, send: { readonly signal?: AbortSignal }): Promise<ModelOutcome> {
    // Not streamed (the API refuses max_tokens 0 with stream), no diagnostics: nothing is generated to compare.
    const attempts: ModelAttempt[] = []
    const { stream: _stream, ...body } = request
    try {
      const message = await capturing(attempts).messages.create({ ...body, max_tokens: 0, stream: false } as unknown as Anthropic.Messages.MessageCreateParamsNonStreaming, send.signal ? { signal: send.signal } : {})
      return { ok: true, message: toAssistantMessage(message), attempts }
    } catch (err) {
      const classified = classify(err, send.signal?.aborted === true)
      return { ok: false, error: { kind: classified.kind, message: classified.message, status: classified.status }, partial: null, attempts }
    }
  }
}
