/**
 * What the builder takes for one pass. Everything is a value: the builder reads no file, no clock and no setting
 * of its own, so the same input always gives the same bytes.
 *
 * Inputs are treated as immutable. The builder remembers rendered messages by object identity (so a pass costs
 * what is new, not the whole history); changing a history message in place after passing it is a programmer error.
 */
import type { Hasher } from '../ports'
import type { WireMessage, WireRequest, WireTool } from '../model/wire'
import type { FeatureFlags } from './static-sections'
import type { ContextNote } from './notes'
import type { ExtraSection } from './sections'
import type { FrozenSessionContext } from './session-context'
import type { ProjectStatics, SessionSection } from './snapshot'

export interface PromptSettings {
  readonly features: FeatureFlags
  /** Give the static block's breakpoint a 1-hour TTL (docs/reference/anthropic-api.md §5.1; §10 rule 2). */
  readonly staticCacheTtl1h: boolean
}

/** What kind of session entry a history message was made from. */
export type HistoryKind = 'user_input' | 'assistant' | 'tool_results' | 'compaction_summary' | 'synthetic'

export interface HistoryProvenance {
  /** The session entries this message was made from, in order. */
  readonly entryIds: ReadonlyArray<string>
  readonly kind: HistoryKind
}

/**
 * One message of the history since the last checkpoint, as the loop adapts its entries. `notes` are the
 * after-the-breakpoint notes delivered with this (user) message; they render after its content and must stay on
 * the same message in every later pass, because the bytes of an earlier message must never move.
 */
export interface HistoryMessage {
  readonly message: WireMessage
  readonly provenance: HistoryProvenance
  readonly notes?: ReadonlyArray<ContextNote>
}

export interface PromptInput {
  readonly model: string
  readonly maxTokens: number
  readonly settings: PromptSettings
  /** From the tools layer, in any order: the builder sorts them by name. */
  readonly tools: ReadonlyArray<WireTool>
  readonly project: ProjectStatics
  /** The frozen session block; replaced only at a checkpoint or when the user applies an edit now. */
  readonly session: SessionSection
  /** The frozen session context, the first block of messages[0] for the whole session. */
  readonly context: FrozenSessionContext
  /** Messages since the last checkpoint; messages[0] is a user message. */
  readonly history: ReadonlyArray<HistoryMessage>
  /** Index in `history` of the previous pass's last message (its tail keeps a breakpoint), or null. */
  readonly previousTailIndex: number | null
  readonly extraSections?: ReadonlyArray<ExtraSection>
  readonly thinking?: WireRequest['thinking']
  readonly hasher: Hasher
}
