/**
 * Wire capture: a `fetch` wrapper handed to the SDK that records every HTTP attempt as it went over the wire —
 * the exact request body string the SDK sent (the bytes the server receives are its UTF-8 encoding), the request
 * headers with secrets removed, and the raw response (the JSON body, or the SSE text as it streamed in). The
 * store keeps this, not a reconstruction. Retries made inside the SDK each pass through here, so each is recorded.
 */
import type { Clock, ModelAttempt, ModelErrorKind } from '../../engine/ports'

export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>

export interface CaptureOptions {
  readonly clock: Clock
  /** Values that must never be recorded (the API key): any header carrying one is dropped. */
  readonly secrets: ReadonlyArray<string>
  readonly onAttempt: (attempt: ModelAttempt) => void
}

/** Header names never recorded, whatever their value. */
const SECRET_HEADERS = new Set(['authorization', 'x-api-key', 'proxy-authorization', 'cookie', 'set-cookie'])

function record(headers: Headers, secrets: ReadonlyArray<string>): Record<string, string> {
  const out: Record<string, string> = {}
  headers.forEach((value, name) => {
    const lower = name.toLowerCase()
    if (SECRET_HEADERS.has(lower)) return
    if (secrets.some((s) => s.length > 0 && value.includes(s))) return
    out[lower] = value
  })
  return out
}

function bodyText(body: unknown): string {
  if (body === undefined || body === null) return ''
  if (typeof body === 'string') return body
  if (body instanceof Uint8Array) return new TextDecoder().decode(body)
  if (body instanceof ArrayBuffer) return new TextDecoder().decode(new Uint8Array(body))
  return '[unrecorded body]'
}

/** The error an API error body carries (`{"type":"error","error":{"type":…,"message":…}}`, docs/reference/anthropic-api.md §4.1). */
export interface ServiceError {
  readonly type: string
  readonly message: string
}

/** The error in a response body, parsed or as text; null for anything else (an HTML page from a proxy, nothing). */
export function serviceErrorOf(body: unknown): ServiceError | null {
  let value = body
  if (typeof body === 'string') {
    try {
      value = JSON.parse(body)
    } catch {
      return null
    }
  }
  const error = typeof value === 'object' && value !== null ? (value as { error?: unknown }).error : undefined
  if (typeof error !== 'object' || error === null) return null
  const { type, message } = error as { type?: unknown; message?: unknown }
  return { type: typeof type === 'string' ? type : '', message: typeof message === 'string' ? message : '' }
}

/** The service's own words for an error: "invalid_request_error: prompt is too long: …"; '' when it gave none. */
export function serviceWords(error: ServiceError | null): string {
  const message = error?.message.trim() ?? ''
  if (message === '') return ''
  return error?.type ? `${error.type}: ${message}` : message
}

/**
 * The 400s the API sends when the account cannot pay for a request — no credit left (the usual first error of a new
 * key), or a spend limit reached (§4.2) — under the type of a refused request: told apart by their words.
 */
const ACCOUNT_CANNOT_PAY = /credit balance is too low|API usage limits|spend limit/i

/**
 * What a failure means for the engine, by the error's type where the API sent one and by the HTTP status else (a
 * proxy's page has no type; an `event: error` inside a stream has no status). A 404 names a model the service does
 * not have as `model: <id>`; any other 404 is an address with nothing there.
 */
export function errorKind(status: number | null, error: ServiceError | null): ModelErrorKind {
  const type = error?.type ?? ''
  const message = error?.message ?? ''
  if (type === 'billing_error' || status === 402 || ((type === 'invalid_request_error' || status === 400) && ACCOUNT_CANNOT_PAY.test(message))) return 'billing'
  if (type === 'rate_limit_error' || status === 429) return 'rate_limited'
  if (type === 'overloaded_error' || status === 529) return 'overloaded'
  if (type === 'authentication_error' || status === 401) return 'authentication'
  if (type === 'permission_error' || status === 403) return 'permission'
  if (type === 'not_found_error' || status === 404) return /^model:/i.test(message.trim()) ? 'model_not_found' : 'not_found'
  if (type === 'request_too_large' || status === 413) return 'request_too_large'
  if (type === 'api_error' || type === 'timeout_error' || (status !== null && status >= 500)) return 'server_error'
  if (type === 'invalid_request_error' || (status !== null && status >= 400 && status < 500 && status !== 408 && status !== 409)) return 'invalid_request'
  return 'unknown'
}

function errorOf(err: unknown): { kind: ModelErrorKind; message: string } {
  const message = err instanceof Error ? err.message : String(err)
  const aborted = err instanceof Error && (err.name === 'AbortError' || /aborted/i.test(message))
  return { kind: aborted ? 'aborted' : 'connection', message }
}

export function capturingFetch(base: Fetch, options: CaptureOptions): Fetch {
  const { clock, secrets, onAttempt } = options
  return async (input, init) => {
    const startedAt = clock.now()
    const requestBody = bodyText(init?.body)
    const requestHeaders = record(new Headers(init?.headers), secrets)
    let response: Response
    try {
      response = await base(input, init)
    } catch (err) {
      onAttempt({ startedAt, firstByteAt: null, endedAt: clock.now(), status: null, requestId: null, requestBody, requestHeaders, responseHeaders: {}, responseBody: '', error: errorOf(err) })
      throw err
    }
    const headersAt = clock.now()
    const base_ = { startedAt, status: response.status, requestId: response.headers.get('request-id'), requestBody, requestHeaders, responseHeaders: record(response.headers, secrets) }
    const streaming = (response.headers.get('content-type') ?? '').includes('text/event-stream')

    if (!response.body || !response.ok || !streaming) {
      // JSON bodies and error bodies are small: read them whole, record, and hand the SDK an identical copy.
      let text: string
      try {
        text = await response.text()
      } catch (err) {
        onAttempt({ ...base_, firstByteAt: headersAt, endedAt: clock.now(), responseBody: '', error: errorOf(err) })
        throw err
      }
      const statusError = response.ok ? null : { kind: errorKind(response.status, serviceErrorOf(text)), message: `HTTP ${response.status}` }
      onAttempt({ ...base_, firstByteAt: headersAt, endedAt: clock.now(), responseBody: text, error: statusError })
      return new Response(response.status === 204 ? null : text, { status: response.status, statusText: response.statusText, headers: response.headers })
    }

    // SSE: pass every chunk through as it arrives, keeping a copy; record once the stream ends, fails or is
    // cancelled by the consumer (an abort).
    const reader = response.body.getReader()
    const decoder = new TextDecoder()
    const chunks: string[] = []
    let firstByteAt: number | null = null
    let done = false
    const finish = (error: { kind: ModelErrorKind; message: string } | null): void => {
      if (done) return
      done = true
      chunks.push(decoder.decode())
      onAttempt({ ...base_, firstByteAt, endedAt: clock.now(), responseBody: chunks.join(''), error })
    }
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const next = await reader.read()
          if (next.done) {
            finish(null)
            controller.close()
            return
          }
          firstByteAt ??= clock.now()
          chunks.push(decoder.decode(next.value, { stream: true }))
          controller.enqueue(next.value)
        } catch (err) {
          finish(errorOf(err))
          controller.error(err)
        }
      },
      async cancel(reason) {
        finish({ kind: 'aborted', message: reason instanceof Error ? reason.message : 'cancelled by the client' })
        await reader.cancel(reason)
      },
    })
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers })
  }
}
