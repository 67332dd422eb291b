/**
 * The totals `npm run import -- <file.jsonl> --summary` prints, as plain JSON. Field names follow the API's usage
 * fields so the numbers can be compared with other tools.
 *
 * Top-level figures cover every distinct request in the given file (1.x inline sidechains included, as they were
 * billed with the session); subagent files are listed apart and added up in `including_subagents`.
 */
import type { FileStats } from './file-stats'
import type { SkipReason } from './records'
import type { ImportedSession, SubagentSession } from './session'
import { sumUsage, type PriceFn, type UsageTotals } from './totals'

export interface UsageSummary {
  readonly requests: number
  readonly input_tokens: number
  readonly cache_read_input_tokens: number
  readonly cache_creation_input_tokens: number
  readonly output_tokens: number
  readonly cached_share: number
  /** Only when prices were given: the sum over requests whose model has a known price; null when none has. */
  readonly cost_usd?: number | null
  /** Only when prices were given: requests left out of `cost_usd` because their model has no known price. */
  readonly unpriced_requests?: number
}

export interface CompactionSummary {
  readonly trigger: 'auto' | 'manual' | null
  readonly pre_tokens: number | null
  readonly post_tokens: number | null
  /** Measured from the usage of the last request before the boundary and the first after it. */
  readonly context_tokens_before: number | null
  readonly context_tokens_after: number | null
  readonly at: string | null
  readonly line: number
  /** Length of the summary the conversation continued from. */
  readonly summary_chars: number | null
  /** The compaction call itself (2.x `subagents/agent-acompact-*.jsonl`), when its file was read. */
  readonly compaction_request: UsageSummary | null
}

export interface SubagentSummary extends UsageSummary {
  readonly id: string
  readonly kind: SubagentSession['kind']
  readonly file: string | null
  readonly parent_tool_use_id: string | null
  /** Inline (1.x) sidechain requests are part of the top-level figures already. */
  readonly in_file_totals: boolean
  readonly skipped_lines: number
}

export interface SessionSummary extends UsageSummary {
  readonly session_id: string | null
  readonly versions: ReadonlyArray<string>
  readonly models: ReadonlyArray<string>
  readonly title: string | null
  readonly compactions: ReadonlyArray<CompactionSummary>
  readonly lines: number
  readonly skipped_lines: number
  readonly skipped_by_reason: Partial<Record<SkipReason, number>>
  readonly subagents: ReadonlyArray<SubagentSummary>
  readonly including_subagents: UsageSummary
}

function round(value: number, digits: number): number {
  const f = 10 ** digits
  return Math.round(value * f) / f
}

function usageSummary(t: UsageTotals): UsageSummary {
  const base = {
    requests: t.requests,
    input_tokens: t.uncachedInputTokens,
    cache_read_input_tokens: t.cacheReadTokens,
    cache_creation_input_tokens: t.cacheWriteTokens,
    output_tokens: t.outputTokens,
    cached_share: round(t.cachedShare, 4),
  }
  if (t.costUsd === null) return base
  const noneKnown = t.requests > 0 && t.unpricedRequests === t.requests
  return { ...base, cost_usd: noneKnown ? null : round(t.costUsd, 4), unpriced_requests: t.unpricedRequests }
}

function skippedByReason(file: FileStats): Partial<Record<SkipReason, number>> {
  const out: Partial<Record<SkipReason, number>> = {}
  for (const [reason, count] of Object.entries(file.skipped) as Array<[SkipReason, number]>) if (count > 0) out[reason] = count
  return out
}

export function summarizeSession(session: ImportedSession, price?: PriceFn): SessionSummary {
  const fileTotals = sumUsage(session.file.requests, price)
  const fromFiles = session.children.filter((c) => c.source === 'file')
  return {
    session_id: session.sessionId,
    versions: session.versions,
    models: session.models,
    title: session.title,
    ...usageSummary(fileTotals),
    compactions: session.checkpoints.flatMap((c, index) => {
      if (c.kind !== 'compact') return []
      const call = session.children.find((child) => child.kind === 'compaction' && child.checkpointIndex === index)
      return [{
        trigger: c.trigger,
        pre_tokens: c.preTokens,
        post_tokens: c.postTokens,
        context_tokens_before: c.contextTokensBefore,
        context_tokens_after: c.contextTokensAfter,
        at: c.atMs === null ? null : new Date(c.atMs).toISOString(),
        line: c.line,
        summary_chars: c.summary === null ? null : c.summary.length,
        compaction_request: call === undefined ? null : usageSummary(sumUsage(call.requests, price)),
      }]
    }),
    lines: session.file.lineCount,
    skipped_lines: session.file.skippedTotal,
    skipped_by_reason: skippedByReason(session.file),
    subagents: session.children.map((c) => ({
      id: c.id,
      kind: c.kind,
      file: c.fileName,
      parent_tool_use_id: c.parentToolUseId,
      in_file_totals: c.source === 'inline',
      skipped_lines: c.file?.skippedTotal ?? 0,
      ...usageSummary(sumUsage(c.requests, price)),
    })),
    including_subagents: usageSummary(
      sumUsage([...session.file.requests, ...fromFiles.flatMap((c) => c.requests)], price),
    ),
  }
}
