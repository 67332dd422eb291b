import { describe, expect, it } from 'vitest'
import type { CacheSummaryView, EntryView, PassSummaryView } from '../../../src-preload/contract'
import { clock } from '../../../src-renderer/ui/format'
import { buildTimeline, focusedPassFigures, isFlaggedMiss, markerKindsShown, type Bar, lostByCause, missLost, missText, summaryText, pricesLookup, savedByCache, savedHint } from '../../../src-renderer/features/cache/model/timeline'
import { COST_DOT_HIT_PX, MISS_MARK_PX, missMarkApex } from '../../../src-renderer/features/cache/model/miss-mark'

const MIN = 60_000
const usage = { input_tokens: 3, output_tokens: 20, cache_read_input_tokens: 5_000, cache_creation_input_tokens: 200 }
const pass = (id: string, seq: number, at: number, answered: boolean) =>
  ({ id, seq, kind: 'main', model: 'claude-sonnet-4-6', queuedAt: at, doneAt: at + 2_000, attempts: [{ startedAt: at }], usage: answered ? usage : null, costUsd: answered ? 0.01 : 0, status: answered ? 'done' : 'failed' }) as unknown as PassSummaryView
const row = (passId: string, seq: number, cause: string) => ({ passId, seq, outcome: cause === 'no_response' ? 'miss' : 'full', cause, summary: null, missTokens: 0, missUsd: 0 })

