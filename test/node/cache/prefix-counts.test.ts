/**
 * The tool and system prefixes counted as a pass goes out (src-main/node/cache/prefix-counts.ts), against a real
 * store file and a counter that counts characters: each unmeasured breakpoint counted once, less the probe; a
 * failing counter leaving nothing; a pass's answer waiting for its counts, but not when stopped or past the bound.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { WireRequest } from '../../../src-main/engine/model/wire'
import type { ModelClient, ModelOutcome } from '../../../src-main/engine/ports'
import { walkFor } from '../../../src-main/node/cache/models'
import { forgetStoreCache, isPrefixMeasured } from '../../../src-main/node/cache/attribute-pass'
import { MAX_PREFIX_COUNTS } from '../../../src-main/node/store/prefix-counts'
import { countingPrefixes, countUnmeasuredPrefixes } from '../../../src-main/node/cache/prefix-counts'
import type { CountRequest } from '../../../src-main/node/cache/token-counter'
import { nodeHasher } from '../../../src-main/node/hasher'
import { openStore, type Store } from '../../../src-main/node/store'

const NOW = Date.UTC(2026, 11, 1, 9, 0)

const REQUEST: WireRequest = {
  model: 'claude-sonnet-4-6',
  max_tokens: 1024,
  stream: true,
  tools: [
    { name: 'read_file', description: 'Reads a file.', input_schema: { type: 'object', properties: { path: { type: 'string' } } } },
    { name: 'grep', description: 'Searches files.', input_schema: { type: 'object', properties: { pattern: { type: 'string' } } }, cache_control: { type: 'ephemeral' } },
  ],
  system: [
    { type: 'text', text: 'You are a coding agent.', cache_control: { type: 'ephemeral' } },
    { type: 'text', text: '# Rules\n\nBe terse.\n', cache_control: { type: 'ephemeral' } },
  ],
  messages: [{ role: 'user', content: [{ type: 'text', text: '世界'.repeat(500), cache_control: { type: 'ephemeral' } }] }],
} as WireRequest

/** A counter that counts one token per character of the request's JSON, and records what it was asked. */
function charCounter(): { count: (r: CountRequest) => Promise<number>; asked: CountRequest[] } {
  const asked: CountRequest[] = []
  return { asked, count: async (r) => (asked.push(r), JSON.stringify(r).length) }
}

/** The keys of the request's tool and system breakpoints, in order. */
function staticKeys(request: WireRequest): string[] {
  const walk = walkFor({ ...request, messages: [] }, nodeHasher)
  return walk.breakpoints.map((p) => walk.keys[p]!)
}

