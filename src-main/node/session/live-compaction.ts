/**
 * The compaction in flight, as a window that opens (or reloads) in the middle of it needs to see it: stage, sizes,
 * and the summary text streamed so far (its newest LIVE_TEXT_MAX_CHARS). The events carry only what is new since the
 * previous one; `compaction.list` answers with this snapshot, and the view carries on from it with the next events.
 */
import type { CheckpointTrigger } from '../../engine/conversation/checkpoint'
import { LIVE_SUMMARY_MAX_CHARS as LIVE_TEXT_MAX_CHARS } from '../../../src-preload/contract'
import type { CompactionEvent } from './compaction'

export interface LiveCompactionSnapshot {
  readonly compactionId: string
  readonly trigger: CheckpointTrigger
  readonly focus: string | null
  readonly dryRun: boolean
  readonly startedAt: number
  readonly stage: string
  readonly outputChars: number
  readonly outputTokens: number
  readonly trimmed: number | null
  readonly savedTokens: number | null
  /** Which summary stream the text belongs to (a retry starts a new one). */
  readonly stream: number
  /** The stream's text so far: its last LIVE_TEXT_MAX_CHARS characters. */
  readonly text: string
  /** Where the text received so far ends in the stream; the next piece starts here or later. */
  readonly textEnd: number
  /** Characters of the stream not in `text` (dropped from its start, or never sent because a burst sent its tail). */
  readonly textHidden: number
}

/** The snapshot after one compaction event: null once the compaction drafted, applied or failed. */
export function nextLiveCompaction(live: LiveCompactionSnapshot | null, e: CompactionEvent, now: number): LiveCompactionSnapshot | null {
  switch (e.type) {
    case 'started':
      return {
        compactionId: e.compactionId,
        trigger: e.trigger,
        focus: e.focus,
        dryRun: e.dryRun,
        startedAt: now,
        stage: 'started',
        outputChars: 0,
        outputTokens: 0,
        trimmed: null,
        savedTokens: null,
        stream: 0,
        text: '',
        textEnd: 0,
        textHidden: 0,
      }
    case 'progressed': {
      if (!live || live.compactionId !== e.compactionId) return live
      const p = e.progress
      let next: LiveCompactionSnapshot = { ...live, stage: p.stage }
      if (p.stage === 'trimmed') next = { ...next, trimmed: p.trimmed, savedTokens: p.savedTokens }
      if (p.stage === 'summary_streaming') {
        const base = p.stream === next.stream ? next : { ...next, stream: p.stream, text: '', textEnd: 0, textHidden: 0 }
        const end = p.textOffset + p.text.length
        let text = base.text
        let hidden = base.textHidden
        if (end > base.textEnd) {
          hidden += Math.max(0, p.textOffset - base.textEnd)
          text += p.text.slice(Math.max(0, base.textEnd - p.textOffset))
          if (text.length > LIVE_TEXT_MAX_CHARS) {
            hidden += text.length - LIVE_TEXT_MAX_CHARS
            text = text.slice(text.length - LIVE_TEXT_MAX_CHARS)
          }
        }
        next = { ...base, outputChars: p.outputChars, outputTokens: p.outputTokens, text, textHidden: hidden, textEnd: Math.max(end, base.textEnd) }
      }
      return next
    }
    case 'drafted':
    case 'applied':
    case 'failed':
      return live?.compactionId === e.compactionId ? null : live
  }
}
