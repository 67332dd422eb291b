/**
 * The keep-warm pre-warm, pure: when one is worth sending, what history it carries, and the request it makes
 * (src-main/engine/cache/keep-warm.ts).
 */
import { describe, expect, it } from 'vitest'
import {
  KEEP_WARM_DELAY_MS,
  KEEP_WARM_LATEST_MS,
  KEEP_WARM_PENDING_RESULT,
  KEEP_WARM_PLACEHOLDER,
  keepWarmDecision,
  keepWarmHistory,
  keepWarmPlan,
  prewarmReachesLastTail,
  prewarmStripsThinking,
  type CacheModel,
} from '../../../src-main/engine/cache'
import type { Usage } from '../../../src-main/engine/model/wire'
import { buildPromptPlan, renderRequest, type HistoryMessage } from '../../../src-main/engine/prompt'
import { assistantToolUse, baseInput, SETTINGS, toolResult, user } from '../prompt/fakes'

const OPUS: CacheModel = { id: 'claude-opus-4-6', minCacheableTokens: 4096, stripsPriorThinking: false, prices: { inputPerMTok: 5, outputPerMTok: 25, cacheWrite5mPerMTok: 6.25, cacheWrite1hPerMTok: 10, cacheReadPerMTok: 0.5 } }

function usage(read: number, written: number, uncached: number, output: number): Usage {
  return { input_tokens: uncached, output_tokens: output, cache_read_input_tokens: read, cache_creation_input_tokens: written, cache_creation: { ephemeral_5m_input_tokens: written, ephemeral_1h_input_tokens: 0 } }
}

const answer = (text: string, id: string): HistoryMessage => ({ message: { role: 'assistant', content: [{ type: 'text', text }] }, provenance: { entryIds: [id], kind: 'assistant' } })

describe('keepWarmDecision', () => {
  const start = 1_000_000

  it('sends 4.5 minutes after the pass started, with what it costs and saves', () => {
    const d = keepWarmDecision({ startedAt: start, now: start + 20_000, usage: usage(40_000, 2_000, 3, 400), model: OPUS })
    expect(d).toMatchObject({ send: true, at: start + KEEP_WARM_DELAY_MS, prefixTokens: 42_403, cachedTokens: 42_000 })
    // 42,000 read at $0.50, 403 written at $10 (1h), 20 placeholder tokens at $5; against 42,403 × ($6.25 − $0.50).
    expect(d.costUsd).toBeCloseTo((42_000 * 0.5 + 403 * 10 + 20 * 5) / 1e6, 12)
    expect(d.savesUsd).toBeCloseTo((42_403 * 5.75) / 1e6, 12)
  })

  it('sends at once when the pass ended after the delay, but not once the entries may be gone', () => {
    expect(keepWarmDecision({ startedAt: start, now: start + KEEP_WARM_DELAY_MS + 5_000, usage: usage(40_000, 2_000, 3, 400), model: OPUS })).toMatchObject({ send: true, at: start + KEEP_WARM_DELAY_MS + 5_000 })
    expect(keepWarmDecision({ startedAt: start, now: start + KEEP_WARM_LATEST_MS + 1, usage: usage(40_000, 2_000, 3, 400), model: OPUS })).toMatchObject({ send: false, reason: 'too_late' })
  })

  it('skips a prefix below the model minimum, an answer too large to be worth it, and a pass without usage', () => {
    expect(keepWarmDecision({ startedAt: start, now: start, usage: usage(0, 3_000, 3, 200), model: OPUS })).toMatchObject({ send: false, reason: 'below_minimum' })
    // A 30,000-token answer on a 10,000-token prefix: the 1h write of the answer costs more than half the saving.
    expect(keepWarmDecision({ startedAt: start, now: start, usage: usage(8_000, 2_000, 3, 30_000), model: OPUS })).toMatchObject({ send: false, reason: 'not_worth_it' })
    expect(keepWarmDecision({ startedAt: start, now: start, usage: null, model: OPUS })).toEqual({ send: false, reason: 'no_usage' })
  })

  it('decides on the standard multipliers for a model without prices', () => {
    expect(keepWarmDecision({ startedAt: start, now: start, usage: usage(40_000, 2_000, 3, 400), model: { ...OPUS, prices: null } })).toMatchObject({ send: true })
  })
})

describe('keepWarmHistory', () => {
  it('ends with a placeholder after a text answer', () => {
    const history = [user('Fix the test.', 'e1'), answer('Done.', 'e2')]
    const shaped = keepWarmHistory(history)!
    expect(shaped.tailIndex).toBe(1)
    expect(shaped.history.slice(0, 2)).toEqual(history)
    expect(shaped.history[2]!.message).toEqual({ role: 'user', content: [{ type: 'text', text: KEEP_WARM_PLACEHOLDER }] })
  })

  it('answers the calls of a final tool use, and drops results already in', () => {
    const history = [user('Read it.', 'e1'), assistantToolUse('e2', 'toolu_1', 'a.ts'), toolResult('e3', 'toolu_1', 'partial')]
    const shaped = keepWarmHistory(history)!
    expect(shaped.tailIndex).toBe(1)
    expect(shaped.history).toHaveLength(3)
    expect(shaped.history[2]!.message).toEqual({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: KEEP_WARM_PENDING_RESULT }] })
  })

  it('has nothing to keep before the first answer', () => {
    expect(keepWarmHistory([user('Hello.', 'e1')])).toBeNull()
  })
})

