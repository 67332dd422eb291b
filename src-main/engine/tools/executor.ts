/**
 * The port through which the loop runs a tool call. The node implementation (src-main/node/tools/) is the only
 * code that touches the disk or spawns processes; tests use fakes.
 *
 * Contract: `execute` never throws and never rejects. Everything (bad input, a path outside the root, a timeout,
 * an abort) comes back as an outcome whose `content` the model can read and act on. The executor does not decide
 * permissions: the loop asks `decidePermission` first and only executes allowed calls. It does confine every path
 * to the root, whatever it is asked.
 */
import type { ToolResultBlock } from '../model/wire'
import type { PermissionDecision } from './permissions'
import type { ToolSessionState } from './session-state'
import type { ChangePreview } from './preview'
import type { ToolEffect } from './types'

export interface ToolCallRequest {
  /** The tool_use id. */
  readonly id: string
  readonly name: string
  readonly input: unknown
}

export interface ToolExecutionContext {
  /** Aborts the call (the user pressed Esc): a running command's whole process group is stopped. */
  readonly signal: AbortSignal
  /** What the session's tools know (reads and writes so far), for read dedup and read-before-edit. */
  readonly sessionState: ToolSessionState
}

export type ToolErrorCode =
  | 'unknown_tool'
  | 'invalid_input'
  | 'not_executable'
  | 'outside_root'
  | 'not_found'
  | 'not_a_file'
  | 'not_a_directory'
  | 'too_large'
  | 'binary'
  | 'out_of_range'
  | 'not_read'
  | 'changed_since_read'
  | 'no_match'
  | 'ambiguous_match'
  | 'exit_status'
  | 'timeout'
  | 'aborted'
  | 'denied'
  | 'io'

export type ToolOutcome =
  | {
      readonly kind: 'ok'
      readonly content: string
      readonly effects: ReadonlyArray<ToolEffect>
      /** edit_file, write_file: the lines the call changed, for the chat (never sent to the model). */
      readonly change?: ChangePreview
    }
  | { readonly kind: 'error'; readonly code: ToolErrorCode; readonly content: string; readonly effects: ReadonlyArray<ToolEffect> }

export interface ToolExecutor {
  execute(call: ToolCallRequest, ctx: ToolExecutionContext): Promise<ToolOutcome>
  /**
   * What a file-changing call would do, shown with its approval; null for a call that changes no file. Writes
   * nothing, never throws. Optional: an executor without it asks without a preview.
   */
  preview?(call: ToolCallRequest, ctx: ToolExecutionContext): Promise<ChangePreview | null>
  /**
   * The error a file-changing call's own checks give it as things stand (the text to replace is not in the file, or
   * is there twice; the file was not read, or changed since), made by those checks without changing anything; null
   * when the call would change something, or changes no file. The loop does not ask the user to allow a call that
   * will only be refused: the agent gets this error at once, and nothing runs. Writes nothing, never throws.
   * Optional: an executor without it is asked about every such call.
   */
  refusal?(call: ToolCallRequest, ctx: ToolExecutionContext): Promise<ToolOutcome | null>
  /**
   * Calls `changed` when the file a preview shows changes on disk, while its approval waits, so the preview is made
   * again; returns what stops watching. Optional: without it a preview is made once.
   */
  watchPreview?(preview: ChangePreview, changed: () => void): () => void
}

export function okOutcome(content: string, effects: ReadonlyArray<ToolEffect> = [], change?: ChangePreview): ToolOutcome {
  return change === undefined ? { kind: 'ok', content, effects } : { kind: 'ok', content, effects, change }
}

export function errorOutcome(code: ToolErrorCode, content: string, effects: ReadonlyArray<ToolEffect> = []): ToolOutcome {
  return { kind: 'error', code, content, effects }
}

/** The tool result for a call the permission engine (or the user) denied. */
export function deniedOutcome(decision: Extract<PermissionDecision, { kind: 'deny' }>): ToolOutcome {
  return errorOutcome('denied', decision.reason)
}

/** The block that goes back to the model in the next user message. */
export function toToolResultBlock(toolUseId: string, outcome: ToolOutcome): ToolResultBlock {
  return outcome.kind === 'ok'
    ? { type: 'tool_result', tool_use_id: toolUseId, content: outcome.content }
    : { type: 'tool_result', tool_use_id: toolUseId, content: outcome.content, is_error: true }
}
