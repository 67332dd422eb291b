/**
 * The response bodies: the Message JSON (docs/reference/anthropic-api.md §2.4) and the SSE event sequence
 * (§3.1–3.2) the SDK's MessageStream accumulates: message_start (with the cache usage), per block
 * content_block_start / deltas / content_block_stop, a ping after the first block start, message_delta (cumulative
 * usage), message_stop. Every event carries an `event:` line (§3.3: SDK 1.x skips data-only events).
 */
import type { CacheUsage } from './cache'
import type { ComposedMessage, OutBlock } from './compose'
import type { DiagnosticsResult } from './diagnostics'

export interface RenderInput {
  readonly id: string
  readonly model: string
  readonly composed: ComposedMessage
  readonly usage: CacheUsage
  /** undefined: the request did not ask for diagnostics, so the field is left out. */
  readonly diagnostics: DiagnosticsResult | null | undefined
}

export interface SseEvent {
  readonly event: string
  readonly data: Readonly<Record<string, unknown>>
}

const TEXT_WORDS_PER_DELTA = 4
const JSON_CHARS_PER_DELTA = 24

function fullUsage(usage: CacheUsage, outputTokens: number): Record<string, unknown> {
  return {
    input_tokens: usage.input_tokens,
    cache_creation_input_tokens: usage.cache_creation_input_tokens,
    cache_read_input_tokens: usage.cache_read_input_tokens,
    cache_creation: { ...usage.cache_creation },
    output_tokens: outputTokens,
    service_tier: 'standard',
    inference_geo: 'not_available',
  }
}

function diagnosticsField(input: RenderInput): Record<string, unknown> {
  return input.diagnostics === undefined ? {} : { diagnostics: input.diagnostics }
}

export function messageJson(input: RenderInput): string {
  const { composed } = input
  return JSON.stringify({
    id: input.id,
    type: 'message',
    role: 'assistant',
    model: input.model,
    // A cut call's JSON is what its stream sends; the message holds its input as parsed.
    content: composed.content.map((b) => (b.type === 'tool_use' ? { type: 'tool_use', id: b.id, name: b.name, input: b.input } : b)),
    stop_reason: composed.stopReason,
    stop_sequence: composed.stopSequence,
    stop_details: null,
    ...diagnosticsField(input),
    usage: fullUsage(input.usage, composed.outputTokens),
  })
}

/** Splits text into small word groups, as the API streams it; joined they give the text back exactly. */
export function textPieces(text: string): string[] {
  const words = text.split(/(?<=\s)(?=\S)/)
  const pieces: string[] = []
  for (let i = 0; i < words.length; i += TEXT_WORDS_PER_DELTA) pieces.push(words.slice(i, i + TEXT_WORDS_PER_DELTA).join(''))
  return pieces.length > 0 ? pieces : ['']
}

function jsonPieces(json: string): string[] {
  // The API's first input_json_delta is often empty (§3.1); the SDK must cope with it.
  const pieces = ['']
  for (let i = 0; i < json.length; i += JSON_CHARS_PER_DELTA) pieces.push(json.slice(i, i + JSON_CHARS_PER_DELTA))
  return pieces
}

function blockEvents(block: OutBlock, index: number): SseEvent[] {
  const delta = (d: Record<string, unknown>): SseEvent => ({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: d } })
  const start = (b: Record<string, unknown>): SseEvent => ({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: b } })
  const events: SseEvent[] = []
  switch (block.type) {
    case 'text':
      events.push(start({ type: 'text', text: '' }), ...textPieces(block.text).map((text) => delta({ type: 'text_delta', text })))
      break
    case 'thinking':
      events.push(start({ type: 'thinking', thinking: '', signature: '' }))
      // §2.5: an omitted block streams no thinking_delta, only its signature.
      if (block.thinking.length > 0) events.push(...textPieces(block.thinking).map((thinking) => delta({ type: 'thinking_delta', thinking })))
      events.push(delta({ type: 'signature_delta', signature: block.signature }))
      break
    case 'tool_use':
      events.push(start({ type: 'tool_use', id: block.id, name: block.name, input: {} }), ...jsonPieces(block.json ?? JSON.stringify(block.input)).map((partial_json) => delta({ type: 'input_json_delta', partial_json })))
      break
  }
  events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } })
  return events
}

export function sseEvents(input: RenderInput): SseEvent[] {
  const { composed, usage } = input
  const events: SseEvent[] = [
    {
      event: 'message_start',
      data: {
        type: 'message_start',
        message: {
          id: input.id,
          type: 'message',
          role: 'assistant',
          model: input.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          stop_details: null,
          ...diagnosticsField(input),
          usage: fullUsage(usage, 1),
        },
      },
    },
  ]
  composed.content.forEach((block, index) => {
    const blockEventList = blockEvents(block, index)
    events.push(...blockEventList.slice(0, 1))
    if (index === 0) events.push({ event: 'ping', data: { type: 'ping' } })
    events.push(...blockEventList.slice(1))
  })
  events.push(
    {
      event: 'message_delta',
      data: {
        type: 'message_delta',
        delta: { stop_reason: composed.stopReason, stop_sequence: composed.stopSequence, stop_details: null },
        usage: {
          input_tokens: usage.input_tokens,
          cache_creation_input_tokens: usage.cache_creation_input_tokens,
          cache_read_input_tokens: usage.cache_read_input_tokens,
          output_tokens: composed.outputTokens,
        },
      },
    },
    { event: 'message_stop', data: { type: 'message_stop' } },
  )
  return events
}

export function formatEvent(event: SseEvent): string {
  return `event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`
}
