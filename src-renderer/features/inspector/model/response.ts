/**
 * Reads a captured response — the SSE stream text or the JSON body — into the final message it produced, the
 * events in order, and an error if the API sent one (docs/reference/anthropic-api.md §2.4 and §3 on streaming).
 */
import { isRecord } from './blocks'
import type { UsageLike } from './breakpoints'

export type FinalBlock =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'thinking'; readonly text: string }
  | { readonly type: 'tool_use'; readonly name: string; readonly id: string; readonly input: string }
  | { readonly type: 'other'; readonly kind: string }

export interface FinalMessage {
  readonly id: string | null
  readonly model: string | null
  readonly stopReason: string | null
  readonly content: ReadonlyArray<FinalBlock>
  readonly usage: (UsageLike & Record<string, unknown>) | null
}

export interface ParsedResponse {
  readonly format: 'sse' | 'json' | 'empty' | 'unreadable'
  /** The SSE event names in order (with counts folded for deltas), for a one-line overview. */
  readonly eventCount: number
  readonly message: FinalMessage | null
  readonly error: { readonly type: string; readonly message: string } | null
}

interface Draft {
  id: string | null
  model: string | null
  stopReason: string | null
  usage: Record<string, unknown> | null
  blocks: Array<{ type: string; text: string; name: string; id: string }>
}

function finish(d: Draft): FinalMessage {
  return {
    id: d.id,
    model: d.model,
    stopReason: d.stopReason,
    usage: d.usage as FinalMessage['usage'],
    content: d.blocks.map((b): FinalBlock => {
      if (b.type === 'text') return { type: 'text', text: b.text }
      if (b.type === 'thinking') return { type: 'thinking', text: b.text }
      if (b.type === 'tool_use') return { type: 'tool_use', name: b.name, id: b.id, input: b.text }
      return { type: 'other', kind: b.type }
    }),
  }
}

function fromMessageJson(m: Record<string, unknown>): FinalMessage {
  const content = Array.isArray(m.content) ? m.content.filter(isRecord) : []
  return {
    id: typeof m.id === 'string' ? m.id : null,
    model: typeof m.model === 'string' ? m.model : null,
    stopReason: typeof m.stop_reason === 'string' ? m.stop_reason : null,
    usage: isRecord(m.usage) ? (m.usage as FinalMessage['usage']) : null,
    content: content.map((c): FinalBlock => {
      if (c.type === 'text') return { type: 'text', text: String(c.text ?? '') }
      if (c.type === 'thinking') return { type: 'thinking', text: String(c.thinking ?? '') }
      if (c.type === 'tool_use') return { type: 'tool_use', name: String(c.name ?? ''), id: String(c.id ?? ''), input: JSON.stringify(c.input ?? {}) }
      return { type: 'other', kind: String(c.type) }
    }),
  }
}

function errorOf(value: unknown): ParsedResponse['error'] {
  const e = isRecord(value) && isRecord(value.error) ? value.error : null
  return e ? { type: String(e.type ?? 'error'), message: String(e.message ?? '') } : null
}

function applyEvent(d: Draft, data: Record<string, unknown>): void {
  const index = typeof data.index === 'number' ? data.index : -1
  switch (data.type) {
    case 'message_start': {
      const m = isRecord(data.message) ? data.message : {}
      d.id = typeof m.id === 'string' ? m.id : null
      d.model = typeof m.model === 'string' ? m.model : null
      d.usage = isRecord(m.usage) ? { ...m.usage } : null
      return
    }
    case 'content_block_start': {
      const b = isRecord(data.content_block) ? data.content_block : {}
      d.blocks[index] = { type: String(b.type ?? 'other'), text: typeof b.text === 'string' ? b.text : '', name: String(b.name ?? ''), id: String(b.id ?? '') }
      return
    }
    case 'content_block_delta': {
      const block = d.blocks[index]
      const delta = isRecord(data.delta) ? data.delta : {}
      if (!block) return
      if (delta.type === 'text_delta') block.text += String(delta.text ?? '')
      else if (delta.type === 'thinking_delta') block.text += String(delta.thinking ?? '')
      else if (delta.type === 'input_json_delta') block.text += String(delta.partial_json ?? '')
      return
    }
    case 'message_delta': {
      const delta = isRecord(data.delta) ? data.delta : {}
      if (typeof delta.stop_reason === 'string') d.stopReason = delta.stop_reason
      if (isRecord(data.usage)) d.usage = { ...(d.usage ?? {}), ...data.usage }
      return
    }
    default:
      return
  }
}

/** Splits SSE text into `data:` payloads (one per event; multi-line data joined with newlines, per the SSE spec). */
export function sseEvents(raw: string): Array<{ event: string | null; data: string }> {
  const out: Array<{ event: string | null; data: string }> = []
  for (const chunk of raw.split(/\r?\n\r?\n/)) {
    let event: string | null = null
    const data: string[] = []
    for (const line of chunk.split(/\r?\n/)) {
      if (line.startsWith('event:')) event = line.slice(6).trim()
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''))
    }
    if (data.length) out.push({ event, data: data.join('\n') })
  }
  return out
}

export function parseResponse(raw: string | null): ParsedResponse {
  if (raw === null || raw.trim() === '') return { format: 'empty', eventCount: 0, message: null, error: null }
  const trimmed = raw.trimStart()
  if (trimmed.startsWith('{')) {
    try {
      const json: unknown = JSON.parse(raw)
      if (isRecord(json) && json.type === 'error') return { format: 'json', eventCount: 0, message: null, error: errorOf(json) }
      return { format: 'json', eventCount: 0, message: isRecord(json) ? fromMessageJson(json) : null, error: null }
    } catch {
      return { format: 'unreadable', eventCount: 0, message: null, error: null }
    }
  }
  const events = sseEvents(raw)
  if (events.length === 0) return { format: 'unreadable', eventCount: 0, message: null, error: null }
  const draft: Draft = { id: null, model: null, stopReason: null, usage: null, blocks: [] }
  let error: ParsedResponse['error'] = null
  let started = false
  for (const e of events) {
    let data: unknown
    try {
      data = JSON.parse(e.data)
    } catch {
      continue
    }
    if (!isRecord(data)) continue
    if (data.type === 'error') error = errorOf(data)
    if (data.type === 'message_start') started = true
    applyEvent(draft, data)
  }
  return { format: 'sse', eventCount: events.length, message: started ? finish(draft) : null, error }
}

/**
 * A pass's output tokens as the response view says them. A pass that did not end (stopped, or cut off) never got the
 * service's count, which comes at the end of the stream: the host counts what had arrived (characters / 4), so the
 * figure is marked as an estimate and says why.
 */
export function outputTokensText(status: string, outputTokens: number, format: (n: number) => string): string {
  return status === 'done' ? format(outputTokens) : `≈${format(outputTokens)} (estimated from what arrived: the stream ended before the service counted it)`
}
