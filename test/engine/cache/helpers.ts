/**
 * Helpers for cache-attribution tests under plain Node: small requests, a model table, and a session driver that
 * attributes passes one after another the way the node adapter does (facts of earlier passes, the previous pass's
 * walk and context).
 */
import type { CacheTtl, ContentBlock, Usage, WireMessage, WireRequest, WireTool } from '../../../src-main/engine/model/wire'
import {
  attribute,
  EMPTY_CONTEXT,
  walkRequest,
  type CacheModel,
  type EntryDescriber,
  type PassAttribution,
  type PassCacheFacts,
  type PassContext,
  type RequestWalk,
} from '../../../src-main/engine/cache'
import type { CacheMissReason } from '../../../src-main/engine/ports'
import { fakeHasher } from '../prompt/fakes'

export const hasher = fakeHasher()

export const SONNET: CacheModel = {
  id: 'claude-sonnet-4-6',
  minCacheableTokens: 0,
  stripsPriorThinking: false,
  prices: { inputPerMTok: 3, outputPerMTok: 15, cacheWrite5mPerMTok: 3.75, cacheWrite1hPerMTok: 6, cacheReadPerMTok: 0.3 },
}

export function modelsWith(overrides: Partial<Record<string, Partial<CacheModel>>> = {}): (id: string) => CacheModel {
  return (id) => ({ ...SONNET, id, ...(overrides[id] ?? {}) })
}

const cc = (ttl: CacheTtl | null) => (ttl === null ? {} : ttl === '5m' ? { cache_control: { type: 'ephemeral' as const } } : { cache_control: { type: 'ephemeral' as const, ttl: '1h' as const } })

/** A text block of exactly `tokens` estimated tokens (4 characters each, JSON framing included). */
export function text(label: string, tokens = 25, ttl: CacheTtl | null = null): ContentBlock {
  const frame = JSON.stringify({ type: 'text', text: '' }).length
  const body = `${label}:`.padEnd(Math.max(label.length + 1, tokens * 4 - frame), '.')
  return { type: 'text', text: body, ...cc(ttl) }
}

export function user(...content: ContentBlock[]): WireMessage {
  return { role: 'user', content } as WireMessage
}
export function assistant(...content: ContentBlock[]): WireMessage {
  return { role: 'assistant', content } as WireMessage
}

export function tool(name: string, ttl: CacheTtl | null = null): WireTool {
  return { name, description: `The ${name} tool.`.padEnd(200, ' '), input_schema: { type: 'object' }, ...cc(ttl) }
}

export function request(messages: ReadonlyArray<WireMessage>, options: { model?: string; system?: string; systemTtl?: CacheTtl | null; tools?: ReadonlyArray<WireTool>; toolChoice?: WireRequest['tool_choice'] } = {}): WireRequest {
  return {
    model: options.model ?? SONNET.id,
    max_tokens: 1000,
    ...(options.system !== undefined ? { system: [{ type: 'text', text: options.system, ...cc(options.systemTtl ?? null) }] } : {}),
    ...(options.tools ? { tools: options.tools } : {}),
    ...(options.toolChoice ? { tool_choice: options.toolChoice } : {}),
    messages,
  }
}

/** The usage a service following the rules would report when it reads up to `readPosition` (-1: nothing). */
export function usageFor(walk: RequestWalk, readPosition: number, options: { minCacheable?: number; trailing?: number } = {}): Usage {
  const min = options.minCacheable ?? 0
  const cum = (p: number): number => (p < 0 ? 0 : walk.cum[p]!)
  const read = cum(readPosition)
  let b = read
  let c = read
  for (const p of walk.breakpoints) {
    if (p <= readPosition || cum(p) < min) continue
    if (walk.blocks[p]!.ttl === '1h') b = cum(p)
    c = cum(p)
  }
  const total = walk.estimatedTotal + (options.trailing ?? 3)
  return {
    input_tokens: total - c,
    output_tokens: 10,
    cache_read_input_tokens: read,
    cache_creation_input_tokens: c - read,
    cache_creation: { ephemeral_5m_input_tokens: c - b, ephemeral_1h_input_tokens: b - read },
  }
}

export interface SessionPass {
  readonly request: WireRequest
  readonly at: number
  /** When the response began; defaults to `at` (the clock did not move while the request ran). */
  readonly firstByteAt?: number | null
  /** Where the service read up to; the usage follows the rules from there. Null: no usage came back. */
  readonly readPosition: number | null
  readonly context?: PassContext
  readonly apiDiagnosis?: CacheMissReason | null
  /** The user stopped it. */
  readonly stoppedByUser?: boolean
  /** A keep-warm pre-warm: attributed like any pass, but never the one a later pass is compared with. */
  readonly keepWarm?: boolean
}

/** Attributes `passes` in order, as one session. */
export function runSession(passes: ReadonlyArray<SessionPass>, options: { models?: (id: string) => CacheModel; describe?: EntryDescriber; minCacheable?: number } = {}): PassAttribution[] {
  const models = options.models ?? modelsWith()
  const out: PassAttribution[] = []
  const facts: PassCacheFacts[] = []
  let previous: { facts: PassCacheFacts; walk: RequestWalk; context: PassContext } | null = null
  passes.forEach((p, i) => {
    const walk = walkRequest(p.request, hasher)
    const context = p.context ?? EMPTY_CONTEXT
    const firstByteAt = p.firstByteAt === undefined ? p.at : p.firstByteAt
    const result = attribute({
      pass: {
        id: `pass${i + 1}`,
        seq: i + 1,
        model: p.request.model,
        attempts: [{ startedAt: p.at, firstByteAt }],
        usage: p.readPosition === null ? null : usageFor(walk, p.readPosition, { minCacheable: options.minCacheable ?? models(p.request.model).minCacheableTokens }),
        ...(p.apiDiagnosis !== undefined ? { apiDiagnosis: p.apiDiagnosis } : {}),
        ...(p.stoppedByUser ? { stoppedByUser: true } : {}),
        ...(p.keepWarm ? { keepWarm: true } : {}),
      },
      walk,
      context,
      prior: facts,
      previous,
      models,
      ...(options.describe ? { describeEntries: options.describe } : {}),
    })
    out.push(result)
    facts.push(result.facts)
    // As the node adapter does: a pass that got no response, or a pre-warm, is never the one a later pass is compared with.
    if (result.facts.attempts.length > 0 && !p.keepWarm) previous = { facts: result.facts, walk, context }
  })
  return out
}

/** Position of the last block of message `index` in a walk. */
export function endOf(walk: RequestWalk, index: number): number {
  const next = walk.messageStarts[index + 1]
  return (next ?? walk.blocks.length) - 1
}
