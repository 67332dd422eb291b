/**
 * The builder's only exception. It signals a programmer error — a plan that breaks the cache rules or an input the
 * loop should never produce — never a problem with the user's files (those become notes).
 */
export type PlanErrorCode =
  /** A `volatile` section or block would sit at or above a cache breakpoint (docs/design.md §3). */
  | 'volatile_above_breakpoint'
  /** A `volatile` section did not say why it changes every pass. */
  | 'volatile_without_reason'
  | 'duplicate_section'
  | 'duplicate_tool'
  | 'empty_history'
  /** messages[0] must be a user message: the frozen session context is its first block. */
  | 'first_message_not_user'
  | 'notes_on_assistant_message'
  | 'previous_tail_out_of_range'
  /** More than the API's 4 cache breakpoints (docs/reference/anthropic-api.md §5.1). */
  | 'too_many_breakpoints'
  /** A 1h breakpoint after a 5m one: the API answers 400 (docs/reference/anthropic-api.md §5.4). */
  | 'ttl_order'
  | 'invalid_max_tokens'
  /** A content block of a type the wire types do not know. */
  | 'unknown_block'
  /** Volatile sections go after the newest breakpoint, in the newest message, which must be a user message. */
  | 'tail_on_assistant_message'

export class PlanError extends Error {
  override readonly name = 'PlanError'
  constructor(
    readonly code: PlanErrorCode,
    message: string,
  ) {
    super(`${code}: ${message}`)
  }
}
