/**
 * The best possible hit for a pass: the physical limit no cache policy can beat. Content that did not exist when
 * the previous pass was sent (the answer it got back, new tool results, new input, a compaction summary) can only be
 * paid in full; everything before the first such block could, in principle, have been read from the cache — unless
 * the idle gap since the previous pass is longer than the longest TTL (1h, docs/reference/anthropic-api.md §5.1), or
 * that prefix is shorter than the model's minimum (§5.2: no entry can hold it), or there was no previous pass at all.
 *
 * On a model that drops earlier turns' thinking (§2.5), a new human turn takes the thinking out of the turns before
 * it: from the first assistant message that loses its thinking, the service sees a prefix no earlier request had,
 * so that message counts as new, as no cache policy can change what the model strips.
 *
 * What the limit does not excuse: edits above the tail (an instruction file applied now, a tool set change, a
 * context edit), a model switch, an expired 5-minute entry, a breakpoint the lookback could not reach. Those are
 * choices, and each miss they cause gets a cause (decision 0013).
 */
import { contentDivergence } from './diff'
import type { TokenScale } from './scale'
import { LONGEST_TTL_MS } from './state'
import type { RequestWalk } from './walk'

export type LimitReason = 'new_tail' | 'cold' | 'idle_beyond_ttl' | 'below_minimum'

export interface BestHit {
  /** The last position that could have been read, -1 for none. */
  readonly position: number
  readonly tokens: number
  readonly reason: LimitReason
  /** Index of the first message that is new since the previous pass (the message count when none is). */
  readonly newFromMessage: number
  /** Idle time since the previous pass started, when there was one. */
  readonly idleMs: number | null
  /** The first message that counts as new because the model stripped its thinking (§2.5), when that set the limit. */
  readonly thinkingStrippedFrom?: number
  /** For `below_minimum`: the tokens of the prefix the previous pass left, which no entry could hold (§5.2). */
  readonly shortPrefixTokens?: number
  /**
   * Tokens an edit above the conversation (an instruction file applied now, a tool added) put in that the previous
   * request did not have: new content, which no cache held, so left out of `tokens` (editedAbove). An estimate: the
   * measured figure is the edit's price (edit-price.ts).
   */
  readonly editAdded?: number
}

/** Where each message came from: the session entries it was made from. */
export interface MessageOrigin {
  readonly entryIds: ReadonlyArray<string>
  readonly kind: string
}

/**
 * The first message of the current request made from an entry the previous request did not carry. Without
 * provenance, the conversation is taken to be append-only: messages past the previous request's count are new.
 */
export function firstNewMessage(
  current: ReadonlyArray<MessageOrigin> | null,
  previous: ReadonlyArray<MessageOrigin> | null,
  currentCount: number,
  previousCount: number,
): number {
  if (current && previous && current.length === currentCount) {
    // The builder keeps each message's provenance from pass to pass: the same entry list is the same message.
    let i = 0
    while (i < current.length && i < previous.length && current[i]!.entryIds === previous[i]!.entryIds) i++
    if (i === current.length) return currentCount
    // Every earlier message is still in place, in order: what follows was not sent before.
    if (i === previous.length) return i
    const seen = new Set<string>()
    for (const m of previous) for (const id of m.entryIds) seen.add(id)
    for (; i < current.length; i++) {
      const m = current[i]!
      if (m.entryIds.length === 0 || m.entryIds.some((id) => !seen.has(id))) return i
    }
    return currentCount
  }
  return Math.min(previousCount, currentCount)
}

/**
 * The first assistant message whose thinking the current request's model strips and the previous request's did not
 * have to (it came after the previous request's newest human turn), or null. The previous request is judged by the
 * current model's rule, so a model switch does not count as a strip of its own.
 */
export function newlyStrippedMessage(previous: RequestWalk | null, current: RequestWalk): number | null {
  if (current.thinkingStripped.length === 0) return null
  const before = previous ? previous.humanTurn : -1
  return current.thinkingStripped.find((i) => i >= before) ?? null
}

