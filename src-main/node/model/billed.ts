/**
 * What one HTTP attempt was billed, read from the response it recorded (capture.ts): a stream that broke after its
 * 200 and was sent again was billed all the same, for its input (reads, cache writes, uncached) and for the output
 * generated before it broke. The pass's cost is the sum over its attempts (store-log.ts), not the last one's alone.
 *
 * In a stream, `message_start` carries the input side and a placeholder output (1); each `message_delta` carries the
 * usage so far, cumulative, and the service sends one only at the end (docs/reference/anthropic-api.md §3). A stream
 * cut before it counts its output as it arrived, every block of it, at characters / 4: the rule `toPartialMessage`
 * (convert.ts) uses for the partial answer of a failed pass, so both figures of a pass are made the same way.
 */
import type { Usage } from '../../engine/model/wire'
import { estimateTokensFromChars } from '../../engine/prompt/estimate'
import { costUsd } from './models'
import { finishUsage, mergeUsage, sseDataEvents, type UsageDraft } from './usage-read'

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined)

function fromSse(text: string): Usage | null {
  const usage: UsageDraft = {}
  let counted = false
  let chars = 0
  for (const event of sseDataEvents(text)) {
    if (event.type === 'message_start' && isRecord(event.message)) mergeUsage(usage, event.message.usage)
    else if (event.type === 'message_delta' && isRecord(event.usage)) {
      mergeUsage(usage, event.usage)
      if (num(event.usage.output_tokens) !== undefined) counted = true
    } else if (event.type === 'content_block_start' && isRecord(event.content_block) && typeof event.content_block.name === 'string') {
      chars += event.content_block.name.length
    } else if (event.type === 'content_block_delta' && isRecord(event.delta)) {
      const d = event.delta
      const piece = d.type === 'text_delta' ? d.text : d.type === 'thinking_delta' ? d.thinking : d.type === 'input_json_delta' ? d.partial_json : undefined
      if (typeof piece === 'string') chars += piece.length
    }
  }
  const read = finishUsage(usage)
  if (!read || counted) return read
  const streamed = estimateTokensFromChars(chars)
  return streamed > read.output_tokens ? { ...read, output_tokens: streamed } : read
}

function fromJson(text: string): Usage | null {
  try {
    const body: unknown = JSON.parse(text)
    if (!isRecord(body) || body.type === 'error') return null
    const usage: UsageDraft = {}
    mergeUsage(usage, body.usage)
    return finishUsage(usage)
  } catch {
    return null
  }
}

/**
 * The usage an attempt's recorded response shows it was billed: null when it shows none (an error body, a connection
 * that failed before `message_start`, nothing recorded). `contentType` is the response's; without it the text is
 * taken for a stream when it starts as one.
 */
export function streamedUsage(responseBody: string, contentType?: string): Usage | null {
  if (responseBody.trim() === '') return null
  const sse = contentType !== undefined ? contentType.includes('text/event-stream') : /^(event|data):/.test(responseBody.trimStart())
  return sse ? fromSse(responseBody) : fromJson(responseBody)
}

/** What one attempt was billed: its usage and that usage's price (null for a model the price table does not know). */
export interface AttemptBill {
  readonly usage: Usage
  readonly costUsd: number | null
}

interface BilledAttempt {
  readonly status: number | null
  readonly responseBody: string
  readonly responseHeaders: Readonly<Record<string, string>>
}

/**
 * What a pass was billed, attempt by attempt, and in all. `answer` is the usage of the message the pass kept (the
 * answer, or the part of it that streamed before a failure): it is the last attempt's. Every other attempt the service
 * answered with a 2xx was billed for what its recorded response shows (a stream broken after its 200 and sent again);
 * one refused with an error status (429, 529, a 500) or that got no response was not. `costUsd` is the sum over
 * the attempts priced, null when none is.
 */
export function passBilling(model: string, attempts: ReadonlyArray<BilledAttempt>, answer: Usage | null): { readonly attempts: ReadonlyArray<AttemptBill | null>; readonly costUsd: number | null } {
  const last = attempts.length - 1
  const bills = attempts.map((a, i): AttemptBill | null => {
    const usage = i === last && answer ? answer : a.status !== null && a.status >= 200 && a.status < 300 ? streamedUsage(a.responseBody, a.responseHeaders['content-type']) : null
    return usage ? { usage, costUsd: costUsd(model, usage) } : null
  })
  // A client that records no attempt (a fake in tests, a replay by hand) still had its answer billed.
  const prices = attempts.length === 0 && answer ? [costUsd(model, answer)] : bills.map((b) => b?.costUsd ?? null)
  const priced = prices.filter((p): p is number => p !== null)
  return { attempts: bills, costUsd: priced.length === 0 ? null : priced.reduce((sum, p) => sum + p, 0) }
}
