/**
 * The entries compaction writes, and what they mean for the model's view (docs/design.md §2 "checkpoint", §7).
 *
 * A checkpoint never deletes anything: the session keeps every entry, and the checkpoint says what the model sees
 * from then on. It carries its whole view, so the history of a pass depends only on the last checkpoint and the
 * entries after it, never on a fold over earlier checkpoints:
 *
 *   [head (a user message: marker, first request, summary, re-offered files, pins)]   — when stage 2 ran
 *   entries from `startEntryId` on, with `replaced` contents and without `dropped` entries
 *
 * A context edit (from a project's `context` extension, docs/compaction.md "Context edits and extension points")
 * replaces or drops entries after the last checkpoint in the same way; the next checkpoint folds the edits still in
 * effect into its own view.
 */
import type { TextBlock } from '../model/wire'
import type { EntryId } from './entries'

export type CheckpointTrigger = 'auto' | 'manual' | 'partial' | 'tool'

/** What the model sees from a checkpoint on. */
export interface CheckpointView {
  /** The synthetic first user message; null when only stage 1 ran and the history still starts at `startEntryId`. */
  readonly head: ReadonlyArray<TextBlock> | null
  /** The first entry the model still sees; null when every entry before the checkpoint is behind the head. */
  readonly startEntryId: EntryId | null
  /** Entries shown with other content (stage-1 trims, context edits): every replacement in effect. */
  readonly replaced: ReadonlyArray<{ readonly entryId: EntryId; readonly content: string }>
  /** Entries the model no longer sees at all (context edits). */
  readonly dropped: ReadonlyArray<EntryId>
}

/** One tool result cut by stage 1. */
export interface TrimRecord {
  readonly entryId: EntryId
  readonly toolName: string
  readonly chars: number
  readonly keptChars: number
}

/** A pin's fate at a checkpoint (docs/compaction.md "Pins"). */
export type PinStatus = 'kept' | 'in_summary' | 'reinjected' | 'lost'

export interface CheckpointBody {
  readonly kind: 'checkpoint'
  readonly trigger: CheckpointTrigger
  readonly focus: string | null
  readonly instructions: string | null
  /** `trim`: stage 1 reached the target alone; `summary`: stage 2 replaced the older part. */
  readonly stage: 'trim' | 'summary'
  readonly view: CheckpointView
  /** The summary as applied (after the user's edit, if any), without the `<analysis>` scratchpad. */
  readonly summary: string | null
  readonly summaryEdited: boolean
  /** How the summary was asked for: the cached prefix cut at the split, the whole prefix "up to", or standalone. */
  readonly summaryForm: 'cut' | 'upto' | 'standalone' | 'extension' | null
  readonly trimmed: ReadonlyArray<TrimRecord>
  /** What stage 2 replaced: the entries from the view's old start up to the split. */
  readonly replaced: {
    readonly fromEntryId: EntryId | null
    readonly toEntryId: EntryId | null
    readonly entries: number
    readonly messages: number
    readonly estimatedTokens: number
  } | null
  readonly reinjected: {
    readonly files: ReadonlyArray<{ readonly path: string; readonly tokens: number; readonly offered: 'content' | 'path_only' }>
    readonly pins: ReadonlyArray<{ readonly pinId: string; readonly status: PinStatus }>
    /** The session block (instructions, memory, skills) was re-read and frozen again; what changed in it. */
    readonly sessionBlock: { readonly changed: boolean; readonly tokensBefore: number; readonly tokensAfter: number } | null
  }
  readonly tokens: {
    /** Real: the last response's count plus what was added since; null when no pass had run. */
    readonly before: { readonly real: number | null; readonly estimated: number }
    readonly after: { readonly estimated: number }
    readonly windowTokens: number
    readonly targetTokens: number
  }
  /** What the summary passes cost (failed attempts included). */
  readonly costUsd: number
  readonly summaryPassIds: ReadonlyArray<string>
  readonly notes: ReadonlyArray<string>
}

export interface ContextEditRecord {
  readonly entryId: EntryId
  readonly action: 'replace' | 'drop'
  /** The new content, for `replace`. */
  readonly content?: string
  readonly reason: string
}

export interface ContextEditBody {
  readonly kind: 'context_edit'
  /** The extension that asked for the edits (`trim-old-tools`, or a project's module). */
  readonly source: string
  readonly edits: ReadonlyArray<ContextEditRecord>
}

export type PinBody =
  | { readonly kind: 'pin'; readonly action: 'added'; readonly pinId: string; readonly text: string; readonly sourceEntryId: EntryId | null }
  | { readonly kind: 'pin'; readonly action: 'removed'; readonly pinId: string }

/** Something the app tells the user in the conversation (never sent to the model). */
export interface NoticeBody {
  readonly kind: 'notice'
  /**
   * `instructions`: an edited instruction or memory file was applied now from the Files view (the session block was
   * read again). `nested_instructions`: a nested instruction file could not be read. `permissions`: an "always allow"
   * rule was removed.
   */
  readonly source: 'compaction' | 'extension' | 'pins' | 'instructions' | 'nested_instructions' | 'permissions'
  readonly level: 'info' | 'warning'
  readonly text: string
}
