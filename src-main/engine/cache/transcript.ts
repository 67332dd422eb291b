/**
 * A Claude Code transcript's requests as usage-only requests (usage-only.ts): when each was sent and whether a
 * compaction came before it. A request was sent when the line it continued from was written (a tool result, the
 * user's prompt); the first line of its answer is the fallback.
 */
import type { TranscriptThread } from '../transcripts/session'
import type { UsageRequest } from './usage-only'

export function usageRequestsOf(thread: TranscriptThread): UsageRequest[] {
  const after = new Set(thread.checkpoints.flatMap((c) => (c.requestAfter === null ? [] : [c.requestAfter])))
  return thread.requests.map((r, i) => {
    const tip = r.contextTipUuid === null ? undefined : thread.index.get(r.contextTipUuid)
    return {
    model: r.model,
    startedAt: tip?.timestampMs ?? r.firstLineAtMs,
    usage: r.usage,
    afterCompaction: after.has(i),
    }
  })
}