describe('the cache timeline', () => {
  it('measures an idle gap from the last pass that got a response: one that got none touched no entry', () => {
    const passes = [pass('a', 1, 0, true), pass('b', 2, 3 * MIN, false), pass('c', 3, 6 * MIN, true)]
    const summary = { passes: [row('a', 1, 'cold'), row('b', 2, 'no_response'), row('c', 3, 'ttl_expired')] } as unknown as CacheSummaryView
    const idle = buildTimeline(passes, summary, []).markers.filter((m) => m.kind === 'idle')
    expect(idle).toEqual([expect.objectContaining({ beforeIndex: 2, label: 'idle 6 m since the last pass that got a response (longer than the 5 m TTL)' })])
  })

  describe('a pause a keep-warm pre-warm bridged', () => {
    const warm = (id: string, seq: number, at: number) => ({ ...pass(id, seq, at, true), kind: 'keep_warm' }) as PassSummaryView
    const summaryOf = (causes: ReadonlyArray<[string, number, string]>) =>
      ({ passes: causes.map(([id, seq, cause]) => ({ ...row(id, seq, cause), outcome: cause === 'ttl_expired' ? 'partial' : 'full' })) }) as unknown as CacheSummaryView

    it('says the pause was kept warm, from the last pass of the conversation, not that the TTL was passed, when the pass after it read on', () => {
      // The pass at 0 ends at 2 s; the pre-warm goes at 4.5 m; the user comes back 12 m 2 s after it began, and hits.
      const passes = [pass('a', 1, 0, true), warm('w', 2, 4.5 * MIN), pass('b', 3, 12 * MIN + 2_000, true)]
      const markers = buildTimeline(passes, summaryOf([['a', 1, 'cold'], ['w', 2, 'none'], ['b', 3, 'none']]), []).markers
      expect(markers).toEqual([expect.objectContaining({ kind: 'kept_warm', beforeIndex: 2, label: 'idle 12 m 2 s · kept warm by a pre-warm' })])
      expect(markers.some((m) => /TTL/.test(m.label))).toBe(false)
    })

    it('still says the cache expired when the pause outlived the pre-warm\'s hour', () => {
      const passes = [pass('a', 1, 0, true), warm('w', 2, 4.5 * MIN), pass('b', 3, 70 * MIN, true)]
      const markers = buildTimeline(passes, summaryOf([['a', 1, 'cold'], ['w', 2, 'none'], ['b', 3, 'ttl_expired']]), []).markers
      expect(markers).toEqual([expect.objectContaining({ kind: 'idle', beforeIndex: 2, label: 'idle 1 h 10 m (longer than the 1 h a pre-warm keeps the cache)' })])
    })

    it('a pre-warm that got no response kept nothing warm', () => {
      const passes = [pass('a', 1, 0, true), { ...warm('w', 2, 4.5 * MIN), usage: null } as PassSummaryView, pass('b', 3, 12 * MIN + 2_000, true)]
      const markers = buildTimeline(passes, summaryOf([['a', 1, 'cold'], ['w', 2, 'no_response'], ['b', 3, 'ttl_expired']]), []).markers
      expect(markers).toEqual([expect.objectContaining({ kind: 'idle', label: 'idle 12 m 2 s (longer than the 5 m TTL)' })])
    })
  })

  it('measures a pause as the miss after it does, from the start of the pass before, to the second', () => {
    // A 40-second pass, then the user back 5 m 31 s after it began: its entries had expired ("cache expired: idle 5 m
    // 31 s, longer than the 5 m an entry is kept"), though less than 5 minutes passed since its answer ended.
    const long = { ...pass('a', 1, 0, true), doneAt: 40_000 } as PassSummaryView
    const passes = [long, pass('b', 2, 5 * MIN + 31_000, true)]
    const markers = buildTimeline(passes, { passes: [row('a', 1, 'cold'), row('b', 2, 'ttl_expired')] } as unknown as CacheSummaryView, []).markers
    expect(markers).toEqual([expect.objectContaining({ kind: 'idle', beforeIndex: 1, label: 'idle 5 m 31 s (longer than the 5 m TTL)' })])
  })

  describe('context edits', () => {
    const entry = (id: string, seq: number, at: number, body: Record<string, unknown>) => ({ id, seq, at, ...body }) as unknown as EntryView
    const message = (id: string, seq: number, at: number, text: string) => entry(id, seq, at, { kind: 'user_message', content: [{ type: 'text', text }] })
    const takeBack = (id: string, seq: number, at: number, messageId: string) =>
      entry(id, seq, at, { kind: 'context_edit', source: 'take-back', edits: [{ entryId: messageId, action: 'drop', reason: 'taken back by the user' }] })
    const passes = [pass('a', 1, 0, true), pass('b', 2, 10_000, true), pass('c', 3, 60_000, true)]

    it('two messages taken back before the same pass are two events, each naming its message', () => {
      // The reviewer's session: "what is in this project" taken back, then "run `ls`" before it, 5.6 s apart.
      const entries = [message('m1', 1, 5_000, 'run `ls`'), message('m2', 2, 20_000, 'what is in this project\nand more'), takeBack('t1', 3, 40_000, 'm2'), takeBack('t2', 4, 45_600, 'm1')]
      const markers = buildTimeline(passes, null, entries).markers
      expect(markers.map((m) => [m.beforeIndex, m.label])).toEqual([
        [2, 'the message “what is in this project” taken back by the user'],
        [2, 'the message “run `ls`” taken back by the user'],
      ])
    })

    it('events that would read the same before the same pass say when each happened', () => {
      const edit = (id: string, seq: number, at: number) => entry(id, seq, at, { kind: 'context_edit', source: 'todo-trimmer', edits: [] })
      const markers = buildTimeline(passes, null, [edit('e1', 1, 30_000), edit('e2', 2, 41_000), edit('e3', 3, 5_000)]).markers
      expect(markers.map((m) => m.label)).toEqual(['context edit by todo-trimmer', `context edit by todo-trimmer at ${clock(30_000)}`, `context edit by todo-trimmer at ${clock(41_000)}`])
    })

    it('a take-back whose message is not among the entries says so without naming it', () => {
      expect(buildTimeline(passes, null, [takeBack('t1', 3, 40_000, 'gone')]).markers.map((m) => m.label)).toEqual(['a message taken back by the user'])
    })
  })

  it('says nothing of a gap shorter than the TTL', () => {
    const passes = [pass('a', 1, 0, true), pass('c', 2, 3 * MIN, true)]
    const summary = { passes: [row('a', 1, 'cold'), row('c', 2, 'none')] } as unknown as CacheSummaryView
    expect(buildTimeline(passes, summary, []).markers).toEqual([])
  })
})

describe('the legend', () => {
  it('names only the markers the timeline draws, in a fixed order, and none when it draws none', () => {
    expect(markerKindsShown([])).toEqual([])
    expect(markerKindsShown([{ kind: 'kept_warm' }, { kind: 'model_switch' }, { kind: 'file_edit' }, { kind: 'model_switch' }])).toEqual(['file_edit', 'model_switch', 'kept_warm'])
  })
})

