/**
 * Every piece of I/O the engine needs, as interfaces. The engine is pure TypeScript (no electron, no node:*, no
 * native modules — enforced by test/architecture.test.ts); adapters in src-main/node/ implement these ports, and
 * tests pass in-memory fakes.
 */
import type { AssistantMessage, WireRequest } from './model/wire'

/** Wall-clock time in epoch milliseconds. Injected so tests can move time without sleeping. */
export interface Clock {
  now(): number
}

/** Content hashing. sha256 lives behind a port because the engine may not import node:crypto. */
export interface Hasher {
  sha256Hex(data: string): string
}

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void
  info(message: string, fields?: Record<string, unknown>): void
  warn(message: string, fields?: Record<string, unknown>): void
  error(message: string, fields?: Record<string, unknown>): void
}

// ---------------------------------------------------------------------------------------------------------------
// Model access (implemented by src-main/node/model/ with @anthropic-ai/sdk; see docs/simulator.md "The client").

/** What arrives while a response streams, already decoded from SSE. Index is the content block's index. */
export type ModelStreamEvent =
  | { readonly type: 'message_started'; readonly messageId: string; readonly model: string }
  | { readonly type: 'block_started'; readonly index: number; readonly kind: 'text' | 'thinking' | 'redacted_thinking' | 'tool_use'; readonly toolName?: string; readonly toolUseId?: string }
  | { readonly type: 'text_delta'; readonly index: number; readonly text: string }
  | { readonly type: 'thinking_delta'; readonly index: number; readonly thinking: string }
  | { readonly type: 'tool_input_delta'; readonly index: number; readonly partialJson: string }
  | { readonly type: 'block_stopped'; readonly index: number }
  /**
   * The client's word (not the service's) that the request is sent again: after the attempt failed once the service
   * had begun to answer (a connection dropped or stalled, a stream cut short, an error event inside it; what streamed
   * is not the answer, which starts over), or, with `status`, after the service refused it (429, 529, 5xx) and the SDK
   * waits `waitMs` first (null: its own short backoff), said so a pass waiting on a rate limit does not look stuck.
   * `retry` counts from 1, up to `retries`.
   */
  | { readonly type: 'retrying'; readonly kind: ModelErrorKind; readonly message: string; readonly retry: number; readonly retries: number; readonly status?: number; readonly waitMs?: number | null }

/** One HTTP attempt, as it went over the wire. Secrets (authorization, x-api-key) are never recorded. */
export interface ModelAttempt {
  readonly startedAt: number
  readonly firstByteAt: number | null
  readonly endedAt: number
  readonly status: number | null
  readonly requestId: string | null
  /** The exact request body bytes, decoded as UTF-8 (the body is JSON, so this is lossless). */
  readonly requestBody: string
  readonly requestHeaders: Readonly<Record<string, string>>
  readonly responseHeaders: Readonly<Record<string, string>>
  /** The raw response: the JSON body, or the SSE stream text as received. */
  readonly responseBody: string
  readonly error: { readonly kind: string; readonly message: string } | null
}

/**
 * What kind of failure a model call ended in. The refusals of a request (4xx) are told apart by what the user has to
 * change: the account (`billing`: no credit, a spend limit), the key (`authentication`, `permission`), the model
 * (`model_not_found`: not one the service has, or no longer), the API's address (`not_found`), the request's size
 * (`request_too_large`), or the request itself (`invalid_request`: too long a prompt, a malformed body).
 */
export type ModelErrorKind =
  | 'aborted'
  | 'rate_limited'
  | 'overloaded'
  | 'server_error'
  | 'invalid_request'
  | 'authentication'
  | 'permission'
  | 'billing'
  | 'model_not_found'
  | 'not_found'
  | 'request_too_large'
  | 'connection'
  | 'incomplete_stream'
  | 'unknown'

/**
 * The API's cache diagnostics for a pass, compared with `previousMessageId` (docs/reference/anthropic-api.md §6,
 * beta `cache-diagnosis-2026-04-07`): the first place the prompt diverged from the previous one.
 */
export type CacheMissReason =
  | { readonly type: 'model_changed' | 'system_changed' | 'tools_changed' | 'messages_changed'; readonly cache_missed_input_tokens: number }
  | { readonly type: 'previous_message_not_found' }
  | { readonly type: 'unavailable' }

export type ModelOutcome = (
  | {
      readonly ok: true
      readonly message: AssistantMessage
      readonly attempts: ReadonlyArray<ModelAttempt>
      /** What the service's cache diagnostics said: null = no divergence (or still pending); absent = not asked. */
      readonly cacheMissReason?: CacheMissReason | null
    }
  | {
      readonly ok: false
      readonly error: { readonly kind: ModelErrorKind; readonly message: string; readonly status: number | null }
      /** Whatever streamed before the failure (kept so a cancelled turn can keep its partial text). */
      readonly partial: AssistantMessage | null
      readonly attempts: ReadonlyArray<ModelAttempt>
    }
) & {
  /**
   * What answered (the model client's endpoint). A client that switches services (node/model/connect.ts) sends each
   * call to what answers when it starts; this names the one the call went to. Absent from a client that never switches.
   */
  readonly endpoint?: ModelClient['endpoint']
}

export interface ModelSendOptions {
  readonly signal?: AbortSignal
  readonly onEvent?: (event: ModelStreamEvent) => void
  /** The previous response's id, for the API's cache diagnostics (docs/reference/anthropic-api.md §0). */
  readonly previousMessageId?: string
}

/** Which model service answers: the embedded simulator or the real API. */
export type ModelService = 'simulator' | 'anthropic'

export interface ModelClient {
  /** Which model service answers: the embedded simulator or the real API. Shown in the UI. */
  readonly endpoint: { readonly kind: ModelService; readonly baseUrl: string }
  /** Sends one pass, streaming. Never throws: failures come back as `{ ok: false }` after the client's retries. */
  send(request: WireRequest, options: ModelSendOptions): Promise<ModelOutcome>
  /** Counts the tokens of a request with the service's own counter. */
  countTokens(request: Omit<WireRequest, 'max_tokens' | 'stream'>): Promise<number>
  /**
   * Sends a cache pre-warm: `max_tokens: 0`, not streamed (docs/reference/anthropic-api.md §5.1) — the service
   * reads and writes the cache at the request's breakpoints and answers with no content. Never throws. Optional: a
   * client without it never keeps the cache warm.
   */
  prewarm?(request: WireRequest, options: { readonly signal?: AbortSignal }): Promise<ModelOutcome>
}
export type { ToolExecutor, ToolCallRequest, ToolExecutionContext, ToolOutcome } from './tools/executor'
