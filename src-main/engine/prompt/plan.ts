/**
 * The prompt plan: what one pass sends, in cache order (tools → system → messages), with each block's provenance,
 * stability, token estimate and breakpoint, and a fingerprint per section. renderRequest (render.ts) turns it into
 * the exact request body.
 */
import type { CacheTtl, TextBlock, WireMessage, WireRequest, WireTool } from '../model/wire'
import type { Stability } from './sections'
import type { HistoryProvenance } from './input'
import type { ContextNote } from './notes'
import type { SnapshotOrigin } from './snapshot'

/**
 * The four breakpoints (docs/context-engine.md "The four breakpoints"): end of the static block, end of the session
 * block, the tail of the previous pass's last message, the tail of the newest message.
 */
export type BreakpointTag = 'static' | 'session' | 'previous_tail' | 'newest_tail'

/** `history`: a message block, which never changes once sent. */
export type BlockStability = Stability | 'history'

export type BlockProvenance =
  | { readonly kind: 'tool'; readonly name: string }
  | { readonly kind: 'system'; readonly block: 'static' | 'session' }
  | { readonly kind: 'section'; readonly section: string; readonly reason: string | null }
  | { readonly kind: 'history'; readonly entryIds: ReadonlyArray<string>; readonly historyKind: HistoryProvenance['kind'] }
  | {
      readonly kind: 'note'
      readonly note: ContextNote['kind']
      readonly entryId: string | null
      readonly file: string | null
    }

/** Where a section (or one file of it) sits inside a system block's text. */
export interface SectionSpan {
  readonly section: string
  /** The file shown, for instruction and memory parts; null for the section as a whole. */
  readonly file: string | null
  readonly start: number
  readonly end: number
}

export interface PlannedBlockInfo {
  readonly stability: BlockStability
  readonly provenance: BlockProvenance
  readonly tokens: number
  readonly breakpoint: BreakpointTag | null
}

export interface PlannedTool extends PlannedBlockInfo {
  readonly wire: WireTool
}

export interface PlannedSystemBlock extends PlannedBlockInfo {
  readonly wire: TextBlock
  readonly spans: ReadonlyArray<SectionSpan>
}

export interface PlannedMessage {
  /** The message as sent; `PromptPlan.messages[i]` is always `PromptInput.history[i]`. */
  readonly wire: WireMessage
  readonly provenance: HistoryProvenance
  /** One per block of `wire.content`, in order. */
  readonly blocks: ReadonlyArray<PlannedBlockInfo>
  readonly tokens: number
}

export interface BreakpointPlacement {
  readonly tag: BreakpointTag
  readonly area: 'system' | 'messages'
  /** Index in `system` or `messages`. */
  readonly index: number
  /** Block index inside the message (0 for a system block). */
  readonly blockIndex: number
  readonly ttl: CacheTtl
}

export interface SectionFingerprint {
  readonly section: string
  /** A file inside the section (instructions, memory), or null for the section as a whole. */
  readonly part: string | null
  readonly stability: Stability
  readonly sha256: string
  readonly chars: number
  readonly tokens: number
}

export interface PromptPlan {
  readonly model: string
  readonly maxTokens: number
  readonly thinking: NonNullable<WireRequest['thinking']> | null
  readonly tools: ReadonlyArray<PlannedTool>
  readonly system: ReadonlyArray<PlannedSystemBlock>
  readonly messages: ReadonlyArray<PlannedMessage>
  readonly breakpoints: ReadonlyArray<BreakpointPlacement>
  /** In cache order: tools, static sections, session sections and their files, the session context. */
  readonly fingerprints: ReadonlyArray<SectionFingerprint>
  readonly tokens: { readonly tools: number; readonly system: number; readonly messages: number; readonly total: number }
  /** Why the session block has its bytes (a checkpoint or an apply-now edit is named here). */
  readonly sessionOrigin: SnapshotOrigin
}
