/**
 * Switching a session's model (decision 0021): priced before it happens, recorded as an entry, used by the next pass,
 * and attributed as a model change. Refused while a turn runs and for a model the app does not know (a session Loupe
 * did not run: test/rpc/imported-session.test.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { FaultPlan } from '../../../src-main/simulator/faults'
import { findModel, servedModels } from '../../../src-main/node/model/models'
import { call, sendAndWait, simulatorApp, turnEnded, type SimulatorApp } from '../../support/app'

interface Price {
  rebilledTokens: number
  historyChanged?: boolean
  deltaUsd: number
  switchLostUsd?: number
  cachedOnModel?: number
  exact: boolean
}
type Row = { passId: string; cause: string | null; missTokens: number; missUsd: number | null }

/** The service's counter unavailable while `down` says so (count_tokens answered with a 500); passes still answered. */
function countingDown(down: () => boolean): FaultPlan {
  return { next: ({ method, path }) => (down() && method === 'POST' && path.includes('count_tokens') ? { kind: 'server_error' } : null) }
}

let running: SimulatorApp | null = null
afterEach(async () => {
  await running?.close()
  running = null
})

async function sessionWithOnePass(faults?: FaultPlan): Promise<{ running: SimulatorApp; sessionId: string }> {
  running = await simulatorApp({ seed: 'model-switch', model: 'claude-sonnet-4-6', ...(faults ? { faults } : {}) })
  const root = join(running.dir, 'demo')
  mkdirSync(root)
  writeFileSync(join(root, 'README.md'), '# Demo\n\nA small project.\n')
  const project = await call<{ id: string }>(running.app, 'project.open', { path: root })
  const { id: sessionId } = await call<{ id: string }>(running.app, 'session.create', { projectId: project.id })
  const ended = turnEnded(running.app, sessionId)
  await call(running.app, 'run.start', { sessionId, text: 'read README.md' })
  await ended
  return { running, sessionId }
}

/**
 * Switches the session back to Sonnet 4.6, where its first turn ran, sends a message, and gives what the first pass
 * back on Sonnet read from the cache (Sonnet's third main pass: the first turn's two, then this one).
 */
async function readAfterSwitchingBack(app: SimulatorApp['app'], sessionId: string): Promise<number> {
  await call(app, 'session.setModel', { sessionId, model: 'claude-sonnet-4-6' })
  const ended = turnEnded(app, sessionId)
  await call(app, 'run.start', { sessionId, text: 'read README.md' })
  await ended
  const passes = await call<Array<{ model: string; kind: string; usage: { cache_read_input_tokens: number } | null }>>(app, 'pass.list', { sessionId })
  return passes.filter((p) => p.kind === 'main' && p.model === 'claude-sonnet-4-6')[2]!.usage!.cache_read_input_tokens
}

/**
 * A session on Sonnet 4.6 of four turns, then `/compact`: the next pass sends the summary, not the history the last
 * pass sent, so staying it would read the tools and system alone (under Haiku 4.5's 4,096 minimum), while the
 * compacted prompt is over it.
 */
async function compactedSession(): Promise<{ running: SimulatorApp; sessionId: string; send: (text: string) => Promise<string> }> {
  running = await simulatorApp({ seed: 'model-switch-compacted', model: 'claude-sonnet-4-6' })
  const { app } = running
  const root = join(running.dir, 'demo')
  const files: Record<string, string> = {
    'README.md': '# Demo\n\nThe API is versioned under /v2. Keep handlers small.\n',
    'src/api.ts': Array.from({ length: 150 }, (_, i) => `export function handler${i}() { return { version: 2, route: '/v2/items/${i}' } }`).join('\n'),
    'docs/notes.md': '# Notes\n\nDecision: the API returns JSON only.\n'.repeat(20),
  }
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  const project = await call<{ id: string }>(app, 'project.open', { path: root })
  const { id: sessionId } = await call<{ id: string }>(app, 'session.create', { projectId: project.id })
  const send = (text: string): Promise<string> => sendAndWait(app, sessionId, text)
  for (const text of ['read README.md', 'find "handler"', 'find "Decision"', 'read src/api.ts']) expect(await send(text)).toBe('end_turn')
  expect(await send('/compact keep the API decisions')).toBe('compacted')
  return { running, sessionId, send }
}

type MainPass = { id: string; model: string; kind: string; usage: { cache_read_input_tokens: number; cache_creation_input_tokens: number } | null }

