/**
 * What a session keeps between runs and restarts, beside its entries: the frozen session block and context (so
 * the bytes above the breakpoints stay identical for the session's life), the permission mode and rules, the
 * tools' memory of reads and writes, and where the previous pass's tail was.
 */
import type { FrozenSession } from '../../engine/prompt/snapshot'
import { DEFAULT_PERMISSION_MODE, NO_RULES, type PermissionMode, type PermissionRules } from '../../engine/tools/permissions'
import { emptyToolSessionState, type ToolSessionState } from '../../engine/tools/session-state'

export interface SessionState {
  readonly version: 1
  readonly frozen: FrozenSession | null
  readonly mode: PermissionMode
  readonly model: string
  readonly rules: PermissionRules
  readonly toolState: ToolSessionState
  /** Messages in the previous pass's history; its last one keeps a breakpoint (BP3). */
  readonly previousHistoryLength: number
  readonly deliveredNotes: ReadonlyArray<string>
}

export function initialSessionState(model: string): SessionState {
  return {
    version: 1,
    frozen: null,
    mode: DEFAULT_PERMISSION_MODE,
    model,
    rules: NO_RULES,
    toolState: emptyToolSessionState(),
    previousHistoryLength: 0,
    deliveredNotes: [],
  }
}

export function parseSessionState(json: string, model: string): SessionState {
  try {
    const parsed = JSON.parse(json) as Partial<SessionState>
    if (parsed.version !== 1) return initialSessionState(model)
    return { ...initialSessionState(model), ...parsed } as SessionState
  } catch {
    return initialSessionState(model)
  }
}