describe('what the cache saved', () => {
  const sonnet = { input: 3, output: 15, cacheWrite5m: 3.75, cacheWrite1h: 6, cacheRead: 0.3 }
  const models = [{ id: 'claude-sonnet-4-6', prices: sonnet }]

  it('prices a pass whose model is named with a date, as Claude Code names it, by the model table', () => {
    const dated = { ...pass('a', 1, 0, true), model: 'claude-sonnet-4-6-20251001' } as PassSummaryView
    const bars = buildTimeline([dated], null, []).bars
    // 5,000 read at 0.3 instead of 3, 200 written at 3.75 instead of 3, per million.
    expect(savedByCache(bars, pricesLookup(models))).toBeCloseTo((5_000 * 2.7 - 200 * 0.75) / 1_000_000, 12)
  })

  it('below zero (the first pass wrote and nothing has read it yet), the figure says why rather than reading as a fault', () => {
    const first = buildTimeline([{ ...pass('a', 1, 0, true), usage: { input_tokens: 3, output_tokens: 20, cache_read_input_tokens: 0, cache_creation_input_tokens: 2_600 } } as PassSummaryView], null, []).bars
    const saved = savedByCache(first, pricesLookup(models))!
    expect(saved).toBeLessThan(0)
    expect(savedHint(saved)).toMatch(/^so far the cache cost more than it saved: writing costs 1\.25×/)
    expect(savedHint(0.05)).toBe("the conversation's passes, against sending every input token at the full price")
  })

  it("counts the conversation's passes alone: a pre-warm's read saved no pass anything, and its cost is in Paid", () => {
    // A pass, a pre-warm reading its 5,000 tokens back (and writing its 200-token tail for an hour), the pass after it.
    const prewarm = { ...pass('w', 2, 4.5 * MIN, true), kind: 'keep_warm', usage: { ...usage, cache_creation: { ephemeral_1h_input_tokens: 200 } } } as unknown as PassSummaryView
    const bars = buildTimeline([pass('a', 1, 0, true), prewarm, pass('b', 3, 9 * MIN, true)], null, []).bars
    const onePass = (5_000 * 2.7 - 200 * 0.75) / 1_000_000
    expect(savedByCache(bars, pricesLookup(models))).toBeCloseTo(2 * onePass, 12)
    expect(savedHint(2 * onePass, 1)).toBe("the conversation's passes, against sending every input token at the full price; not the keep-warm pre-warm: a cost, counted in Paid")
    expect(savedHint(-0.001, 2)).toMatch(/; not the 2 keep-warm pre-warms: a cost, counted in Paid$/)
  })

  it('says nothing (null) for a model the table does not know, nor for a date that is not one', () => {
    const lookup = pricesLookup(models)
    expect(lookup('claude-sonnet-4-6')).toBe(sonnet)
    expect(lookup('claude-sonnet-4-6-latest')).toBeNull()
    expect(lookup('gpt-5')).toBeNull()
  })
})

