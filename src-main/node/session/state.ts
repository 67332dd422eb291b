/**
 * What a session keeps between runs and restarts, beside its entries: the frozen session block and context (so
 * the bytes above the breakpoints stay identical until a checkpoint re-freezes the session block), the permission
 * mode and rules, the tools' memory of reads and writes, where the previous pass's tail was, and the state of
 * automatic compaction (failures in a row, a compaction the model asked for), and what the instruction and memory
 * files looked like when last frozen or noted (so an edit made while the app was closed still reaches the model), and
 * the notes a taken-back message carried (so the model still hears them).
 */
import type { FileSignatures } from '../../engine/prompt/changes'
import type { FrozenSession } from '../../engine/prompt/snapshot'
import type { ContextNote } from '../../engine/prompt/notes'
import { DEFAULT_PERMISSION_MODE, NO_RULES, type PermissionMode, type PermissionRule, type PermissionRules } from '../../engine/tools/permissions'
import { isToolName } from '../../engine/tools/types'
import { emptyToolSessionState, type ToolSessionState } from '../../engine/tools/session-state'
import { INITIAL_AUTO_STATE, type AutoCompactionState } from '../../engine/compaction/policy'

/** A compaction the model asked for with its `compact` tool; it runs before the next pass. */
export interface PendingToolCompaction {
  readonly toolUseId: string
  readonly upto: string | null
  readonly focus: string | null
  readonly instructions: string | null
}

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
  readonly compaction: { readonly auto: AutoCompactionState; readonly pending: PendingToolCompaction | null }
  /** The instruction, rule, memory and skill files as last frozen or noted (sha256 per path); null before the first run. */
  readonly fileBaseline: FileSignatures | null
  /** Notes a taken-back message or its answers carried, which the model has not seen now: they go with the next message. */
  readonly carriedNotes: ReadonlyArray<ContextNote>
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
    compaction: { auto: INITIAL_AUTO_STATE, pending: null },
    fileBaseline: null,
    carriedNotes: [],
  }
}

export function parseSessionState(json: string, model: string): SessionState {
  try {
    const parsed = JSON.parse(json) as Partial<SessionState>
    if (parsed.version !== 1) return initialSessionState(model)
    return { ...initialSessionState(model), ...parsed, rules: usableRules(parsed.rules) } as SessionState
  } catch {
    return initialSessionState(model)
  }
}

/**
 * The stored permission rules this build can use, the others left out (decision 0054): a rule for a tool it does not
 * have (kept by another version) matches no call, and listed, it could not be revoked, since the contract takes only
 * the tools the agent has. One of the wrong shape is left out too; every usable rule is kept, in its order.
 */
function usableRules(stored: unknown): PermissionRules {
  if (typeof stored !== 'object' || stored === null) return NO_RULES
  const { allow, deny } = stored as { allow?: unknown; deny?: unknown }
  return { allow: usable(allow), deny: usable(deny) }
}

function usable(list: unknown): PermissionRule[] {
  if (!Array.isArray(list)) return []
  return list.filter((rule: unknown): rule is PermissionRule => {
    if (typeof rule !== 'object' || rule === null) return false
    const { tool, pattern, reason } = rule as Record<string, unknown>
    return typeof tool === 'string' && isToolName(tool) && typeof pattern === 'string' && pattern !== '' && (reason === undefined || typeof reason === 'string')
  })
}