describe('prewarmStripsThinking', () => {
  const think = { type: 'thinking', thinking: 'plan', signature: 'sig' } as const
  const ask = { role: 'user', content: [{ type: 'text', text: 'ask' }] } as const
  const call = { role: 'assistant', content: [think, { type: 'tool_use', id: 't1', name: 'read_file', input: {} }] } as const
  const result = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] } as const
  const text = (t: string) => ({ role: 'user', content: [{ type: 'text', text: t }] }) as const

  it('is true when a text placeholder follows a turn that thought: that turn\'s thinking would leave the prefix', () => {
    expect(prewarmStripsThinking([ask, call, result, { role: 'assistant', content: [{ type: 'text', text: 'done' }] }, text(KEEP_WARM_PLACEHOLDER)])).toBe(true)
  })

  it('is false when the turn did not think, and when the placeholder answers a waiting call', () => {
    expect(prewarmStripsThinking([ask, { role: 'assistant', content: [{ type: 'text', text: 'done' }] }, text(KEEP_WARM_PLACEHOLDER)])).toBe(false)
    expect(prewarmStripsThinking([ask, call, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: KEEP_WARM_PENDING_RESULT }] }])).toBe(false)
    // Thinking of an earlier turn was already stripped when the last pass was sent.
    expect(prewarmStripsThinking([ask, call, result, text('next'), { role: 'assistant', content: [{ type: 'text', text: 'ok' }] }, text(KEEP_WARM_PLACEHOLDER)])).toBe(false)
  })
})

describe('keepWarmPlan', () => {
  const history = [user('Fix the test.', 'e1'), answer('Done: the test passes now.', 'e2')]

  function warmRequest(staticCacheTtl1h: boolean) {
    const shaped = keepWarmHistory(history)!
    const plan = keepWarmPlan(buildPromptPlan(baseInput({ history: shaped.history, previousTailIndex: shaped.tailIndex, maxTokens: 1, settings: { ...SETTINGS, staticCacheTtl1h } })))!
    return { plan, request: renderRequest(plan) }
  }

  it('asks for no output and marks the answer in the messages, with a 1h TTL', () => {
    const { plan, request } = warmRequest(false)
    expect(request.max_tokens).toBe(0)
    const marks = request.messages.flatMap((m, i) => m.content.flatMap((b, j) => ('cache_control' in b && b.cache_control ? [[i, j, b.cache_control.ttl]] : [])))
    expect(marks).toEqual([[1, 0, '1h']])
    expect(plan.breakpoints.at(-1)).toEqual({ tag: 'previous_tail', area: 'messages', index: 1, blockIndex: 0, ttl: '1h' })
    expect(plan.messages[2]!.blocks.every((b) => b.breakpoint === null)).toBe(true)
  })

  it('marks the system blocks 1h too, before the tail as the API requires, so their entries outlive the gap', () => {
    for (const staticCacheTtl1h of [false, true]) {
      const { plan, request } = warmRequest(staticCacheTtl1h)
      expect(request.system!.map((b) => b.cache_control)).toEqual([{ type: 'ephemeral', ttl: '1h' }, { type: 'ephemeral', ttl: '1h' }])
      expect(plan.breakpoints.map((b) => [b.tag, b.ttl])).toEqual([['static', '1h'], ['session', '1h'], ['previous_tail', '1h']])
    }
  })

  it('cannot keep warm a session that thinks with a budget (max_tokens 0 refuses it)', () => {
    const shaped = keepWarmHistory(history)!
    expect(keepWarmPlan(buildPromptPlan(baseInput({ history: shaped.history, previousTailIndex: shaped.tailIndex, maxTokens: 2048, thinking: { type: 'enabled', budget_tokens: 1024 } })))).toBeNull()
  })

  it('is not sent after an answer of 20 blocks or more: its marker would not reach the last pass\'s entry', () => {
    const planAfter = (calls: number) => {
      const many: HistoryMessage = {
        message: { role: 'assistant', content: Array.from({ length: calls }, (_, i) => ({ type: 'tool_use' as const, id: `toolu_${i}`, name: 'read_file', input: { path: `f${i}.ts` } })) },
        provenance: { entryIds: ['e2'], kind: 'assistant' },
      }
      const shaped = keepWarmHistory([user('Read every file.', 'e1'), many])!
      return keepWarmPlan(buildPromptPlan(baseInput({ history: shaped.history, previousTailIndex: shaped.tailIndex, maxTokens: 1 })))!
    }
    // The marker on the 19th block looks back over 19 blocks and the last pass's tail: 20 positions.
    expect(prewarmReachesLastTail(planAfter(19))).toBe(true)
    expect(prewarmReachesLastTail(planAfter(20))).toBe(false)
    expect(prewarmReachesLastTail(warmRequest(false).plan)).toBe(true)
  })

  it('carries the next pass\'s prefix byte for byte', () => {
    const { request } = warmRequest(false)
    const next = renderRequest(buildPromptPlan(baseInput({ history: [...history, user('And now the docs.', 'e3')], previousTailIndex: 0, settings: { ...SETTINGS, staticCacheTtl1h: false } })))
    const strip = (v: unknown): string => JSON.stringify(v, (k, x: unknown) => (k === 'cache_control' ? undefined : x))
    expect(strip(request.tools)).toBe(strip(next.tools))
    expect(strip(request.system)).toBe(strip(next.system))
    expect(strip(request.messages.slice(0, 2))).toBe(strip(next.messages.slice(0, 2)))
  })
})
