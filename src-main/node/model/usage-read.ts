/**
 * The events of a recorded SSE stream, and the usage read from a recorded response, as it accumulates over a stream's events: `message_start` carries the input
 * side and a placeholder output, each `message_delta` the usage so far (cumulative), a JSON body all of it at once
 * (docs/reference/anthropic-api.md §2.4, §3). Shared by the billing of a pass's attempts (billed.ts) and the capture
 * proxy's reading of what it relayed (proxy/response.ts).
 */
import type { Usage } from '../../engine/model/wire'

/** Usage as it accumulates: each field as the latest event that carried it said. */
export interface UsageDraft {
  input_tokens?: number
  output_tokens?: number
  cache_read_input_tokens?: number
  cache_creation_input_tokens?: number
  cache_creation?: Record<string, unknown>
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined)

/** Takes the fields an event's `usage` carries; anything not a finite number is left as it was. */
export function mergeUsage(into: UsageDraft, from: unknown): void {
  if (!isRecord(from)) return
  for (const key of ['input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens'] as const) {
    const v = num(from[key])
    if (v !== undefined) into[key] = v
  }
  if (isRecord(from.cache_creation)) into.cache_creation = from.cache_creation
}

/** The usage read, or null when no event carried the input or the output count. */
export function finishUsage(u: UsageDraft): Usage | null {
  if (u.input_tokens === undefined && u.output_tokens === undefined) return null
  const cc = u.cache_creation
  return {
    input_tokens: u.input_tokens ?? 0,
    output_tokens: u.output_tokens ?? 0,
    cache_read_input_tokens: u.cache_read_input_tokens ?? 0,
    cache_creation_input_tokens: u.cache_creation_input_tokens ?? 0,
    ...(cc ? { cache_creation: { ephemeral_5m_input_tokens: num(cc.ephemeral_5m_input_tokens) ?? 0, ephemeral_1h_input_tokens: num(cc.ephemeral_1h_input_tokens) ?? 0 } } : {}),
  }
}

/**
 * The JSON objects of a recorded stream's `data:` lines, in order. A line cut where the stream broke (or one the
 * service garbled) is skipped: nothing of it is read.
 */
export function* sseDataEvents(text: string): Generator<Record<string, unknown>> {
  for (const line of text.split('\n')) {
    if (!line.startsWith('data:')) continue
    let event: unknown
    try {
      event = JSON.parse(line.slice(5))
    } catch {
      continue
    }
    if (isRecord(event)) yield event
  }
}
