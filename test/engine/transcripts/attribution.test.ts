/** Cache outcomes from what a transcript shows, on hand-built requests and on the real spotter sessions. */
import { describe, expect, it } from 'vitest'
import type { Usage } from '../../../src-main/engine/model/wire'
import { attributeRequests, cacheReport, CACHE_TTL_5M_MS } from '../../../src-main/engine/transcripts/attribution'
import type { TranscriptCheckpoint } from '../../../src-main/engine/transcripts/checkpoints'
import type { TranscriptRequest } from '../../../src-main/engine/transcripts/requests'
import { importSessionText, type TranscriptThread } from '../../../src-main/engine/transcripts/session'
import { sumByModel, sumUsage } from '../../../src-main/engine/transcripts/totals'
import { readFixture } from './fixtures'

function request(i: number, atMs: number, usage: Partial<Usage>, model = 'claude-opus-4-6'): TranscriptRequest {
  return {
    key: `r${i}`,
    requestId: `r${i}`,
    messageId: `m${i}`,
    model,
    usage: { input_tokens: 0, output_tokens: 10, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, ...usage },
    firstLineAtMs: atMs,
    lastLineAtMs: atMs + 1000,
    stopReason: null,
    isSidechain: false,
    agentId: null,
    contextTipUuid: null,
    lineUuids: [],
    firstLine: i * 10,
    response: [],
  }
}

function thread(requests: TranscriptRequest[], checkpoints: TranscriptCheckpoint[] = []): TranscriptThread {
  return { kind: 'main', id: 't', requests, checkpoints, index: { get: () => undefined, toolResult: () => undefined, responseBlocks: () => undefined, duplicateUuids: 0 } }
}

const minute = 60_000

describe('attributeRequests', () => {
  it('calls the first request first, a full read a hit, and states the cached share', () => {
    const out = attributeRequests(thread([request(0, 0, { input_tokens: 3, cache_creation_input_tokens: 1000 }), request(1, minute, { input_tokens: 1, cache_read_input_tokens: 1000, cache_creation_input_tokens: 200 })]))
    expect(out.map((r) => r.outcome)).toEqual([{ kind: 'first' }, { kind: 'hit' }])
    expect(out[1]!.expectedReadTokens).toBe(1000)
    expect(out[1]!.cachedShare).toBeCloseTo(1000 / 1201, 10)
    expect(out[1]!.sincePreviousMs).toBe(minute)
  })

  it('names a fall in cache read after a compaction boundary', () => {
    const checkpoint = { kind: 'compact', requestBefore: 0, requestAfter: 1 } as TranscriptCheckpoint
    const out = attributeRequests(thread([request(0, 0, { cache_read_input_tokens: 150_000 }), request(1, 9 * minute, { cache_read_input_tokens: 20_000, cache_creation_input_tokens: 9000 })], [checkpoint]))
    // Compaction wins over the idle gap that also happened.
    expect(out[1]!.outcome).toEqual({ kind: 'miss', cause: 'compaction', droppedTokens: 130_000 })
  })

  it('names a model switch', () => {
    const out = attributeRequests(thread([request(0, 0, { cache_read_input_tokens: 5000 }), request(1, minute, { cache_creation_input_tokens: 5100 }, 'claude-haiku-4-5')]))
    expect(out[1]!.outcome).toEqual({ kind: 'miss', cause: 'model_switch', droppedTokens: 5000 })
  })

  it('names an idle gap longer than the 5-minute TTL, counted from the start of the previous request', () => {
    const out = attributeRequests(thread([request(0, 0, { cache_read_input_tokens: 5000 }), request(1, CACHE_TTL_5M_MS + 1, { cache_creation_input_tokens: 5100 })]))
    expect(out[1]!.outcome).toEqual({ kind: 'miss', cause: 'idle_gap', droppedTokens: 5000 })
  })

  it('uses the 1-hour TTL after a request that wrote 1-hour entries', () => {
    const wrote1h = { cache_creation_input_tokens: 5000, cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 5000 } }
    const out = attributeRequests(thread([request(0, 0, wrote1h), request(1, 10 * minute, { cache_read_input_tokens: 100 })]))
    expect(out[1]!.outcome).toEqual({ kind: 'miss', cause: 'not_visible', droppedTokens: 4900 })
  })

  it('says a fall the transcript cannot explain is not visible in it', () => {
    const out = attributeRequests(thread([request(0, 0, { cache_read_input_tokens: 5000 }), request(1, minute, { cache_read_input_tokens: 2000, cache_creation_input_tokens: 3100 })]))
    expect(out[1]!.outcome).toEqual({ kind: 'miss', cause: 'not_visible', droppedTokens: 3000 })
  })

  it('does not call requests that never used the cache hits or misses', () => {
    const out = attributeRequests(thread([request(0, 0, { input_tokens: 500 }), request(1, minute, { input_tokens: 600 })]))
    expect(out[1]!.outcome).toEqual({ kind: 'not_cached' })
  })

  it('prices each request with the function it is given', () => {
    const price = (model: string, u: Usage) => (model === 'known' ? u.cache_read_input_tokens / 1e6 : null)
    const requests = [request(0, 0, { cache_read_input_tokens: 2_000_000 }, 'known'), request(1, minute, { cache_read_input_tokens: 1 }, 'unknown')]
    expect(attributeRequests(thread(requests), price).map((r) => r.costUsd)).toEqual([2, null])
    expect(sumUsage(requests, price)).toMatchObject({ costUsd: 2, unpricedRequests: 1 })
    expect(sumUsage(requests).costUsd).toBeNull()
  })
})

