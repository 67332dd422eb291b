/**
 * When automatic compaction fires (docs/compaction.md "When it runs"): at the start of a pass, when the context — the
 * real count of the last response plus what was added since — reaches `threshold` of the window. Never twice without
 * a new pass between, never while the session's automatic compaction is off, and off for the session after three
 * failures in a row (with a visible message). Cancels by the user do not count as failures.
 */
import { MAX_CONSECUTIVE_FAILURES, type CompactionSettings } from './settings'

export interface AutoCompactionState {
  /** Failed (or refused, or impossible) automatic attempts in a row. */
  readonly failures: number
  /** Automatic compaction stopped for this session (after MAX_CONSECUTIVE_FAILURES). */
  readonly disabled: boolean
  /** The last main pass when an automatic compaction was last attempted: none again before a newer pass. */
  readonly attemptedAfterPass: string | null
}

export const INITIAL_AUTO_STATE: AutoCompactionState = { failures: 0, disabled: false, attemptedAfterPass: null }

export type AutoDecision =
  | { readonly compact: true; readonly tokens: number; readonly thresholdTokens: number }
  | { readonly compact: false; readonly reason: 'off' | 'disabled' | 'no_new_pass' | 'below_threshold' }

export function decideAuto(input: {
  readonly settings: CompactionSettings
  readonly windowTokens: number
  /** The context size now; real where a real count exists. */
  readonly tokens: number
  /** The last main pass of the session (null before the first). */
  readonly lastPassId: string | null
  readonly state: AutoCompactionState
}): AutoDecision {
  if (!input.settings.auto) return { compact: false, reason: 'off' }
  if (input.state.disabled) return { compact: false, reason: 'disabled' }
  const thresholdTokens = Math.floor(input.settings.threshold * input.windowTokens)
  if (input.tokens < thresholdTokens) return { compact: false, reason: 'below_threshold' }
  if (input.state.attemptedAfterPass !== null && input.state.attemptedAfterPass === input.lastPassId) return { compact: false, reason: 'no_new_pass' }
  return { compact: true, tokens: input.tokens, thresholdTokens }
}

export type AttemptOutcome = 'applied' | 'failed' | 'refused' | 'nothing_to_compact' | 'cancelled'

/** The state after an automatic attempt, and the message to show when automatic compaction just stopped. */
export function afterAutoAttempt(state: AutoCompactionState, outcome: AttemptOutcome, lastPassId: string | null, why: string): { state: AutoCompactionState; stopped: string | null } {
  if (outcome === 'applied') return { state: { failures: 0, disabled: false, attemptedAfterPass: lastPassId }, stopped: null }
  if (outcome === 'cancelled') return { state: { ...state, attemptedAfterPass: lastPassId }, stopped: null }
  const failures = state.failures + 1
  if (failures >= MAX_CONSECUTIVE_FAILURES) {
    return {
      state: { failures, disabled: true, attemptedAfterPass: lastPassId },
      stopped: `Automatic compaction is off for this session after ${failures} failures in a row (last: ${why}). /compact still works, and so does the compact button.`,
    }
  }
  return { state: { failures, disabled: false, attemptedAfterPass: lastPassId }, stopped: null }
}
