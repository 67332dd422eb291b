/**
 * One transcript line (untrusted text) → one typed record, or the reason it was skipped. Never throws.
 */
import type { Usage } from '../model/wire'
import { assistantBlocks, isObject, num, str, userBlocks, type Json } from './blocks'
import type {
  AssistantRecord,
  CompactMetadata,
  Envelope,
  SkipReason,
  SystemRecord,
  TranscriptRecord,
  UserRecord,
} from './records'

/**
 * Lines longer than this are skipped unparsed. The longest line in the real fixtures is ~63 k characters (a large
 * tool result); 4 Mi characters leaves room for pasted images while keeping one hostile line from holding the
 * parser (docs/claude-code-import.md, "Limits").
 */
export const DEFAULT_MAX_LINE_CHARS = 4 * 1024 * 1024

/** Line types Claude Code writes that import does not use; counted, not skipped (real-material.md §1.2). */
const KNOWN_UNUSED_TYPES: ReadonlySet<string> = new Set([
  'queue-operation',
  'attachment',
  'last-prompt',
  'ai-title',
  'custom-title',
  'agent-name',
  'pr-link',
  'mode',
  'permission-mode',
])

export type LineResult =
  | { readonly ok: true; readonly record: TranscriptRecord }
  | { readonly ok: false; readonly reason: SkipReason }

const skip = (reason: SkipReason): LineResult => ({ ok: false, reason })

/**
 * Claude Code writes ISO 8601 UTC times with a four-digit year (`2026-02-10T21:54:55.364Z`). Date.parse would also
 * take `+275760-09-13T00:00:00Z` or `Tuesday 1 May`: a year ±270,000 as a session's start or a pass's time makes its
 * durations and its place in the sidebar nonsense, so anything but that form is an unknown time (null).
 */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/

function timestampMs(value: unknown): number | null {
  if (typeof value !== 'string' || !ISO_TIME.test(value)) return null
  const ms = Date.parse(value)
  return Number.isNaN(ms) ? null : ms
}

function envelope(raw: Json, line: number): Envelope {
  return {
    line,
    uuid: str(raw.uuid),
    parentUuid: str(raw.parentUuid),
    isSidechain: raw.isSidechain === true,
    timestampMs: timestampMs(raw.timestamp),
    agentId: str(raw.agentId),
    sessionId: str(raw.sessionId),
    version: str(raw.version),
    cwd: str(raw.cwd),
  }
}

/** A token count as the API writes one; anything else (negative, fractional, a string, beyond 2^53) is damage. */
const INVALID = Symbol('invalid token count')

function tokenCount(value: unknown): number | typeof INVALID {
  if (value === undefined || value === null) return 0
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : INVALID
}

/**
 * The line's usage; null when it has none, INVALID when a count in it is not a count. A negative or absurd figure
 * would flow into every total, share and price the session shows, so the line is skipped as `invalid_field` instead.
 */
function usageOf(raw: unknown): Usage | null | typeof INVALID {
  if (!isObject(raw)) return null
  const input = tokenCount(raw.input_tokens)
  const output = tokenCount(raw.output_tokens)
  const read = tokenCount(raw.cache_read_input_tokens)
  const written = tokenCount(raw.cache_creation_input_tokens)
  if (input === INVALID || output === INVALID || read === INVALID || written === INVALID) return INVALID
  const base = { input_tokens: input, output_tokens: output, cache_read_input_tokens: read, cache_creation_input_tokens: written }
  const byTtl = raw.cache_creation
  if (!isObject(byTtl)) return base
  const fiveMinutes = tokenCount(byTtl.ephemeral_5m_input_tokens)
  const oneHour = tokenCount(byTtl.ephemeral_1h_input_tokens)
  if (fiveMinutes === INVALID || oneHour === INVALID) return INVALID
  return { ...base, cache_creation: { ephemeral_5m_input_tokens: fiveMinutes, ephemeral_1h_input_tokens: oneHour } }
}

