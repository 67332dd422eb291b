/**
 * A compaction's cost is what its summary request was billed, as the session log priced it: every attempt of it,
 * a stream that broke after its 200 and was sent again included, not the answer's price alone.
 */
import { describe, expect, it } from 'vitest'
import { DEFAULT_COMPACTION_SETTINGS, runCompaction } from '../../../src-main/engine/compaction'
import type { PassId } from '../../../src-main/engine/conversation/entries'
import type { SessionLog } from '../../../src-main/engine/loop/ports'
import { FakeSession, fakeLog, fakePlanner, scriptedModel } from './fakes'

async function compact(log: Pick<SessionLog, 'commitPass'>): Promise<number> {
  const session = new FakeSession()
  for (let i = 0; i < 5; i++) {
    session.user(`request ${i}: ${'please look at src/app.ts '.repeat(30)}`)
    session.step([{ name: 'read_file', input: { path: `src/f${i}.ts` }, result: `contents ${i} `.repeat(200) }])
    session.reply(`done ${i}`)
  }
  const result = await runCompaction(
    { model: scriptedModel([{ text: '<summary>The user asked for five reads.</summary>' }]), log, planner: fakePlanner(), clock: { now: () => session.now }, priceUsd: () => 0.1 },
    { entries: session.entries, previousTailIndex: null, settings: { ...DEFAULT_COMPACTION_SETTINGS, keepSteps: 1 }, windowTokens: 200_000, realTokens: null, model: 'claude-sonnet-4-6', maxOutputTokens: 8000, root: '/p', origin: { kind: 'session_start' } },
    { trigger: 'manual', focus: null, instructions: null, upto: null, forceSummary: true },
    new AbortController().signal,
  )
  if (result.status !== 'draft') throw new Error(`expected a draft, got ${result.status}`)
  return result.draft.costUsd
}

describe("a compaction's cost", () => {
  it('is what the log billed for its summary request, every attempt of it', async () => {
    const log = { commitPass: () => ({ passId: 'sp1' as PassId, entries: [], costUsd: 0.25 }) }
    expect(await compact(log)).toBe(0.25)
  })

  it("is the answer's price from a log that does not price passes", async () => {
    expect(await compact(fakeLog())).toBe(0.1)
  })
})