describe('the list of misses and the table of losses', () => {
  it("a miss's loss is said in the list, and a model switch's says it is measured on the new model", () => {
    const money = (n: number) => `$${n.toFixed(4)}`
    expect(missLost({ cause: 'changed_block', missUsd: 0.0043 }, money)).toBe('lost $0.0043')
    expect(missLost({ cause: 'model_changed', missUsd: 0.0138 }, money)).toBe("lost $0.0138 on the new model, at its prices (the price Loupe gives before a switch also counts the difference between the two models' prices)")
    expect(missLost({ cause: 'ttl_expired', missUsd: 0 }, money)).toBeNull()
    expect(missLost({ cause: 'not_visible', missUsd: null }, money)).toBeNull()
  })
  it('a table of losses counts only the passes that lost something: a pause past every TTL, a compaction, a cold start are no loss', () => {
    const bar = (passId: string, cause: string, missTokens: number, missUsd: number | null) => ({ passId, kind: 'main', cause, missTokens, missUsd }) as unknown as Bar
    const bars = [
      bar('a', 'cold', 0, 0),
      bar('b', 'changed_block', 1_234, 0.0043),
      bar('c', 'ttl_expired', 0, 0),
      bar('d', 'ttl_expired', 82_858, 0.4764),
      bar('e', 'compaction', 0, 0),
      bar('f', 'not_visible', 76_753, null),
      bar('g', 'none', 0, 0),
    ]
    expect(lostByCause(bars)).toEqual([
      { kind: 'ttl_expired', passes: 1, tokens: 82_858, usd: 0.4764 },
      { kind: 'not_visible', passes: 1, tokens: 76_753, usd: null },
      { kind: 'changed_block', passes: 1, tokens: 1_234, usd: 0.0043 },
    ])
  })

  it("an imported session's first request after a compaction is not flagged as a miss, as the app's own is not", () => {
    expect(isFlaggedMiss({ outcome: 'partial', cause: 'compaction' })).toBe(false)
    expect(isFlaggedMiss({ outcome: 'miss', cause: 'model_changed' })).toBe(true)
  })

  it('a partial hit says what was read and what stopped the read; the outcome the chip says is not said twice', () => {
    const words = { ttl_expired: 'the cache expired during a pause' }
    expect(missText({ cause: 'changed_block', summary: 'partial hit up to system[0] · system[1] · project instructions · CLAUDE.md edited at 15:37, applied now by the user' }, words)).toBe(
      'read up to system[0] · stopped by: system[1] · project instructions · CLAUDE.md edited at 15:37, applied now by the user',
    )
    expect(missText({ cause: 'ttl_expired', summary: 'miss · TTL expired: idle 7 m > 5 m' }, words)).toBe('TTL expired: idle 7 m > 5 m')
    expect(missText({ cause: 'model_changed', summary: 'Miss: 32,459 tokens written again · model switch (claude-opus-4-6 → claude-haiku-4-5-20251001): the cache is per model' }, words)).toBe(
      '32,459 tokens written again · model switch (claude-opus-4-6 → claude-haiku-4-5-20251001): the cache is per model',
    )
    expect(missText({ cause: 'ttl_expired', summary: null }, words)).toBe('the cache expired during a pause')
  })

  it("the chosen pass's line says a partial hit in the same words: what was read, then what stopped the read", () => {
    expect(summaryText('partial hit up to system[0] · system[1] · project instructions · CLAUDE.md edited at 15:37, applied now by the user')).toBe(
      'partial hit: read up to system[0] · stopped by: system[1] · project instructions · CLAUDE.md edited at 15:37, applied now by the user',
    )
    expect(summaryText('miss · model changed: claude-sonnet-4-6 → claude-opus-4-6 (the cache is per model)')).toBe('miss · model changed: claude-sonnet-4-6 → claude-opus-4-6 (the cache is per model)')
  })

  it("the chosen pass's figures start with a figure and no line of them can start with a separator: each is bound to the words before it", () => {
    const bar = {
      ...buildTimeline([pass('a', 9, 0, true)], null, []).bars[0]!,
      summary: 'partial hit up to messages[8].content[0] · no breakpoint ended at messages[9].content[1], where the conversation now goes on',
    }
    const line = focusedPassFigures(bar, { tokens: String, usd: (n) => `$${n}` }, 'a pre-warm')
    expect(line.startsWith('read 5000')).toBe(true)
    // A break is allowed at an ordinary space only: before every "·" stands a no-break space.
    expect(line).not.toMatch(/(^|[ \n\t])·/)
    expect(line.replace(/\u00a0/g, ' ')).toBe(
      'read 5000 · written 200 · paid in full 3 · output 20 · $0.01 · partial hit: read up to messages[8].content[0] · stopped by: no breakpoint ended at messages[9].content[1], where the conversation now goes on',
    )
    expect(focusedPassFigures({ ...bar, kind: 'keep_warm' }, { tokens: String, usd: (n) => `$${n}` }, 'a pre-warm')).toMatch(/\u00a0· a pre-warm$/)
    // A cold start is named as the inspector's badge names it, not as a miss.
    const cold = focusedPassFigures({ ...bar, cause: 'cold', summary: 'miss · first pass of the session: nothing cached yet' }, { tokens: String, usd: (n) => `$${n}` }, 'a pre-warm')
    expect(cold.replace(/\u00a0/g, ' ')).toMatch(/ · cold · first pass of the session: nothing cached yet$/)
  })
})

describe("a miss's triangle on the chart", () => {
  const overlaps = (apex: number, dotY: number) => apex > dotY - COST_DOT_HIT_PX && apex - MISS_MARK_PX < dotY + COST_DOT_HIT_PX
  it('sits just above its bar when the pass\'s $ dot is elsewhere, or there is none', () => {
    expect(missMarkApex(100, 200, 0)).toBe(94)
    expect(missMarkApex(100, 40, 0)).toBe(94)
    expect(missMarkApex(100, null, 0)).toBe(94)
  })
  it('moves above the $ dot where it would cover it, and below it where there is no room above', () => {
    for (const dotY of [82, 86, 90, 94, 98]) {
      expect(overlaps(94, dotY)).toBe(true)
      const apex = missMarkApex(100, dotY, 0)
      expect(overlaps(apex, dotY)).toBe(false)
      expect(apex).toBeLessThan(dotY)
    }
    const apex = missMarkApex(20, 12, 0)
    expect(overlaps(apex, 12)).toBe(false)
    expect(apex - MISS_MARK_PX).toBeGreaterThanOrEqual(0)
    expect(apex).toBeGreaterThan(12)
  })
})
