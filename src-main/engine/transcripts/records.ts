/**
 * The typed lines of a Claude Code session transcript (`~/.claude/projects/<project>/<session>.jsonl`).
 *
 * A transcript is an append-only log, not a message list: one API response is written as several assistant lines
 * (one per content block) sharing `requestId`, and non-message lines (progress, hooks, snapshots) are interleaved.
 * Schema as observed in CC 1.0.98 → 2.1.39: docs/reference/real-material.md §1.2; summary in docs/claude-code-import.md.
 *
 * Only what import needs is kept; everything else on a line (cwd, gitBranch, todos, …) is dropped at parse time.
 */
import type { AssistantContentBlock, UserContentBlock, Usage } from '../model/wire'

/** Fields shared by user, assistant, system and progress lines. */
export interface Envelope {
  /** 1-based line number in the file it came from. */
  readonly line: number
  readonly uuid: string | null
  /** null on a root: the first line, a sidechain's first line, or a compact_boundary. */
  readonly parentUuid: string | null
  readonly isSidechain: boolean
  /** Epoch milliseconds; null when the line has no parsable timestamp. */
  readonly timestampMs: number | null
  /** Set on every line of a 2.x subagent file. */
  readonly agentId: string | null
  readonly sessionId: string | null
  /** Claude Code version that wrote the line. */
  readonly version: string | null
  readonly cwd: string | null
}

export interface UserRecord extends Envelope {
  readonly type: 'user'
  readonly content: ReadonlyArray<UserContentBlock>
  /** The content was a plain string (a typed prompt, a slash command, a reminder), not a block list. */
  readonly isPlainText: boolean
  /** Hidden in Claude Code's UI but sent to the model (hook output, caveats, `<system-reminder>`s). */
  readonly isMeta: boolean
  /** The message the model sees after a compaction: "This session is being continued from …". */
  readonly isCompactSummary: boolean
  /** Tool-specific structured copy of a tool result (Bash stdout, Edit patch, Task agentId …), kept as written. */
  readonly toolUseResult: unknown
  /** Content blocks of kinds the wire types do not carry (documents, tool references …), left out of `content`. */
  readonly droppedBlocks: number
}

export interface AssistantRecord extends Envelope {
  readonly type: 'assistant'
  /** `req_…`; null on synthetic lines (Claude Code's own error notices), which are not API requests. */
  readonly requestId: string | null
  readonly messageId: string | null
  readonly model: string
  readonly content: ReadonlyArray<AssistantContentBlock>
  readonly stopReason: string | null
  /** As written on this line; `output_tokens` is often the streaming value when the block was written. */
  readonly usage: Usage | null
  /** Claude Code's own notice lines (`model: "<synthetic>"`): never sent to or answered by the API. */
  readonly isSynthetic: boolean
  readonly droppedBlocks: number
}

export interface CompactMetadata {
  readonly trigger: 'auto' | 'manual' | null
  readonly preTokens: number | null
  /** Written by newer versions only. */
  readonly postTokens: number | null
}

export interface SystemRecord extends Envelope {
  readonly type: 'system'
  /** `compact_boundary`, `microcompact_boundary`, `turn_duration`, `stop_hook_summary`, `local_command`, `api_error` … */
  readonly subtype: string
  /** On a compact_boundary: the pre-compaction leaf the new root continues from. */
  readonly logicalParentUuid: string | null
  /** Set on compact_boundary and microcompact_boundary lines. */
  readonly compact: CompactMetadata | null
  readonly durationMs: number | null
}

/** 1.x session title line (`leafUuid` points at the message it summarises); not a compaction. */
export interface SummaryRecord {
  readonly type: 'summary'
  readonly line: number
  readonly summary: string
  readonly leafUuid: string | null
}

export interface ProgressRecord extends Envelope {
  readonly type: 'progress'
  /** `hook_progress`, `bash_progress`, `agent_progress`, `waiting_for_task` … */
  readonly dataType: string
  /** On agent_progress: the subagent's id (its file is `subagents/agent-<id>.jsonl`). */
  readonly progressAgentId: string | null
  /** On agent_progress: the Task tool_use that started the subagent. */
  readonly parentToolUseId: string | null
}

export interface FileHistorySnapshotRecord {
  readonly type: 'file-history-snapshot'
  readonly line: number
  readonly messageId: string | null
}

/** A line type we know and deliberately do not use (queue-operation, ai-title, …). */
export interface OtherRecord {
  readonly type: 'other'
  readonly line: number
  readonly lineType: string
}

export type TranscriptRecord =
  | UserRecord
  | AssistantRecord
  | SystemRecord
  | SummaryRecord
  | ProgressRecord
  | FileHistorySnapshotRecord
  | OtherRecord

/** Records that sit in the uuid/parentUuid tree. */
export type ThreadRecord = UserRecord | AssistantRecord | SystemRecord | ProgressRecord

/** Why a line was skipped. Skipping is never fatal: the reason is counted and parsing goes on. */
export type SkipReason =
  | 'malformed_json'
  | 'truncated_last_line'
  | 'too_long'
  | 'not_an_object'
  | 'unknown_type'
  | 'missing_message'
  | 'invalid_field'

export const SKIP_REASONS: ReadonlyArray<SkipReason> = [
  'malformed_json',
  'truncated_last_line',
  'too_long',
  'not_an_object',
  'unknown_type',
  'missing_message',
  'invalid_field',
]

export type SkipCounts = Readonly<Record<SkipReason, number>>

export function isThreadRecord(record: TranscriptRecord): record is ThreadRecord {
  return record.type === 'user' || record.type === 'assistant' || record.type === 'system' || record.type === 'progress'
}