describe('prefix counts', () => {
  let dir: string
  let store: Store
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'loupe-prefix-counts-'))
    store = openStore(join(dir, 'loupe.db'))
  })
  afterEach(() => {
    store.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('counts each tool and system breakpoint no pass measured, less the probe, once', async () => {
    const counter = charCounter()
    const keys = staticKeys(REQUEST)
    expect(keys).toHaveLength(3)
    expect(keys.some((k) => isPrefixMeasured(store, k, NOW))).toBe(false)

    expect(await countUnmeasuredPrefixes(store, REQUEST, { countTokens: counter.count, at: NOW })).toBe(3)
    // The probe alone, and each prefix with the probe after it; never the conversation.
    expect(counter.asked).toHaveLength(4)
    expect(counter.asked.every((r) => JSON.stringify(r).includes('世界') === false)).toBe(true)
    expect(counter.asked.map((r) => [r.tools?.length ?? 0, r.system?.length ?? 0])).toEqual([[0, 0], [2, 0], [2, 1], [2, 2]])
    expect(keys.every((k) => isPrefixMeasured(store, k, NOW))).toBe(true)

    // Measured now: the next pass with the same tools and system counts nothing.
    expect(await countUnmeasuredPrefixes(store, { ...REQUEST, messages: [{ role: 'user', content: [{ type: 'text', text: 'next' }] }] }, { countTokens: counter.count, at: NOW })).toBe(0)
    expect(counter.asked).toHaveLength(4)

    // A changed system block is a new prefix from there on: only it is counted.
    const edited = { ...REQUEST, system: [REQUEST.system![0]!, { type: 'text', text: '# Rules\n\nBe terse. Use tabs.\n', cache_control: { type: 'ephemeral' } }] } as WireRequest
    expect(await countUnmeasuredPrefixes(store, edited, { countTokens: counter.count, at: NOW })).toBe(1)
    expect(counter.asked.slice(4).map((r) => r.system?.length ?? 0)).toEqual([0, 2])
  })

  it('keeps the counts in the store: the app started again knows them, and keeps only the newest', async () => {
    await countUnmeasuredPrefixes(store, REQUEST, { countTokens: charCounter().count, at: NOW })
    const counts = store.prefixCounts.all()
    forgetStoreCache(store)
    store.close()
    store = openStore(join(dir, 'loupe.db'))
    expect(staticKeys(REQUEST).every((k) => isPrefixMeasured(store, k, NOW))).toBe(true)
    expect(store.prefixCounts.all()).toEqual(counts)

    for (let i = 0; i < MAX_PREFIX_COUNTS + 5; i++) store.prefixCounts.put(`key${i}`, i, NOW + i)
    const kept = store.prefixCounts.all()
    expect(kept.size).toBe(MAX_PREFIX_COUNTS)
    expect(kept.has('key4')).toBe(false)
    expect(kept.get(`key${MAX_PREFIX_COUNTS + 4}`)).toBe(MAX_PREFIX_COUNTS + 4)
    expect(() => store.prefixCounts.put('bad', -1, NOW)).toThrow(/whole number/)
  })

  it('two passes sending the same new prefix at once count it once', async () => {
    const counter = charCounter()
    const [a, b] = await Promise.all([
      countUnmeasuredPrefixes(store, REQUEST, { countTokens: counter.count, at: NOW }),
      countUnmeasuredPrefixes(store, REQUEST, { countTokens: counter.count, at: NOW }),
    ])
    expect(a + b).toBe(3)
    expect(counter.asked).toHaveLength(4)
  })

  it('a counter that fails, or answers nonsense, measures nothing and is asked again by the next pass', async () => {
    const failing = async (): Promise<number> => {
      throw new Error('count_tokens: 529 overloaded')
    }
    expect(await countUnmeasuredPrefixes(store, REQUEST, { countTokens: failing, at: NOW })).toBe(0)
    expect(await countUnmeasuredPrefixes(store, REQUEST, { countTokens: async () => Number.NaN, at: NOW })).toBe(0)
    expect(staticKeys(REQUEST).some((k) => isPrefixMeasured(store, k, NOW))).toBe(false)
    const counter = charCounter()
    expect(await countUnmeasuredPrefixes(store, REQUEST, { countTokens: counter.count, at: NOW })).toBe(3)
  })

  describe('a client counting beside its passes', () => {
    const answer: ModelOutcome = { ok: false, error: { kind: 'connection', message: 'offline', status: null }, partial: null, attempts: [] }
    function clientWith(countTokens: (r: CountRequest) => Promise<number>, log: string[]): ModelClient {
      return {
        endpoint: { kind: 'simulator', baseUrl: 'http://127.0.0.1:1' },
        countTokens: async (r) => {
          log.push('count')
          return countTokens(r)
        },
        send: async () => {
          log.push('sent')
          return answer
        },
      }
    }

    it('answers once the counts are in, so the pass is attributed with them', async () => {
      const log: string[] = []
      let release!: () => void
      const gate = new Promise<void>((r) => (release = r))
      const client = countingPrefixes(clientWith(async (r) => (await gate, JSON.stringify(r).length), log), store, { now: () => NOW })
      let answered = false
      const sending = client.send(REQUEST, {}).then((o) => ((answered = true), o))
      await new Promise((r) => setImmediate(r))
      expect(log).toContain('sent')
      expect(answered).toBe(false)
      release()
      expect(await sending).toBe(answer)
      expect(staticKeys(REQUEST).every((k) => isPrefixMeasured(store, k, NOW))).toBe(true)
    })

    it('a stopped pass, or counts slower than the bound, answer without them', async () => {
      const log: string[] = []
      const never = clientWith(() => new Promise<number>(() => {}), log)
      const stopped = new AbortController()
      stopped.abort()
      expect(await countingPrefixes(never, store, { now: () => NOW, countTimeoutMs: 5 }).send(REQUEST, { signal: stopped.signal })).toBe(answer)
      expect(await countingPrefixes(never, store, { now: () => NOW, waitMs: 5, countTimeoutMs: 50 }).send(REQUEST, {})).toBe(answer)
      expect(staticKeys(REQUEST).some((k) => isPrefixMeasured(store, k, NOW))).toBe(false)
    })

    it('a count that never answers is given up, and the next pass asks again instead of waiting on it', async () => {
      expect(await countUnmeasuredPrefixes(store, REQUEST, { countTokens: () => new Promise<number>(() => {}), at: NOW, countTimeoutMs: 5 })).toBe(0)
      const counter = charCounter()
      expect(await countUnmeasuredPrefixes(store, REQUEST, { countTokens: counter.count, at: NOW })).toBe(3)
    })
  })
})
