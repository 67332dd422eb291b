/**
 * Compactions in a transcript, as checkpoints: nothing before one reaches the model again.
 *
 * A compaction is written as a `system/compact_boundary` line (`parentUuid: null`, `logicalParentUuid` → the
 * pre-compaction leaf, `compactMetadata {trigger, preTokens}`) followed by the `isCompactSummary` user line the model
 * sees from then on (real-material.md §1.2). `microcompact_boundary` (old tool results cleared, no summary) is kept
 * as a checkpoint of its own kind because it, too, changes the prefix the cache holds.
 */
import type { TranscriptRecord, UserRecord } from './records'
import type { TranscriptRequest } from './requests'

export interface TranscriptCheckpoint {
  readonly kind: 'compact' | 'microcompact'
  readonly boundaryUuid: string | null
  readonly line: number
  readonly atMs: number | null
  readonly trigger: 'auto' | 'manual' | null
  /** Context size Claude Code measured before compacting (`compactMetadata.preTokens`). */
  readonly preTokens: number | null
  /** Written by newer versions only. */
  readonly postTokens: number | null
  readonly logicalParentUuid: string | null
  /** The summary text the conversation continues from; null for a microcompaction or when the line is missing. */
  readonly summary: string | null
  /** Index (in the thread's requests) of the last request before the boundary and the first after. */
  readonly requestBefore: number | null
  readonly requestAfter: number | null
  /** Context tokens (uncached + read + write) of those two requests: the measured before/after of the compaction. */
  readonly contextTokensBefore: number | null
  readonly contextTokensAfter: number | null
}

export function contextTokens(request: TranscriptRequest): number {
  const u = request.usage
  return u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens
}

function summaryText(record: UserRecord): string {
  return record.content.map((b) => (b.type === 'text' ? b.text : '')).join('')
}

/** `requests` are the thread's requests in file order; checkpoints are matched to them by line number. */
export function findCheckpoints(
  records: ReadonlyArray<TranscriptRecord>,
  requests: ReadonlyArray<TranscriptRequest>,
): ReadonlyArray<TranscriptCheckpoint> {
  const summaries: UserRecord[] = []
  for (const r of records) if (r.type === 'user' && r.isCompactSummary) summaries.push(r)
  const checkpoints: TranscriptCheckpoint[] = []
  const usedSummaries = new Set<UserRecord>()
  for (const r of records) {
    if (r.type !== 'system') continue
    const kind = r.subtype === 'compact_boundary' ? 'compact' : r.subtype === 'microcompact_boundary' ? 'microcompact' : null
    if (kind === null) continue
    let summary: UserRecord | undefined
    if (kind === 'compact') {
      // The summary is the boundary's child; if that link is missing, the next summary line after it.
      summary =
        summaries.find((s) => !usedSummaries.has(s) && s.parentUuid !== null && s.parentUuid === r.uuid) ??
        summaries.find((s) => !usedSummaries.has(s) && s.line > r.line)
      if (summary !== undefined) usedSummaries.add(summary)
    }
    let before: number | null = null
    let after: number | null = null
    for (const [i, q] of requests.entries()) {
      if (q.firstLine < r.line) before = i
      else if (after === null) after = i
    }
    checkpoints.push({
      kind,
      boundaryUuid: r.uuid,
      line: r.line,
      atMs: r.timestampMs,
      trigger: r.compact?.trigger ?? null,
      preTokens: r.compact?.preTokens ?? null,
      postTokens: r.compact?.postTokens ?? null,
      logicalParentUuid: r.logicalParentUuid,
      summary: summary === undefined ? null : summaryText(summary),
      requestBefore: before,
      requestAfter: after,
      contextTokensBefore: before === null ? null : contextTokens(requests[before]!),
      contextTokensAfter: after === null ? null : contextTokens(requests[after]!),
    })
  }
  return checkpoints
}
