/**
 * The request as the simulator reads it: the Messages API body after validation (validate.ts), with the
 * shorthand forms normalised (string content and string system become one text block, docs/reference/
 * anthropic-api.md §2.2). Blocks stay loosely typed: they are client input, and unknown fields must survive
 * hashing untouched.
 */

export type Ttl = '5m' | '1h'

export interface SimCacheControl {
  readonly type: 'ephemeral'
  readonly ttl?: Ttl
}

/** Any content block. `type` picks the shape; the other fields are read where needed. */
export interface SimBlock {
  readonly type: string
  readonly cache_control?: SimCacheControl | null
  readonly [field: string]: unknown
}

export interface SimMessage {
  readonly role: 'user' | 'assistant'
  readonly content: ReadonlyArray<SimBlock>
}

export interface SimTool {
  readonly name: string
  readonly description?: string
  readonly input_schema?: Readonly<Record<string, unknown>>
  readonly cache_control?: SimCacheControl | null
  readonly [field: string]: unknown
}

export type SimToolChoice =
  | { readonly type: 'auto' | 'any' | 'none'; readonly disable_parallel_tool_use?: boolean }
  | { readonly type: 'tool'; readonly name: string; readonly disable_parallel_tool_use?: boolean }

export type SimThinking =
  | { readonly type: 'enabled'; readonly budget_tokens: number; readonly display?: 'summarized' | 'omitted' }
  | { readonly type: 'adaptive'; readonly display?: 'summarized' | 'omitted' }
  | { readonly type: 'disabled' }
  | { readonly type: 'between_tools'; readonly display?: 'summarized' | 'omitted' }

export interface SimRequest {
  readonly model: string
  readonly max_tokens: number
  readonly messages: ReadonlyArray<SimMessage>
  readonly system: ReadonlyArray<SimBlock>
  readonly tools: ReadonlyArray<SimTool>
  readonly tool_choice?: SimToolChoice
  readonly thinking?: SimThinking
  readonly stream: boolean
  readonly stop_sequences: ReadonlyArray<string>
  /** Top-level automatic caching (§6.3). */
  readonly cache_control?: SimCacheControl
  /** Present (even as `{previous_message_id: null}`) when the client opted in to cache diagnostics (§6). */
  readonly diagnostics?: { readonly previous_message_id?: string | null }
  readonly output_config?: Readonly<Record<string, unknown>>
  readonly speed?: string
  readonly metadata?: Readonly<Record<string, unknown>>
}

/** The text of a block's `text` field, or '' when it has none. */
export function blockText(block: SimBlock): string {
  return typeof block.text === 'string' ? block.text : ''
}

/** The text inside a tool_result block: its string content, or its text sub-blocks joined. */
export function toolResultText(block: SimBlock): string {
  const content = block.content
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content
    .map((part: unknown) => (part && typeof part === 'object' && (part as SimBlock).type === 'text' ? blockText(part as SimBlock) : ''))
    .filter((t) => t.length > 0)
    .join('\n')
}
