/**
 * What a recorded response says: the message id, model, usage, stop reason and any API error, from the SSE stream
 * (`message_start` carries the input usage, each `message_delta` the cumulative usage; docs/reference/anthropic-api.md
 * §3) or from the JSON body (§2.4). Read after the exchange, never on the streaming path.
 */
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib'
import type { Usage } from '../../engine/model/wire'

export interface ReadResponse {
  readonly messageId: string | null
  readonly model: string | null
  readonly usage: Usage | null
  readonly stopReason: string | null
  readonly error: { readonly kind: string; readonly message: string } | null
}

type Json = Record<string, unknown>
/** Usage as it accumulates over a stream's events. */
interface Draft {
  input_tokens?: number
  output_tokens?: number
  cache_read_input_tokens?: number
  cache_creation_input_tokens?: number
  cache_creation?: unknown
}
const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined)

/** The body as text: decompressed when the upstream compressed it (the client received it unchanged). */
export function decodeBody(body: Buffer, contentEncoding: string | undefined): string {
  try {
    switch ((contentEncoding ?? '').trim().toLowerCase()) {
      case 'gzip':
        return gunzipSync(body).toString('utf8')
      case 'deflate':
        return inflateSync(body).toString('utf8')
      case 'br':
        return brotliDecompressSync(body).toString('utf8')
      default:
        return body.toString('utf8')
    }
  } catch {
    // A stream cut mid-way does not decompress whole; what arrived is still worth keeping as bytes.
    return body.toString('utf8')
  }
}

function mergeUsage(into: Draft, from: unknown): void {
  if (!isRecord(from)) return
  for (const key of ['input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens'] as const) {
    const v = num(from[key])
    if (v !== undefined) into[key] = v
  }
  if (isRecord(from.cache_creation)) into.cache_creation = from.cache_creation
}

function finishUsage(u: Draft): Usage | null {
  if (u.input_tokens === undefined && u.output_tokens === undefined) return null
  const cc = isRecord(u.cache_creation) ? u.cache_creation : null
  return {
    input_tokens: u.input_tokens ?? 0,
    output_tokens: u.output_tokens ?? 0,
    cache_read_input_tokens: u.cache_read_input_tokens ?? 0,
    cache_creation_input_tokens: u.cache_creation_input_tokens ?? 0,
    ...(cc ? { cache_creation: { ephemeral_5m_input_tokens: num(cc.ephemeral_5m_input_tokens) ?? 0, ephemeral_1h_input_tokens: num(cc.ephemeral_1h_input_tokens) ?? 0 } } : {}),
  }
}

function apiError(body: unknown): ReadResponse['error'] {
  const e = isRecord(body) && isRecord(body.error) ? body.error : null
  return e ? { kind: typeof e.type === 'string' ? e.type : 'api_error', message: typeof e.message === 'string' ? e.message : 'error' } : null
}

function fromJson(text: string): ReadResponse {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return { messageId: null, model: null, usage: null, stopReason: null, error: text.trim() === '' ? null : { kind: 'unreadable', message: 'the response is not JSON' } }
  }
  const usage: Draft = {}
  if (isRecord(body)) mergeUsage(usage, body.usage)
  return {
    messageId: isRecord(body) && typeof body.id === 'string' ? body.id : null,
    model: isRecord(body) && typeof body.model === 'string' ? body.model : null,
    usage: finishUsage(usage),
    stopReason: isRecord(body) && typeof body.stop_reason === 'string' ? body.stop_reason : null,
    error: apiError(body),
  }
}

function fromSse(text: string): ReadResponse {
  let messageId: string | null = null
  let model: string | null = null
  let stopReason: string | null = null
  let error: ReadResponse['error'] = null
  const usage: Draft = {}
  for (const line of text.split('\n')) {
    if (!line.startsWith('data:')) continue
    let event: unknown
    try {
      event = JSON.parse(line.slice(5))
    } catch {
      continue
    }
    if (!isRecord(event)) continue
    if (event.type === 'message_start' && isRecord(event.message)) {
      messageId = typeof event.message.id === 'string' ? event.message.id : messageId
      model = typeof event.message.model === 'string' ? event.message.model : model
      mergeUsage(usage, event.message.usage)
    } else if (event.type === 'message_delta') {
      mergeUsage(usage, event.usage)
      if (isRecord(event.delta) && typeof event.delta.stop_reason === 'string') stopReason = event.delta.stop_reason
    } else if (event.type === 'error') error = apiError(event)
  }
  return { messageId, model, usage: finishUsage(usage), stopReason, error }
}

export function readResponse(text: string, contentType: string | undefined): ReadResponse {
  return (contentType ?? '').includes('text/event-stream') ? fromSse(text) : fromJson(text)
}