function userRecord(raw: Json, line: number): LineResult {
  const message = raw.message
  if (!isObject(message)) return skip('missing_message')
  const content = message.content
  if (typeof content !== 'string' && !Array.isArray(content)) return skip('invalid_field')
  const converted = userBlocks(content)
  const record: UserRecord = {
    type: 'user',
    ...envelope(raw, line),
    content: converted.blocks,
    isPlainText: typeof content === 'string',
    isMeta: raw.isMeta === true,
    isCompactSummary: raw.isCompactSummary === true,
    toolUseResult: raw.toolUseResult,
    droppedBlocks: converted.dropped,
  }
  return { ok: true, record }
}

function assistantRecord(raw: Json, line: number): LineResult {
  const message = raw.message
  if (!isObject(message)) return skip('missing_message')
  const model = str(message.model)
  if (model === null) return skip('invalid_field')
  const usage = usageOf(message.usage)
  if (usage === INVALID) return skip('invalid_field')
  const converted = assistantBlocks(message.content)
  const record: AssistantRecord = {
    type: 'assistant',
    ...envelope(raw, line),
    requestId: str(raw.requestId),
    messageId: str(message.id),
    model,
    content: converted.blocks,
    stopReason: str(message.stop_reason),
    usage,
    isSynthetic: model === '<synthetic>',
    droppedBlocks: converted.dropped,
  }
  return { ok: true, record }
}

function compactMetadata(raw: unknown): CompactMetadata | null {
  if (!isObject(raw)) return null
  const trigger = raw.trigger === 'auto' || raw.trigger === 'manual' ? raw.trigger : null
  // A figure that is not a token count is an unknown one here: the boundary itself still marks the compaction.
  const count = (value: unknown): number | null => {
    const n = tokenCount(value)
    return n === INVALID || value === undefined || value === null ? null : n
  }
  return { trigger, preTokens: count(raw.preTokens), postTokens: count(raw.postTokens) }
}

function systemRecord(raw: Json, line: number): LineResult {
  const subtype = str(raw.subtype) ?? ''
  const record: SystemRecord = {
    type: 'system',
    ...envelope(raw, line),
    subtype,
    logicalParentUuid: str(raw.logicalParentUuid),
    compact: compactMetadata(raw.compactMetadata ?? raw.microcompactMetadata),
    durationMs: num(raw.durationMs),
  }
  return { ok: true, record }
}

function recordOf(raw: Json, line: number): LineResult {
  const type = raw.type
  switch (type) {
    case 'user':
      return userRecord(raw, line)
    case 'assistant':
      return assistantRecord(raw, line)
    case 'system':
      return systemRecord(raw, line)
    case 'summary': {
      const summary = str(raw.summary)
      if (summary === null) return skip('invalid_field')
      return { ok: true, record: { type: 'summary', line, summary, leafUuid: str(raw.leafUuid) } }
    }
    case 'progress': {
      const data = isObject(raw.data) ? raw.data : {}
      return {
        ok: true,
        record: {
          type: 'progress',
          ...envelope(raw, line),
          dataType: str(data.type) ?? '',
          progressAgentId: str(data.agentId),
          parentToolUseId: str(raw.parentToolUseID),
        },
      }
    }
    case 'file-history-snapshot':
      return { ok: true, record: { type: 'file-history-snapshot', line, messageId: str(raw.messageId) } }
    default:
      if (typeof type === 'string' && KNOWN_UNUSED_TYPES.has(type))
        return { ok: true, record: { type: 'other', line, lineType: type } }
      return skip('unknown_type')
  }
}

/**
 * Parses one line (without its newline). `isLastLine` marks the file's final line when the file did not end with
 * a newline: a parse failure there is a write cut short, counted apart from malformed lines.
 */
export function parseLine(text: string, line: number, maxLineChars: number, isLastLine = false): LineResult {
  if (text.length > maxLineChars) return skip('too_long')
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    return skip(isLastLine ? 'truncated_last_line' : 'malformed_json')
  }
  if (!isObject(raw)) return skip('not_an_object')
  return recordOf(raw, line)
}
