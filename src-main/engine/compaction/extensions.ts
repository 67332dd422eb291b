/**
 * The three parts a project may replace by name in `.loupe/config.toml` (docs/compaction.md
 * "Context edits and extension points"; docs/design.md §3), and the context sections an extension may add after the
 * breakpoints. Every built-in (trim.ts `trimOldTools`, compactor.ts `defaultCompactor`,
 * src-main/node/compaction/memory-file.ts) is written against these same interfaces, so a user's module and a
 * built-in are interchangeable.
 *
 * A user's extension is a local module the user opts into per project; its calls get a deadline and a per-turn
 * model-call cap, and when it fails the default takes over with a visible note (src-main/node/compaction/).
 */
import type { CheckpointTrigger, ContextEditRecord } from '../conversation/checkpoint'
import type { EntryId } from '../conversation/entries'
import type { WireMessage } from '../model/wire'
import type { CompactionSettings } from './settings'

/** Time one call of an extension may take before the default is used instead. */
export const EXTENSION_DEADLINE_MS = 2000
/** A context section that is rendered (not read from state) must be ready within this time, or it is left out. */
export const SECTION_DEADLINE_MS = 200
/** Model calls an extension may make per turn. */
export const EXTENSION_MODEL_CALLS_PER_TURN = 8

// ---------------------------------------------------------------------------------------------------------------
// context: a builder that returns edits

/** One entry as the model sees it now. */
export interface ContextEntryView {
  readonly entryId: EntryId
  readonly kind: 'user_message' | 'assistant_message' | 'tool_result'
  /** The text the model sees (a replaced entry shows its replacement). */
  readonly text: string
  /** For a tool result: the call it answers. */
  readonly call: { readonly name: string; readonly input: unknown } | null
  /** For an assistant message: whether it calls tools (its text cannot be replaced or dropped then). */
  readonly hasToolUse: boolean
  /** Whether an edit of this entry would be accepted now. */
  readonly editable: boolean
}

export interface ContextBuilderInput {
  /**
   * `compaction`: stage 1 of a compaction; entries before the split are editable (the checkpoint rewrites the
   * prefix anyway). `pass`: before a pass; only entries no pass has sent yet are editable, so an edit never lands
   * above a cache breakpoint.
   */
  readonly phase: 'compaction' | 'pass'
  readonly entries: ReadonlyArray<ContextEntryView>
  readonly settings: CompactionSettings
}

export type ContextEdit = Omit<ContextEditRecord, 'entryId'> & { readonly entryId: string }

export interface ContextBuilder {
  readonly name: string
  edits(input: ContextBuilderInput, ctx: ExtensionCallContext): ReadonlyArray<ContextEdit> | Promise<ReadonlyArray<ContextEdit>>
}

// ---------------------------------------------------------------------------------------------------------------
// compactor: replaces stage 2

export interface CompactorInput {
  readonly trigger: CheckpointTrigger
  readonly focus: string | null
  readonly instructions: string | null
  /** The part to summarise, as the model saw it (after stage 1). */
  readonly summarised: ReadonlyArray<WireMessage>
  /** The part kept whole after the summary. */
  readonly kept: ReadonlyArray<WireMessage>
  /** The session's first request, quoted in the head message whatever the summary says. */
  readonly firstRequest: string | null
}

export type ModelAnswer =
  | { readonly ok: true; readonly text: string; readonly calledTool: boolean; readonly passId: string }
  | { readonly ok: false; readonly cancelled: boolean; readonly message: string; readonly passId: string | null }

export interface StandaloneAsk {
  readonly system: string
  readonly messages: ReadonlyArray<WireMessage>
}

export interface CompactorContext extends ExtensionCallContext {
  /**
   * Sends `instruction` after the session's own cached prefix (same tools and system blocks, the history as the
   * last passes sent it): `cut` stops the history at the split, `upto` sends all of it and asks for the part
   * before the split (summary-instruction.ts). Recorded as a summary pass.
   */
  askWithPrefix(instruction: string, form: 'cut' | 'upto'): Promise<ModelAnswer>
  /** A standalone request with its own system prompt and no tools. Recorded as a summary pass. */
  ask(request: StandaloneAsk): Promise<ModelAnswer>
  /** The instruction the default compactor would send (for a compactor that only adds to it). */
  readonly defaultInstruction: (form: 'cut' | 'upto' | 'standalone') => string
  /** Which prefix form this session's cache favours right now (summary-request.ts `chooseForm`). */
  readonly preferredForm: 'cut' | 'upto'
}

export interface CompactorOutput {
  readonly summary: string
  readonly form: 'cut' | 'upto' | 'standalone' | 'extension'
}

export interface Compactor {
  readonly name: string
  summarise(input: CompactorInput, ctx: CompactorContext): Promise<CompactorOutput>
}

// ---------------------------------------------------------------------------------------------------------------
// memory: save / search / forget / optional recall

export interface MemoryItem {
  readonly id: string
  readonly scope: 'project' | 'user'
  readonly text: string
}

export interface MemoryProvider {
  readonly name: string
  save(fact: string, scope: 'project' | 'user', ctx: ExtensionCallContext): Promise<MemoryItem>
  search(query: string, limit: number, ctx: ExtensionCallContext): Promise<ReadonlyArray<MemoryItem>>
  forget(id: string, ctx: ExtensionCallContext): Promise<boolean>
  /** Text to show after the breakpoints before a pass (e.g. memories relevant to the newest request). */
  recall?(input: { readonly newestText: string }, ctx: ExtensionCallContext): Promise<string | null>
}

// ---------------------------------------------------------------------------------------------------------------
// context sections

export interface ContextSectionProvider {
  readonly name: string
  /**
   * `state`: the text comes from the extension's own state at no cost (called without a deadline, must not do I/O);
   * `render`: the text is rendered per pass under SECTION_DEADLINE_MS.
   */
  readonly kind: 'state' | 'render'
  section(input: { readonly passNumber: number }, ctx: ExtensionCallContext): string | null | Promise<string | null>
}

// ---------------------------------------------------------------------------------------------------------------

/** What every extension call receives. */
export interface ExtensionCallContext {
  readonly signal: AbortSignal
  /** The project root (for reading the project's own files; the extension decides how). */
  readonly root: string
}
