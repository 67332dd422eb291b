/** What reading one transcript file gave, before any interpretation: line counts, skips, its distinct requests. */
import type { ParsedTranscript } from './parser'
import type { SkipCounts, SkipReason } from './records'
import type { TranscriptRequest } from './requests'
import type { ThreadIndex } from './thread'

export interface FileStats {
  readonly lineCount: number
  readonly skipped: SkipCounts
  readonly skippedTotal: number
  readonly skippedLines: ReadonlyArray<{ readonly line: number; readonly reason: SkipReason }>
  /** Every distinct request in the file, including 1.x inline sidechains. */
  readonly requests: ReadonlyArray<TranscriptRequest>
  readonly duplicateUuids: number
}

/**
 * Why a file's lines were skipped, as the commands and refusals write it: "malformed_json ×3, invalid_field ×1" (the
 * reasons that occurred, in SKIP_REASONS order).
 */
export function skippedReasons(skipped: Readonly<Record<string, number>>): string {
  return Object.entries(skippedCounts(skipped))
    .map(([reason, n]) => `${reason} ×${n.toLocaleString('en-US')}`)
    .join(', ')
}

/** The reasons that occurred, with their counts: what a listing or an imported session carries (no zero counts). */
export function skippedCounts(skipped: Readonly<Record<string, number>>): Record<string, number> {
  return Object.fromEntries(Object.entries(skipped).filter(([, n]) => n > 0))
}

export function fileStats(parsed: ParsedTranscript, requests: ReadonlyArray<TranscriptRequest>, index: ThreadIndex): FileStats {
  return {
    lineCount: parsed.lineCount,
    skipped: parsed.skipped,
    skippedTotal: parsed.skippedTotal,
    skippedLines: parsed.skippedLines,
    requests,
    duplicateUuids: index.duplicateUuids,
  }
}
