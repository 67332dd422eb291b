/**
 * One request through the capture proxy: check its target (origin-form only: the client's key goes to the upstream
 * and nowhere else), read the client's body whole (its exact bytes are what gets recorded, and
 * the upstream needs it whole anyway), send it upstream, and pass every response chunk to the client the moment it
 * arrives — no buffering, backpressure respected — while keeping a copy. A client that goes away mid-stream takes
 * the upstream request down with it, so the upstream sees the abort. When the exchange is over, one `Exchange`
 * describes it; recording happens after, off the streaming path.
 */
import { request as httpRequest, Agent as HttpAgent, type IncomingMessage, type ServerResponse } from 'node:http'
import { request as httpsRequest, Agent as HttpsAgent } from 'node:https'
import type { Clock } from '../../engine/ports'
import { clientHeaders, clientKey, recordedHeaders, secretsOf, upstreamHeaders } from './headers'

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
 * `Connection: close`, and Node closes the connection once the answer is sent. Returns the body sent.
 */
export function answerError(req: IncomingMessage, res: ServerResponse, status: number, type: string, message: string, options: { unread?: boolean } = {}): Buffer {
  const text = Buffer.from(apiErrorBody(type, message))
  if (options.unread) req.pause()
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

/**
 * What became of a request once its body phase is over: `exchange` when `onExchange` is called for it (it was
 * forwarded, and is called when the exchange ends), `none` when nothing is recorded (the client went away before
 * its body arrived, or its target was refused).
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
  const parts: Buffer[] = []
  try {
    for await (const chunk of req) parts.push(chunk as Buffer)
  } catch {
    return 'none' // the client went away while sending: nothing was forwarded, nothing to record
  }
  const body = Buffer.concat(parts)
  const secure = target.protocol === 'https:'
  const response: Buffer[] = []
  let firstByteAt: number | null = null
  let status: number | null = null
  let responseHeaders: Record<string, string> = {}
  let finished = false
  const secrets = secretsOf(req.headers)
  const finish = (outcome: Exchange['outcome'], error: Exchange['error']): void => {
    if (finished) return
    finished = true
    const ua = req.headers['user-agent']
    options.onExchange({
      method: req.method ?? 'GET',
      path,
      client: clientKey(req.headers),
      userAgent: typeof ua === 'string' ? ua : null,
      requestBody: body,
      requestHeaders: recordedHeaders(req.headers, secrets),
      startedAt,
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
