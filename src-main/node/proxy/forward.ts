/**
 * One request through the capture proxy: check its target (origin-form only: the client's key goes to the upstream
 * and nowhere else), read the client's body whole up to the API's size limit (its exact bytes are what gets
 * recorded, and the upstream needs it whole anyway), send it upstream, and pass every response chunk to the client
 * the moment it arrives — no buffering, backpressure respected — while keeping a copy. A client that goes away
 * mid-stream takes the upstream request down with it, so the upstream sees the abort. When the exchange is over, one
 * `Exchange` describes it; recording happens after, off the streaming path.
 */
import { request as httpRequest, Agent as HttpAgent, type IncomingMessage, type ServerResponse } from 'node:http'
import { request as httpsRequest, Agent as HttpsAgent } from 'node:https'
import type { Clock } from '../../engine/ports'
import { MAX_BODY_BYTES } from '../../simulator/http'
import { clientHeaders, clientKey, recordedHeaders, secretsOf, upstreamHeaders } from './headers'

/**
 * The largest request body the proxy takes: the API's own limit for Messages and Token Counting (32 MB), the one the
 * simulator enforces. A larger body is answered 413 as the API would answer it, without being read further.
 */
export const MAX_REQUEST_BODY_BYTES = MAX_BODY_BYTES

export interface Exchange {
  readonly method: string
  /** Path and query as the client sent them: `/v1/messages?beta=true`. */
  readonly path: string
  readonly client: string
  readonly userAgent: string | null
  /** The request body bytes exactly as received (and forwarded). */
  readonly requestBody: Buffer
  readonly requestHeaders: Readonly<Record<string, string>>
  readonly startedAt: number
  readonly firstByteAt: number | null
  readonly endedAt: number
  readonly status: number | null
  readonly responseHeaders: Readonly<Record<string, string>>
  /** What reached the client, byte for byte (still compressed if the upstream compressed it). */
  readonly responseBody: Buffer
  readonly outcome: 'done' | 'failed' | 'cancelled'
  readonly error: { readonly kind: string; readonly message: string } | null
  /**
   * Set when the proxy refused the body as too large: nothing was forwarded, `requestBody` is empty, and the client
   * had the proxy's 413. `bytes` is the declared Content-Length, or what had arrived when the limit was passed.
   */
  readonly refused?: { readonly reason: 'too_large'; readonly bytes: number; readonly limit: number }
}

export interface ForwardOptions {
  /** `https://api.anthropic.com` or `http://127.0.0.1:PORT` (a path prefix is kept). */
  readonly upstream: URL
  readonly clock: Clock
  readonly onExchange: (exchange: Exchange) => void
}

/** Keep-alive agents: a new TCP (and TLS) connection per request would add its setup to every first byte. */
const httpAgent = new HttpAgent({ keepAlive: true })
const httpsAgent = new HttpsAgent({ keepAlive: true })

/** The API's error shape (docs/reference/anthropic-api.md §4), so an SDK reads a proxy failure like an API one. */
export function apiErrorBody(type: string, message: string): string {
  return JSON.stringify({ type: 'error', error: { type, message } })
}

/**
 * Answers a request in the API's error shape, with `x-should-retry: false` (the SDKs would otherwise retry a 5xx).
 * With `unread`, the request's body was not read (or not to its end), and is not read further: the answer says
 * `Connection: close`, and the connection is closed after it (see `closeAfterAnswer`). Returns the body sent.
 */
export function answerError(req: IncomingMessage, res: ServerResponse, status: number, type: string, message: string, options: { unread?: boolean } = {}): Buffer {
  const text = Buffer.from(apiErrorBody(type, message))
  if (options.unread) closeAfterAnswer(req)
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': text.length,
    'x-should-retry': 'false',
    ...(options.unread ? { connection: 'close' } : {}),
  })
  res.end(text)
  return text
}

/**
 * How long a client refused before its body was read keeps its connection to read the answer. On loopback the
 * answer is there at once; a client that waits for its upload to end before it reports (fetch) reports it when the
 * connection goes, so this is also how long such a client waits for the 413.
 */
const LINGER_MS = 1_000

