/**
 * Real token counts at positions of a walk. The engine only estimates tokens (ceil(chars / 4)); the service counts
 * them. Every pass's usage pins the real count at a few prefixes — what it read, where its writes ended — and those
 * counts belong to the prefix (its key), so they hold in every later request that shares it. Between pinned points
 * the estimate is scaled linearly; past the last one, towards the request's real total when that is known.
 *
 * A scaled count is as good as the pinned points around it are near: the count through the system blocks, scaled
 * in the first pass (whose usage pinned a count a few dozen tokens after them), is off by a few tokens; scaled again
 * in a pass that sends them with a long conversation after them and nothing pinned between (the first pass after a
 * compaction, a summary request whose trimmed tool results start early), it takes the ratio of the whole
 * conversation and can be off by more than a system block's size. So each pass keeps, with the count at each of its
 * breakpoints, how far that count lay from a real one (`span`, in estimated tokens), and a later request sharing the
 * prefix takes the count made nearest a real one as a point to scale from, where it is nearer than its own.
 */
import type { RequestWalk } from './walk'

/**
 * Tokens the service counts after a request's last block (the opening of the assistant's turn): in every request's
 * total, count_tokens' and the usage's, but in no prefix, so never cached. A request whose breakpoint sits on its last
 * block reports them as its `input_tokens`: 3 in the recorded exchange with the real API
 * (test/fixtures/real/pydantic-ai/test_anthropic_cache_count_tokens.yaml: count_tokens 1,114; the pass read 1,111 and
 * paid 3). The last block ends that many tokens before the total, which matters where a prefix is measured against a
 * model's minimum: a 4,098-token request on a 4,096 minimum has a 4,095-token prefix, which caches nothing.
 */
export const TOKENS_AFTER_LAST_BLOCK = 3

export interface TokenScaleInput {
  readonly walk: RequestWalk
  /** Real cumulative tokens by prefix key. */
  readonly anchors: ReadonlyMap<string, number>
  /**
   * Real cumulative tokens the service's counter gave (count_tokens through a tool or system block, with no pass's
   * usage behind them): as exact as `anchors`, which win where both know a key.
   */
  readonly counted?: ReadonlyMap<string, number>
  /** The request's real input total (read + written + uncached), when known: count_tokens before, usage after. */
  readonly realTotal: number | null
  /** Real tokens per estimated token to use when nothing better is known (from earlier passes; 1 with none). */
  readonly fallbackRatio: number
  /**
   * Scaled counts earlier requests made at prefix keys, with their span: how many estimated tokens lay between the
   * prefix and the nearest real count in that request. Used where that is nearer than this request's own pins.
   */
  readonly estimates?: ReadonlyMap<string, ScaledCount>
}

export interface ScaledCount {
  readonly tokens: number
  readonly span: number
}

/** Keeps, for each key, the scaled count made nearest a real count. */
export function keepNearest(into: Map<string, ScaledCount>, key: string, count: ScaledCount): void {
  const held = into.get(key)
  if (!held || count.span < held.span) into.set(key, count)
}

export class TokenScale {
  /** Positions with a known real count, ascending, and their counts. */
  private readonly pinnedAt: number[] = []
  private readonly pinnedTokens: number[] = []
  /** For each pinned point, its span (0 for a real count; an earlier request's for a count it scaled). */
  private readonly pinnedSpan: number[] = []

  constructor(private readonly input: TokenScaleInput) {
    const { walk, estimates } = input
    for (let i = 0; i < walk.keys.length; i++) {
      const known = this.real(walk.keys[i]!)
      if (known !== undefined) {
        this.pinnedAt.push(i)
        this.pinnedTokens.push(known)
        this.pinnedSpan.push(0)
      }
    }
    if (!estimates || estimates.size === 0) return
    // Counts earlier requests scaled nearer a real count than this one can: points to scale from, in position
    // order, each kept only when it lies between the points around it (counts grow along the prompt).
    const soft: Array<{ at: number; tokens: number; span: number }> = []
    for (let i = 0; i < walk.keys.length; i++) {
      const key = walk.keys[i]!
      const earlier = estimates.get(key)
      if (!earlier || this.real(key) !== undefined) continue
      if (earlier.span < this.span(i)) soft.push({ at: i, tokens: earlier.tokens, span: earlier.span })
    }
    if (soft.length === 0) return
    const hardAt = [...this.pinnedAt]
    const hardTokens = [...this.pinnedTokens]
    const at: number[] = []
    const tokens: number[] = []
    const spans: number[] = []
    let h = 0
    let below = 0
    for (const s of soft) {
      while (h < hardAt.length && hardAt[h]! < s.at) {
        at.push(hardAt[h]!)
        tokens.push(hardTokens[h]!)
        spans.push(0)
        below = hardTokens[h]!
        h++
      }
      const above = h < hardAt.length ? hardTokens[h]! : input.realTotal !== null ? input.realTotal - TOKENS_AFTER_LAST_BLOCK : Number.POSITIVE_INFINITY
      if (s.tokens <= below || s.tokens >= above) continue
      at.push(s.at)
      tokens.push(s.tokens)
      spans.push(s.span)
      below = s.tokens
    }
    for (; h < hardAt.length; h++) {
      at.push(hardAt[h]!)
      tokens.push(hardTokens[h]!)
      spans.push(0)
    }
    this.pinnedAt.splice(0, this.pinnedAt.length, ...at)
    this.pinnedTokens.splice(0, this.pinnedTokens.length, ...tokens)
    this.pinnedSpan.splice(0, this.pinnedSpan.length, ...spans)
  }

