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
 * "12 blocks identical, first change at block 13 (messages[1] · assistant), ≈45 tokens after it." The token counts are
 * the blocks' estimates (a diff may be against any earlier pass, whose bill says nothing of this one), so they say ≈.
 * `readTokens`: what the newer pass read from the cache, as billed. Across a model change nothing the older pass left
 * can be read, but a switch back reads what the newer pass's model kept from its own earlier passes: that read is
 * the pass's own, whatever it is compared with, and is said instead of "all paid again".
 */
export function summarizeChange(change: FirstChange, readTokens: number | null = null): string {
  switch (change.kind) {
    case 'identical':
      return `All ${change.identical} blocks identical: the whole prefix can be read from cache.`
    case 'model': {
      const models = `Model changed (${change.from ?? '?'} → ${change.to ?? '?'}): the cache is per model`
      if (readTokens !== null && readTokens > 0)
        return `${models}, so nothing the earlier pass left cached is read; the ${groupDigits(readTokens)} tokens this pass read are what ${change.to ?? 'its model'} kept from its own earlier passes.`
      return `${models}, so all ≈${groupDigits(change.tokensAfter)} tokens are paid again.`
    }
    case 'block': {
      const what = change.change === 'added' ? 'new block' : change.change === 'removed' ? 'block removed' : change.change === 'settings' ? 'settings' : 'changed'
      const plural = change.identical === 1 ? 'block' : 'blocks'
      return `${change.identical} ${plural} identical, first change at block ${change.index + 1} (${change.path} · ${change.label}; ${what}), ≈${groupDigits(change.tokensAfter)} tokens after it.`
    }
  }
}
