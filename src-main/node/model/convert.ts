/**
 * Translation between the SDK's shapes and the engine's: response messages, stream events, and errors. The
 * engine never sees an SDK type.
 */
import Anthropic from '@anthropic-ai/sdk'
import type { CacheMissReason, ModelErrorKind, ModelStreamEvent } from '../../engine/ports'
import type { AssistantContentBlock, AssistantMessage, StopReason, Usage } from '../../engine/model/wire'
import { estimateTokensFromChars } from '../../engine/prompt/estimate'
import { errorKind, serviceErrorOf, serviceWords } from './capture'

type SdkMessage = Anthropic.Messages.Message
type SdkEvent = Anthropic.Messages.RawMessageStreamEvent

const STOP_REASONS: ReadonlySet<string> = new Set(['end_turn', 'max_tokens', 'stop_sequence', 'tool_use', 'pause_turn', 'refusal', 'model_context_window_exceeded'])

export function toUsage(usage: SdkMessage['usage']): Usage {
  const split = usage.cache_creation
  return {
    input_tokens: usage.input_tokens ?? 0,
    output_tokens: usage.output_tokens ?? 0,
    cache_read_input_tokens: usage.cache_read_input_tokens ?? 0,
    cache_creation_input_tokens: usage.cache_creation_input_tokens ?? 0,
    ...(split ? { cache_creation: { ephemeral_5m_input_tokens: split.ephemeral_5m_input_tokens ?? 0, ephemeral_1h_input_tokens: split.ephemeral_1h_input_tokens ?? 0 } } : {}),
  }
}

/**
 * Keeps the blocks the engine sends back: text, thinking and redacted thinking (unchanged, signatures included,
 * as the API requires, docs/reference/anthropic-api.md §2.5) and tool calls. With `partial`, only what is safe to
 * keep from an interrupted stream: text, and thinking that already carries its signature.
 */
export function toContent(content: ReadonlyArray<SdkMessage['content'][number]>, partial = false): AssistantContentBlock[] {
  const out: AssistantContentBlock[] = []
  for (const block of content) {
    switch (block.type) {
      case 'text':
        if (!partial || block.text.length > 0) out.push({ type: 'text', text: block.text })
        break
      case 'thinking':
        if (!partial || block.signature.length > 0) out.push({ type: 'thinking', thinking: block.thinking, signature: block.signature })
        break
      case 'redacted_thinking':
        out.push({ type: 'redacted_thinking', data: block.data })
        break
      case 'tool_use':
        if (!partial) out.push({ type: 'tool_use', id: block.id, name: block.name, input: block.input })
        break
      default:
        // Server tool blocks: the app offers none, so none should arrive.
        break
    }
  }
  return out
}

export function toAssistantMessage(message: SdkMessage, partial = false): AssistantMessage {
  const stop = message.stop_reason
  return {
    id: message.id,
    model: message.model,
    content: toContent(message.content, partial),
    stop_reason: stop !== null && STOP_REASONS.has(stop) ? (stop as StopReason) : null,
    usage: toUsage(message.usage),
  }
}

/**
 * What a stream cut short (a Stop, a dropped connection) had sent. Its usage is the one `message_start` carried:
 * the input side is the service's count, but the output is a placeholder (1), since the real count comes only in the
 * `message_delta` at the end. The output tokens the model had generated were billed all the same, so the pass counts
 * what arrived, every block of it (thinking and a tool call's input included, though only some are kept), at the
 * estimate's rate of characters / 4. A pass that did not end is shown with that figure as an estimate.
 */
export function toPartialMessage(snapshot: SdkMessage): AssistantMessage {
  const kept = toAssistantMessage(snapshot, true)
  let chars = 0
  for (const block of snapshot.content) {
    if (block.type === 'text') chars += block.text.length
    else if (block.type === 'thinking') chars += block.thinking.length
    else if (block.type === 'tool_use') chars += block.name.length + JSON.stringify(block.input ?? {}).length
  }
  const streamed = estimateTokensFromChars(chars)
  return streamed > kept.usage.output_tokens ? { ...kept, usage: { ...kept.usage, output_tokens: streamed } } : kept
}

