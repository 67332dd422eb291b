/**
 * The replay harness on a real Claude Code session (test/fixtures/real/spotter/subagent.jsonl): every pass is
 * predicted as the simulator then answers, Loupe reaches its limit, and the naive client shows the spread.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { usageLimits, usageRequestsOf } from '../../../src-main/engine/cache'
import { importSessionText } from '../../../src-main/engine/transcripts'
import { nodeHasher } from '../../../src-main/node/hasher'
import { naiveRequest, replayTranscript, transcriptPasses } from '../../../src-main/node/replay'

const FILE = fileURLToPath(new URL('../../fixtures/real/spotter/subagent.jsonl', import.meta.url))
const text = readFileSync(FILE, 'utf8')

describe('transcriptPasses', () => {
  const session = importSessionText(text)
  const passes = transcriptPasses(session, nodeHasher)

  it('gives one pass per request, without thinking and with no cache_control of its own', () => {
    expect(passes).toHaveLength(session.requests.length)
    for (const p of passes) {
      const blocks = p.history.flatMap((h): ReadonlyArray<object & { type: string }> => h.message.content)
      expect(blocks.some((b) => b.type === 'thinking' || b.type === 'redacted_thinking')).toBe(false)
      expect(blocks.some((b) => 'cache_control' in b)).toBe(false)
      expect(p.response.some((b) => b.type === 'thinking')).toBe(false)
    }
  })

  it('keeps the recorded thinking on the models Loupe thinks on, in the answers and in the later passes\' history', () => {
    const thinking = transcriptPasses(session, nodeHasher, (model) => model.startsWith('claude-opus-4-6'))
    const answers = thinking.filter((p) => p.response.some((b) => b.type === 'thinking'))
    expect(answers.length).toBeGreaterThan(0)
    const last = thinking.at(-1)!.history.flatMap((h): ReadonlyArray<{ type: string }> => h.message.content)
    expect(last.filter((b) => b.type === 'thinking').length).toBeGreaterThan(0)
    // On a model it does not think on, the same answers lose their thinking everywhere.
    const none = transcriptPasses(session, nodeHasher, () => false)
    expect(none.flatMap((p) => p.history.flatMap((h): ReadonlyArray<{ type: string }> => h.message.content)).some((b) => b.type === 'thinking')).toBe(false)
  })

  it('keeps each message\'s id from pass to pass, and the previous pass\'s tail marked when the history continues', () => {
    expect(passes[0]!.previousTailIndex).toBeNull()
    for (let i = 1; i < passes.length; i++) {
      const before = passes[i - 1]!.history
      const now = passes[i]!.history
      expect(now.slice(0, before.length).map((h) => h.provenance.entryIds[0])).toEqual(before.map((h) => h.provenance.entryIds[0]))
      expect(passes[i]!.previousTailIndex).toBe(before.length - 1)
      expect(passes[i]!.startedAt).toBeGreaterThanOrEqual(passes[i - 1]!.startedAt)
    }
  })
})

describe('naiveRequest', () => {
  it('puts the time at the top of the system prompt and takes every breakpoint off the messages', () => {
    const request = naiveRequest(
      { model: 'm', max_tokens: 1, system: [{ type: 'text', text: 'rules', cache_control: { type: 'ephemeral' } }], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } }] }] },
      Date.UTC(2026, 10, 29, 14, 2, 3),
    )
    expect(request.system).toEqual([{ type: 'text', text: 'Current time: 2026-11-29T14:02:03.000Z\n\nrules', cache_control: { type: 'ephemeral' } }])
    expect(request.messages[0]!.content[0]).toEqual({ type: 'text', text: 'hi' })
  })
})

describe('replayTranscript', () => {
  it('replays a real session: every prediction agrees, Loupe reaches its limit, the naive client caches nothing', async () => {
    const report = await replayTranscript(text, 'subagent.jsonl')
    const recorded = usageLimits(usageRequestsOf(importSessionText(text)))
    expect(report.session).toBe('subagent')
    expect(report.passes).toBe(12)
    expect(report.loupe.summary.agreement).toEqual({ compared: 12, agreed: 12, rate: 1, unexplained: 0 })
    expect(report.loupe.share).toBeGreaterThan(0.8)
    expect(report.loupe.limitShare - report.loupe.share).toBeLessThan(0.005)
    expect(report.claudeCode.share).toBe(recorded.cachedShare)
    expect(report.naive!.share).toBeLessThan(0.05)
    expect(report.attributions.map((a) => a.cause.kind)).toEqual(['cold', ...Array(11).fill('none')])
    expect(report.loupe.keepWarm.passes).toBe(0)
    // The passes went out through the runtime's counting client: the tools and system prefixes were counted.
    expect(report.countedPrefixes).toBeGreaterThan(0)
    // Both sides' counts of the same growing conversation, pass to pass: comparable, not equal.
    expect(report.countRatio.pairs).toBeGreaterThan(5)
    expect(report.countRatio.ratio).toBeGreaterThan(0.3)
    expect(report.countRatio.ratio).toBeLessThan(1.5)
    expect(report.loupe.cost.usd).toBeGreaterThan(0)
    expect(report.claudeCode.cost.usd).toBeGreaterThan(0)
    // The recorded thinking went out re-signed (the simulator refuses a latest thinking block it did not sign), and
    // is read from the cache on later passes: without it, fewer tokens are sent.
    const without = await replayTranscript(text, 'subagent.jsonl', { naive: false, thinking: false })
    expect(without.loupe.summary.agreement.unexplained).toBe(0)
    expect(report.loupe.total).toBeGreaterThan(without.loupe.total)
  }, 120_000)

  it('keeps the cache warm through the 19-minute wait on 4d5611e5, through the runtime\'s keep-warm, and says what it cost', async () => {
    const file = readFileSync(fileURLToPath(new URL('../../fixtures/real/spotter/4d5611e5-241a-462a-8d15-5122611a9569.jsonl', import.meta.url)), 'utf8')
    const [cold, warm] = [await replayTranscript(file, '4d5611e5.jsonl', { naive: false, keepWarm: false }), await replayTranscript(file, '4d5611e5.jsonl', { naive: false })]
    // Without it, the pass after the wait rewrites what expired; with it, that pass reads it.
    expect(cold.loupe.summary.byCause.find((c) => c.kind === 'ttl_expired')!.tokens).toBeGreaterThan(30_000)
    expect(warm.loupe.summary.byCause.find((c) => c.kind === 'ttl_expired')?.tokens ?? 0).toBe(0)
    expect(warm.loupe.share).toBeGreaterThan(cold.loupe.share)
    expect(warm.loupe.limitShare - warm.loupe.share).toBeLessThan(0.0001)
    expect(warm.loupe.summary.byCause.filter((c) => c.tokens > 0)).toEqual([])
    // Two pre-warms (the 19-minute wait, and one before a 4-hour absence that nothing could bridge), each read
    // what the pass before it cached and wrote only that pass's answer.
    expect(warm.loupe.keepWarm.passes).toBe(2)
    expect(warm.loupe.keepWarm.read).toBeGreaterThan(50 * warm.loupe.keepWarm.write1h)
    expect(warm.loupe.keepWarm.usd).toBeGreaterThan(0)
    // The share leaves the pre-warms out; the bill has them, and is lower than without them.
    expect(warm.loupe.summary.totals.passes).toBe(cold.loupe.summary.totals.passes)
    expect(warm.loupe.cost.usd).toBeLessThan(cold.loupe.cost.usd)
    expect(warm.loupe.summary.agreement.unexplained).toBe(0)
    expect(warm.loupe.summary.agreement.agreed).toBe(warm.loupe.summary.agreement.compared)
  }, 300_000)
})
