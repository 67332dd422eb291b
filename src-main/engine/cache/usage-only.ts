/**
 * The best possible hit from usage alone, for requests whose bytes were not recorded (a Claude Code transcript,
 * docs/claude-code-import.md): each request's prompt is the previous request's prompt plus what came after it, so
 * everything the previous request sent could have been read — its whole input total — unless the gap since it is
 * longer than the longest TTL (1h), a compaction replaced the conversation in between (the summary is new content;
 * what the request read is then taken as its limit), or it is the first request.
 */
import type { Usage } from '../model/wire'
import { splitOfUsage } from './pricing'
import { LONGEST_TTL_MS } from './state'

export interface UsageRequest {
  readonly model: string
  /** When the request was sent, epoch ms; null when unknown. */
  readonly startedAt: number | null
  readonly usage: Usage
  /** A compaction lies between this request and the one before. */
  readonly afterCompaction: boolean
}

export type UsageLimitReason = 'first' | 'idle_beyond_ttl' | 'after_compaction' | 'previous_prompt'

export interface UsageAttribution {
  readonly read: number
  readonly total: number
  readonly limit: number
  readonly reason: UsageLimitReason
  readonly cachedShare: number
  /** limit − read, when positive: tokens that could have been read and were not. */
  readonly shortfall: number
}

export interface UsageLimits {
  readonly requests: ReadonlyArray<UsageAttribution>
  readonly read: number
  readonly total: number
  readonly limit: number
  readonly cachedShare: number
  readonly limitShare: number
}

export function usageLimits(requests: ReadonlyArray<UsageRequest>): UsageLimits {
  const out: UsageAttribution[] = []
  let previous: { total: number; startedAt: number | null } | null = null
  for (const r of requests) {
    const split = splitOfUsage(r.usage)
    let limit: number
    let reason: UsageLimitReason
    if (previous === null) {
      limit = 0
      reason = 'first'
    } else if (r.startedAt !== null && previous.startedAt !== null && r.startedAt - previous.startedAt > LONGEST_TTL_MS) {
      limit = 0
      reason = 'idle_beyond_ttl'
    } else if (r.afterCompaction) {
      limit = split.read
      reason = 'after_compaction'
    } else {
      limit = Math.min(previous.total, split.total)
      reason = 'previous_prompt'
    }
    limit = Math.max(limit, split.read)
    out.push({ read: split.read, total: split.total, limit, reason, cachedShare: split.total > 0 ? split.read / split.total : 0, shortfall: Math.max(0, limit - split.read) })
    previous = { total: split.total, startedAt: r.startedAt }
  }
  const read = out.reduce((s, r) => s + r.read, 0)
  const total = out.reduce((s, r) => s + r.total, 0)
  const limit = out.reduce((s, r) => s + r.limit, 0)
  return { requests: out, read, total, limit, cachedShare: total > 0 ? read / total : 0, limitShare: total > 0 ? limit / total : 0 }
}
