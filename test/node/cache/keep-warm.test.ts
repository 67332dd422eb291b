/**
 * The cache keep-warm of the real session runtime (src-main/node/session/keep-warm.ts), through the contract, on
 * one manual clock for the simulator, the client, the store and the timers: one pre-warm per idle gap, shortly
 * before the tail's 5-minute entry expires; none when the user sends first, when the session closes, or when the
 * setting is off; and the pass after a 19-minute gap reads the whole prefix, explained by the attribution.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { KEEP_WARM_DELAY_MS, type PassAttribution } from '../../../src-main/engine/cache'
import { findModel } from '../../../src-main/node/model/models'
import type { App } from '../../../src-main/node/app'
import type { PassSummary } from '../../../src-main/node/store/passes'
import { manualClock, manualScheduler } from './harness'
import { call, failNextMessages, simulatorApp, turnEnded, type SimulatorApp } from '../../support/app'
import type { CacheSummaryView, PassSummaryView } from '../../../src-preload/contract'
import { buildTimeline } from '../../../src-renderer/features/cache/model/timeline'

describe('the session runtime keeps the cache warm through idle gaps', () => {
  let rig: SimulatorApp
  let app: App
  let clock: ReturnType<typeof manualClock>
  let scheduler: ReturnType<typeof manualScheduler>
  let sessionId: string

  /** Answers the next Messages request with a 500 once armed (the pass then gets no response). */
  let faults: ReturnType<typeof failNextMessages>

  beforeEach(async () => {
    clock = manualClock()
    scheduler = manualScheduler(clock)
    faults = failNextMessages()
    rig = await simulatorApp({ seed: 'keep-warm', clock, scheduler, faults })
    app = rig.app
    const root = join(rig.dir, 'shop')
    mkdirSync(root)
    writeFileSync(join(root, 'README.md'), '# Shop\n\nA small shop.\n' + 'Totals are integer cents. '.repeat(60))
    writeFileSync(join(root, 'AGENTS.md'), '# Agents\n\nRun `npm test` before you finish.\n')
    const project = await call<{ id: string }>(app, 'project.open', { path: root })
    sessionId = (await call<{ id: string }>(app, 'session.create', { projectId: project.id })).id
  })
  afterEach(async () => {
    await rig.close()
  })

  async function turn(text: string): Promise<void> {
    const ended = turnEnded(app, sessionId)
    await call(app, 'run.start', { sessionId, text })
    expect(await ended).toBe('end_turn')
  }

  const passes = (): PassSummary[] => app.services.store.passes.list(sessionId)
  const keepWarm = () => app.services.sessions.get(sessionId)!.cacheKeepWarm
  /** What a fired timer sent is recorded before time moves on. */
  const settle = () => keepWarm().settled()

  it('sends one pre-warm 4.5 minutes after the last pass, and the pass after a 19-minute gap reads the whole prefix', async () => {
    await turn('read README.md')
    const last = passes().at(-1)!
    expect(passes().map((p) => p.kind)).toEqual(['main', 'main'])
    expect(scheduler.pending).toBe(1)

    // Four minutes on: nothing sent yet.
    await scheduler.advance(4 * 60_000, settle)
    expect(passes()).toHaveLength(2)
    // At 4.5 minutes from the start of the last pass, the pre-warm goes out.
    await scheduler.advanceTo(last.attempts.at(-1)!.startedAt + 19 * 60_000, settle)
    const warm = passes().at(-1)!
    expect(warm).toMatchObject({ kind: 'keep_warm', status: 'done', stopReason: 'max_tokens' })
    expect(warm.queuedAt).toBe(last.attempts.at(-1)!.startedAt + KEEP_WARM_DELAY_MS)
    const body = JSON.parse(app.services.store.passes.requestBody(warm.id)) as { max_tokens: number; stream?: boolean; messages: Array<{ role: string; content: Array<{ cache_control?: { ttl?: string } }> }> }
    expect(body.max_tokens).toBe(0)
    expect(body.stream).not.toBe(true)
    // The 1h marker sits on the final assistant message; the placeholder after it carries none.
    const marked = body.messages.flatMap((m, i) => m.content.flatMap((b) => (b.cache_control ? [{ i, role: m.role, ttl: b.cache_control.ttl ?? '5m' }] : [])))
    expect(marked).toEqual([{ i: body.messages.length - 2, role: 'assistant', ttl: '1h' }])
    expect(warm.usage).toMatchObject({ output_tokens: 0 })
    expect(warm.usage!.cache_read_input_tokens).toBeGreaterThan(0)
    expect(warm.usage!.cache_creation?.ephemeral_1h_input_tokens).toBeGreaterThan(0)
    expect(warm.costUsd).toBeGreaterThan(0)

    // Never more than one per idle gap: 19 minutes on, still one.
    expect(scheduler.pending).toBe(0)
    expect(passes()).toHaveLength(3)

    // Back 19 minutes after the last pass: the next pass reads through the answer the pre-warm kept.
    await turn('read AGENTS.md')
    const after = passes()[3]!
    expect(after.kind).toBe('main')
    const warmUsage = warm.usage!
    expect(after.usage!.cache_read_input_tokens).toBe(warmUsage.cache_read_input_tokens + warmUsage.cache_creation_input_tokens)
    const attribution = after.attribution as PassAttribution
    expect(attribution).toMatchObject({ outcome: 'full', agrees: true, cause: { kind: 'none' } })
    expect((warm.attribution as PassAttribution)).toMatchObject({ keepWarm: true, agrees: true, cause: { kind: 'none' } })

    // The session's figures: the conversation's share without the pre-warm, the pre-warm counted apart.
    const summary = await call<{ totals: { passes: number; cachedShare: number; limitShare: number }; keepWarm: { passes: number; read: number; write1h: number; usd: number }; agreement: { unexplained: number; compared: number; agreed: number }; passes: Array<{ cause: string }>; whatIfs: { keepAlive: { note: string } } }>(app, 'session.cacheSummary', { sessionId })
    // The keep-alive what-if is no saving to offer: the session had it, and the note says so and what it cost.
    expect(summary.whatIfs.keepAlive.note).toMatch(/^keep-warm sent 1 pre-warm \(\$\d+\.\d+\), which bridged 1 idle gap: without it, that gap would have cost \$\d+\.\d+ more; no other idle gap to bridge$/)
    expect(summary.totals.passes).toBe(passes().filter((p) => p.kind === 'main').length)
    expect(summary.keepWarm).toMatchObject({ passes: 1, read: warmUsage.cache_read_input_tokens, write1h: warmUsage.cache_creation_input_tokens })
    expect(summary.keepWarm.usd).toBeCloseTo(warm.costUsd!, 10)
    expect(summary.agreement.unexplained).toBe(0)
    expect(summary.agreement.agreed).toBe(summary.agreement.compared)
    expect(summary.passes.map((p) => p.cause)).not.toContain('ttl_expired')

    // The Cache view's timeline, from what the contract gives it, marks the pause as kept warm: the pass after it
    // read on, so no expiry is claimed.
    const listed = await call<PassSummaryView[]>(app, 'pass.list', { sessionId })
    const markers = buildTimeline(listed, summary as unknown as CacheSummaryView, []).markers
    expect(markers).toEqual([expect.objectContaining({ kind: 'kept_warm', beforeIndex: 3, label: 'idle 19 m · kept warm by a pre-warm' })])
  })

  it('after a pre-warm, prices an edit at the TTLs the next pass writes at, not the pre-warm\'s 1h', async () => {
    await turn('read README.md')
    const projectId = app.services.store.sessions.get(sessionId)!.projectId
    const opened = await call<{ text: string; sha256: string }>(app, 'files.read', { projectId, path: 'AGENTS.md' })
    const text = `${opened.text}Keep commits small.\n`
    const last = passes().at(-1)!
    await scheduler.advanceTo(last.attempts.at(-1)!.startedAt + KEEP_WARM_DELAY_MS + 1000, settle)
    expect(passes().at(-1)!.kind).toBe('keep_warm')
    await call(app, 'session.cacheSummary', { sessionId })
    const price = await call<{ nextPassUsd: number; exact: boolean }>(app, 'cache.priceEdit', { sessionId, edit: { kind: 'instruction_file', path: 'AGENTS.md', applyNow: true, text } })
    expect(price.exact).toBe(true)
    await call(app, 'files.save', { projectId, path: 'AGENTS.md', text, baseSha256: opened.sha256 })
    await call(app, 'files.apply', { sessionId, paths: ['AGENTS.md'] })
    await turn('list the root')
    const next = passes().find((p) => p.kind === 'main' && p.queuedAt > last.queuedAt)!
    const u = next.usage!
    // It wrote at 5 minutes, as every pass does, not at the pre-warm's 1h.
    expect(u.cache_creation?.ephemeral_1h_input_tokens ?? 0).toBe(0)
    const p = findModel(next.model)!.prices
    const input = (u.cache_read_input_tokens * p.cacheReadPerMTok + u.cache_creation_input_tokens * p.cacheWrite5mPerMTok + u.input_tokens * p.inputPerMTok) / 1_000_000
    // The price is that pass's input but for the message typed (a few tokens written): at the 1h price of the
    // pre-warm's markers it was more than the pass paid.
    const tail = input - price.nextPassUsd
    expect(tail).toBeGreaterThan(0)
    expect(tail).toBeLessThan((40 * p.cacheWrite5mPerMTok) / 1_000_000)
  })

  it('sends nothing for a gap the user ends first, nor after the session closes', async () => {
    await turn('read README.md')
    expect(scheduler.pending).toBe(1)
    await scheduler.advance(2 * 60_000, settle)
    // The user sends before the pre-warm is due: that gap's pre-warm is cancelled, the new turn arms its own.
    await turn('read AGENTS.md')
    expect(scheduler.pending).toBe(1)
    await scheduler.advance(KEEP_WARM_DELAY_MS - 2 * 60_000 + 10_000, settle)
    expect(passes().filter((p) => p.kind === 'keep_warm')).toHaveLength(0)
    // The session closes (the app quits): the pending pre-warm goes with it.
    await app.services.sessions.drop(sessionId)
    expect(scheduler.pending).toBe(0)
    await scheduler.advance(10 * 60_000)
    expect(passes().filter((p) => p.kind === 'keep_warm')).toHaveLength(0)
  })

  it('sends nothing when its timer fires too late (the machine slept through the gap)', async () => {
    await turn('read README.md')
    expect(scheduler.pending).toBe(1)
    // An hour passes with the timers stood still, as when a laptop sleeps; on waking the timer runs at once.
    clock.advance(60 * 60_000)
    await scheduler.advance(0, settle)
    expect(scheduler.pending).toBe(0)
    expect(passes().filter((p) => p.kind === 'keep_warm')).toHaveLength(0)
  })

  it('lets a pre-warm already sent land and be recorded with its cost when the user sends meanwhile', async () => {
    await turn('read README.md')
    // The user sends just as the pre-warm goes out: the new turn ends the gap, the pre-warm on the wire still lands.
    await scheduler.advance(KEEP_WARM_DELAY_MS + 1_000, () => turn('read AGENTS.md'))
    const [warm] = await keepWarm().settled()
    expect(warm).toMatchObject({ kind: 'keep_warm', status: 'done' })
    expect(warm!.costUsd).toBeGreaterThan(0)
    expect(passes().filter((p) => p.kind === 'keep_warm')).toHaveLength(1)
  })

  it('plans the gap\'s pre-warm again after a pass that got no response, which touched no entry', async () => {
    await turn('read README.md')
    const last = passes().at(-1)!
    await scheduler.advance(2 * 60_000, settle)
    // A message goes out and fails: its pass cancelled the planned pre-warm as it went out.
    faults.failNext()
    const failed = turnEnded(app, sessionId)
    await call(app, 'run.start', { sessionId, text: 'read AGENTS.md' })
    expect(await failed).not.toBe('end_turn')
    expect(passes().at(-1)).toMatchObject({ kind: 'main', status: 'failed', usage: null })
    // Planned again from the last answered pass, and sent when that one's entry would have expired.
    expect(scheduler.pending).toBe(1)
    await scheduler.advanceTo(last.attempts.at(-1)!.startedAt + 10 * 60_000, settle)
    const warm = passes().filter((p) => p.kind === 'keep_warm')
    expect(warm).toHaveLength(1)
    expect(warm[0]!.queuedAt).toBe(last.attempts.at(-1)!.startedAt + KEEP_WARM_DELAY_MS)
  })

  it('with keep-warm turned off after a bridged pause, offers the pause that then expired as a saving still to be had', async () => {
    await turn('read README.md')
    await scheduler.advanceTo(passes().at(-1)!.attempts.at(-1)!.startedAt + 10 * 60_000, settle)
    expect(passes().at(-1)!.kind).toBe('keep_warm')
    await turn('read AGENTS.md')
    await call(app, 'settings.set', { app: { keepCacheWarm: false } })
    await scheduler.advanceTo(passes().at(-1)!.attempts.at(-1)!.startedAt + 320_000, settle)
    await turn('list the root')
    const expired = passes().filter((p) => p.kind === 'main' && (p.attribution as PassAttribution).cause.kind === 'ttl_expired')
    expect(expired).toHaveLength(1)
    const summary = await call<{ keepWarm: { passes: number }; whatIfs: { keepAlive: { note: string; deltaUsd: number } } }>(app, 'session.cacheSummary', { sessionId })
    expect(summary.keepWarm.passes).toBe(1)
    // The pre-warm's gap is the saving the session had; the one that expired is what a keep-alive would still save.
    expect(summary.whatIfs.keepAlive.note).toMatch(
      /^keep-warm sent 1 pre-warm \(\$\d+\.\d+\), which bridged 1 idle gap: without it, that gap would have cost \$\d+\.\d+ more; 1 idle gap was not kept warm: a keep-alive through it, 1 request, would have saved \$\d+\.\d+$/,
    )
    expect(summary.whatIfs.keepAlive.deltaUsd).toBeLessThan(0)
  })

  it('sends nothing when the setting is off, and the pass after the gap misses', async () => {
    await call(app, 'settings.set', { app: { keepCacheWarm: false } })
    await turn('read README.md')
    expect(scheduler.pending).toBe(0)
    await scheduler.advance(19 * 60_000, settle)
    await turn('read AGENTS.md')
    expect(passes().filter((p) => p.kind === 'keep_warm')).toHaveLength(0)
    expect((passes()[2]!.attribution as PassAttribution).cause.kind).toBe('ttl_expired')
  })

  describe('a dry run discarded in the gap', () => {
    /** Three turns, then 1 m 49 s on a dry run, discarded: its summary request, stage 1 having trimmed the tool
     * results, reads only the prefix before the first of them. */
    async function dryRunDiscarded(): Promise<PassSummary> {
      writeFileSync(join(rig.dir, 'shop', 'b.md'), 'Bee. '.repeat(300))
      await turn('read README.md')
      await turn('read AGENTS.md')
      await turn('read b.md')
      const last = passes().at(-1)!
      await scheduler.advance(109_000, settle)
      const dry = await call<{ status: string; compactionId: string }>(app, 'compaction.run', { sessionId, dryRun: true })
      expect(dry.status).toBe('draft')
      await call(app, 'compaction.discard', { sessionId, draftId: dry.compactionId })
      const summary = passes().at(-1)!
      expect(summary.kind).toBe('summary')
      expect(summary.usage!.cache_read_input_tokens).toBeLessThan(last.usage!.cache_read_input_tokens + last.usage!.cache_creation_input_tokens)
      return last
    }

    it('does not end the pre-warm: the tail its summary request did not read is kept warm, and the next pass reads it', async () => {
      const last = await dryRunDiscarded()
      // The dry run left the conversation as it was: the gap since the last pass goes on, and so does its pre-warm.
      expect(scheduler.pending).toBe(1)
      await scheduler.advanceTo(last.attempts.at(-1)!.startedAt + 322_000, settle)
      const warm = passes().at(-1)!
      expect(warm).toMatchObject({ kind: 'keep_warm', queuedAt: last.attempts.at(-1)!.startedAt + KEEP_WARM_DELAY_MS })
      await turn('read README.md')
      const after = passes().find((p) => p.seq > warm.seq && p.kind === 'main')!
      expect(after.usage!.cache_read_input_tokens).toBe(warm.usage!.cache_read_input_tokens + warm.usage!.cache_creation_input_tokens)
    })

    it('is not the pass the next one is compared with: with keep-warm off, the tail that expired is said to have', async () => {
      await call(app, 'settings.set', { app: { keepCacheWarm: false } })
      const last = await dryRunDiscarded()
      expect(scheduler.pending).toBe(0)
      // 5 m 22 s after the last pass, 3 m 33 s after the summary request.
      await scheduler.advanceTo(last.attempts.at(-1)!.startedAt + 322_000, settle)
      await turn('read README.md')
      const after = passes().find((p) => p.seq > last.seq && p.kind === 'main')!
      const attribution = after.attribution as PassAttribution
      // It read what the summary request refreshed, and wrote again the rest of what the last pass had sent.
      expect(attribution).toMatchObject({ outcome: 'partial', agrees: true, cause: { kind: 'ttl_expired' } })
      expect(attribution.limit.idleMs).toBe(322_000)
      expect(attribution.miss.tokens).toBeGreaterThan(0)
      // The Cache view's keep-alive what-if measures the same gap, from the conversation's last pass.
      const summary = await call<{ whatIfs: { keepAlive: { note: string; deltaUsd: number } } }>(app, 'session.cacheSummary', { sessionId })
      expect(summary.whatIfs.keepAlive.note).toMatch(/^1 request through 1 idle gap: saves \$/)
      expect(summary.whatIfs.keepAlive.deltaUsd).toBeLessThan(0)
    })
  })
})