/**
 * Stops reading a request's body, and closes its connection after the answer without cutting the answer off.
 *
 * Reading: a body nobody consumed is drained by Node once the answer is sent (read to its end and discarded — all of
 * a 1.5 GB upload); a `data` listener marks it consumed, and paused, reading stops once the buffers are full (a
 * few MB of a 200 MB upload, measured).
 *
 * Closing: after a `Connection: close` answer Node destroys the socket as soon as the answer is flushed. With the
 * client's body still arriving, that is a reset, and a client still writing can see the reset before it reads the
 * answer — a connection error, which the SDKs retry (sending the body again), instead of the 413. So the socket is
 * half-closed instead (the answer, then FIN) and destroyed when the client closes its side, as clients do on reading
 * the answer, or after LINGER_MS. The proxy's `close` destroys it at once.
 */
function closeAfterAnswer(req: IncomingMessage): void {
  req.on('data', () => {})
  req.pause()
  const socket = req.socket
  socket.destroySoon = () => {
    if (socket.writable) socket.end()
    const timer = setTimeout(() => socket.destroy(), LINGER_MS)
    timer.unref()
    socket.once('close', () => clearTimeout(timer))
  }
}

/**
 * The upstream URL for a request target, or null when it is not one the proxy forwards. Only origin-form targets
 * are (RFC 9112 §3.2.1: one `/`, then the path): `//host/…` is a network-path reference and `http://host/…` an
 * absolute one, and a `\` reads as `/` to URL parsers — each could name another host, and the client's API key
 * would go there. What remains must resolve to the upstream's origin, under its path prefix.
 */
export function targetUrl(upstream: URL, path: string): URL | null {
  if (!path.startsWith('/') || path.startsWith('//') || path.includes('\\')) return null
  const prefix = upstream.pathname.replace(/\/+$/, '')
  let url: URL
  try {
    url = new URL(`${prefix}${path}`, upstream)
  } catch {
    return null
  }
  if (url.origin !== upstream.origin) return null
  if (prefix !== '' && url.pathname !== prefix && !url.pathname.startsWith(`${prefix}/`)) return null
  return url
}

type BodyRead =
  | { readonly kind: 'whole'; readonly body: Buffer }
  /** `bytes`: the declared Content-Length (`declared`), else what had arrived when the limit was passed. */
  | { readonly kind: 'too_large'; readonly bytes: number; readonly declared: boolean }
  | { readonly kind: 'abandoned' }

/**
 * The request body, whole, unless it passes `limit`: a Content-Length over it is refused before a byte is read, and
 * a body sent without one (chunked) or longer than it said is refused the moment the limit is passed — reading
 * stops there, and what had arrived is dropped.
 */
function readBody(req: IncomingMessage, limit: number): Promise<BodyRead> {
  const declared = Number(req.headers['content-length'])
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve({ kind: 'too_large', bytes: declared, declared: true })
  return new Promise((resolve) => {
    const parts: Buffer[] = []
    let bytes = 0
    const done = (result: BodyRead): void => {
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('error', onGone)
      req.off('close', onGone)
      resolve(result)
    }
    const onData = (chunk: Buffer): void => {
      bytes += chunk.length
      if (bytes > limit) {
        parts.length = 0
        req.pause()
        done({ kind: 'too_large', bytes, declared: false })
      } else parts.push(chunk)
    }
    const onEnd = (): void => done({ kind: 'whole', body: Buffer.concat(parts, bytes) })
    // The client went away while sending ('close' without 'end'): nothing is forwarded, nothing recorded.
    const onGone = (): void => done({ kind: 'abandoned' })
    req.on('data', onData)
    req.once('end', onEnd)
    req.once('error', onGone)
    req.once('close', onGone)
  })
}

/**
 * What became of a request once its body phase is over: `exchange` when `onExchange` is called for it (it was
 * forwarded, and is called when the exchange ends; or its body was refused as too large, and has been called),
 * `none` when nothing is recorded (the client went away before its body arrived, or its target was refused).
 */
export type ForwardResult = 'exchange' | 'none'

