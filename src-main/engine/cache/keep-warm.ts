/**
 * Keeping the cache warm through an idle gap (docs/cache-attribution.md, "Keep-warm"): shortly before the
 * 5-minute entry at a pass's tail expires, one cache pre-warm request (`max_tokens: 0`, not streamed,
 * docs/reference/anthropic-api.md §5.1) carries the next pass's prefix — the history through the final assistant
 * message — with a 1-hour breakpoint at its tail. The next pass within the hour then reads everything.
 *
 * What it costs against what it saves (§5.5): the pre-warm reads the prefix the last pass cached (0.1× input) and
 * writes the answer that came back as a 1h entry (2× input); without it, a return after the 5-minute entry expired
 * writes the whole prefix again (1.25×). It is sent only when the prefix is above the model's minimum (§5.2) and the
 * pre-warm costs at most `KEEP_WARM_MAX_COST_SHARE` of the miss it prevents.
 *
 * The request ends with a short user message after the breakpoint (uncached, a few tokens): Claude 4.6+ refuse a
 * conversation that ends with an assistant message (§2.3), and a final tool call must be answered by tool results
 * (§2.3), so the placeholder answers them. Breakpoints before the 1h one must be 1h too (§5.4), so the system
 * blocks' markers go out as 1h markers. They write nothing (the read at the tail is past them), but their lookups
 * refresh the system entries: without them only the tail's entry would outlive the gap, and the first pass after it
 * that changes an early message (a compaction, a context edit) would find the tools and system expired too.
 */
import type { ContentBlock, Usage, UserContentBlock, WireMessage } from '../model/wire'
import type { HistoryMessage } from '../prompt/input'
import type { BreakpointPlacement, PlannedMessage, PlannedSystemBlock, PromptPlan } from '../prompt/plan'
import type { CacheModel, CachePrices } from './pricing'
import { LOOKBACK_POSITIONS } from './predict'
import { TTL_MS } from './state'

/** When the pre-warm goes out, counted from the start of the pass whose tail it keeps (the TTL counts from there). */
export const KEEP_WARM_DELAY_MS = 4.5 * 60_000
/** The latest a pre-warm may go out, from that start: later, the 5-minute entries may already be gone. */
export const KEEP_WARM_LATEST_MS = TTL_MS['5m'] - 15_000
/**
 * The pre-warm is sent only when it costs at most this share of what a return within the hour saves: it then pays
 * for itself if the user comes back within the hour at least every other time.
 */
export const KEEP_WARM_MAX_COST_SHARE = 0.5
/** Tokens the placeholder after the breakpoint adds (uncached), for the estimate. */
export const KEEP_WARM_PLACEHOLDER_TOKENS = 20

/** The text of the user message that follows the warmed prefix; never answered (max_tokens 0). */
export const KEEP_WARM_PLACEHOLDER = '(cache keep-warm request: nothing is generated for it)'
/** What a pending tool call's placeholder result says. */
export const KEEP_WARM_PENDING_RESULT = '(cache keep-warm request: the result is not known yet)'

export type KeepWarmSkip = 'no_usage' | 'below_minimum' | 'not_worth_it' | 'too_late'

export interface KeepWarmEstimate {
  /** Tokens of the next pass's prefix: the last pass's input and the answer it got. */
  readonly prefixTokens: number
  /** Of those, what the last pass left cached (its read and writes). */
  readonly cachedTokens: number
  /** What the pre-warm costs (read the cached part, 1h-write the rest, the placeholder uncached). */
  readonly costUsd: number
  /** What a return within the hour saves against a miss (the prefix read instead of written at 5m). */
  readonly savesUsd: number
}

export type KeepWarmDecision =
  | ({ readonly send: true; readonly at: number } & KeepWarmEstimate)
  | ({ readonly send: false; readonly reason: KeepWarmSkip } & Partial<KeepWarmEstimate>)

export interface KeepWarmInput {
  /** The start of the pass whose tail is to be kept (its last attempt's start). */
  readonly startedAt: number
  /** Now: when the pass was committed. */
  readonly now: number
  /** The pass's usage. */
  readonly usage: Usage | null
  readonly model: CacheModel
  readonly delayMs?: number
}

/** The standard multipliers (§5.5), for a model without prices: the decision needs only their ratios. */
const RELATIVE: CachePrices = { inputPerMTok: 1, outputPerMTok: 5, cacheWrite5mPerMTok: 1.25, cacheWrite1hPerMTok: 2, cacheReadPerMTok: 0.1 }

/** Whether, and when, to keep the tail of a pass warm. */
export function keepWarmDecision(input: KeepWarmInput): KeepWarmDecision {
  const { usage, model } = input
  if (!usage) return { send: false, reason: 'no_usage' }
  const cachedTokens = usage.cache_read_input_tokens + usage.cache_creation_input_tokens
  const prefixTokens = cachedTokens + usage.input_tokens + usage.output_tokens
  const prices = model.prices ?? RELATIVE
  const delta = prefixTokens - cachedTokens
  const costUsd = (cachedTokens * prices.cacheReadPerMTok + delta * prices.cacheWrite1hPerMTok + KEEP_WARM_PLACEHOLDER_TOKENS * prices.inputPerMTok) / 1_000_000
  const savesUsd = (prefixTokens * (prices.cacheWrite5mPerMTok - prices.cacheReadPerMTok)) / 1_000_000
  const estimate: KeepWarmEstimate = { prefixTokens, cachedTokens, costUsd, savesUsd }
  if (prefixTokens < model.minCacheableTokens) return { send: false, reason: 'below_minimum', ...estimate }
  if (costUsd > KEEP_WARM_MAX_COST_SHARE * savesUsd) return { send: false, reason: 'not_worth_it', ...estimate }
  const at = Math.max(input.now, input.startedAt + (input.delayMs ?? KEEP_WARM_DELAY_MS))
  if (at > input.startedAt + KEEP_WARM_LATEST_MS) return { send: false, reason: 'too_late', ...estimate }
  return { send: true, at, ...estimate }
}

