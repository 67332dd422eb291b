/**
 * Entries: the durable facts of a session, append-only. An entry never changes once written; what the model sees
 * is derived from them (history.ts). Design: docs/design.md §2 and §5.
 */
import type { ContextNote } from '../prompt/notes'
import type { AssistantContentBlock, ImageBlock, StopReason, TextBlock } from '../model/wire'
import type { CheckpointBody, ContextEditBody, NoticeBody, PinBody } from './checkpoint'
import type { ChangePreview } from '../tools/preview'
import type { ModelService } from '../ports'

export type EntryId = string & { readonly __brand: 'EntryId' }
export type PassId = string & { readonly __brand: 'PassId' }

/** After-the-breakpoint notes (newly saved memory, a nested AGENTS.md …) travel with a user-side entry. */
export type DeliveredNote = ContextNote

export type EntryBody =
  | { readonly kind: 'user_message'; readonly content: ReadonlyArray<TextBlock | ImageBlock>; readonly notes?: ReadonlyArray<DeliveredNote> }
  | {
      readonly kind: 'assistant_message'
      readonly passId: PassId
      readonly content: ReadonlyArray<AssistantContentBlock>
      readonly stopReason: StopReason | null
      /** True when the stream was cut (cancelled or failed) and this is what had arrived. */
      readonly partial: boolean
      /**
       * The service that wrote it. Its thinking blocks carry that service's signatures, which another refuses: sent to
       * another, the answer goes without them (history.ts). Absent on answers recorded before it was kept, and on the
       * answers a continued Claude Code session starts with (which carry no thinking).
       */
      readonly service?: ModelService
    }
  | {
      readonly kind: 'tool_result'
      readonly toolUseId: string
      readonly toolName: string
      readonly content: string
      readonly isError: boolean
      /**
       * Why a result was produced without running the tool, when it was not: `denied` by the user when asked,
       * `blocked` by the session's rules without asking (plan mode, a deny rule, a path outside the project, a
       * dangerous command in auto mode), `invalid` for a call no tool could take, `interrupted` by a stop.
       */
      readonly outcome: 'ran' | 'denied' | 'blocked' | 'interrupted' | 'invalid'
      readonly notes?: ReadonlyArray<DeliveredNote>
      /** edit_file, write_file: the lines the call changed, as the chat shows them. Not part of what the model sees. */
      readonly change?: ChangePreview
    }
  | { readonly kind: 'approval'; readonly toolUseId: string; readonly decision: 'allowed' | 'denied'; readonly via: string; readonly reason?: string; readonly rule?: string }
  | { readonly kind: 'mode_switched'; readonly mode: string }
  | { readonly kind: 'model_switched'; readonly model: string }
  | { readonly kind: 'memory_saved'; readonly scope: 'project' | 'user'; readonly fact: string }
  | { readonly kind: 'todo_updated'; readonly todos: ReadonlyArray<{ readonly content: string; readonly status: string }> }
  | { readonly kind: 'turn_failed'; readonly message: string; readonly errorKind: string; readonly retryable: boolean }
  | { readonly kind: 'turn_ended'; readonly reason: 'end_turn' | 'cancelled' | 'pass_limit' | 'error' | 'max_tokens' | 'context_window' | 'refusal' }
  | CheckpointBody
  | ContextEditBody
  | PinBody
  | NoticeBody

export type Entry = EntryBody & {
  readonly id: EntryId
  readonly sessionId: string
  /** Position in the session, from 1, gap-free. */
  readonly seq: number
  readonly at: number
}

export function assertNever(value: never): never {
  throw new Error(`Unexpected value: ${JSON.stringify(value)}`)
}