describe('totals', () => {
  it('splits input into read, write and uncached and computes the cached share', () => {
    const t = sumUsage([
      request(0, 0, { input_tokens: 10, cache_creation_input_tokens: 90 }),
      request(1, minute, { input_tokens: 5, cache_read_input_tokens: 90, cache_creation_input_tokens: 5, cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 5 } }),
    ])
    expect(t).toMatchObject({ requests: 2, uncachedInputTokens: 15, cacheReadTokens: 90, cacheWriteTokens: 95, cacheWrite5mTokens: 90, cacheWrite1hTokens: 5, inputTokens: 200, outputTokens: 20 })
    expect(t.cachedShare).toBeCloseTo(0.45, 10)
  })
})

describe('the real spotter sessions', () => {
  const cases = [
    { file: 'fa812bfe-b295-4cca-9c2f-fdf01028cb46.jsonl', misses: { compaction: 1, model_switch: 0, idle_gap: 0, not_visible: 1 } },
    { file: 'ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl', misses: { compaction: 1, model_switch: 1, idle_gap: 0, not_visible: 0 } },
    { file: '4d5611e5-241a-462a-8d15-5122611a9569.jsonl', misses: { compaction: 1, model_switch: 0, idle_gap: 2, not_visible: 1 } },
  ]
  for (const c of cases) {
    it(`${c.file}: misses by cause`, () => {
      const session = importSessionText(readFixture('spotter', c.file).text)
      const report = cacheReport(session)
      expect(report.misses).toEqual(c.misses)
      const missCount = Object.values(c.misses).reduce((a, b) => a + b, 0)
      expect(report.hits).toBe(session.requests.length - 1 - missCount)
      expect(report.totals.cachedShare).toBeGreaterThan(0.95)
    })
  }

  it('finds the switch to Haiku and back in ae4a77f8 where the models change', () => {
    const session = importSessionText(readFixture('spotter', 'ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl').text)
    const switched = cacheReport(session).requests.filter((r) => r.outcome.kind === 'miss' && r.outcome.cause === 'model_switch')
    expect(switched.map((r) => r.model)).toEqual(['claude-haiku-4-5-20251001'])
    expect(session.models).toEqual(['claude-opus-4-6', 'claude-haiku-4-5-20251001'])
  })
})

describe('sumByModel', () => {
  it('keeps models apart, in order of first use', () => {
    const byModel = sumByModel([request(0, 0, { input_tokens: 1 }, 'b'), request(1, 0, { input_tokens: 2 }, 'a'), request(2, 0, { input_tokens: 4 }, 'b')])
    expect([...byModel.keys()]).toEqual(['b', 'a'])
    expect(byModel.get('b')).toMatchObject({ requests: 2, uncachedInputTokens: 5 })
  })
})
