/**
 * Attribution of the passes the real session runtime writes, through the contract: `session.cacheSummary`
 * attributes what the store holds (from the stored bytes, plan summary and segment provenance), `pass.get` then
 * carries each attribution, and `cache.priceEdit` prices edits against the cache as it stands.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ATTRIBUTION_VERSION, type PassAttribution } from '../../../src-main/engine/cache'
import type { App } from '../../../src-main/node/app'
import { attributePass, forgetSessionCache, forgetStoreCache } from '../../../src-main/node/cache'
import { manualClock } from './harness'
import { call, failNextMessages, simulatorApp, turnEnded, type SimulatorApp } from '../../support/app'

interface Summary {
  totals: { passes: number; measured: number; read: number; cachedShare: number; limitShare: number; missTokens: number }
  agreement: { compared: number; agreed: number; rate: number; unexplained: number }
  byCause: Array<{ kind: string; passes: number }>
  whatIfs: { staticTtl1h: { deltaUsd: number; note: string }; keepAlive: { deltaUsd: number; note: string } }
  passes: Array<{ passId: string; outcome: string; cause: string; summary: string }>
}

describe('cache attribution of the runtime\'s passes, through the contract', () => {
  let dir: string
  let app: App
  let rig: SimulatorApp
  const clock = manualClock()

  beforeEach(async () => {
    rig = await simulatorApp({ seed: 'cache-app', clock })
    app = rig.app
    dir = rig.dir
    const root = join(dir, 'shop')
    mkdirSync(root)
    writeFileSync(join(root, 'README.md'), '# Shop\n\nA small shop.\n' + 'Totals are integer cents. '.repeat(60))
    writeFileSync(join(root, 'AGENTS.md'), '# Agents\n\nRun `npm test` before you finish.\n')
  })
  afterEach(async () => {
    await rig.close()
  })

  async function turn(sessionId: string, text: string): Promise<void> {
    const ended = turnEnded(app, sessionId)
    await call(app, 'run.start', { sessionId, text })
    expect(await ended).toBe('end_turn')
  }

  it('attributes every pass, agrees with the simulator, and prices edits', async () => {
    const project = await call<{ id: string }>(app, 'project.open', { path: join(dir, 'shop') })
    const session = await call<{ id: string }>(app, 'session.create', { projectId: project.id })
    await turn(session.id, 'read README.md')
    clock.advance(30_000)
    await turn(session.id, 'read AGENTS.md')
    clock.advance(7 * 60_000)
    await turn(session.id, 'list the root')

    const summary = await call<Summary>(app, 'session.cacheSummary', { sessionId: session.id })
    expect(summary.totals.passes).toBe(6)
    expect(summary.agreement).toMatchObject({ compared: 6, agreed: 6, rate: 1, unexplained: 0 })
    expect(summary.passes.map((p) => p.cause)).toEqual(['cold', 'none', 'none', 'none', 'ttl_expired', 'none'])
    expect(summary.passes[4]!.summary).toBe('miss · cache expired: idle 7 m, longer than the 5 m an entry is kept (TTL)')
    expect(summary.totals.cachedShare).toBeLessThan(summary.totals.limitShare)
    expect(summary.byCause.find((c) => c.kind === 'ttl_expired')).toMatchObject({ passes: 1 })
    expect(summary.whatIfs.keepAlive.note).toMatch(/^1 request through 1 idle gap: saves \$/)
    expect(summary.whatIfs.keepAlive.deltaUsd).toBeLessThan(0)

    // pass.get carries the stored attribution.
    const detail = await call<{ attribution: PassAttribution }>(app, 'pass.get', { passId: summary.passes[1]!.passId })
    expect(detail.attribution).toMatchObject({ version: ATTRIBUTION_VERSION, outcome: 'full', agrees: true, readPath: 'messages[0].content[1]' })

    // Edits, priced against the cache as it stands a minute after the last pass.
    clock.advance(60_000)
    const applyNow = await call<{ movedBlock: { path: string }; rebilledTokens: number; deltaUsd: number; cacheWarm: boolean; label: string }>(app, 'cache.priceEdit', { sessionId: session.id, edit: { kind: 'instruction_file', path: 'AGENTS.md', applyNow: true } })
    expect(applyNow).toMatchObject({ movedBlock: { path: 'system[1]' }, cacheWarm: true })
    expect(applyNow.rebilledTokens).toBeGreaterThan(0)
    expect(applyNow.deltaUsd).toBeGreaterThan(0)
    expect(applyNow.label).toMatch(/^moves system\[1\]: the next pass re-bills ≈[\d,]+ tokens \(\+\$0\.\d+\)$/)
    const later = await call<{ movedBlock: null; rebilledTokens: number }>(app, 'cache.priceEdit', { sessionId: session.id, edit: { kind: 'instruction_file', path: 'AGENTS.md', applyNow: false } })
    expect(later).toMatchObject({ movedBlock: null, rebilledTokens: 0 })
    const tools = await call<{ movedBlock: { path: string }; rebilledTokens: number }>(app, 'cache.priceEdit', { sessionId: session.id, edit: { kind: 'tools', removed: ['bash'] } })
    expect(tools.movedBlock.path).toBe('tools[0]')
    expect(tools.rebilledTokens).toBeGreaterThan(applyNow.rebilledTokens)
    const model = await call<{ rebilledTokens: number; deltaUsd: number }>(app, 'cache.priceEdit', { sessionId: session.id, edit: { kind: 'model', model: 'claude-opus-4-8' } })
    expect(model.deltaUsd).toBeGreaterThan(0)

    // Ten minutes on, the cache has expired: an edit re-bills nothing the expiry would not have.
    clock.advance(10 * 60_000)
    const cold = await call<{ rebilledTokens: number; cacheWarm: boolean }>(app, 'cache.priceEdit', { sessionId: session.id, edit: { kind: 'instruction_file', path: 'AGENTS.md', applyNow: true } })
    expect(cold).toMatchObject({ rebilledTokens: 0, cacheWarm: false })

    expect(await app.dispatch('session.cacheSummary', { sessionId: 'ses_nope' })).toMatchObject({ ok: false, error: { code: 'not_found' } })
  })

  /** A session of two turns ten seconds apart: four passes, each reading what the one before left. */
  async function twoTurns(): Promise<{ id: string }> {
    const project = await call<{ id: string }>(app, 'project.open', { path: join(dir, 'shop') })
    const session = await call<{ id: string }>(app, 'session.create', { projectId: project.id })
    await turn(session.id, 'read README.md')
    clock.advance(10_000)
    await turn(session.id, 'read AGENTS.md')
    return session
  }

  it('shows a pass that got no response as one that read and wrote nothing, and predicts its retry from the pass before', async () => {
    await rig.close()
    // The next Messages request after `failNext` is answered with a 500: the pass fails with no response.
    const faults = failNextMessages()
    rig = await simulatorApp({ seed: 'cache-app-failed', clock, faults })
    app = rig.app
    dir = rig.dir
    mkdirSync(join(dir, 'shop'))
    writeFileSync(join(dir, 'shop', 'README.md'), '# Shop\n\n' + 'Totals are integer cents. '.repeat(60))
    const project = await call<{ id: string }>(app, 'project.open', { path: join(dir, 'shop') })
    const session = await call<{ id: string }>(app, 'session.create', { projectId: project.id })
    await turn(session.id, 'read README.md')
    clock.advance(30_000)
    faults.failNext()
    const failed = turnEnded(app, session.id)
    await call(app, 'run.start', { sessionId: session.id, text: 'list the root' })
    expect(await failed).not.toBe('end_turn')
    clock.advance(30_000)
    const retried = turnEnded(app, session.id)
    await call(app, 'run.retry', { sessionId: session.id })
    expect(await retried).toBe('end_turn')

    const summary = await call<Summary>(app, 'session.cacheSummary', { sessionId: session.id })
    const causes = summary.passes.map((p) => p.cause)
    expect(causes).toEqual(['cold', 'none', 'no_response', 'none', 'none'])
    expect(summary.agreement).toMatchObject({ unexplained: 0 })
    const noResponse = summary.passes[2]!
    expect(noResponse.summary).toMatch(/^no response/)
    const detail = await call<{ status: string; attribution: PassAttribution }>(app, 'pass.get', { passId: noResponse.passId })
    expect(detail.status).toBe('failed')
    expect(detail.attribution).toMatchObject({ readPath: null, atLimit: true, miss: { tokens: 0 } })
    expect(summary.byCause.find((c) => c.kind === 'no_response')).toMatchObject({ passes: 1 })
    // The retry keeps a breakpoint where the last pass that reached the service ended (not where the failed one did,
    // which wrote nothing), so its read never depends on the 20-block lookback.
    const tagsOf = async (passId: string) => {
      const d = await call<{ segments: Array<{ path: string; breakpoint: string | null }> }>(app, 'pass.get', { passId })
      return d.segments.filter((s) => s.path.startsWith('messages') && s.breakpoint !== null).map((s) => `${s.path}:${s.breakpoint}`)
    }
    expect(await tagsOf(summary.passes[3]!.passId)).toEqual(['messages[2]:previous_tail', 'messages[4]:newest_tail'])
  })

  it('gives the same attribution after a restart, from what the store kept', async () => {
    const session = await twoTurns()
    const store = app.services.store
    const passes = store.passes.list(session.id)
    const first = passes.map((p) => attributePass(store, p, { onError: (e) => { throw e } }))
    forgetSessionCache(store, session.id)
    const again = attributePass(store, passes.at(-1)!.id, { onError: (e) => { throw e } })
    expect(again).toEqual(first.at(-1))
    expect(first.map((a) => a?.cause.kind)).toEqual(['cold', 'none', 'none', 'none'])
  })

  it('shows a session attributed under earlier rules as the current rules see it, in the inspector and in edit prices', async () => {
    const session = await twoTurns()
    const store = app.services.store
    const current = store.passes.list(session.id).map((p) => p.attribution as PassAttribution)
    const price = await call<{ rebilledTokens: number }>(app, 'cache.priceEdit', { sessionId: session.id, edit: { kind: 'instruction_file', path: 'AGENTS.md', applyNow: true } })
    // As a store written by the previous version holds them: version 1, and a label the old rule wrote.
    const aged = () => {
      forgetStoreCache(store)
      for (const a of current) store.passes.setAttribution(a.passId, { ...a, version: 1, summary: 'old rule' })
    }
    aged()
    const listed = await call<Array<{ attribution: PassAttribution }>>(app, 'pass.list', { sessionId: session.id })
    // The list carries each attribution without its cache facts (pass.get has them).
    expect(listed.map((p) => p.attribution)).toEqual(current.map(({ facts: _facts, ...shown }) => shown))
    aged()
    const detail = await call<{ attribution: PassAttribution }>(app, 'pass.get', { passId: current[1]!.passId })
    expect(detail.attribution).toEqual(current[1])
    aged()
    // The price is made against every pass's cache facts, not only the last pass's.
    expect(await call<{ rebilledTokens: number }>(app, 'cache.priceEdit', { sessionId: session.id, edit: { kind: 'instruction_file', path: 'AGENTS.md', applyNow: true } })).toEqual(price)
  })

  it('predicts a new session reading the prefix an earlier session of the project wrote, as the service does', async () => {
    // The service's cache is per organisation, not per conversation: a second session of the same project sends the
    // same tools and system blocks, and reads them from the first session's entries while they live.
    const project = await call<{ id: string }>(app, 'project.open', { path: join(dir, 'shop') })
    const first = await call<{ id: string }>(app, 'session.create', { projectId: project.id })
    await turn(first.id, 'read README.md')
    clock.advance(60_000)
    const second = await call<{ id: string }>(app, 'session.create', { projectId: project.id })
    await turn(second.id, 'read AGENTS.md')

    const summary = await call<Summary>(app, 'session.cacheSummary', { sessionId: second.id })
    expect(summary.agreement).toMatchObject({ compared: 2, agreed: 2, unexplained: 0 })
    expect(summary.totals.read).toBeGreaterThan(0)
    // The first pass read what the other session wrote, and says so.
    expect(summary.passes[0]!.summary).toMatch(/another session/)

    // After a restart, from what the store kept: the same answer.
    const store = app.services.store
    const passes = store.passes.list(second.id)
    const live = passes.map((p) => p.attribution)
    forgetStoreCache(store)
    for (const p of passes) store.passes.setAttribution(p.id, null)
    const again = store.passes.list(second.id).map((p) => attributePass(store, p.id, { onError: (e) => { throw e } }))
    expect(again).toEqual(live)
  })
})
