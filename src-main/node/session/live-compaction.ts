/**
 * The compaction in flight, as a window that opens (or reloads) in the middle of it needs to see it: stage, sizes,
 * and the summary text streamed so far (its newest LIVE_SUMMARY_MAX_CHARS). The events carry only what is new since the
 * previous one; `compaction.list` answers with this snapshot, and the view carries on from it with the next events.
 */
import { LIVE_SUMMARY_MAX_CHARS } from '../../../src-preload/contract'
import { appendSummaryPiece, startedLiveCompaction, type LiveCompaction } from '../../../src-preload/summary-stream'
import type { CompactionEvent } from './compaction'

/** What `compaction.list` answers as `live` (its fields are described in the contract). */
export type LiveCompactionSnapshot = LiveCompaction

/** The snapshot after one compaction event: null once the compaction drafted, applied or failed. */
export function nextLiveCompaction(live: LiveCompactionSnapshot | null, e: CompactionEvent, now: number): LiveCompactionSnapshot | null {
  switch (e.type) {
    case 'started':
      return startedLiveCompaction(e, now)
    case 'progressed': {
      if (!live || live.compactionId !== e.compactionId) return live
      const p = e.progress
      let next: LiveCompactionSnapshot = { ...live, stage: p.stage }
      if (p.stage === 'trimmed') next = { ...next, trimmed: p.trimmed, savedTokens: p.savedTokens }
      // A new summary request (the standalone one after a summary that called a tool) counts from nothing.
      if (p.stage === 'summary_started') next = { ...next, outputChars: 0, outputTokens: 0, thinkingChars: 0 }
      if (p.stage === 'summary_streaming') {
        next = { ...appendSummaryPiece(next, p, LIVE_SUMMARY_MAX_CHARS), outputChars: p.outputChars, outputTokens: p.outputTokens, thinkingChars: p.thinkingChars }
      }
      return next
    }
    case 'drafted':
    case 'applied':
    case 'failed':
      return live?.compactionId === e.compactionId ? null : live
  }
}
