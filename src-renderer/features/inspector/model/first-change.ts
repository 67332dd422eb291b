/**
 * The first block where two passes differ, in cache order (tools → system → messages): everything before it can be
 * read from the cache, everything from it on is paid again. That is the cache's story of a pass.
 *
 * Blocks compare without their `cache_control` markers, as the API's prefix hash does (docs/reference/
 * anthropic-api.md §6.1): a breakpoint moving off a message does not change the message. A model change, or a
 * `tool_choice` / `thinking` change (hashed before the first message, §6.1), is a change of its own. On a model that
 * drops earlier turns' thinking (§2.5), a request is compared as its cache saw it: without the thinking of the
 * assistant messages before its newest human turn.
 */
import { isRecord, type BlockInfo } from './blocks'
import { grouped as groupDigits } from '../../../ui/format'

export interface ComparableBlock {
  readonly path: string
  /** The block's JSON without cache_control: equal keys mean the cache sees the same block. */
  readonly key: string
  readonly tokens: number
  readonly label: string
}

export interface ComparablePass {
  readonly model: string | null
  /** The settings hashed before the messages: tool_choice and thinking. */
  readonly messageSalt: string
  readonly blocks: ReadonlyArray<ComparableBlock>
}

export type FirstChange =
  | { readonly kind: 'identical'; readonly identical: number }
  | { readonly kind: 'model'; readonly identical: 0; readonly from: string | null; readonly to: string | null; readonly tokensAfter: number }
  | {
      readonly kind: 'block'
      readonly identical: number
      /** Index in cache order of the first changed block of the newer pass (or where a removed one was). */
      readonly index: number
      readonly path: string
      readonly label: string
      readonly change: 'changed' | 'added' | 'removed' | 'settings'
      /** Estimated tokens of the newer pass from the change on: what the cache could not serve. */
      readonly tokensAfter: number
    }

/** A value with every `cache_control` member removed, at any depth. */
export function withoutCacheControl(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutCacheControl)
  if (!isRecord(value)) return value
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) if (k !== 'cache_control') out[k] = withoutCacheControl(v)
  return out
}

/** §2.5: the newest user message that carries something other than tool results, or -1. */
function newestHumanTurn(messages: ReadonlyArray<unknown>): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]
    if (isRecord(m) && m.role === 'user' && Array.isArray(m.content) && m.content.some((b) => !isRecord(b) || b.type !== 'tool_result')) return i
  }
  return -1
}

/** An assistant message without its thinking blocks, as a stripping model's cache sees it. */
function withoutThinking(message: Record<string, unknown>): Record<string, unknown> {
  const content = Array.isArray(message.content) ? message.content.filter((b) => !isRecord(b) || (b.type !== 'thinking' && b.type !== 'redacted_thinking')) : message.content
  return { ...message, content }
}

/** Builds the comparable form of a pass from its parsed body and its described blocks. */
export function comparablePass(body: Record<string, unknown> | null, blocks: ReadonlyArray<BlockInfo>, stripsPriorThinking = false): ComparablePass {
  const messages = body && Array.isArray(body.messages) ? (body.messages as unknown[]) : []
  const strippedBefore = stripsPriorThinking ? newestHumanTurn(messages) : -1
  const itemOf = (b: BlockInfo): unknown => {
    if (b.area === 'body' || !body) return null
    const list = body[b.area]
    const item = Array.isArray(list) ? list[b.index] : undefined
    return b.area === 'messages' && b.index < strippedBefore && isRecord(item) && item.role === 'assistant' ? withoutThinking(item) : item
  }
  return {
    model: body && typeof body.model === 'string' ? body.model : null,
    messageSalt: JSON.stringify([body?.tool_choice ?? null, body?.thinking ?? null]),
    blocks: blocks.map((b) => ({ path: b.path, key: JSON.stringify(withoutCacheControl(itemOf(b))) ?? '', tokens: b.tokens, label: b.label })),
  }
}

function tokensFrom(blocks: ReadonlyArray<ComparableBlock>, index: number): number {
  let sum = 0
  for (let i = index; i < blocks.length; i++) sum += blocks[i]!.tokens
  return sum
}

export function firstChange(before: ComparablePass, after: ComparablePass): FirstChange {
  if (before.model !== after.model) return { kind: 'model', identical: 0, from: before.model, to: after.model, tokensAfter: tokensFrom(after.blocks, 0) }
  const a = before.blocks
  const b = after.blocks
  const n = Math.max(a.length, b.length)
  const firstMessage = b.findIndex((x) => x.path.startsWith('messages['))
  for (let i = 0; i < n; i++) {
    const x = a[i]
    const y = b[i]
    if (i === firstMessage && before.messageSalt !== after.messageSalt)
      return { kind: 'block', identical: i, index: i, path: y!.path, label: 'tool_choice or thinking changed', change: 'settings', tokensAfter: tokensFrom(b, i) }
    if (x && y && x.key === y.key) continue
    if (!y) return { kind: 'block', identical: i, index: i, path: x!.path, label: x!.label, change: 'removed', tokensAfter: 0 }
    return { kind: 'block', identical: i, index: i, path: y.path, label: y.label, change: x ? 'changed' : 'added', tokensAfter: tokensFrom(b, i) }
  }
  return { kind: 'identical', identical: n }
}


