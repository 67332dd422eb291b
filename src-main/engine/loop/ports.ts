/**
 * What the agent loop needs from the outside, as ports. The node side (src-main/node/session/) implements them
 * over the store, the prompt builder's gathered context, the tools executor and the model client; tests use fakes.
 */
import type { Entry, EntryBody, PassId } from '../conversation/entries'
import type { AssistantMessage, WireRequest } from '../model/wire'
import type { ModelAttempt, ModelStreamEvent } from '../ports'
import type { ApprovalAnswer, ApprovalRequest, PermissionMode, PermissionRules } from '../tools/permissions'
import type { ToolSessionState } from '../tools/session-state'
import type { PromptPlan } from '../prompt/plan'
import type { ContextNote } from '../prompt/notes'
import type { ToolEffect } from '../tools/types'
import type { ToolOutcome } from '../tools/executor'

/** One planned pass: the request to send and the plan it was rendered from (provenance, breakpoints). */
export interface PlannedPass {
  readonly request: WireRequest
  readonly plan: PromptPlan
}

/** What the loop hands the log when a pass is over, to be committed in one transaction with its entries. */
export interface PassCommit {
  /** `keep_warm`: a cache pre-warm sent in an idle gap (node/session/keep-warm.ts), not a conversation pass. */
  readonly kind: 'main' | 'summary' | 'keep_warm'
  readonly model: string
  readonly status: 'done' | 'failed' | 'cancelled'
  readonly queuedAt: number
  readonly firstByteAt: number | null
  readonly doneAt: number
  readonly plan: PromptPlan
  readonly attempts: ReadonlyArray<ModelAttempt>
  readonly message: AssistantMessage | null
  readonly error: { readonly kind: string; readonly message: string } | null
}

export interface SessionLog {
  /** Every entry of the session so far, in order. */
  entries(): ReadonlyArray<Entry>
  /** Appends entries in one transaction; they are durable when this returns. */
  append(bodies: ReadonlyArray<EntryBody>): ReadonlyArray<Entry>
  /**
   * Commits a pass and the entries it produced in one transaction. `makeEntries` receives the pass id so the
   * assistant entry can name the pass that produced it. `costUsd`, from a log that prices passes: what the pass was
   * billed, every attempt of it (a stream that broke after its 200 and was sent again included); null when unpriced.
   */
  commitPass(pass: PassCommit, makeEntries: (passId: PassId) => ReadonlyArray<EntryBody>): { readonly passId: PassId; readonly entries: ReadonlyArray<Entry>; readonly costUsd?: number | null }
}

export interface PassPlanner {
  /** Builds the next pass from the session's entries. */
  plan(entries: ReadonlyArray<Entry>): PlannedPass
}

export interface Approvals {
  /** Asks the user; resolves with the answer, or with a deny when the signal aborts. */
  ask(toolUseId: string, request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer>
  /**
   * Replaces the request of a question still waiting (its preview made again after the file changed); false when
   * it was answered meanwhile. Optional: without it a question keeps the request it was asked with.
   */
  update?(toolUseId: string, request: ApprovalRequest): boolean
}

/** Mutable per-session settings the loop reads and updates. */
export interface SessionControls {
  mode(): PermissionMode
  rules(): PermissionRules
  setRules(rules: PermissionRules): void
  toolState(): ToolSessionState
  setToolState(state: ToolSessionState): void
  /** The id of the last response this session received, for the API's cache diagnostics (previous_message_id). */
  lastMessageId?(): string | null
  readonly root: string
  /** Loupe's data folder, when it keeps one on disk, and the user's home folder: the deny list guards the first. */
  readonly dataDir?: string
  readonly home?: string | null
}

/**
 * After-the-breakpoint context (docs/context-engine.md): notes that a tool call made relevant — a nested AGENTS.md
 * under a file just read, a `paths:` rule matching it, a changed instruction file — attached to that call's result.
 */
export interface ContextNotes {
  afterTool(call: { readonly name: string; readonly input: unknown }, effects: ReadonlyArray<ToolEffect>): Promise<ReadonlyArray<ContextNote>>
}

/**
 * Compaction as the loop sees it (docs/compaction.md "When it runs"): checked at the start of every pass, and the
 * model's `compact` tool. The node side implements it over src-main/engine/compaction/.
 */
export interface CompactionHook {
  /**
   * Before each pass: compacts when the policy says so, or when the model's `compact` call asked for it. Appends
   * the checkpoint (and any notice) itself; never throws. A cancel during the summary leaves the session as it was.
   */
  beforePass(signal: AbortSignal): Promise<void>
  /** The model's `compact` call: validates it and schedules the compaction before the next pass. */
  fromTool(toolUseId: string, input: unknown): ToolOutcome
}

export type LoopEvent =
  | { readonly type: 'pass_started'; readonly passNumber: number; readonly model: string; readonly requestBytes: number }
  | { readonly type: 'stream'; readonly event: ModelStreamEvent }
  | { readonly type: 'pass_committed'; readonly passId: PassId; readonly status: PassCommit['status'] }
  | { readonly type: 'entries_appended'; readonly entries: ReadonlyArray<Entry> }
  | { readonly type: 'approval_requested'; readonly toolUseId: string; readonly request: ApprovalRequest }
  | { readonly type: 'tool_started'; readonly toolUseId: string; readonly name: string; readonly input: unknown }
  | { readonly type: 'tool_finished'; readonly toolUseId: string; readonly name: string; readonly isError: boolean }
