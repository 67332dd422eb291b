/**
 * The summary as it forms, for the UI: a summary pass's text deltas turned into `summary_streaming` progress that
 * carries the text itself, throttled and bounded so a long summary does not flood the renderer.
 *
 * - The first delta of a stream goes out at once; after that, at most one progress every `intervalMs` (on the
 *   injected clock, no timers: a delta that arrives after the interval sends what gathered since), and `flush()`
 *   sends the rest when the pass ends. Nothing is lost in between: each progress carries the text since the last.
 * - `text` is at most `maxChars` characters. When more gathered than that (a burst, as with an instant stream), only
 *   its last `maxChars` go out and `textOffset` says where they start, so a reader sees the gap.
 * - Thinking that comes before the text (a thinking model) is counted, not shown: `thinkingChars` grows while the
 *   model thinks, so the view can say so instead of looking stalled; its progress carries no text.
 * - `stream` numbers the streams of one compaction: a new message (a retried attempt, or the standalone request
 *   that follows a summary that called a tool) starts a new one, and its text starts again at offset 0.
 */
import type { Clock, ModelStreamEvent } from '../ports'
import { estimateTokensFromChars } from '../prompt/estimate'

export const SUMMARY_PROGRESS_INTERVAL_MS = 100
export const SUMMARY_PROGRESS_MAX_CHARS = 2000

export interface SummaryStreamingProgress {
  readonly stage: 'summary_streaming'
  readonly form: 'cut' | 'upto' | 'standalone'
  /** 1 for the compaction's first stream; a new message starts the next. */
  readonly stream: number
  /** Characters of summary text received so far in this stream. */
  readonly outputChars: number
  /** Estimated from the characters (ceil(chars / 4)); the real count arrives with the pass. */
  readonly outputTokens: number
  /** The text from `textOffset` to `outputChars`: what arrived since the previous progress (its tail if longer). */
  readonly text: string
  readonly textOffset: number
  /** Characters of thinking received so far in this stream (the model thinks before it writes). */
  readonly thinkingChars: number
}

export interface SummaryStreamMeterOptions {
  readonly clock: Clock
  readonly form: SummaryStreamingProgress['form']
  /** Numbers a new stream of this compaction (the caller counts across passes). */
  readonly nextStream: () => number
  readonly emit: (progress: SummaryStreamingProgress) => void
  readonly intervalMs?: number
  readonly maxChars?: number
}

export interface SummaryStreamMeter {
  onEvent(event: ModelStreamEvent): void
  /** Sends what is still pending (call when the pass ends, whatever its outcome). */
  flush(): void
}

export function summaryStreamMeter(options: SummaryStreamMeterOptions): SummaryStreamMeter {
  const intervalMs = options.intervalMs ?? SUMMARY_PROGRESS_INTERVAL_MS
  // Two at least, so a piece cut before a surrogate pair's second half still holds a character.
  const maxChars = Math.max(2, options.maxChars ?? SUMMARY_PROGRESS_MAX_CHARS)
  let stream = 0
  let total = 0
  let pending: string[] = []
  let pendingChars = 0
  let thinking = 0
  let thinkingPending = false
  let lastSentAt: number | null = null

  const send = (): void => {
    if (pendingChars === 0 && !thinkingPending) return
    let text = pending.join('')
    let offset = total - text.length
    if (text.length > maxChars) {
      let cut = text.length - maxChars
      // Never start on the second half of a surrogate pair.
      const code = text.charCodeAt(cut)
      if (code >= 0xdc00 && code <= 0xdfff) cut += 1
      text = text.slice(cut)
      offset += cut
    }
    pending = []
    pendingChars = 0
    thinkingPending = false
    lastSentAt = options.clock.now()
    options.emit({ stage: 'summary_streaming', form: options.form, stream, outputChars: total, outputTokens: estimateTokensFromChars(total), text, textOffset: offset, thinkingChars: thinking })
  }

  return {
    onEvent(event) {
      // The client's word that the request goes again: the next attempt's message_start starts the next stream.
      if (event.type === 'retrying') return
      if (event.type === 'message_started' || stream === 0) {
        // A new message: the text of the one before (an attempt that failed mid-stream) is not the summary.
        stream = options.nextStream()
        total = 0
        pending = []
        pendingChars = 0
        thinking = 0
        thinkingPending = false
        lastSentAt = null
      }
      if (event.type === 'thinking_delta' && event.thinking.length > 0) {
        thinking += event.thinking.length
        thinkingPending = true
      } else if (event.type === 'text_delta' && event.text.length > 0) {
        total += event.text.length
        pending.push(event.text)
        pendingChars += event.text.length
      } else return
      if (lastSentAt === null || options.clock.now() - lastSentAt >= intervalMs) send()
    },
    flush: send,
  }
}