export interface LimitInput {
  readonly walk: RequestWalk
  readonly scale: TokenScale
  readonly minCacheableTokens: number
  /** The previous pass of the session: its start and how many messages it sent. Null for the first pass. */
  readonly previous: { readonly startedAt: number } | null
  readonly newFromMessage: number
  /** Set when newFromMessage is a message whose thinking the model stripped (newlyStrippedMessage). */
  readonly thinkingStripped?: boolean
  readonly now: number
}

export function bestPossibleHit(input: LimitInput): BestHit {
  const { walk, scale, minCacheableTokens, previous, newFromMessage, now } = input
  const none = (reason: LimitReason, idleMs: number | null): BestHit => ({ position: -1, tokens: 0, reason, newFromMessage, idleMs })
  if (!previous) return none('cold', null)
  const idleMs = Math.max(0, now - previous.startedAt)
  if (idleMs > LONGEST_TTL_MS) return none('idle_beyond_ttl', idleMs)
  let position = newFromMessage < walk.messageCount ? walk.messageStarts[newFromMessage]! - 1 : walk.blocks.length - 1
  // A breakpoint can only sit on a block that can carry one.
  while (position >= 0 && !walk.blocks[position]!.markable) position--
  if (position < 0) return none('cold', idleMs)
  const tokens = scale.at(position)
  if (tokens < minCacheableTokens) return { ...none('below_minimum', idleMs), shortPrefixTokens: tokens }
  return { position, tokens, reason: 'new_tail', newFromMessage, idleMs, ...(input.thinkingStripped ? { thinkingStrippedFrom: newFromMessage } : {}) }
}

/** The last position above the conversation (tools and system), -1 when there is none. */
function lastAboveMessages(walk: RequestWalk): number {
  return (walk.messageStarts[0] ?? walk.blocks.length) - 1
}

/**
 * The limit with an edit above the conversation taken into account. The limit counts everything before the first new
 * message as readable, but an edit to the tools or system that grew them added text no earlier request sent: that
 * part can only be paid in full, like the new tail, while the rest after the change is what the edit cost. Left in,
 * a pass after "CLAUDE.md applied now" said it lost the tokens the Files view priced plus the edit's own.
 *
 * What could have been read is then the previous request's prefix up to the same message, whose real count a usage
 * pinned when a breakpoint ended there (the usual case: the pass after a tool result or a reply); otherwise the
 * growth of the tools and system is estimated and scaled. An edit that shrank them leaves what is there now, less
 * than what the previous request had. A model switch is left as it is (the two requests are counted by different
 * models), and so is a change in the conversation itself (a context edit is a cost, not new content).
 */
export function editedAbove(limit: BestHit, before: RequestWalk | null, walk: RequestWalk, scale: TokenScale, known: (key: string) => number | undefined): BestHit {
  if (!before || limit.reason !== 'new_tail' || limit.position < 0) return limit
  if (before.salts.model !== walk.salts.model) return limit
  const end = lastAboveMessages(walk)
  const beforeEnd = lastAboveMessages(before)
  const d = contentDivergence(before, walk)
  if (!d || d.reason !== 'block' || d.position > end || limit.position < end) return limit
  const from = d.position - 1
  const spanEst = walk.cum[end]! - (from >= 0 ? walk.cum[from]! : 0)
  const grownEst = spanEst - (before.cum[beforeEnd]! - (from >= 0 ? before.cum[from]! : 0))
  // Real tokens per estimated one over the changed part, as this request's scale has them.
  const grownReal = spanEst > 0 ? Math.round((grownEst * (scale.at(end) - scale.at(from))) / spanEst) : 0
  // The previous request's real count at the same message, when one is known (`known`): a usage's that pinned the
  // prefix, or a count made while an edit was priced. A breakpoint's own count may be a scaled estimate, so only real
  // counts are taken.
  const key = before.keys[limit.position - end + beforeEnd]
  const pinned = key === undefined ? undefined : known(key)
  const readable = pinned !== undefined ? pinned + Math.min(0, grownReal) : limit.tokens - Math.max(0, grownReal)
  if (readable === limit.tokens) return limit
  return { ...limit, tokens: readable, ...(grownReal > 0 ? { editAdded: grownReal } : {}) }
}
