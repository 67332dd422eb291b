/**
 * Property tests (docs/compaction.md "Tests"): on random sessions of user messages, assistant messages, tool calls
 * with their results, thinking blocks and images, after any compaction — automatic or manual, once or twice — the
 * history is valid for the API, the first request survives, the kept tail is byte-identical, and when stage 1
 * suffices the estimate is at or below the target.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { composeCheckpoint, DEFAULT_COMPACTION_SETTINGS, historyProblems, messageText, runCompaction, type CompactionDraft } from '../../../src-main/engine/compaction'
import { HistoryCache, modelView } from '../../../src-main/engine/conversation/history'
import type { Entry } from '../../../src-main/engine/conversation/entries'
import { FakeSession, fakeLog, fakePlanner, scriptedModel } from './fakes'

const word = fc.constantFrom('fix', 'the', 'parser', 'test', 'in', 'src/app.ts', 'please', 'never', 'use', 'npm', 'é', '日本', '🙂', 'line\nbreak')
const sentence = fc.array(word, { minLength: 1, maxLength: 12 }).map((w) => w.join(' '))
const call = fc.record({
  name: fc.constantFrom('read_file', 'bash', 'grep'),
  size: fc.oneof(fc.integer({ min: 0, max: 900 }), fc.integer({ min: 1001, max: 4000 })),
})
const step = fc.record({ calls: fc.array(call, { minLength: 1, maxLength: 3 }), thinking: fc.boolean(), text: fc.option(sentence, { nil: undefined }) })
const turn = fc.record({ request: sentence, images: fc.integer({ min: 0, max: 2 }), steps: fc.array(step, { maxLength: 4 }), reply: sentence })
const sessionSpec = fc.array(turn, { minLength: 1, maxLength: 7 })

type TurnSpec = typeof turn extends fc.Arbitrary<infer T> ? T : never

function play(session: FakeSession, turns: ReadonlyArray<TurnSpec>): void {
  for (const t of turns) {
    session.user(t.request, t.images)
    for (const s of t.steps) {
      session.step(
        s.calls.map((c, i) => ({ name: c.name, input: c.name === 'bash' ? { command: `echo ${i}` } : { path: `src/f${i}.ts` }, result: `${c.name} output `.padEnd(c.size, 'x') })),
        { ...(s.text !== undefined ? { text: s.text } : {}), ...(s.thinking ? { thinking: `thinking about ${t.request}` } : {}) },
      )
    }
    session.reply(t.reply)
  }
}

function firstRequest(entries: ReadonlyArray<Entry>): string | null {
  for (const e of entries) {
    if (e.kind !== 'user_message') continue
    const text = e.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n')
    if (text.trim() !== '') return text
  }
  return null
}

async function compactOnce(session: FakeSession, trigger: 'auto' | 'manual', keepSteps: number, windowTokens: number): Promise<void> {
  const settings = { ...DEFAULT_COMPACTION_SETTINGS, keepSteps }
  const before = new HistoryCache().fromView(modelView(session.entries))
  const result = await runCompaction(
    { model: scriptedModel([{ text: '<analysis>notes</analysis><summary>The user asked for fixes; src/app.ts was read.</summary>' }]), log: fakeLog(), planner: fakePlanner(), clock: { now: () => session.now }, priceUsd: () => 0 },
    { entries: session.entries, previousTailIndex: null, settings, windowTokens, realTokens: null, model: 'claude-sonnet-4-6', maxOutputTokens: 8000, root: '/p', origin: { kind: 'session_start' } },
    { trigger, focus: null, instructions: null, upto: null, forceSummary: trigger === 'manual' },
    new AbortController().signal,
  )
  if (result.status === 'nothing_to_compact') {
    const turns = before.filter((m, i) => i > 0 && m.message.role === 'assistant').length
    // Manual: either too few turns, or too little before them to be worth a summary (refused before paying).
    if (trigger === 'manual' && turns > keepSteps) expect(result.reason).toMatch(/^Nothing worth compacting/)
    return
  }
  expect(result.status).toBe('draft')
  const draft = (result as { draft: CompactionDraft }).draft
  const composed = composeCheckpoint({ draft, entries: session.entries, files: [], pins: [], systemText: '', sessionBlock: null })
  if (!composed.ok) {
    expect(composed.code).toBe('would_not_shrink')
    return
  }
  const after = composed.history
  expect(historyProblems(after.map((m) => m.message))).toEqual([])
  const first = firstRequest(session.entries)
  if (first !== null) expect(messageText(after[0]!.message)).toContain(first)
  if (draft.stage === 'summary') {
    expect(after[0]!.provenance.kind).toBe('compaction_summary')
    expect(JSON.stringify(after.slice(1).map((m) => m.message))).toBe(JSON.stringify(before.slice(draft.splitIndex).map((m) => m.message)))
  } else {
    expect(JSON.stringify(after.slice(draft.splitIndex).map((m) => m.message))).toBe(JSON.stringify(before.slice(draft.splitIndex).map((m) => m.message)))
    // Stage 1 can also be all there is (nothing worth a summary before the split); the target holds when it sufficed.
    if (draft.reachedTarget) expect(composed.body.tokens.after.estimated).toBeLessThanOrEqual(draft.tokens.targetTokens)
    else expect(trigger === 'manual' || composed.body.tokens.after.estimated > draft.tokens.targetTokens).toBe(true)
  }
  // The checkpoint is written; the model's view from now on is the composed one.
  session.append(composed.body)
  expect(JSON.stringify(new HistoryCache().fromView(modelView(session.entries)).map((m) => m.message))).toBe(JSON.stringify(after.map((m) => m.message)))
}

describe('compaction invariants', () => {
  it('hold for random sessions, once and twice in a row', async () => {
    await fc.assert(
      fc.asyncProperty(sessionSpec, sessionSpec, fc.constantFrom('auto', 'manual'), fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1500, max: 40_000 }), async (first, second, trigger, keepSteps, windowTokens) => {
        const session = new FakeSession()
        play(session, first)
        await compactOnce(session, trigger, keepSteps, windowTokens)
        play(session, second)
        await compactOnce(session, trigger, keepSteps, windowTokens)
      }),
      { numRuns: 150 },
    )
  })
})
