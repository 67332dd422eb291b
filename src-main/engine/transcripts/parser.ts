/**
 * Incremental JSONL parsing: text arrives in chunks of any size (a stream read by an adapter, or a whole file), and
 * complete lines are parsed as they close. A line longer than the limit is dropped while it is still arriving, so a
 * hostile file cannot make the parser buffer it.
 */
import { DEFAULT_MAX_LINE_CHARS, parseLine } from './parse-line'
import { SKIP_REASONS, type SkipCounts, type SkipReason, type TranscriptRecord } from './records'

export interface ParsedTranscript {
  readonly records: ReadonlyArray<TranscriptRecord>
  /** Non-blank lines seen, parsed or not. */
  readonly lineCount: number
  readonly skipped: SkipCounts
  readonly skippedTotal: number
  /** Line numbers of skipped lines (first 100 only), for a user who wants to look. */
  readonly skippedLines: ReadonlyArray<{ readonly line: number; readonly reason: SkipReason }>
}

export interface ParserOptions {
  readonly maxLineChars?: number
}

const MAX_REPORTED_SKIPS = 100

export class TranscriptParser {
  private readonly maxLineChars: number
  private readonly records: TranscriptRecord[] = []
  private readonly counts: Record<SkipReason, number>
  private readonly skippedLines: Array<{ line: number; reason: SkipReason }> = []
  private pending = ''
  /** The line being assembled already exceeds the limit; its text is being discarded. */
  private pendingTooLong = false
  private lineNumber = 0
  private lineCount = 0
  private started = false

  constructor(options: ParserOptions = {}) {
    this.maxLineChars = options.maxLineChars ?? DEFAULT_MAX_LINE_CHARS
    this.counts = Object.fromEntries(SKIP_REASONS.map((r) => [r, 0])) as Record<SkipReason, number>
  }

  push(chunk: string): void {
    if (chunk.length === 0) return
    if (!this.started) {
      this.started = true
      if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1)
    }
    let start = 0
    for (;;) {
      const newline = chunk.indexOf('\n', start)
      if (newline === -1) break
      const piece = chunk.slice(start, newline)
      if (this.pendingTooLong) this.closeTooLong()
      else if (this.pending.length > 0) {
        const text = this.pending + piece
        this.pending = ''
        this.closeLine(text, false)
      } else this.closeLine(piece, false)
      start = newline + 1
    }
    if (start < chunk.length) this.append(chunk.slice(start))
  }

  /** Closes the last line (a file need not end with a newline) and returns everything parsed. */
  end(): ParsedTranscript {
    if (this.pendingTooLong) this.closeTooLong()
    else if (this.pending.length > 0) {
      const text = this.pending
      this.pending = ''
      this.closeLine(text, true)
    }
    const skippedTotal = SKIP_REASONS.reduce((sum, r) => sum + this.counts[r], 0)
    return {
      records: this.records,
      lineCount: this.lineCount,
      skipped: { ...this.counts },
      skippedTotal,
      skippedLines: this.skippedLines,
    }
  }

  private append(text: string): void {
    if (this.pendingTooLong) return
    if (this.pending.length + text.length > this.maxLineChars) {
      this.pending = ''
      this.pendingTooLong = true
    } else this.pending += text
  }

  private closeTooLong(): void {
    this.pendingTooLong = false
    this.lineNumber++
    this.lineCount++
    this.count(this.lineNumber, 'too_long')
  }

  private closeLine(raw: string, isLast: boolean): void {
    this.lineNumber++
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw
    if (text.trim().length === 0) return
    this.lineCount++
    const result = parseLine(text, this.lineNumber, this.maxLineChars, isLast)
    if (result.ok) this.records.push(result.record)
    else this.count(this.lineNumber, result.reason)
  }

  private count(line: number, reason: SkipReason): void {
    this.counts[reason]++
    if (this.skippedLines.length < MAX_REPORTED_SKIPS) this.skippedLines.push({ line, reason })
  }
}

/** Parses a whole transcript held in memory. */
export function parseTranscript(text: string, options: ParserOptions = {}): ParsedTranscript {
  const parser = new TranscriptParser(options)
  parser.push(text)
  return parser.end()
}