  /** The real count of the prefix `key`, from usage or the service's counter; undefined when only estimated. */
  private real(key: string): number | undefined {
    return this.input.anchors.get(key) ?? this.input.counted?.get(key)
  }

  /** The index among the pinned points of the last one at or before `position` (-1: none). */
  private pinnedBefore(position: number): number {
    let lo = -1
    let left = 0
    let right = this.pinnedAt.length - 1
    while (left <= right) {
      const mid = (left + right) >> 1
      if (this.pinnedAt[mid]! <= position) {
        lo = mid
        left = mid + 1
      } else right = mid - 1
    }
    return lo
  }

  /**
   * How far, in estimated tokens, the count at `position` lies from a real one: 0 where it is real, else the
   * distance to the nearer pinned point around it (the start of the prompt, the request's real total when known),
   * plus that point's own span.
   */
  span(position: number): number {
    if (position < 0) return 0
    const { walk, realTotal } = this.input
    const est = walk.cum[position] ?? walk.estimatedTotal
    const lo = this.pinnedBefore(position)
    if (lo >= 0 && this.pinnedAt[lo] === position) return this.pinnedSpan[lo]!
    const fromBelow = (lo >= 0 ? this.pinnedSpan[lo]! : 0) + est - (lo >= 0 ? walk.cum[this.pinnedAt[lo]!]! : 0)
    const hi = lo + 1
    const fromAbove =
      hi < this.pinnedAt.length ? this.pinnedSpan[hi]! + walk.cum[this.pinnedAt[hi]!]! - est : realTotal !== null ? walk.estimatedTotal - est : Number.POSITIVE_INFINITY
    return Math.max(0, Math.min(fromBelow, fromAbove))
  }

  /** Whether the real count at `position` is known rather than scaled. */
  exact(position: number): boolean {
    return position < 0 || this.real(this.input.walk.keys[position] ?? '') !== undefined
  }

  /** Real cumulative tokens through `position` (0 for -1, "nothing"). */
  at(position: number): number {
    if (position < 0) return 0
    const { walk, realTotal, fallbackRatio } = this.input
    const est = walk.cum[position] ?? walk.estimatedTotal
    // The pinned points around the position.
    const lo = this.pinnedBefore(position)
    const hi = lo + 1
    if (lo >= 0 && this.pinnedAt[lo] === position) return this.pinnedTokens[lo]!
    const loPos = lo >= 0 ? this.pinnedAt[lo]! : -1
    const loReal = lo >= 0 ? this.pinnedTokens[lo]! : 0
    const loEst = loPos >= 0 ? walk.cum[loPos]! : 0
    let hiEst: number
    let hiReal: number
    if (hi < this.pinnedAt.length) {
      hiEst = walk.cum[this.pinnedAt[hi]!]!
      hiReal = this.pinnedTokens[hi]!
    } else if (realTotal !== null && realTotal - TOKENS_AFTER_LAST_BLOCK > loReal) {
      // The last block ends before the tokens the service adds after it (TOKENS_AFTER_LAST_BLOCK).
      hiEst = walk.estimatedTotal
      hiReal = realTotal - TOKENS_AFTER_LAST_BLOCK
    } else {
      return Math.round(loReal + (est - loEst) * fallbackRatio)
    }
    if (hiEst <= loEst) return loReal
    return Math.round(loReal + ((est - loEst) * (hiReal - loReal)) / (hiEst - loEst))
  }

  /** The request's real input total, or the scaled estimate. */
  total(): number {
    return this.input.realTotal ?? this.at(this.input.walk.blocks.length - 1)
  }

  /** Real tokens per estimated token on this request, when its real total is known. */
  ratio(): number | null {
    const { realTotal, walk } = this.input
    return realTotal !== null && walk.estimatedTotal > 0 ? realTotal / walk.estimatedTotal : null
  }
}
