/**
 * The Messages API request and response shapes, as the engine builds and reads them.
 *
 * These mirror `@anthropic-ai/sdk`'s `MessageCreateParams` closely enough that a rendered plan can be handed to
 * the SDK unchanged, but they are our own types: the engine must not depend on the SDK (it is I/O).
 * Spec: docs/reference/anthropic-api.md §2 (request), §2.4 (response), §5.4 (usage).
 */

export type CacheTtl = '5m' | '1h'
export interface CacheControl {
  readonly type: 'ephemeral'
  readonly ttl?: CacheTtl
}

export interface TextBlock {
  readonly type: 'text'
  readonly text: string
  readonly cache_control?: CacheControl
}
export interface ImageBlock {
  readonly type: 'image'
  readonly source: { readonly type: 'base64'; readonly media_type: string; readonly data: string }
  readonly cache_control?: CacheControl
}
export interface ThinkingBlock {
  readonly type: 'thinking'
  readonly thinking: string
  readonly signature: string
}
export interface RedactedThinkingBlock {
  readonly type: 'redacted_thinking'
  readonly data: string
}
export interface ToolUseBlock {
  readonly type: 'tool_use'
  readonly id: string
  readonly name: string
  readonly input: unknown
  readonly cache_control?: CacheControl
}
export interface ToolResultBlock {
  readonly type: 'tool_result'
  readonly tool_use_id: string
  readonly content: string | ReadonlyArray<TextBlock | ImageBlock>
  readonly is_error?: boolean
  readonly cache_control?: CacheControl
}

export type UserContentBlock = TextBlock | ImageBlock | ToolResultBlock

/**
 * Text the API refuses as a block of a message: empty ("text content blocks must be non-empty") or only spaces and
 * line breaks ("… must contain non-whitespace text"). Models answer such a block before a tool call ("\n\n"); it is
 * kept as recorded and left out of what is sent back.
 */
export function isBlankText(text: string): boolean {
  return !/\S/.test(text)
}
export type AssistantContentBlock = TextBlock | ThinkingBlock | RedactedThinkingBlock | ToolUseBlock
export type ContentBlock = UserContentBlock | AssistantContentBlock

export type WireMessage =
  | { readonly role: 'user'; readonly content: ReadonlyArray<UserContentBlock> }
  | { readonly role: 'assistant'; readonly content: ReadonlyArray<AssistantContentBlock> }

export interface WireTool {
  readonly name: string
  readonly description: string
  readonly input_schema: Readonly<Record<string, unknown>>
  readonly cache_control?: CacheControl
}

export interface WireRequest {
  readonly model: string
  readonly max_tokens: number
  readonly system?: ReadonlyArray<TextBlock>
  readonly tools?: ReadonlyArray<WireTool>
  readonly tool_choice?: { readonly type: 'auto' | 'any' | 'none' } | { readonly type: 'tool'; readonly name: string }
  readonly messages: ReadonlyArray<WireMessage>
  readonly thinking?:
    | { readonly type: 'enabled'; readonly budget_tokens: number }
    | { readonly type: 'adaptive'; readonly display?: 'summarized' | 'omitted' }
    | { readonly type: 'disabled' }
  readonly stream?: boolean
  readonly metadata?: { readonly user_id?: string }
}

export interface Usage {
  readonly input_tokens: number
  readonly output_tokens: number
  readonly cache_read_input_tokens: number
  readonly cache_creation_input_tokens: number
  readonly cache_creation?: {
    readonly ephemeral_5m_input_tokens: number
    readonly ephemeral_1h_input_tokens: number
  }
}

export type StopReason = 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use' | 'pause_turn' | 'refusal' | 'model_context_window_exceeded'

export interface AssistantMessage {
  readonly id: string
  readonly model: string
  readonly content: ReadonlyArray<AssistantContentBlock>
  readonly stop_reason: StopReason | null
  readonly usage: Usage
}
