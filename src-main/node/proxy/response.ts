/**
 * What a recorded response says: the message id, model, usage, stop reason and any API error, from the SSE stream
 * (`message_start` carries the input usage, each `message_delta` the cumulative usage; docs/reference/anthropic-api.md
 * §3) or from the JSON body (§2.4). Read after the exchange, never on the streaming path.
 */
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib'
import type { Usage } from '../../engine/model/wire'
import { finishUsage, mergeUsage, sseDataEvents, type UsageDraft } from '../model/usage-read'

export interface ReadResponse {
  readonly messageId: string | null
  readonly model: string | null
  readonly usage: Usage | null
  readonly stopReason: string | null
  readonly error: { readonly kind: string; readonly message: string } | null
}

type Json = Record<string, unknown>
const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

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
  const usage: UsageDraft = {}
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
  const usage: UsageDraft = {}
  for (const event of sseDataEvents(text)) {
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
