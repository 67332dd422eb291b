/**
 * Every pass of every scenario: the app's prediction (src-main/engine/cache) must equal what the simulator's own
 * cache model did (src-main/simulator), and the cause must be the one the scenario constructed.
 */
import { describe, expect, it } from 'vitest'
import { runSuite, type SuiteResult } from './scenarios'

describe('cache scenarios against the simulator', () => {
  let suite: SuiteResult
  it('runs every scenario', async () => {
    suite = await runSuite()
    expect(suite.scenarios.length).toBe(18)
  }, 60_000)

  it('agrees with the simulator on every pass, with no unexplained outcome', () => {
    const rows = suite.scenarios.flatMap((s) => s.checks.map((c) => `${s.name}#${c.pass}: ${c.attribution.agrees ? 'agrees' : 'DISAGREES'} · ${c.attribution.summary}`))
    expect(rows.filter((r) => !r.includes(': agrees'))).toEqual([])
    expect(suite.unexplained).toBe(0)
    expect(suite.agreed).toBe(suite.passes)
  })

  it('finds the cause each scenario constructed', () => {
    const wrong = suite.scenarios.flatMap((s) => s.checks.filter((c) => c.attribution.cause.kind !== c.expected).map((c) => `${s.name}#${c.pass}: expected ${c.expected}, got ${c.attribution.cause.kind} (${c.attribution.cause.label})`))
    expect(wrong).toEqual([])
  })

  it('answers like the API cache diagnostics on every pass', () => {
    const disagreeing = suite.scenarios.flatMap((s) => s.checks.filter((c) => c.attribution.diagnostics.disagree).map((c) => `${s.name}#${c.pass}: api ${JSON.stringify(c.attribution.diagnostics.api)} vs ours ${c.attribution.diagnostics.ours}`))
    expect(disagreeing).toEqual([])
  })

  it('names what produced each change', () => {
    const labels = new Map(suite.scenarios.map((s) => [s.name, s.checks.map((c) => c.attribution.cause.label)]))
    expect(labels.get('instructions_applied_now')![2]).toMatch(/^system\[1\] · project instructions · AGENTS\.md applied now by the user at \d\d:\d\d$/)
    expect(labels.get('tools_changed')![2]).toBe('tools · the tool list changed (removed glob)')
    expect(labels.get('model_switch')![2]).toBe('model changed: claude-sonnet-4-6 → claude-opus-4-8 (the cache is per model)')
    expect(labels.get('ttl_expired')![2]).toBe('cache expired: idle 6 m 10 s, longer than the 5 m an entry is kept (TTL)')
    expect(labels.get('ttl_1h_survives')![2]).toBe('cache expired: idle 30 m, longer than the 5 m an entry is kept (TTL)')
    // After a switch to a model that caches none of the session, the switch's pass says why it read nothing in the
    // switch question's words; the pass after it names the prefix under that model's minimum.
    const switched = suite.scenarios.find((s) => s.name === 'model_switch_below_minimum')!.checks
    expect(switched[2]!.attribution.cause.label).toMatch(
      /^model changed: claude-sonnet-4-6 → claude-opus-4-6 \(the cache is per model\); claude-opus-4-6 caches nothing under 4,096 tokens, and the prompt before the new tail is [\d,]+: every pass pays for all of it in full until the conversation grows past that$/,
    )
    expect(switched[2]!.attribution.cause).toMatchObject({ belowMinimum: { minimum: 4096, tokens: switched[2]!.attribution.limit.shortPrefixTokens } })
    expect(switched[2]!.attribution.miss.tokens).toBe(0)
    expect(switched[3]!.attribution.cause.label).toMatch(/^prefix below the minimum: the [\d,]+ tokens before the new tail are under claude-opus-4-6's minimum of 4,096$/)
    // On to Haiku 4.5 with a long paste: nothing left could be read, but the pass's own prompt is over the minimum and
    // its tail was written, which the next pass read: no "every pass pays in full".
    const pasted = switched[4]!.attribution
    expect(pasted.cause.label).toMatch(
      /^model changed: claude-opus-4-6 → claude-haiku-4-5 \(the cache is per model\); claude-haiku-4-5 caches nothing under 4,096 tokens, and the prefix the previous pass left is [\d,]+: nothing of it could be read on that model, so nothing was lost; this pass's prompt is over the minimum, so its tail was written for the next pass$/,
    )
    expect(pasted.miss.tokens).toBe(0)
    expect(pasted.actual!.tokens.write5m).toBeGreaterThan(4096)
    expect(switched[5]!.attribution.actual!.tokens.read).toBeGreaterThan(4096)
    expect(labels.get('below_minimum')![1]).toMatch(/^prefix below the minimum: the [\d,]+ tokens before the new tail are under claude-haiku-4-5's minimum of 4,096$/)
    expect(labels.get('lookback_exceeded')![1]).toMatch(/^lookback window exceeded: the entry at messages\[0\]\.content\[1\] is \d+ positions back/)
    expect(labels.get('concurrent')![2]).toMatch(/^concurrent pass: pas_\w+ writes messages\[2\]\.content\[0\], but its response began 1 s after this pass was sent/)
    expect(labels.get('compaction')![5]).toMatch(/^system\[1\] · memory · \.loupe\/memory\.md · re-frozen at the compaction checkpoint at \d\d:\d\d$/)
    expect(labels.get('context_edit')![4]).toMatch(/^messages\[2\] · context edit by trim-old-tools at \d\d:\d\d$/)
  })

  it('reads past earlier turns\' thinking on a model that keeps it, and stops before it on one that strips it', () => {
    const kept = suite.scenarios.find((s) => s.name === 'thinking_kept')!.checks
    expect(kept[2]!.attribution.readPath).toBe('messages[2].content[0]')
    const stripped = suite.scenarios.find((s) => s.name === 'thinking_stripped')!.checks
    // The second turn's first pass: the first answer lost its thinking, so only the first message is read.
    expect(stripped[2]!.attribution.readPath).toBe('messages[0].content[1]')
    expect(stripped[2]!.attribution.outcome).toBe('full')
    expect(stripped[2]!.attribution.cause.label).toMatch(/^only the new tail paid: from messages\[1\] on, claude-haiku-4-5 no longer sees earlier turns' thinking/)
    // Within a turn (tool results), nothing is stripped: the whole prefix is read.
    expect(stripped[3]!.attribution.cause.label).toBe('only the new tail paid')
  })

  it('reads exactly the tokens it predicted when the read ends on an earlier write', () => {
    const steady = suite.scenarios.find((s) => s.name === 'steady')!
    for (const c of steady.checks.slice(1)) expect(c.attribution.prediction.tokens.read).toBe(c.attribution.actual!.tokens.read)
  })

  it('keeps the 1h static entry through a 30-minute gap and reads up to it', () => {
    const pass = suite.scenarios.find((s) => s.name === 'ttl_1h_survives')!.checks[2]!.attribution
    expect(pass.outcome).toBe('partial')
    expect(pass.readPath).toBe('system[0]')
  })

  it('keeps the tail warm through an idle gap: the pass after it reads through the answer the pre-warm wrote', () => {
    for (const [name, warm, after] of [['keep_warm', 2, 3], ['keep_warm_pending_tool', 1, 2]] as const) {
      const checks = suite.scenarios.find((s) => s.name === name)!.checks
      const kw = checks[warm]!.attribution
      expect(kw.keepWarm).toBe(true)
      expect(kw.actual!.tokens.read).toBeGreaterThan(0)
      expect(kw.actual!.tokens.write1h).toBeGreaterThan(0)
      expect(kw.actual!.tokens.write5m).toBe(0)
      const next = checks[after]!.attribution
      expect(next.outcome).toBe('full')
      expect(next.actual!.tokens.read).toBe(kw.actual!.tokens.read + kw.actual!.tokens.write1h)
      // Past the policy-free limit (the answer was new to the conversation), because the pre-warm sent it.
      expect(next.actual!.tokens.read).toBeGreaterThan(next.limit.tokens)
    }
  })

  it('reads the first model\'s entries when switching back, up to the other model\'s first answer', () => {
    const back = suite.scenarios.find((s) => s.name === 'model_switch')!.checks[3]!.attribution
    expect(back.outcome).toBe('partial')
    expect(back.actual!.tokens.read).toBeGreaterThan(0)
  })
})
