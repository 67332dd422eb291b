/**
 * Tools: their specs (what the model sees and what input is valid), the permission engine, the session's tool
 * memory, output capping, and the executor port. Everything here is pure; execution lives in src-main/node/tools/.
 * See docs/tools.md.
 */
export { TOOL_NAMES, isToolName, isReadOnlyAccess } from './types'
export type { ToolName, ToolAccess, ToolEffect, LineRange, Todo, TodoStatus, MemoryScope, ParseResult } from './types'
export { TOOL_SPECS, WIRE_TOOLS, getToolSpec, parseToolCall } from './specs'
export type { ToolSpec } from './specs'
export type { ParsedToolCall, ToolInputs } from './schemas'
export {
  decidePermission,
  resolveApproval,
  NO_RULES,
  DEFAULT_PERMISSION_MODE,
} from './permissions'
export type {
  PermissionMode,
  PermissionRule,
  PermissionRules,
  PermissionContext,
  PermissionDecision,
  ApprovalRequest,
  ApprovalAnswer,
  AllowVia,
  DenyCode,
  ToolCallInput,
} from './permissions'
export {
  emptyToolSessionState,
  applyToolEffect,
  applyToolEffects,
  forgetReadsAtCompaction,
  findUnchangedRead,
  checkEditable,
} from './session-state'
export type { ToolSessionState, FileMemory, EditCheck } from './session-state'
export { okOutcome, errorOutcome, deniedOutcome, toToolResultBlock } from './executor'
export type { ToolExecutor, ToolCallRequest, ToolExecutionContext, ToolOutcome, ToolErrorCode } from './executor'
export { capText, capOutput, renderCapped, HeadTailBuffer } from './output'
export type { CappedText, CapShape } from './output'
export * as limits from './limits'