/**
 * The history a pre-warm sends: the session's history through its last assistant message, then the placeholder
 * (tool results for the calls that message made, else a line of text). Null when there is no assistant message.
 */
export function keepWarmHistory(history: ReadonlyArray<HistoryMessage>): { readonly history: ReadonlyArray<HistoryMessage>; readonly tailIndex: number } | null {
  let last = history.length - 1
  while (last >= 0 && history[last]!.message.role !== 'assistant') last--
  if (last <= 0) return null
  const answer = history[last]!.message
  const calls = answer.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : []))
  const content: UserContentBlock[] = calls.length > 0 ? calls.map((id) => ({ type: 'tool_result', tool_use_id: id, content: KEEP_WARM_PENDING_RESULT })) : [{ type: 'text', text: KEEP_WARM_PLACEHOLDER }]
  const placeholder: HistoryMessage = { message: { role: 'user', content }, provenance: { entryIds: [], kind: 'synthetic' } }
  return { history: [...history.slice(0, last + 1), placeholder], tailIndex: last }
}

function withoutMarker<B extends object>(block: B): B {
  if (!('cache_control' in block)) return block
  const { cache_control: _drop, ...rest } = block as B & { readonly cache_control?: unknown }
  return rest as B
}

/**
 * Whether a pre-warm with these messages would drop thinking the last pass sent: on a model that strips earlier
 * turns' thinking (§2.5), a text placeholder is a new human turn, so the thinking of the turn it follows leaves the
 * prefix and everything from there would be written again at the 1h price — a cost the estimate does not count, and
 * the prefix the next pass reads only if the user sends text. Such a gap is not kept warm. A placeholder of tool
 * results (a call waiting) strips nothing.
 */
export function prewarmStripsThinking(messages: ReadonlyArray<WireMessage>): boolean {
  const placeholder = messages.at(-1)
  if (!placeholder || placeholder.role !== 'user' || placeholder.content.every((b) => b.type === 'tool_result')) return false
  for (let i = messages.length - 2; i >= 0; i--) {
    const m = messages[i]!
    if (m.role === 'user' && m.content.some((b) => b.type !== 'tool_result')) return false
    if (m.role === 'assistant' && m.content.some((b) => b.type === 'thinking' || b.type === 'redacted_thinking')) return true
  }
  return false
}

/**
 * Whether the pre-warm's one marker, at the end of the answer, reaches the entry the last pass left at its own tail
 * (the block just before the answer) within the service's 20-position lookback (§6.4). An answer of 20 blocks or
 * more (that many parallel tool calls) puts that entry out of reach: the pre-warm would write the whole prefix again
 * at the 1-hour price, more than the miss it is sent to prevent, so such a gap is not kept warm.
 */
export function prewarmReachesLastTail(plan: PromptPlan): boolean {
  for (const m of plan.messages) {
    const marked = m.blocks.findIndex((b) => b.breakpoint === 'previous_tail')
    // The marked block and those before it in the answer lie between the marker and the last pass's tail.
    if (marked >= 0) return marked + 1 < LOOKBACK_POSITIONS
  }
  return false
}

/**
 * The pre-warm's plan, from the plan of `keepWarmHistory(...)` built with `previousTailIndex` at the assistant
 * message: `max_tokens: 0`; the tail of the assistant message marked 1h; the placeholder unmarked (it is never
 * read); the system markers made 1h (1h markers must come first, §5.4), so the pre-warm refreshes the system entries
 * as the passes do (a hit exactly at a marker takes its TTL when longer, §6.4's refresh as the simulator models it).
 * Null when the plan has no marker on the assistant message, or thinks with a budget.
 */
export function keepWarmPlan(plan: PromptPlan): PromptPlan | null {
  const tail = plan.breakpoints.find((b) => b.tag === 'previous_tail')
  // A pre-warm must carry the passes' thinking setting (it salts the messages level, §5.3), and `max_tokens: 0`
  // refuses `thinking.type: "enabled"` (§2.1): such a session cannot be kept warm.
  if (!tail || plan.thinking?.type === 'enabled') return null
  const system: PlannedSystemBlock[] = plan.system.map((b) => (b.breakpoint ? { ...b, wire: { ...b.wire, cache_control: { type: 'ephemeral', ttl: '1h' } } } : b))
  const messages: PlannedMessage[] = plan.messages.map((m) => {
    if (!m.blocks.some((b) => b.breakpoint !== null)) return m
    const content = m.wire.content.map((block, j) => {
      const tag = m.blocks[j]?.breakpoint ?? null
      if (tag === 'previous_tail') return { ...(block as ContentBlock), cache_control: { type: 'ephemeral', ttl: '1h' } } as ContentBlock
      return tag ? withoutMarker(block as ContentBlock) : block
    })
    const blocks = m.blocks.map((b) => (b.breakpoint === null || b.breakpoint === 'previous_tail' ? b : { ...b, breakpoint: null }))
    return { ...m, wire: { role: m.wire.role, content } as WireMessage, blocks }
  })
  const breakpoints: BreakpointPlacement[] = plan.breakpoints.flatMap((b) => (b.tag === 'previous_tail' || b.area === 'system' ? [{ ...b, ttl: '1h' as const }] : []))
  return { ...plan, maxTokens: 0, system, messages, breakpoints }
}
