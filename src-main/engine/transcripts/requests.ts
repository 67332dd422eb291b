/**
 * Dedupe assistant lines into API requests.
 *
 * Claude Code writes one API response as several assistant lines, one per content block, all with the same
 * `requestId` and `message.id` and a copy of the same usage (real-material.md §1.2: in fa812bfe, 314 assistant
 * lines are 157 requests). Counting anything before this step counts tokens several times.
 */
import type { AssistantContentBlock, Usage } from '../model/wire'
import type { AssistantRecord, TranscriptRecord } from './records'

export interface TranscriptRequest {
  /** Dedupe key: `requestId`, else `message.id`, else the first line's uuid. */
  readonly key: string
  readonly requestId: string | null
  readonly messageId: string | null
  readonly model: string
  /**
   * Input figures are the same on every line of a request; `output_tokens` is the largest seen, because lines
   * written mid-stream carry the count at that moment, not the final one.
   */
  readonly usage: Usage
  /** Timestamp of the first line (≈ when the first block finished streaming), epoch ms. */
  readonly firstLineAtMs: number | null
  /** Timestamp of the last line (≈ when the response ended), epoch ms. */
  readonly lastLineAtMs: number | null
  readonly stopReason: string | null
  readonly isSidechain: boolean
  readonly agentId: string | null
  /** The line the request continued from: the tip of the conversation it was sent with. */
  readonly contextTipUuid: string | null
  readonly lineUuids: ReadonlyArray<string>
  readonly firstLine: number
  /** The response's content blocks in the order they were written. */
  readonly response: ReadonlyArray<AssistantContentBlock>
}

interface Draft {
  key: string
  records: AssistantRecord[]
}

function maxOf(records: ReadonlyArray<AssistantRecord>, pick: (u: Usage) => number): number {
  let best = 0
  for (const r of records) if (r.usage !== null) best = Math.max(best, pick(r.usage))
  return best
}

function mergedUsage(records: ReadonlyArray<AssistantRecord>): Usage {
  const base: Usage = {
    input_tokens: maxOf(records, (u) => u.input_tokens),
    output_tokens: maxOf(records, (u) => u.output_tokens),
    cache_read_input_tokens: maxOf(records, (u) => u.cache_read_input_tokens),
    cache_creation_input_tokens: maxOf(records, (u) => u.cache_creation_input_tokens),
  }
  if (!records.some((r) => r.usage?.cache_creation !== undefined)) return base
  return {
    ...base,
    cache_creation: {
      ephemeral_5m_input_tokens: maxOf(records, (u) => u.cache_creation?.ephemeral_5m_input_tokens ?? 0),
      ephemeral_1h_input_tokens: maxOf(records, (u) => u.cache_creation?.ephemeral_1h_input_tokens ?? 0),
    },
  }
}

function finish(draft: Draft): TranscriptRequest {
  const first = draft.records[0]!
  let firstAt: number | null = null
  let lastAt: number | null = null
  let stopReason: string | null = null
  const lineUuids: string[] = []
  const response: AssistantContentBlock[] = []
  for (const r of draft.records) {
    if (r.timestampMs !== null) {
      firstAt = firstAt === null ? r.timestampMs : Math.min(firstAt, r.timestampMs)
      lastAt = lastAt === null ? r.timestampMs : Math.max(lastAt, r.timestampMs)
    }
    if (r.stopReason !== null) stopReason = r.stopReason
    if (r.uuid !== null) lineUuids.push(r.uuid)
    response.push(...r.content)
  }
  return {
    key: draft.key,
    requestId: first.requestId,
    messageId: first.messageId,
    model: first.model,
    usage: mergedUsage(draft.records),
    firstLineAtMs: firstAt,
    lastLineAtMs: lastAt,
    stopReason,
    isSidechain: first.isSidechain,
    agentId: first.agentId,
    contextTipUuid: first.parentUuid,
    lineUuids,
    firstLine: first.line,
    response,
  }
}

export function requestKey(record: AssistantRecord): string {
  return record.requestId ?? record.messageId ?? record.uuid ?? `line:${record.line}`
}

/** Every API request in the records, in order of first appearance. Synthetic notice lines are not requests. */
export function collectRequests(records: ReadonlyArray<TranscriptRecord>): ReadonlyArray<TranscriptRequest> {
  const drafts = new Map<string, Draft>()
  for (const record of records) {
    if (record.type !== 'assistant' || record.isSynthetic) continue
    const key = requestKey(record)
    const draft = drafts.get(key)
    if (draft === undefined) drafts.set(key, { key, records: [record] })
    else draft.records.push(record)
  }
  return [...drafts.values()].map(finish)
}