/** The cache diagnostics a response carried, if any (`diagnostics.cache_miss_reason`). */
export function cacheMissReason(message: SdkMessage): CacheMissReason | null | undefined {
  const diagnostics = (message as { diagnostics?: { cache_miss_reason?: unknown } | null }).diagnostics
  if (diagnostics === undefined) return undefined
  if (diagnostics === null) return null
  return (diagnostics.cache_miss_reason ?? null) as CacheMissReason | null
}

export function toStreamEvent(event: SdkEvent): ModelStreamEvent | null {
  switch (event.type) {
    case 'message_start':
      return { type: 'message_started', messageId: event.message.id, model: event.message.model }
    case 'content_block_start': {
      const block = event.content_block
      switch (block.type) {
        case 'text':
        case 'thinking':
        case 'redacted_thinking':
          return { type: 'block_started', index: event.index, kind: block.type }
        case 'tool_use':
          return { type: 'block_started', index: event.index, kind: 'tool_use', toolName: block.name, toolUseId: block.id }
        default:
          return null
      }
    }
    case 'content_block_delta': {
      const delta = event.delta
      switch (delta.type) {
        case 'text_delta':
          return { type: 'text_delta', index: event.index, text: delta.text }
        case 'thinking_delta':
          return { type: 'thinking_delta', index: event.index, thinking: delta.thinking }
        case 'input_json_delta':
          return { type: 'tool_input_delta', index: event.index, partialJson: delta.partial_json }
        default:
          return null
      }
    }
    case 'content_block_stop':
      return { type: 'block_stopped', index: event.index }
    default:
      return null
  }
}

export interface ClassifiedError {
  readonly kind: ModelErrorKind
  readonly message: string
  readonly status: number | null
}

/**
 * The service's own words for a refusal: its error body's type and message ("invalid_request_error: prompt is too
 * long: 302645 tokens > 200000 maximum"), not the SDK's message, which is the status and the body's raw JSON. A body
 * that is not the API's (a proxy's or a gateway's HTML page) is named by its title, not shown as markup.
 */
function serviceMessage(err: InstanceType<typeof Anthropic.APIError>): string {
  return serviceWords(serviceErrorOf(err.error)) || (pageMessage(err.message.replace(/^\d{3} /, '')) ?? err.message)
}

/** An HTML page in place of the API's error, in words: its title (or first heading), and that something else sent it. */
function pageMessage(body: string): string | null {
  if (!/^\s*<(?:!doctype\b|html\b|head\b|body\b)/i.test(body)) return null
  const title = (/<title[^>]*>([^<]*)</i.exec(body)?.[1] ?? /<h1[^>]*>([^<]*)</i.exec(body)?.[1] ?? '').replace(/\s+/g, ' ').trim()
  return `${title ? `"${title}", ` : ''}an HTML page instead of the API's error: something between Loupe and the API (a proxy or a gateway) answered`
}

/** What went wrong, in the engine's words. `afterHeaders`: the failure came after a 200 (mid-stream). */
export function classifyError(err: unknown, aborted: boolean): ClassifiedError {
  if (aborted || err instanceof Anthropic.APIUserAbortError) return { kind: 'aborted', message: 'The request was cancelled.', status: null }
  if (err instanceof Anthropic.APIConnectionError) return { kind: 'connection', message: err.message, status: null }
  if (err instanceof Anthropic.APIError) {
    if (typeof err.status === 'number') return { kind: errorKind(err.status, serviceErrorOf(err.error)), message: serviceMessage(err), status: err.status }
    // An `event: error` inside a 200 stream: the SDK throws an APIError without a status (§3.3), whose message is
    // the event's JSON; the service's words are in its body, as for a status.
    const error = serviceErrorOf(err.error)
    const type = error?.type || ((err as { type?: string | null }).type ?? '')
    return { kind: errorKind(null, { type, message: error?.message ?? '' }), message: serviceMessage(err), status: null }
  }
  const message = err instanceof Error ? err.message : String(err)
  if (/stream ended without producing|request ended without sending any chunks|stream ended before/i.test(message)) return { kind: 'incomplete_stream', message, status: null }
  // Unparseable SSE data (the SDK rethrows JSON.parse's SyntaxError): not a transport failure.
  if (err instanceof SyntaxError || /\bJSON\b/.test(message)) return { kind: 'unknown', message, status: null }
  if (/\bterminated\b|ECONNRESET|\bsocket\b|other side closed|\bnetwork\b/i.test(message)) return { kind: 'connection', message, status: null }
  return { kind: 'unknown', message, status: null }
}