/**
 * A session on Sonnet 4.6 whose turns read a small file, then a large one (the prompt over Haiku 4.5's 4,096
 * minimum), then search: `takeBack(n)` takes back the n-th message from the end, and the next pass sends the
 * conversation without it, which the last pass's request still holds.
 */
async function sessionToTakeBack(): Promise<{ running: SimulatorApp; sessionId: string; send: (text: string) => Promise<string>; takeBack: (fromEnd: number) => Promise<void> }> {
  running = await simulatorApp({ seed: 'model-switch-take-back', model: 'claude-sonnet-4-6' })
  const { app } = running
  const root = join(running.dir, 'demo')
  mkdirSync(join(root, 'src'), { recursive: true })
  writeFileSync(join(root, 'README.md'), '# Demo\n\nA small project.\n')
  writeFileSync(join(root, 'src/api.ts'), Array.from({ length: 150 }, (_, i) => `export function handler${i}() { return { version: 2, route: '/v2/items/${i}' } }`).join('\n'))
  const project = await call<{ id: string }>(app, 'project.open', { path: root })
  const { id: sessionId } = await call<{ id: string }>(app, 'session.create', { projectId: project.id })
  const send = (text: string): Promise<string> => sendAndWait(app, sessionId, text)
  for (const text of ['read README.md', 'read src/api.ts', 'find "handler1"']) expect(await send(text)).toBe('end_turn')
  const takeBack = async (fromEnd: number): Promise<void> => {
    const { entries } = await call<{ entries: Array<{ id: string; kind: string }> }>(app, 'session.get', { sessionId })
    const sent = entries.filter((e) => e.kind === 'user_message')
    await call(app, 'run.takeBack', { sessionId, entryId: sent.at(-fromEnd)!.id })
  }
  return { running, sessionId, send, takeBack }
}

