/**
 * Real token counts at positions of a walk. The engine only estimates tokens (ceil(chars / 4)); the service counts
 * them. Every pass's usage pins the real count at a few prefixes — what it read, where its writes ended — and those
 * counts belong to the prefix (its key), so they hold in every later request that shares it. Between pinned points
 * the estimate is scaled linearly; past the last one, towards the request's real total when that is known.
 */
import type { RequestWalk } from './walk'

export interface TokenScaleInput {
  readonly walk: RequestWalk
  /** Real cumulative tokens by prefix key. */
  readonly anchors: ReadonlyMap<string, number>
  /** The request's real input total (read + written + uncached), when known: count_tokens before, usage after. */
  readonly realTotal: number | null
  /** Real tokens per estimated token to use when nothing better is known (from earlier passes; 1 with none). */
  readonly fallbackRatio: number
}

export class TokenScale {
  /** Positions with a known real count, ascending, and their counts. */
  private readonly pinnedAt: number[] = []
  private readonly pinnedTokens: number[] = []

  constructor(private readonly input: TokenScaleInput) {
    const { walk, anchors } = input
    for (let i = 0; i < walk.keys.length; i++) {
      const known = anchors.get(walk.keys[i]!)
      if (known !== undefined) {
        this.pinnedAt.push(i)
        this.pinnedTokens.push(known)
      }
    }
  }

  /** Whether the real count at `position` is known rather than scaled. */
  exact(position: number): boolean {
    return position < 0 || this.input.anchors.has(this.input.walk.keys[position] ?? '')
  }

  /** Real cumulative tokens through `position` (0 for -1, "nothing"). */
  at(position: number): number {
    if (position < 0) return 0
    const { walk, realTotal, fallbackRatio } = this.input
    const est = walk.cum[position] ?? walk.estimatedTotal
    // The pinned points around the position.
    let lo = -1
    let hi = this.pinnedAt.length
    let left = 0
    let right = this.pinnedAt.length - 1
    while (left <= right) {
      const mid = (left + right) >> 1
      if (this.pinnedAt[mid]! <= position) {
        lo = mid
        left = mid + 1
      } else {
        hi = mid
        right = mid - 1
      }
    }
    if (lo >= 0 && this.pinnedAt[lo] === position) return this.pinnedTokens[lo]!
    const loPos = lo >= 0 ? this.pinnedAt[lo]! : -1
    const loReal = lo >= 0 ? this.pinnedTokens[lo]! : 0
    const loEst = loPos >= 0 ? walk.cum[loPos]! : 0
    let hiEst: number
    let hiReal: number
    if (hi < this.pinnedAt.length) {
      hiEst = walk.cum[this.pinnedAt[hi]!]!
      hiReal = this.pinnedTokens[hi]!
    } else if (realTotal !== null && realTotal > loReal) {
      hiEst = walk.estimatedTotal
      hiReal = realTotal
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