/** Forwards one request (see ForwardResult). */
export async function forward(req: IncomingMessage, res: ServerResponse, options: ForwardOptions): Promise<ForwardResult> {
  const { clock, upstream } = options
  const startedAt = clock.now()
  const path = req.url ?? '/'
  const target = targetUrl(upstream, path)
  if (target === null) {
    answerError(req, res, 400, 'invalid_request_error', `The capture proxy forwards only request targets that are a path on its upstream (${upstream.origin}), beginning with one "/"; got ${JSON.stringify(path.slice(0, 200))}. Nothing was forwarded.`, { unread: true })
    return 'none'
  }
  // What every record of this request says of it, whatever became of it.
  const ua = req.headers['user-agent']
  const secrets = secretsOf(req.headers)
  const request = {
    method: req.method ?? 'GET',
    path,
    client: clientKey(req.headers),
    userAgent: typeof ua === 'string' ? ua : null,
    requestHeaders: recordedHeaders(req.headers, secrets),
    startedAt,
  }
  const limit = MAX_REQUEST_BODY_BYTES
  const read = await readBody(req, limit)
  if (read.kind === 'abandoned') return 'none'
  if (read.kind === 'too_large') {
    const size = read.declared ? `${read.bytes} bytes, by its Content-Length` : `${read.bytes} bytes or more`
    const message = `The request body (${size}) exceeds the capture proxy's limit of ${limit} bytes, the API's own for Messages and Token Counting. Nothing was forwarded.`
    const text = answerError(req, res, 413, 'request_too_large', message, { unread: true })
    options.onExchange({
      ...request,
      requestBody: Buffer.alloc(0),
      firstByteAt: null,
      endedAt: clock.now(),
      status: 413,
      responseHeaders: { 'content-type': 'application/json' },
      responseBody: text,
      outcome: 'failed',
      error: { kind: 'request_too_large', message },
      refused: { reason: 'too_large', bytes: read.bytes, limit },
    })
    return 'exchange'
  }
  const body = read.body
  const secure = target.protocol === 'https:'
  const response: Buffer[] = []
  let firstByteAt: number | null = null
  let status: number | null = null
  let responseHeaders: Record<string, string> = {}
  let finished = false
  const finish = (outcome: Exchange['outcome'], error: Exchange['error']): void => {
    if (finished) return
    finished = true
    options.onExchange({
      ...request,
      requestBody: body,
      firstByteAt,
      endedAt: clock.now(),
      status,
      responseHeaders,
      responseBody: Buffer.concat(response),
      outcome,
      error,
    })
  }

  const upstreamRequest = (secure ? httpsRequest : httpRequest)(target, {
    method: req.method ?? 'GET',
    headers: upstreamHeaders(req.headers, target.host, body.length),
    agent: secure ? httpsAgent : httpAgent,
  })

  // Headers and body go out as separate writes; with Nagle's algorithm on, the second waits for the first's ACK,
  // which the upstream delays up to 40 ms. Both hops of a streaming proxy need every write sent at once.
  upstreamRequest.on('socket', (socket) => socket.setNoDelay(true))

  // The client went away before the response ended: abort upstream, which closes that connection (the agent does
  // not reuse a destroyed socket), so the upstream stops generating.
  res.on('close', () => {
    if (res.writableFinished) return
    upstreamRequest.destroy()
    // The client's side may be half-open (it sent FIN): end it too, or its socket would stay open.
    res.destroy()
    finish('cancelled', { kind: 'aborted', message: 'the client closed the connection before the response ended' })
  })

  upstreamRequest.on('response', (up) => {
    status = up.statusCode ?? null
    responseHeaders = recordedHeaders(up.headers, secrets)
    res.writeHead(up.statusCode ?? 502, up.statusMessage, clientHeaders(up.rawHeaders))
    res.flushHeaders()
    up.on('data', (chunk: Buffer) => {
      firstByteAt ??= clock.now()
      response.push(chunk)
      if (!res.write(chunk)) {
        up.pause()
        res.once('drain', () => up.resume())
      }
    })
    up.on('end', () => {
      res.end()
      finish(status !== null && status < 400 ? 'done' : 'failed', status !== null && status >= 400 ? { kind: 'http_status', message: `HTTP ${status}` } : null)
    })
    // The upstream dropped the stream: drop the client's too, so it sees a cut stream as it would directly.
    const cut = (message: string): void => {
      if (finished) return
      finish('failed', { kind: 'connection', message })
      res.destroy()
    }
    up.on('error', (err) => cut(err.message))
    up.on('close', () => {
      if (!up.complete) cut('the upstream closed the connection before the response ended')
    })
  })

  upstreamRequest.on('error', (err) => {
    if (finished) return
    if (!res.headersSent) {
      const text = apiErrorBody('api_error', `The capture proxy could not reach ${upstream.origin}: ${err.message}`)
      status = 502
      response.push(Buffer.from(text))
      res.writeHead(502, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
      res.end(text)
    } else res.destroy()
    finish('failed', { kind: 'connection', message: err.message })
  })

  upstreamRequest.end(body)
  return 'exchange'
}