describe("switching a session's model", () => {
  it('is priced first, recorded, used by the next pass, and named as the cause of its miss', async () => {
    const { running: r, sessionId } = await sessionWithOnePass()
    const { app } = r
    const price = await call<{ movedBlock: { label: string } | null; rebilledTokens: number; label: string; uncacheable?: { model: string; tokens: number; minimum: number } }>(app, 'cache.priceEdit', { sessionId, edit: { kind: 'model', model: 'claude-opus-4-6' } })
    expect(price.movedBlock?.label).toBe('everything: the cache is per model (claude-opus-4-6)')
    expect(price.rebilledTokens).toBeGreaterThan(1000)
    // This small session's prompt is under Opus 4.6's 4,096-token minimum: that model would cache none of it.
    expect(price.uncacheable).toMatchObject({ model: 'claude-opus-4-6', minimum: 4096 })
    expect(price.uncacheable!.tokens).toBeLessThan(4096)
    expect(price.label).toMatch(/^claude-opus-4-6 caches nothing under 4,096 tokens, and this prompt is [\d,]+: every pass pays for all of it in full/)

    expect(await call(app, 'session.setModel', { sessionId, model: 'claude-opus-4-6' })).toEqual({ model: 'claude-opus-4-6' })
    const got = await call<{ model: string; entries: Array<{ kind: string; model?: string }> }>(app, 'session.get', { sessionId })
    expect(got.model).toBe('claude-opus-4-6')
    expect(got.entries.filter((e) => e.kind === 'model_switched')).toEqual([expect.objectContaining({ model: 'claude-opus-4-6' })])
    // The same model again changes nothing and records nothing.
    await call(app, 'session.setModel', { sessionId, model: 'claude-opus-4-6' })
    expect((await call<{ entries: Array<{ kind: string }> }>(app, 'session.get', { sessionId })).entries.filter((e) => e.kind === 'model_switched')).toHaveLength(1)

    const ended = turnEnded(app, sessionId)
    await call(app, 'run.start', { sessionId, text: 'list the root' })
    await ended
    const passes = await call<Array<{ id: string; model: string; kind: string }>>(app, 'pass.list', { sessionId })
    const main = passes.filter((p) => p.kind === 'main')
    // The turn before the switch was one model's; every pass of the one after it is the other's.
    expect(main.map((p) => p.model)).toEqual([...main.slice(0, 2).map(() => 'claude-sonnet-4-6'), ...main.slice(2).map(() => 'claude-opus-4-6')])
    const summary = await call<{ passes: Array<{ passId: string; cause: string | null; summary: string; missTokens: number }> }>(app, 'session.cacheSummary', { sessionId })
    expect(summary.passes.find((p) => p.passId === main[2]!.id)?.cause).toMatch(/model/i)
    // The pass after the switch says why it read nothing as the question did: that model's minimum, over the prompt
    // the question counted; it lost nothing. The next one names the prefix under that minimum.
    const rowOf = (passId: string) => summary.passes.find((r) => r.passId === passId)!
    const [switched, after] = [rowOf(main[2]!.id), rowOf(main[3]!.id)]
    expect(switched.summary).toBe(`miss · model changed: claude-sonnet-4-6 → claude-opus-4-6 (the cache is per model); claude-opus-4-6 caches nothing under 4,096 tokens, and the prompt before the new tail is ${price.uncacheable!.tokens.toLocaleString('en-US')}: every pass pays for all of it in full until the conversation grows past that`)
    expect(switched.missTokens).toBe(0)
    expect(after.summary).toMatch(/^miss · prefix below the minimum: the [\d,]+ tokens before the new tail are under claude-opus-4-6's minimum of 4,096$/)
  })

  it('switched back, is priced with what the first model still holds cached, and the next pass reads exactly that', async () => {
    const { running: r, sessionId } = await sessionWithOnePass()
    const { app } = r
    await call(app, 'session.setModel', { sessionId, model: 'claude-opus-5-5' })
    const ended = turnEnded(app, sessionId)
    await call(app, 'run.start', { sessionId, text: 'list the root' })
    await ended
    const price = await call<{ cachedOnModel?: number; rebilledTokens: number; deltaUsd: number }>(app, 'cache.priceEdit', { sessionId, edit: { kind: 'model', model: 'claude-sonnet-4-6' } })
    // Sonnet's cache still holds the first turn: a switch back is not a cold start.
    expect(price.cachedOnModel).toBeGreaterThan(1000)
    expect(await readAfterSwitchingBack(app, sessionId)).toBe(price.cachedOnModel)
  })

  it("prices the cache it loses as the pass after it is charged: the same tokens and dollars, the rest of its $ the models' prices", async () => {
    const { running: r, sessionId } = await sessionWithOnePass()
    const { app } = r
    const price = await call<Price>(app, 'cache.priceEdit', { sessionId, edit: { kind: 'model', model: 'claude-opus-4-8' } })
    await call(app, 'session.setModel', { sessionId, model: 'claude-opus-4-8' })
    const ended = turnEnded(app, sessionId)
    await call(app, 'run.start', { sessionId, text: 'list the root' })
    await ended
    const passes = await call<Array<{ id: string; model: string; kind: string }>>(app, 'pass.list', { sessionId })
    const firstOnOpus = passes.find((p) => p.kind === 'main' && p.model === 'claude-opus-4-8')!
    const summary = await call<{ passes: Row[] }>(app, 'session.cacheSummary', { sessionId })
    const row = summary.passes.find((p) => p.passId === firstOnOpus.id)!
    expect(row.cause).toBe('model_changed')
    // What the question priced as lost is what the Cache view and the inspector say that pass lost, to the token.
    expect(price.exact).toBe(true)
    expect(row.missTokens).toBe(price.rebilledTokens)
    expect(row.missUsd).toBeCloseTo(price.switchLostUsd!, 12)
    // The rest of the switch's $ is Opus 4.8's prices against Sonnet 4.6's for the same prompt: dearer, so positive.
    expect(price.deltaUsd - price.switchLostUsd!).toBeGreaterThan(0)
  })

  it('after a compaction, re-bills what staying would read: the tools and system alone, not the last pass\'s whole prefix', async () => {
    const { running: r, sessionId, send } = await compactedSession()
    const price = await call<Price>(r.app, 'cache.priceEdit', { sessionId, edit: { kind: 'model', model: 'claude-haiku-4-5' } })
    // Staying on Sonnet: the next pass reads what the price says the switch would re-bill.
    expect(await send('read README.md')).toBe('end_turn')
    const passes = await call<MainPass[]>(r.app, 'pass.list', { sessionId })
    const afterCompaction = passes[passes.findIndex((p) => p.kind === 'summary') + 1]!
    expect(afterCompaction.model).toBe('claude-sonnet-4-6')
    // In Haiku's count (the share of its count of the whole request, which strips the thinking), within a few tokens;
    // the last pass's whole cached prefix was more than three times that.
    const read = afterCompaction.usage!.cache_read_input_tokens
    expect(Math.abs(price.rebilledTokens - read)).toBeLessThan(read * 0.02)
  })

  it('after a compaction, to a model whose minimum is over the tools and system, prices no loss, and the pass after it counts none', async () => {
    const { running: r, sessionId, send } = await compactedSession()
    const { app } = r
    const price = await call<Price & { rebilledUnderMinimum?: { minimum: number } }>(app, 'cache.priceEdit', { sessionId, edit: { kind: 'model', model: 'claude-haiku-4-5' } })
    await call(app, 'session.setModel', { sessionId, model: 'claude-haiku-4-5' })
    expect(await send('read README.md')).toBe('end_turn')
    const passes = await call<MainPass[]>(app, 'pass.list', { sessionId })
    const firstOnHaiku = passes.find((p) => p.kind === 'main' && p.model === 'claude-haiku-4-5')!
    // Its whole prompt is over Haiku's minimum: it wrote, and was no pass that caches nothing.
    expect(firstOnHaiku.usage!.cache_creation_input_tokens).toBeGreaterThan(4096)
    const row = (await call<{ passes: Row[] }>(app, 'session.cacheSummary', { sessionId })).passes.find((p) => p.passId === firstOnHaiku.id)!
    expect(row.cause).toBe('model_changed')
    // What the question priced as the cache lost is what the Cache view counts for that pass: none, since Haiku could
    // not have read the tools and system however warm; the re-billed tokens are under its minimum.
    expect(price.rebilledTokens).toBeLessThan(4096)
    expect(price.rebilledUnderMinimum).toEqual({ minimum: 4096 })
    expect(row.missTokens).toBe(0)
    expect(price.switchLostUsd).toBe(row.missUsd)
  })

  it('after a compaction, is sized on the summary the next pass sends: its price is that pass\'s own input, but for the message typed', async () => {
    const { running: r, sessionId, send } = await compactedSession()
    const { app } = r
    const price = await call<Price & { nextPassUsd: number; withoutEditUsd: number }>(app, 'cache.priceEdit', { sessionId, edit: { kind: 'model', model: 'claude-haiku-4-5' } })
    await call(app, 'session.setModel', { sessionId, model: 'claude-haiku-4-5' })
    expect(await send('read README.md')).toBe('end_turn')
    const passes = await call<Array<MainPass & { costUsd: number; usage: { output_tokens: number } }>>(app, 'pass.list', { sessionId })
    const firstOnHaiku = passes.find((p) => p.kind === 'main' && p.model === 'claude-haiku-4-5')!
    const inputUsd = firstOnHaiku.costUsd - (firstOnHaiku.usage.output_tokens * findModel('claude-haiku-4-5')!.prices.outputPerMTok) / 1_000_000
    // Sized on the last pass's request (the history before the summary), the price was several times this.
    expect(Math.abs(price.nextPassUsd - inputUsd)).toBeLessThan(inputUsd * 0.03)
  })

  it('after a message taken back, is sized on the conversation as it stands: under the new model\'s minimum it caches nothing, and no loss is priced or counted', async () => {
    const { running: r, sessionId, send, takeBack } = await sessionToTakeBack()
    const { app } = r
    type Switch = Price & { uncacheable?: { tokens: number; minimum: number }; label: string }
    const before = await call<Switch>(app, 'cache.priceEdit', { sessionId, edit: { kind: 'model', model: 'claude-haiku-4-5' } })
    expect(before.uncacheable).toBeUndefined()
    // The large file's message and its answers leave what the next pass sends: the prompt is under Haiku's minimum.
    await takeBack(2)
    const price = await call<Switch>(app, 'cache.priceEdit', { sessionId, edit: { kind: 'model', model: 'claude-haiku-4-5' } })
    expect(price.uncacheable).toMatchObject({ model: 'claude-haiku-4-5', minimum: 4096 })
    expect(price.switchLostUsd).toBeUndefined()
    await call(app, 'session.setModel', { sessionId, model: 'claude-haiku-4-5' })
    expect(await send('read README.md')).toBe('end_turn')
    const passes = await call<MainPass[]>(app, 'pass.list', { sessionId })
    const firstOnHaiku = passes.find((p) => p.kind === 'main' && p.model === 'claude-haiku-4-5')!
    expect(firstOnHaiku.usage!.cache_creation_input_tokens).toBe(0)
    const row = (await call<{ passes: Row[] }>(app, 'session.cacheSummary', { sessionId })).passes.find((p) => p.passId === firstOnHaiku.id)!
    expect(row.missTokens).toBe(0)
    // The prompt the question named is the one that pass sent, within a few tokens (that pass also sent the message
    // typed; the question's count is of the request as it would go, thinking included). Sized on the last pass's
    // request, it was over 6,000.
    const sent = (firstOnHaiku.usage as unknown as { input_tokens: number }).input_tokens
    expect(Math.abs(price.uncacheable!.tokens - sent)).toBeLessThan(sent * 0.03)
  })

  it('after a message taken back, re-bills what staying would read, and the pass after it counts that loss', async () => {
    const { running: r, sessionId, send, takeBack } = await sessionToTakeBack()
    const { app } = r
    await takeBack(1)
    const price = await call<Price>(app, 'cache.priceEdit', { sessionId, edit: { kind: 'model', model: 'claude-opus-4-8' } })
    await call(app, 'session.setModel', { sessionId, model: 'claude-opus-4-8' })
    expect(await send('read README.md')).toBe('end_turn')
    const passes = await call<MainPass[]>(app, 'pass.list', { sessionId })
    const firstOnOpus = passes.find((p) => p.kind === 'main' && p.model === 'claude-opus-4-8')!
    const row = (await call<{ passes: Row[] }>(app, 'session.cacheSummary', { sessionId })).passes.find((p) => p.passId === firstOnOpus.id)!
    expect(row.cause).toBe('model_changed')
    // Staying would read the entry the large file's turn left at its tail (the taken-back message's pass wrote past
    // it): in Sonnet's count, that pass's whole prompt. The price re-bills that, in Opus's count (which strips the
    // earlier turns' thinking, a few percent), not the last pass's whole prefix.
    const sonnet = passes.filter((p) => p.kind === 'main' && p.model === 'claude-sonnet-4-6')
    const held = sonnet[3]!.usage!.cache_read_input_tokens + sonnet[3]!.usage!.cache_creation_input_tokens
    const lastPrefix = sonnet.at(-1)!.usage!.cache_read_input_tokens + sonnet.at(-1)!.usage!.cache_creation_input_tokens
    expect(Math.abs(price.rebilledTokens - held)).toBeLessThan(held * 0.04)
    expect(lastPrefix - price.rebilledTokens).toBeGreaterThan(2000)
    expect(price.historyChanged).toBe(true)
    // The Cache view measures that pass against the last pass's prefix, which also holds the answer the taken-back
    // message followed: it counts that too, which staying would have written as well, so the question says so.
    expect(row.missTokens).toBeGreaterThan(price.rebilledTokens)
    expect(row.missTokens - price.rebilledTokens).toBeLessThan(400)
  })

  it('switched back while the counter is unavailable, is priced with what that model still holds, not as a cold start', async () => {
    let down = false
    const { running: r, sessionId } = await sessionWithOnePass(countingDown(() => down))
    const { app } = r
    await call(app, 'session.setModel', { sessionId, model: 'claude-opus-5-5' })
    const ended = turnEnded(app, sessionId)
    await call(app, 'run.start', { sessionId, text: 'list the root' })
    await ended
    // Priced without counts first: the counts a price gets are kept, and a second price would be answered from them.
    down = true
    const estimated = await call<Price>(app, 'cache.priceEdit', { sessionId, edit: { kind: 'model', model: 'claude-sonnet-4-6' } })
    down = false
    const counted = await call<Price>(app, 'cache.priceEdit', { sessionId, edit: { kind: 'model', model: 'claude-sonnet-4-6' } })
    expect(estimated.exact).toBe(false)
    expect(estimated.cachedOnModel).toBe(counted.cachedOnModel)
    // What it writes instead of reading, in Sonnet's count: the messages since, as Opus counted them (a few tokens off).
    expect(Math.abs(estimated.rebilledTokens - counted.rebilledTokens)).toBeLessThanOrEqual(8)
    expect(await readAfterSwitchingBack(app, sessionId)).toBe(estimated.cachedOnModel)
  })

  it('is refused for a model the app does not know, and while a turn runs', async () => {
    const { running: r, sessionId } = await sessionWithOnePass()
    const { app } = r
    await expect(call(app, 'session.setModel', { sessionId, model: 'claude-nonesuch-9' })).rejects.toThrow(/invalid_input Unknown model claude-nonesuch-9: choose one of .*claude-opus-4-6/)
    const ended = turnEnded(app, sessionId)
    await call(app, 'run.start', { sessionId, text: 'list the root' })
    await expect(call(app, 'session.setModel', { sessionId, model: 'claude-haiku-4-5' })).rejects.toThrow(/busy/)
    await ended
    expect((await call<{ model: string }>(app, 'session.get', { sessionId })).model).toBe('claude-sonnet-4-6')
  })

  it('prices a switch only to a model the app knows, and the contract takes only an id of a model id\'s shape', async () => {
    const { running: r, sessionId } = await sessionWithOnePass()
    const { app } = r
    // The choices are the models served today (decision 0065), the last of them ending the message.
    const choices = new RegExp(`choose one of claude-opus-5-5, .*claude-sonnet-4-6, .*${servedModels(Date.now()).at(-1)!.id}$`)
    const unknown = await app.dispatch('cache.priceEdit', { sessionId, edit: { kind: 'model', model: 'claude-nonesuch-9' } })
    expect(unknown).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringMatching(/^Unknown model claude-nonesuch-9: /) } })
    expect((unknown as { error: { message: string } }).error.message).toMatch(choices)
    // Settings names the same choices.
    const setting = await app.dispatch('settings.set', { app: { model: 'claude-nonesuch-9' } })
    expect(setting).toMatchObject({ ok: false, error: { message: expect.stringMatching(choices) } })
    expect((await call<{ app: { model: string | null } }>(app, 'settings.get', {})).app.model).toBeNull()

    // Not an id at all: refused before any handler, and not echoed.
    for (const model of ['claude sonnet', 'claude-\u202Esonnet', '-claude', 'c'.repeat(101)]) {
      for (const [name, input] of [
        ['session.setModel', { sessionId, model }],
        ['cache.priceEdit', { sessionId, edit: { kind: 'model', model } }],
        ['settings.set', { app: { model } }],
      ] as const) {
        const answer = await app.dispatch(name, input)
        expect(answer, `${name} ${model}`).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
        const message = (answer as { error: { message: string } }).error.message
        expect(message, `${name} ${model}`).toMatch(model.length > 100 ? /at most 100 characters|<=100/ : /a model id is letters, digits/)
        expect(message).not.toContain(model)
      }
    }
    expect((await call<{ model: string; entries: Array<{ kind: string }> }>(app, 'session.get', { sessionId })).entries.filter((e) => e.kind === 'model_switched')).toEqual([])

    // A dated id of a model in the table is that model: priced and switched to, not locked out.
    const dated = 'claude-opus-4-6-20260101'
    const price = await call<{ rebilledTokens: number }>(app, 'cache.priceEdit', { sessionId, edit: { kind: 'model', model: dated } })
    expect(price.rebilledTokens).toBeGreaterThan(1000)
    expect(await call(app, 'session.setModel', { sessionId, model: dated })).toEqual({ model: dated })
  })

  it('opens a session whose stored model the app does not know, and switches it to one it does', async () => {
    running = await simulatorApp({ seed: 'model-switch-retired' })
    const { app } = running
    const root = join(running.dir, 'demo')
    mkdirSync(root)
    const project = await call<{ id: string }>(app, 'project.open', { path: root })
    // As an older table, or an import from before imports were checked, left it.
    const { id: sessionId } = app.services.store.sessions.create(project.id, 'retired model', Date.now())
    app.services.store.sessions.saveState(sessionId, JSON.stringify({ version: 1, model: 'claude-retired-3' }))
    expect((await call<{ model: string }>(app, 'session.get', { sessionId })).model).toBe('claude-retired-3')
    expect(await app.dispatch('pass.list', { sessionId })).toMatchObject({ ok: true })
    expect(await app.dispatch('session.cacheSummary', { sessionId })).toMatchObject({ ok: true })
    expect(await call(app, 'session.setModel', { sessionId, model: 'claude-sonnet-4-6' })).toEqual({ model: 'claude-sonnet-4-6' })
    // Once switched away, it is not offered back: the app cannot plan or price a pass on it.
    expect(await app.dispatch('session.setModel', { sessionId, model: 'claude-retired-3' })).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringMatching(/^Unknown model claude-retired-3: choose one of /) } })
  })
})