/**
 * What the newer pass's own bill says about its tokens: the input the service counted and what of it was read from the
 * cache, and where that read ended among its blocks. With it the summary gives the tokens from the first change on as
 * counted where the count covers exactly them (the read ended right before the change), and otherwise scales the
 * blocks' estimates to the count, saying so; without it (no usage) the estimate is said to be one.
 */
export interface PassCounts {
  /** Input counted by the service: uncached + read from the cache + written to it. */
  readonly total: number
  readonly read: number
  /** How many blocks, in cache order, the read covered (0 when nothing was read); null when not known here. */
  readonly readBlocks: number | null
  /** The blocks' estimated tokens, all together: the scale from estimate to count. */
  readonly estimated: number
  /** Tokens paid for that could have been read (the attribution's `miss.tokens`), when counted. */
  readonly lost: number | null
}

interface UsageCounts {
  readonly input_tokens?: unknown
  readonly cache_read_input_tokens?: unknown
  readonly cache_creation_input_tokens?: unknown
}

const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0)

/**
 * The newer pass's counts: its usage, its blocks in cache order, the last block its read covered (by ordinal, -1 for
 * none: the breakpoint report's `cachedThroughOrdinal`) and its counted loss. Null without usage.
 */
export function passCounts(
  usage: UsageCounts | null,
  blocks: ReadonlyArray<Pick<BlockInfo, 'ordinal' | 'tokens'>>,
  cachedThroughOrdinal: number,
  lost: number | null = null,
): PassCounts | null {
  if (!usage || typeof usage.input_tokens !== 'number') return null
  const read = count(usage.cache_read_input_tokens)
  const total = count(usage.input_tokens) + read + count(usage.cache_creation_input_tokens)
  const last = blocks.findIndex((b) => b.ordinal === cachedThroughOrdinal)
  return { total, read, readBlocks: read === 0 ? 0 : last >= 0 ? last + 1 : null, estimated: blocks.reduce((sum, b) => sum + b.tokens, 0), lost }
}

/** The tokens from the change on, as exactly as the counts allow, in words. */
function tokensFromChange(index: number, estimate: number, counts: PassCounts | null): string {
  const n = groupDigits
  if (!counts) return `≈${n(estimate)} tokens from it on (estimated from characters: the pass has no count)`
  // The read ended right before the change: what follows it is exactly what the service counted as not read.
  if (counts.readBlocks === index) {
    const paid = counts.total - counts.read
    const lost = counts.lost !== null && counts.lost > 0 && counts.lost <= paid ? `; ${n(counts.lost)} of them could have been read` : ''
    if (counts.read === 0) return `nothing before it was read, and the pass paid for all ${n(counts.total)} tokens from it on (counted${lost})`
    return `the pass read the ${n(counts.read)} tokens before it from the cache and paid for the ${n(paid)} from it on (counted${lost})`
  }
  const scaled = counts.estimated > 0 ? Math.round((estimate * counts.total) / counts.estimated) : estimate
  return `≈${n(scaled)} tokens from it on (estimated from characters, scaled to the ${n(counts.total)} the pass counted)`
}

/**
 * "12 blocks identical, first change at block 13 (system[1] · system · session; changed): the pass read the 2,631
 * tokens before it from the cache and paid for the 1,326 from it on (counted)." The tokens from the change on are the
 * pass's own count where it covers exactly them (its read ended right before the change); otherwise the blocks'
 * estimates, scaled to the pass's count and said to be estimates (a diff may be against any earlier pass, and the
 * pass's read may end elsewhere). Across a model change nothing the older pass left can be read, but a switch back
 * reads what the newer pass's model kept from its own earlier passes: that read is the pass's own, whatever it is
 * compared with, and is said instead of "all paid again".
 */
export function summarizeChange(change: FirstChange, counts: PassCounts | null = null): string {
  switch (change.kind) {
    case 'identical':
      return `All ${change.identical} blocks identical: the whole prefix can be read from cache.`
    case 'model': {
      const models = `Model changed (${change.from ?? '?'} → ${change.to ?? '?'}): the cache is per model`
      if (counts && counts.read > 0)
        return `${models}, so nothing the earlier pass left cached is read; the ${groupDigits(counts.read)} tokens this pass read are what ${change.to ?? 'its model'} kept from its own earlier passes.`
      if (counts) return `${models}, so all ${groupDigits(counts.total)} tokens are paid again (counted).`
      return `${models}, so all ≈${groupDigits(change.tokensAfter)} tokens are paid again (estimated from characters).`
    }
    case 'block': {
      const what = change.change === 'added' ? 'new block' : change.change === 'removed' ? 'block removed' : change.change === 'settings' ? 'settings' : 'changed'
      const plural = change.identical === 1 ? 'block' : 'blocks'
      const head = `${change.identical} ${plural} identical, first change at block ${change.index + 1} (${change.path} · ${change.label}; ${what})`
      // A removed block was the older pass's last: nothing of this pass comes after it.
      if (change.change === 'removed') return `${head}: this pass ends before it.`
      const tokens = tokensFromChange(change.index, change.tokensAfter, counts)
      return counts?.readBlocks === change.index ? `${head}: ${tokens}.` : `${head}, ${tokens}.`
    }
  }
}
