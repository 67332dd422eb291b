/**
 * The Files view's flow through the contract, against the simulator: edit AGENTS.md, price the edit, save it,
 * apply it now (or leave it for the next compaction); the next pass sends the edited file (or the note that it
 * changed), its cache miss is attributed to the apply-now, and what it cost is the price shown before, to the
 * token: the billed figures are split with the simulator's own count_tokens over the bytes the passes sent.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { PassAttribution } from '../../../src-main/engine/cache'
import { createApp, type App } from '../../../src-main/node/app'
import { createModelClient } from '../../../src-main/node/model/client'
import { findModel } from '../../../src-main/node/model/models'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/index'
import { requests } from '../../../src-preload/contract'
import { call, turnEnded } from '../../support/app'
import { manualClock } from '../cache/harness'

interface Price {
  atCompaction?: { tokens: number; usd: number | null }
  movedBlock: { path: string; label: string } | null
  rebilledTokens: number
  rebilledUsd?: number
  nextPassUsd: number
  withoutEditUsd: number
  deltaUsd: number
  cacheWarm: boolean
  addedTokens: number
  exact: boolean
  label: string
}

interface StoredPass {
  requestBody: string
  usage: { input_tokens: number; cache_read_input_tokens: number; cache_creation_input_tokens: number }
}

interface WireBody {
  model: string
  system?: unknown[]
  tools?: unknown[]
  messages: Array<{ role: string; content: Array<{ type: string; text?: string }> }>
}

describe('files through the contract', () => {
  let dir: string
  let root: string
  let app: App
  let sim: RunningSimulator
  let client: ReturnType<typeof createModelClient>
  const clock = manualClock()

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'loupe-files-app-'))
    root = join(dir, 'shop')
    mkdirSync(root)
    writeFileSync(join(root, 'README.md'), '# Shop\n\nA small shop.\n')
    writeFileSync(join(root, 'AGENTS.md'), `# Agents\n\nRun \`npm test\` before you finish.\n${'Prices are integer cents. '.repeat(200)}\n`)
    sim = await startSimulator({ clock, seed: 'files-app' })
    client = createModelClient({ baseUrl: sim.baseUrl, apiKey: 'sk-sim-test', kind: 'simulator', maxRetries: 0, clock })
    app = await openApp()
  })

  /** The app on the test's data folder (again, after a close: a restart). */
  function openApp(): Promise<App> {
    return createApp({
      host: 'browser',
      dataDir: join(dir, '.home'),
      loupeHome: join(dir, '.home'),
      homeDir: dir,
      clock,
      endpoint: { client, kind: 'simulator', label: 'Offline simulator', model: 'claude-sonnet-4-6', close: async () => {} },
    })
  }
  afterEach(async () => {
    await app.close()
    await sim.close()
    rmSync(dir, { recursive: true, force: true })
  })

  async function turn(sessionId: string, text: string): Promise<void> {
    const ended = turnEnded(app, sessionId)
    await call(app, 'run.start', { sessionId, text })
    expect(await ended).toBe('end_turn')
  }

  /**
   * A project (compaction keeping one step) whose first session sent a turn, and its second session after a turn of
   * its own: the second reads the tools and static rules from the entry the first one wrote.
   */
  async function secondSession(): Promise<{ project: { id: string }; session: { id: string } }> {
    mkdirSync(join(root, '.loupe'))
    writeFileSync(join(root, '.loupe/config.toml'), '[compaction]\nkeep_steps = 1\n')
    const project = await call<{ id: string }>(app, 'project.open', { path: root })
    const first = await call<{ id: string }>(app, 'session.create', { projectId: project.id })
    await turn(first.id, 'read README.md')
    clock.advance(20_000)
    const session = await call<{ id: string }>(app, 'session.create', { projectId: project.id })
    await turn(session.id, 'read README.md')
    clock.advance(20_000)
    return { project, session }
  }

  /** A captured request body as count_tokens takes it. */
  function countableBody(body: WireBody): Parameters<typeof client.countTokens>[0] {
    return { model: body.model, ...(body.system ? { system: body.system } : {}), ...(body.tools ? { tools: body.tools } : {}), messages: body.messages } as Parameters<typeof client.countTokens>[0]
  }

  /**
   * What the simulator billed for the part of `after` that existed when the edit was priced (the last request
   * `before`, changed), measured on the bytes both passes sent with the simulator's own counter: the tokens through
   * `before`'s last message, and what came after them (the new tail, which the price leaves out).
   */
  async function billedSplit(before: WireBody, after: WireBody): Promise<{ added: number; tail: number }> {
    const through = { ...after, messages: after.messages.slice(0, before.messages.length) }
    const [countBefore, countAfter, countThrough] = await Promise.all([before, after, through].map((b) => client.countTokens(countableBody(b))))
    return { added: countThrough! - countBefore!, tail: countAfter! - countThrough! }
  }

  it('an edit applied now is sent by the next pass, which pays the price shown before, to the token', async () => {
    const project = await call<{ id: string }>(app, 'project.open', { path: root })
    const session = await call<{ id: string }>(app, 'session.create', { projectId: project.id })
    await turn(session.id, 'read README.md')
    clock.advance(20_000)

    const listing = await call<{ instructions: Array<{ path: string; status: string }> }>(app, 'files.list', { projectId: project.id })
    expect(listing.instructions).toEqual([expect.objectContaining({ path: 'AGENTS.md', status: 'included' })])
    const opened = await call<{ text: string; sha256: string }>(app, 'files.read', { projectId: project.id, path: 'AGENTS.md' })
    const edited = opened.text.replace('Run `npm test`', 'Run `npm test` and `npm run lint`')
    // Every pass is attributed before pricing, so the price sees every cache entry the session wrote.
    await call(app, 'session.cacheSummary', { sessionId: session.id })
    const edit = { kind: 'instruction_file', path: 'AGENTS.md', applyNow: true, charsBefore: opened.text.length, charsAfter: edited.length, text: edited }
    const price = await call<Price>(app, 'cache.priceEdit', { sessionId: session.id, edit })
    expect(price).toMatchObject({ movedBlock: { path: 'system[1]' }, exact: true, cacheWarm: true })
    expect(price.label).toMatch(/^moves system\[1\]: the next pass re-bills [\d,]+ tokens \(\+\$0\.\d{4}\)$/)
    // Pricing again while nothing changed is answered from the counts already made.
    expect(await call<Price>(app, 'cache.priceEdit', { sessionId: session.id, edit })).toEqual(price)

    const saved = await call<{ status: string }>(app, 'files.save', { projectId: project.id, path: 'AGENTS.md', text: edited, baseSha256: opened.sha256 })
    expect(saved.status).toBe('saved')
    expect(readFileSync(join(root, 'AGENTS.md'), 'utf8')).toBe(edited)
    // Saved nine minutes before it is applied (the file's time is the disk's, the app's clock is the test's).
    const savedAt = clock.now() - 9 * 60_000
    utimesSync(join(root, 'AGENTS.md'), new Date(savedAt), new Date(savedAt))
    const applied = await call<{ applied: boolean; entryId: string }>(app, 'files.apply', { sessionId: session.id, paths: ['AGENTS.md'] })
    expect(applied.applied).toBe(true)

    await turn(session.id, 'list the root')
    const passes = await call<Array<{ id: string }>>(app, 'pass.list', { sessionId: session.id })
    const first = await call<StoredPass>(app, 'pass.get', { passId: passes[2]!.id })
    expect(first.requestBody).toContain('`npm run lint`')
    await call(app, 'session.cacheSummary', { sessionId: session.id })
    const attributed = await call<{ attribution: PassAttribution }>(app, 'pass.get', { passId: passes[2]!.id })
    const a = attributed.attribution
    expect(a.cause.kind).toBe('changed_block')
    // When the file was saved, and when it was applied: the apply time is not called the edit time.
    const hhmm = (at: number) => `${String(new Date(at).getHours()).padStart(2, '0')}:${String(new Date(at).getMinutes()).padStart(2, '0')}`
    expect(a.cause.label).toBe(`system[1] · project instructions · AGENTS.md edited at ${hhmm(savedAt)}, applied now by the user at ${hhmm(savedAt + 9 * 60_000)}`)

    // Tokens: what the previous pass left cached and the next one could no longer read — the price, exactly.
    const prev = await call<StoredPass>(app, 'pass.get', { passId: passes[1]!.id })
    const cachedBefore = prev.usage.cache_read_input_tokens + prev.usage.cache_creation_input_tokens
    const billed = first.usage
    expect(cachedBefore - billed.cache_read_input_tokens).toBe(price.rebilledTokens)
    expect(price.rebilledTokens).toBeGreaterThan(0)
    // The pass lost what was priced: the edit's own new text was never cached anywhere, so it is not a loss.
    expect(a.miss.tokens).toBe(price.rebilledTokens)
    // And in dollars: the price's re-billed part is the pass's loss; the rest of its $ is the edit's own text.
    expect(a.miss.usd).toBeCloseTo(price.rebilledUsd!, 12)
    expect(price.deltaUsd - price.rebilledUsd!).toBeGreaterThan(0)
    expect(a.limit.editAdded).toBeGreaterThan(0)
    // What the edit added to the session block, as the simulator counts the bytes the two passes sent.
    const split = await billedSplit(JSON.parse(prev.requestBody) as WireBody, JSON.parse(first.requestBody) as WireBody)
    expect(split.added).toBe(price.addedTokens)
    expect(price.addedTokens).toBeGreaterThan(0)
    // Dollars: the pass's input as billed, the new tail left out, is the price's next pass; without the edit the
    // same part would have been read whole.
    const p = findModel('claude-sonnet-4-6')!.prices
    const billedUsd = (billed.cache_read_input_tokens * p.cacheReadPerMTok + (billed.cache_creation_input_tokens - split.tail) * p.cacheWrite5mPerMTok) / 1_000_000
    expect(price.nextPassUsd).toBeCloseTo(billedUsd, 12)
    expect(price.withoutEditUsd).toBeCloseTo((cachedBefore * p.cacheReadPerMTok) / 1_000_000, 12)
    expect(price.deltaUsd).toBeCloseTo(billedUsd - (cachedBefore * p.cacheReadPerMTok) / 1_000_000, 12)
  })

  it('after a message taken back, prices an edit applied now on the conversation without it: re-billed is what staying would have read', async () => {
    const project = await call<{ id: string }>(app, 'project.open', { path: root })
    const session = await call<{ id: string }>(app, 'session.create', { projectId: project.id })
    await turn(session.id, 'read README.md')
    clock.advance(20_000)
    await turn(session.id, 'list the root')
    clock.advance(20_000)
    const { entries } = await call<{ entries: Array<{ id: string; kind: string }> }>(app, 'session.get', { sessionId: session.id })
    await call(app, 'run.takeBack', { sessionId: session.id, entryId: entries.filter((e) => e.kind === 'user_message').at(-1)!.id })
    const opened = await call<{ text: string; sha256: string }>(app, 'files.read', { projectId: project.id, path: 'AGENTS.md' })
    const edited = opened.text.replace('Run `npm test`', 'Run `npm test` and `npm run lint`')
    await call(app, 'session.cacheSummary', { sessionId: session.id })
    const price = await call<Price & { historyChanged?: boolean }>(app, 'cache.priceEdit', { sessionId: session.id, edit: { kind: 'instruction_file', path: 'AGENTS.md', applyNow: true, text: edited } })
    expect(price).toMatchObject({ movedBlock: { path: 'system[1]' }, historyChanged: true })
    await call(app, 'files.save', { projectId: project.id, path: 'AGENTS.md', text: edited, baseSha256: opened.sha256 })
    await call(app, 'files.apply', { sessionId: session.id, paths: ['AGENTS.md'] })
    await turn(session.id, 'read README.md')

    const passes = await call<Array<{ id: string; kind: string }>>(app, 'pass.list', { sessionId: session.id })
    const main = passes.filter((p) => p.kind === 'main')
    // Staying, the next pass would have read what the first turn's last pass left at its tail: the taken-back
    // message's passes wrote past it. With the edit it reads the tools and static rules, and writes the rest.
    const firstTurnEnd = await call<StoredPass>(app, 'pass.get', { passId: main[1]!.id })
    const held = firstTurnEnd.usage.cache_read_input_tokens + firstTurnEnd.usage.cache_creation_input_tokens
    const after = await call<StoredPass>(app, 'pass.get', { passId: main.at(-2)!.id })
    expect(after.requestBody).toContain('`npm run lint`')
    expect(after.requestBody).not.toContain('list the root')
    expect(price.rebilledTokens).toBe(held - after.usage.cache_read_input_tokens)
    expect(price.rebilledTokens).toBeGreaterThan(0)
  })

  it('after a switch not sent yet, prices an edit applied now on the model switched to: it re-bills nothing that model holds', async () => {
    const project = await call<{ id: string }>(app, 'project.open', { path: root })
    const session = await call<{ id: string }>(app, 'session.create', { projectId: project.id })
    await turn(session.id, 'read README.md')
    clock.advance(20_000)
    const opened = await call<{ text: string; sha256: string }>(app, 'files.read', { projectId: project.id, path: 'AGENTS.md' })
    const edited = opened.text.replace('Run `npm test`', 'Run `npm test` and `npm run lint`')
    await call(app, 'session.cacheSummary', { sessionId: session.id })
    const edit = { kind: 'instruction_file', path: 'AGENTS.md', applyNow: true, text: edited }
    const onSonnet = await call<Price>(app, 'cache.priceEdit', { sessionId: session.id, edit })
    expect(onSonnet.rebilledTokens).toBeGreaterThan(0)

    await call(app, 'session.setModel', { sessionId: session.id, model: 'claude-opus-4-8' })
    const price = await call<Price>(app, 'cache.priceEdit', { sessionId: session.id, edit })
    // Opus holds nothing of this session: the switch re-bills the prompt either way, and the edit nothing of it.
    expect(price.rebilledTokens).toBe(0)
    await call(app, 'files.save', { projectId: project.id, path: 'AGENTS.md', text: edited, baseSha256: opened.sha256 })
    await call(app, 'files.apply', { sessionId: session.id, paths: ['AGENTS.md'] })
    await turn(session.id, 'list the root')
    const passes = await call<Array<{ id: string; kind: string; model: string }>>(app, 'pass.list', { sessionId: session.id })
    const first = passes.find((p) => p.model === 'claude-opus-4-8')!
    const stored = await call<StoredPass>(app, 'pass.get', { passId: first.id })
    expect(stored.requestBody).toContain('`npm run lint`')
    // The edit's own tokens, written at Opus 4.8's price: what the price adds against not applying it.
    const p = findModel('claude-opus-4-8')!.prices
    expect(price.deltaUsd).toBeCloseTo((price.addedTokens * p.cacheWrite5mPerMTok) / 1_000_000, 12)
    const summary = await call<{ passes: Array<{ passId: string; cause: string }> }>(app, 'session.cacheSummary', { sessionId: session.id })
    expect(summary.passes.find((r) => r.passId === first.id)!.cause).toBe('model_changed')
  })

  it('an edit left for the next compaction past a file\'s cut costs nothing at the compaction: the block it reads is the same', async () => {
    // Over the instructions budget: the block holds AGENTS.md cut short, and text added at its end is past the cut.
    writeFileSync(join(root, 'AGENTS.md'), `# Agents\n\n${'Prices are integer cents. '.repeat(2000)}\n`)
    const project = await call<{ id: string }>(app, 'project.open', { path: root })
    const session = await call<{ id: string }>(app, 'session.create', { projectId: project.id })
    await turn(session.id, 'read README.md')
    clock.advance(20_000)
    const opened = await call<{ text: string }>(app, 'files.read', { projectId: project.id, path: 'AGENTS.md' })
    await call(app, 'session.cacheSummary', { sessionId: session.id })
    const price = (text: string) => call<Price>(app, 'cache.priceEdit', { sessionId: session.id, edit: { kind: 'instruction_file', path: 'AGENTS.md', applyNow: false, text } })
    const pastCut = await price(`${opened.text}Keep commits small.\n`)
    expect(pastCut.atCompaction).toBeUndefined()
    expect(pastCut.label).not.toMatch(/at the next compaction/)
    // The same edit where the block holds it is paid for then.
    const inside = await price(opened.text.replace('# Agents', '# Agents\n\nKeep commits small.'))
    expect(inside.atCompaction!.tokens).toBeGreaterThan(0)
  })

  it('an edit left for the next compaction on a model whose minimum is over the whole prompt costs nothing then: nothing is cached', async () => {
    const project = await call<{ id: string }>(app, 'project.open', { path: root })
    const session = await call<{ id: string }>(app, 'session.create', { projectId: project.id })
    await call(app, 'session.setModel', { sessionId: session.id, model: 'claude-haiku-4-5' })
    await turn(session.id, 'read README.md')
    clock.advance(20_000)
    const opened = await call<{ text: string }>(app, 'files.read', { projectId: project.id, path: 'AGENTS.md' })
    await call(app, 'session.cacheSummary', { sessionId: session.id })
    const later = await call<Price>(app, 'cache.priceEdit', { sessionId: session.id, edit: { kind: 'instruction_file', path: 'AGENTS.md', applyNow: false, text: opened.text.replace('# Agents', '# Agents\n\nKeep commits small.') } })
    const passes = await call<Array<{ usage: { input_tokens: number } }>>(app, 'pass.list', { sessionId: session.id })
    expect(passes.at(-1)!.usage.input_tokens).toBeLessThan(4096)
    expect(later.atCompaction).toBeUndefined()
  })

  it('an edit left for the next compaction moves nothing: the next message carries its note, at the price shown', async () => {
    // Keep one step, so that a few turns give the compaction something to summarise.
    mkdirSync(join(root, '.loupe'))
    writeFileSync(join(root, '.loupe/config.toml'), '[compaction]\nkeep_steps = 1\n')
    const project = await call<{ id: string }>(app, 'project.open', { path: root })
    const session = await call<{ id: string }>(app, 'session.create', { projectId: project.id })
    await turn(session.id, 'read README.md')
    clock.advance(20_000)
    const opened = await call<{ text: string; sha256: string }>(app, 'files.read', { projectId: project.id, path: 'AGENTS.md' })
    const edited = `${opened.text}\nAlways run the linter.\n`
    const later = await call<Price>(app, 'cache.priceEdit', { sessionId: session.id, edit: { kind: 'instruction_file', path: 'AGENTS.md', applyNow: false, text: edited } })
    expect(later).toMatchObject({ movedBlock: null, rebilledTokens: 0, exact: true })
    expect(later.label).toMatch(/^nothing above the breakpoints moves: this edit adds a \d+-token note that AGENTS\.md changed to the next message \(\+\$0\.\d{4}\); at the next compaction the session block is read again with it, and written instead of read: ≈[\d,]+ tokens \(\+\$0\.\d{4}\) then$/)
    expect(later.atCompaction!.tokens).toBeGreaterThan(0)
    // The same draft applied now would re-bill the session block.
    const now = await call<Price>(app, 'cache.priceEdit', { sessionId: session.id, edit: { kind: 'instruction_file', path: 'AGENTS.md', applyNow: true, text: edited } })
    expect(now.rebilledTokens).toBeGreaterThan(0)
    expect(now.deltaUsd).toBeGreaterThan(later.deltaUsd)

    expect((await call<{ status: string }>(app, 'files.save', { projectId: project.id, path: 'AGENTS.md', text: edited, baseSha256: opened.sha256 })).status).toBe('saved')
    // Saved, its change is due: a further edit left for the compaction does not pay the block's rewrite again, which
    // happens then with it or without it.
    const again = await call<Price>(app, 'cache.priceEdit', { sessionId: session.id, edit: { kind: 'instruction_file', path: 'AGENTS.md', applyNow: false, text: `${edited}Keep commits small.\n` } })
    expect(again.atCompaction).toBeUndefined()
    expect(again.label).toMatch(/; at the next compaction the session block is read again and written, with this edit or without it, for the change already due$/)
    await turn(session.id, 'list the root')
    const passes = await call<Array<{ id: string }>>(app, 'pass.list', { sessionId: session.id })
    const prev = await call<StoredPass>(app, 'pass.get', { passId: passes[1]!.id })
    const next = await call<StoredPass>(app, 'pass.get', { passId: passes[2]!.id })
    // The runtime sent the note the price counted; the session block kept its bytes, so everything cached was read.
    expect(next.requestBody).toContain('[AGENTS.md was changed on disk after this session')
    expect(next.requestBody).not.toContain('Always run the linter.')
    const cachedBefore = prev.usage.cache_read_input_tokens + prev.usage.cache_creation_input_tokens
    expect(next.usage.cache_read_input_tokens).toBe(cachedBefore)
    // The note's tokens, as the simulator counts the next request with and without it.
    const body = JSON.parse(next.requestBody) as WireBody
    const withoutNote = { ...body, messages: body.messages.map((m) => ({ ...m, content: m.content.filter((b) => !(b.type === 'text' && typeof b.text === 'string' && b.text.startsWith('[AGENTS.md was changed on disk'))) })) }
    const [withNote, noNote] = await Promise.all([client.countTokens(countableBody(body)), client.countTokens(countableBody(withoutNote))])
    expect(withNote - noNote).toBe(later.addedTokens)
    const p = findModel('claude-sonnet-4-6')!.prices
    expect(later.deltaUsd).toBeCloseTo((later.addedTokens * p.cacheWrite5mPerMTok) / 1_000_000, 12)

    // At the compaction the block is read again with the edit: the first pass after it writes the block it would have
    // read, the figure the price gave for then.
    await turn(session.id, 'read AGENTS.md')
    const compacted = turnEnded(app, session.id)
    await call(app, 'run.start', { sessionId: session.id, text: '/compact the shop' })
    expect(await compacted).toBe('compacted')
    await turn(session.id, 'list the root')
    await call(app, 'session.cacheSummary', { sessionId: session.id })
    const all = await call<Array<{ id: string; kind: string }>>(app, 'pass.list', { sessionId: session.id })
    const first = all.findIndex((p) => p.kind === 'summary') + 1
    expect(first).toBeGreaterThan(0)
    const afterCompaction = await call<{ attribution: PassAttribution; requestBody: string }>(app, 'pass.get', { passId: all[first]!.id })
    expect(afterCompaction.requestBody).toContain('Always run the linter.')
    expect(afterCompaction.attribution.cause).toMatchObject({ kind: 'changed_block', path: 'system[1]' })
    // The price counted the block (count_tokens of the prefixes ending before it and at it).
    const before = JSON.parse(prev.requestBody) as WireBody
    const [toStatic, toSession] = await Promise.all([1, 2].map((n) => client.countTokens({ model: before.model, tools: before.tools, system: before.system!.slice(0, n), messages: [{ role: 'user', content: [{ type: 'text', text: '.' }] }] } as never)))
    expect(later.atCompaction!.tokens).toBe(toSession! - toStatic!)
    // The pass lost that block: its size is the one the price counted, a real count like a usage's.
    expect(afterCompaction.attribution.miss.tokens).toBe(later.atCompaction!.tokens)
  })

  it('in a second session of a project, prices an apply-now against every entry the app left, not only the session\'s own: the pass then loses what its price said', async () => {
    const { project, session } = await secondSession()
    await turn(session.id, 'list the root')
    clock.advance(20_000)
    await call(app, 'session.cacheSummary', { sessionId: session.id })
    const opened = await call<{ text: string; sha256: string }>(app, 'files.read', { projectId: project.id, path: 'AGENTS.md' })
    const edited = `${opened.text}\nAlways run the linter.\n`
    const nowPrice = await call<Price>(app, 'cache.priceEdit', { sessionId: session.id, edit: { kind: 'instruction_file', path: 'AGENTS.md', applyNow: true, text: edited } })
    // Applied now: the next pass reads the tools and static rules, and loses the rest, as priced.
    expect((await call<{ status: string }>(app, 'files.save', { projectId: project.id, path: 'AGENTS.md', text: edited, baseSha256: opened.sha256 })).status).toBe('saved')
    expect((await call<{ applied: boolean }>(app, 'files.apply', { sessionId: session.id, paths: ['AGENTS.md'] })).applied).toBe(true)
    await turn(session.id, 'read AGENTS.md')
    await call(app, 'session.cacheSummary', { sessionId: session.id })
    const passes = await call<Array<{ id: string }>>(app, 'pass.list', { sessionId: session.id })
    const applied = await call<{ attribution: PassAttribution; usage: { cache_read_input_tokens: number } }>(app, 'pass.get', { passId: passes[4]!.id })
    expect(applied.attribution.cause.label).toContain('applied now by the user')
    expect(applied.usage.cache_read_input_tokens).toBeGreaterThan(0)
    expect(applied.attribution.miss.tokens).toBe(nowPrice.rebilledTokens)

  })

  it('in a second session of a project, an edit left for the next compaction costs the compaction\'s first pass what its price said', async () => {
    const { project, session } = await secondSession()
    await call(app, 'session.cacheSummary', { sessionId: session.id })
    const opened = await call<{ text: string; sha256: string }>(app, 'files.read', { projectId: project.id, path: 'AGENTS.md' })
    const edited = `${opened.text}\nAlways run the linter.\n`
    const later = await call<Price>(app, 'cache.priceEdit', { sessionId: session.id, edit: { kind: 'instruction_file', path: 'AGENTS.md', applyNow: false, text: edited } })
    // Priced again as the Not applied yet bar does, with the file on disk changed meanwhile: the counts stay the block's.
    await call<Price>(app, 'cache.priceEdit', { sessionId: session.id, edit: { kind: 'instruction_file', path: 'AGENTS.md', applyNow: true, text: `${edited}${'More text. '.repeat(200)}` } })
    expect((await call<{ status: string }>(app, 'files.save', { projectId: project.id, path: 'AGENTS.md', text: edited, baseSha256: opened.sha256 })).status).toBe('saved')
    await turn(session.id, 'list the root')
    clock.advance(20_000)
    await turn(session.id, 'read AGENTS.md')
    const compacted = turnEnded(app, session.id)
    await call(app, 'run.start', { sessionId: session.id, text: '/compact the shop' })
    expect(await compacted).toBe('compacted')
    await turn(session.id, 'list the root')
    await call(app, 'session.cacheSummary', { sessionId: session.id })
    const all = await call<Array<{ id: string; kind: string }>>(app, 'pass.list', { sessionId: session.id })
    const afterCompaction = await call<{ attribution: PassAttribution }>(app, 'pass.get', { passId: all[all.findIndex((p) => p.kind === 'summary') + 1]!.id })
    expect(afterCompaction.attribution.cause).toMatchObject({ kind: 'changed_block', path: 'system[1]' })
    expect(afterCompaction.attribution.miss.tokens).toBe(later.atCompaction!.tokens)
  })

  it('applying one file now names every other file it sends: an edit held for the next compaction goes out with it', async () => {
    writeFileSync(join(root, 'CLAUDE.md'), '# Claude\n\nPrefer small functions.\n')
    const project = await call<{ id: string }>(app, 'project.open', { path: root })
    const session = await call<{ id: string }>(app, 'session.create', { projectId: project.id })
    await turn(session.id, 'read README.md')
    clock.advance(20_000)
    // AGENTS.md is edited and held for the next compaction; the next message carries its note, and the block keeps
    // the old text.
    const agents = await call<{ text: string; sha256: string }>(app, 'files.read', { projectId: project.id, path: 'AGENTS.md' })
    await call(app, 'files.save', { projectId: project.id, path: 'AGENTS.md', text: `${agents.text}\nHeld back.\n`, baseSha256: agents.sha256 })
    await turn(session.id, 'list the root')
    clock.advance(20_000)

    // Then CLAUDE.md is edited to apply now: the block is read again whole, the held AGENTS.md edit with it.
    const claude = await call<{ text: string; sha256: string }>(app, 'files.read', { projectId: project.id, path: 'CLAUDE.md' })
    const edited = `${claude.text}Name things plainly.\n`
    await call(app, 'session.cacheSummary', { sessionId: session.id })
    const price = await call<Price & { alsoApplied?: string[] }>(app, 'cache.priceEdit', { sessionId: session.id, edit: { kind: 'instruction_file', path: 'CLAUDE.md', applyNow: true, text: edited } })
    expect(price.alsoApplied).toEqual(['AGENTS.md'])
    expect(price.movedBlock!.label).toBe('system[1] · session block (project instructions · CLAUDE.md; with AGENTS.md, changed on disk since the session block was read)')
    // Pricing the held file itself names no other.
    const held = await call<Price & { alsoApplied?: string[] }>(app, 'cache.priceEdit', { sessionId: session.id, edit: { kind: 'instruction_file', path: 'AGENTS.md', applyNow: true, text: `${agents.text}\nHeld back.\n` } })
    expect(held.alsoApplied).toBeUndefined()

    await call(app, 'files.save', { projectId: project.id, path: 'CLAUDE.md', text: edited, baseSha256: claude.sha256 })
    const applied = await call<{ applied: boolean; entryId: string }>(app, 'files.apply', { sessionId: session.id, paths: ['CLAUDE.md'] })
    expect(applied.applied).toBe(true)
    const entries = await call<{ entries: Array<{ id: string; kind: string; text?: string }> }>(app, 'session.get', { sessionId: session.id })
    expect(entries.entries.find((e) => e.id === applied.entryId)?.text).toBe('CLAUDE.md applied now with AGENTS.md, changed on disk since the session block was read: the session block was read again from disk, so the next pass re-bills it.')

    await turn(session.id, 'read greet.ts')
    const passes = await call<Array<{ id: string }>>(app, 'pass.list', { sessionId: session.id })
    const next = await call<StoredPass>(app, 'pass.get', { passId: passes.at(-1)!.id })
    expect(next.requestBody).toContain('Name things plainly.')
    expect(next.requestBody).toContain('Held back.')
    await call(app, 'session.cacheSummary', { sessionId: session.id })
    const attributed = await call<{ attribution: PassAttribution }>(app, 'pass.get', { passId: passes.at(-2)!.id })
    expect(attributed.attribution.cause.label).toMatch(/CLAUDE\.md.*AGENTS\.md|AGENTS\.md.*CLAUDE\.md/)
  })

  it('a file whose budget cut an applied edit moved is named as cut shorter, not as changed on disk', async () => {
    // The global AGENTS.md is served last from the 40,000-character budget for instructions: it is sent cut.
    mkdirSync(join(dir, '.home'), { recursive: true })
    writeFileSync(join(dir, '.home/AGENTS.md'), Array.from({ length: 5_000 }, (_, i) => `- house rule ${i}`).join('\n'))
    const project = await call<{ id: string }>(app, 'project.open', { path: root })
    const session = await call<{ id: string }>(app, 'session.create', { projectId: project.id })
    await turn(session.id, 'read README.md')
    clock.advance(20_000)

    // The project's AGENTS.md grows and is applied now: the global file, the same on disk, is cut shorter.
    const agents = await call<{ text: string; sha256: string }>(app, 'files.read', { projectId: project.id, path: 'AGENTS.md' })
    const edited = `${agents.text}\n${'Money is never a float. '.repeat(100)}\n`
    await call(app, 'session.cacheSummary', { sessionId: session.id })
    const price = await call<Price & { alsoApplied?: string[] }>(app, 'cache.priceEdit', { sessionId: session.id, edit: { kind: 'instruction_file', path: 'AGENTS.md', applyNow: true, text: edited } })
    expect(price.alsoApplied).toEqual(['~/.home/AGENTS.md'])
    expect(price.movedBlock!.label).toBe('system[1] · session block (project instructions · AGENTS.md; with ~/.home/AGENTS.md, cut shorter by the instructions budget)')

    await call(app, 'files.save', { projectId: project.id, path: 'AGENTS.md', text: edited, baseSha256: agents.sha256 })
    const applied = await call<{ applied: boolean; entryId: string }>(app, 'files.apply', { sessionId: session.id, paths: ['AGENTS.md'] })
    const entries = await call<{ entries: Array<{ id: string; text?: string }> }>(app, 'session.get', { sessionId: session.id })
    expect(entries.entries.find((e) => e.id === applied.entryId)?.text).toBe('AGENTS.md applied now with ~/.home/AGENTS.md, cut shorter by the instructions budget: the session block was read again from disk, so the next pass re-bills it.')
  })

  it('lists a file whose budget cut a saved edit moved as cut shorter, not as differing on disk, until it is applied', async () => {
    // The global AGENTS.md is served last from the 40,000-character budget for instructions: it is sent cut.
    mkdirSync(join(dir, '.home'), { recursive: true })
    writeFileSync(join(dir, '.home/AGENTS.md'), Array.from({ length: 5_000 }, (_, i) => `- house rule ${i}`).join('\n'))
    const project = await call<{ id: string }>(app, 'project.open', { path: root })
    const session = await call<{ id: string }>(app, 'session.create', { projectId: project.id })
    await turn(session.id, 'read README.md')
    clock.advance(20_000)

    // The project's AGENTS.md grows, saved for the next compaction: the global file, the same on disk, would be cut shorter.
    const agents = await call<{ text: string; sha256: string }>(app, 'files.read', { projectId: project.id, path: 'AGENTS.md' })
    await call(app, 'files.save', { projectId: project.id, path: 'AGENTS.md', text: `${agents.text}\n${'Money is never a float. '.repeat(100)}\n`, baseSha256: agents.sha256 })
    const savedAt = clock.now() - 3 * 60_000
    utimesSync(join(root, 'AGENTS.md'), new Date(savedAt), new Date(savedAt))
    const waiting = await call<unknown>(app, 'files.unapplied', { sessionId: session.id })
    // The answer is the contract's, kinds and all.
    const parsed = requests['files.unapplied'].output.parse(waiting)
    expect(parsed.changes).toEqual([
      { path: '~/.home/AGENTS.md', kind: 'cut_shorter' },
      { path: 'AGENTS.md', kind: 'changed' },
    ])
    expect(parsed.paths).toEqual(parsed.changes!.map((c) => c.path))

    // Applied: the next pass's cause gives the saved file's edit time, and names the cut file without one.
    await call(app, 'files.apply', { sessionId: session.id, paths: ['AGENTS.md'] })
    expect(await call(app, 'files.unapplied', { sessionId: session.id })).toEqual({ paths: [] })
    await turn(session.id, 'list the root')
    await call(app, 'session.cacheSummary', { sessionId: session.id })
    const passes = await call<Array<{ id: string }>>(app, 'pass.list', { sessionId: session.id })
    const attributed = await call<{ attribution: PassAttribution }>(app, 'pass.get', { passId: passes[2]!.id })
    const hhmm = (at: number) => `${String(new Date(at).getHours()).padStart(2, '0')}:${String(new Date(at).getMinutes()).padStart(2, '0')}`
    expect(attributed.attribution.cause.label).toMatch(new RegExp(` · AGENTS\\.md edited at ${hhmm(savedAt)}, applied now by the user at ${hhmm(clock.now())} with ~/\\.home/AGENTS\\.md$`))
  })

  it('after a restart, a deferred edit is priced and noted as before, and an edit made while the app was closed reaches the model too', async () => {
    const project = await call<{ id: string }>(app, 'project.open', { path: root })
    const session = await call<{ id: string }>(app, 'session.create', { projectId: project.id })
    await turn(session.id, 'read README.md')
    await app.close()
    app = await openApp()
    clock.advance(20_000)
    const opened = await call<{ text: string; sha256: string }>(app, 'files.read', { projectId: project.id, path: 'AGENTS.md' })
    const edited = `${opened.text}\nAlways run the linter.\n`
    const later = await call<Price>(app, 'cache.priceEdit', { sessionId: session.id, edit: { kind: 'instruction_file', path: 'AGENTS.md', applyNow: false, text: edited } })
    // The restarted runtime compares with what the model last heard (kept in the session's state), not with the disk.
    expect(later).toMatchObject({ movedBlock: null, rebilledTokens: 0, exact: true })
    expect(later.addedTokens).toBeGreaterThan(0)
    await call(app, 'files.save', { projectId: project.id, path: 'AGENTS.md', text: edited, baseSha256: opened.sha256 })
    await turn(session.id, 'list the root')
    let passes = await call<Array<{ id: string }>>(app, 'pass.list', { sessionId: session.id })
    const prev = await call<StoredPass>(app, 'pass.get', { passId: passes[1]!.id })
    const next = await call<StoredPass>(app, 'pass.get', { passId: passes[2]!.id })
    expect(next.requestBody).toContain('[AGENTS.md was changed on disk after this session')
    expect(next.usage.cache_read_input_tokens).toBe(prev.usage.cache_read_input_tokens + prev.usage.cache_creation_input_tokens)
    const body = JSON.parse(next.requestBody) as WireBody
    const withoutNote = { ...body, messages: body.messages.map((m) => ({ ...m, content: m.content.filter((b) => !(b.type === 'text' && typeof b.text === 'string' && b.text.startsWith('[AGENTS.md was changed on disk'))) })) }
    const [withNote, noNote] = await Promise.all([client.countTokens(countableBody(body)), client.countTokens(countableBody(withoutNote))])
    expect(withNote - noNote).toBe(later.addedTokens)

    // Edited while Loupe is closed: the next message after the restart carries a second note, once.
    await app.close()
    writeFileSync(join(root, 'AGENTS.md'), `${readFileSync(join(root, 'AGENTS.md'), 'utf8')}\nPrefer small commits.\n`)
    app = await openApp()
    clock.advance(20_000)
    await turn(session.id, 'read README.md')
    passes = await call<Array<{ id: string }>>(app, 'pass.list', { sessionId: session.id })
    const afterClosedEdit = await call<StoredPass>(app, 'pass.get', { passId: passes.at(-1)!.id })
    expect(afterClosedEdit.requestBody.split('[AGENTS.md was changed on disk').length - 1).toBe(2)
  })

  it('after a compaction re-froze the session, prices what the next pass can still read: the tools and system blocks', async () => {
    mkdirSync(join(root, '.loupe'))
    writeFileSync(join(root, '.loupe/config.toml'), '[compaction]\nkeep_steps = 1\n')
    const project = await call<{ id: string }>(app, 'project.open', { path: root })
    const session = await call<{ id: string }>(app, 'session.create', { projectId: project.id })
    await turn(session.id, 'read README.md')
    await turn(session.id, 'list the root')
    await turn(session.id, 'read AGENTS.md')
    const lastMain = (await call<Array<{ id: string }>>(app, 'pass.list', { sessionId: session.id })).at(-1)!
    const compacted = turnEnded(app, session.id)
    await call(app, 'run.start', { sessionId: session.id, text: '/compact the shop' })
    expect(await compacted).toBe('compacted')
    const afterCompaction = (await call<unknown[]>(app, 'pass.list', { sessionId: session.id })).length
    clock.advance(20_000)

    const opened = await call<{ text: string; sha256: string }>(app, 'files.read', { projectId: project.id, path: 'AGENTS.md' })
    const edited = `${opened.text}\nAlways run the linter.\n`
    const price = await call<Price>(app, 'cache.priceEdit', { sessionId: session.id, edit: { kind: 'instruction_file', path: 'AGENTS.md', applyNow: true, text: edited } })
    // The next pass sends the summary, not the history the last main pass sent: the price is sized on that request,
    // built as the session would send it, and counted.
    expect(price).toMatchObject({ movedBlock: { path: 'system[1]' }, exact: true })
    await call(app, 'files.save', { projectId: project.id, path: 'AGENTS.md', text: edited, baseSha256: opened.sha256 })
    expect((await call<{ applied: boolean }>(app, 'files.apply', { sessionId: session.id, paths: ['AGENTS.md'] })).applied).toBe(true)
    await turn(session.id, 'list the root')
    const passes = await call<Array<{ id: string }>>(app, 'pass.list', { sessionId: session.id })
    const next = await call<StoredPass>(app, 'pass.get', { passId: passes[afterCompaction]!.id })
    expect(next.requestBody).toContain('Always run the linter.')
    // Without the edit the next pass would have read through the unchanged session block; with it, it read the static
    // prefix: the difference is the session block as the last pass sent it, counted on its bytes.
    const before = JSON.parse((await call<StoredPass>(app, 'pass.get', { passId: lastMain.id })).requestBody) as WireBody
    const probe = [{ role: 'user', content: [{ type: 'text', text: 'Hi.' }] }]
    const [throughSession, alone] = await Promise.all([
      client.countTokens(countableBody({ ...before, messages: probe })),
      client.countTokens(countableBody({ model: before.model, messages: probe })),
    ])
    expect(next.usage.cache_read_input_tokens + price.rebilledTokens).toBe(throughSession - alone)
    // Its dollars are that pass's input as billed, but for the message typed after the price was asked.
    const p = findModel('claude-sonnet-4-6')!.prices
    const u = next.usage
    const billedUsd = (u.cache_read_input_tokens * p.cacheReadPerMTok + u.cache_creation_input_tokens * p.cacheWrite5mPerMTok + u.input_tokens * p.inputPerMTok) / 1_000_000
    expect(Math.abs(price.nextPassUsd - billedUsd)).toBeLessThan(billedUsd * 0.03)
  })

  it('prices from estimates, and says so, when the service cannot count', async () => {
    const project = await call<{ id: string }>(app, 'project.open', { path: root })
    const session = await call<{ id: string }>(app, 'session.create', { projectId: project.id })
    await turn(session.id, 'read README.md')
    const opened = await call<{ text: string }>(app, 'files.read', { projectId: project.id, path: 'AGENTS.md' })
    await sim.close()
    const price = await call<Price>(app, 'cache.priceEdit', { sessionId: session.id, edit: { kind: 'instruction_file', path: 'AGENTS.md', applyNow: true, text: `${opened.text}\nMore.\n` } })
    expect(price).toMatchObject({ movedBlock: { path: 'system[1]' }, exact: false })
    expect(price.rebilledTokens).toBeGreaterThan(0)
    expect(price.label).toMatch(/re-bills ≈[\d,]+ tokens/)
    sim = await startSimulator({ clock, seed: 'files-app' })
  })

  it('lists an edit saved for the next compaction as not applied yet, until it is applied now or a compaction reads it', async () => {
    mkdirSync(join(root, '.loupe'))
    writeFileSync(join(root, '.loupe/config.toml'), '[compaction]\nkeep_steps = 1\n')
    const project = await call<{ id: string }>(app, 'project.open', { path: root })
    const session = await call<{ id: string }>(app, 'session.create', { projectId: project.id })
    const unapplied = async () => ({ paths: (await call<{ paths: string[] }>(app, 'files.unapplied', { sessionId: session.id })).paths })
    // Before the first pass nothing is frozen: the first pass reads the files as they are.
    await call(app, 'files.save', { projectId: project.id, path: 'AGENTS.md', text: '# Agents\n\nBefore the first pass.\n', baseSha256: (await call<{ sha256: string }>(app, 'files.read', { projectId: project.id, path: 'AGENTS.md' })).sha256 })
    expect(await unapplied()).toEqual({ paths: [] })
    await turn(session.id, 'read README.md')
    expect(await unapplied()).toEqual({ paths: [] })

    // Saved for the next compaction: listed, and still listed after the next message noted it.
    const saveLater = async (line: string) => {
      const opened = await call<{ text: string; sha256: string }>(app, 'files.read', { projectId: project.id, path: 'AGENTS.md' })
      await call(app, 'files.save', { projectId: project.id, path: 'AGENTS.md', text: `${opened.text}${line}\n`, baseSha256: opened.sha256 })
    }
    await saveLater('Held for later.')
    expect(await unapplied()).toEqual({ paths: ['AGENTS.md'] })
    await turn(session.id, 'list the root')
    expect(await unapplied()).toEqual({ paths: ['AGENTS.md'] })
    // Changed outside Loupe: listed too.
    writeFileSync(join(root, 'CLAUDE.md'), '# Claude\n\nWritten in another editor.\n')
    expect(await unapplied()).toEqual({ paths: ['AGENTS.md', 'CLAUDE.md'] })

    expect((await call<{ applied: boolean }>(app, 'files.apply', { sessionId: session.id, paths: ['AGENTS.md', 'CLAUDE.md'] })).applied).toBe(true)
    expect(await unapplied()).toEqual({ paths: [] })

    // Held again, then a compaction freezes the session block from disk: nothing is left to apply.
    await saveLater('Held again.')
    expect(await unapplied()).toEqual({ paths: ['AGENTS.md'] })
    await turn(session.id, 'read AGENTS.md')
    await turn(session.id, 'list the root')
    const compacted = turnEnded(app, session.id)
    await call(app, 'run.start', { sessionId: session.id, text: '/compact the shop' })
    expect(await compacted).toBe('compacted')
    expect(await unapplied()).toEqual({ paths: [] })
  })

  it('while an edit waits, sizes the session block the session sends beside the one the files on disk make, on the same basis', async () => {
    mkdirSync(join(root, '.loupe'))
    writeFileSync(join(root, '.loupe/memory.md'), '# Project memory\n\n- The add function must stay pure.\n')
    const project = await call<{ id: string }>(app, 'project.open', { path: root })
    const session = await call<{ id: string }>(app, 'session.create', { projectId: project.id })
    await turn(session.id, 'read README.md')
    type Figures = { sessionBlockTokens: number; sessionBlock: { memory: number; memoryFiles: number; instructionFiles: number }; usedChars: number }
    const figures = (f: Figures) => ({ sessionBlockTokens: f.sessionBlockTokens, sessionBlock: f.sessionBlock, usedChars: f.usedChars })
    const read = await call<Figures>(app, 'files.list', { projectId: project.id })
    // Nothing waits: nothing but the paths.
    expect(await call(app, 'files.unapplied', { sessionId: session.id })).toEqual({ paths: [] })

    // Saved for the next compaction: the session still sends the memory it read, the disk holds more.
    const opened = await call<{ text: string; sha256: string }>(app, 'files.read', { projectId: project.id, path: '.loupe/memory.md' })
    await call(app, 'files.save', { projectId: project.id, path: '.loupe/memory.md', text: `${opened.text}- sub must stay pure too.\n`, baseSha256: opened.sha256 })
    const onDisk = await call<Figures>(app, 'files.list', { projectId: project.id })
    const waiting = await call<{ paths: string[]; sent?: Figures }>(app, 'files.unapplied', { sessionId: session.id })
    expect(waiting.paths).toEqual(['.loupe/memory.md'])
    expect(waiting.sent).toEqual(figures(read))
    expect(onDisk.sessionBlock.memoryFiles).toBeGreaterThan(waiting.sent!.sessionBlock.memoryFiles)
    expect(onDisk.sessionBlockTokens).toBeGreaterThan(waiting.sent!.sessionBlockTokens)

    // The next pass sends the block sized as `sent`: its system[1] is the size the figures give, on the same basis.
    await turn(session.id, 'list the root')
    const passes = await call<Array<{ id: string; kind: string }>>(app, 'pass.list', { sessionId: session.id })
    const last = await call<StoredPass>(app, 'pass.get', { passId: passes.filter((p) => p.kind === 'main').at(-1)!.id })
    const system = (JSON.parse(last.requestBody) as { system: Array<{ text: string }> }).system[1]!.text
    expect(Math.ceil(system.length / 4)).toBe(waiting.sent!.sessionBlockTokens)
    expect(system).not.toContain('sub must stay pure too.')
  })

  it('refuses to apply while nothing is frozen, and answers busy-free before the first pass', async () => {
    const project = await call<{ id: string }>(app, 'project.open', { path: root })
    const session = await call<{ id: string }>(app, 'session.create', { projectId: project.id })
    const applied = await call<{ applied: boolean; message: string }>(app, 'files.apply', { sessionId: session.id, paths: ['AGENTS.md'] })
    expect(applied.applied).toBe(false)
    expect(applied.message).toContain('first pass')
  })

  it('refuses to apply a path that is none of the session block\'s files, and writes nothing into the conversation', async () => {
    const project = await call<{ id: string }>(app, 'project.open', { path: root })
    const session = await call<{ id: string }>(app, 'session.create', { projectId: project.id })
    await turn(session.id, 'read README.md')
    const before = await call<{ entries: unknown[] }>(app, 'session.get', { sessionId: session.id })
    for (const paths of [['/etc/shadow'], ['../x'], ['AGENTS.md', 'README.md']]) {
      const answer = await app.dispatch('files.apply', { sessionId: session.id, paths })
      expect(answer).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
      expect((answer as { error: { message: string } }).error.message).toContain('not among this session\'s instruction or memory files')
    }
    const after = await call<{ entries: unknown[] }>(app, 'session.get', { sessionId: session.id })
    expect(after.entries).toEqual(before.entries)
    // Nor is such a path priced, as if an edit to it moved nothing.
    const priced = await app.dispatch('cache.priceEdit', { sessionId: session.id, edit: { kind: 'instruction_file', path: '/etc/shadow', applyNow: true, text: 'x' } })
    expect(priced).toMatchObject({ ok: false, error: { code: 'permission_denied' } })
    // The session block's own file still applies.
    expect((await call<{ applied: boolean }>(app, 'files.apply', { sessionId: session.id, paths: ['AGENTS.md'] })).applied).toBe(true)
  })

  it('keeps settings through the contract and never returns the key', async () => {
    const key = 'sk-ant-api03-test-key-0123456789abcdefghijklmnop-LAST'
    const status = await call<{ hint: string; configured: boolean }>(app, 'settings.setApiKey', { key })
    expect(status).toMatchObject({ configured: true, hint: '…LAST' })
    const project = await call<{ id: string }>(app, 'project.open', { path: root })
    const view = await call<Record<string, unknown>>(app, 'settings.set', { app: { theme: 'dark' }, project: { projectId: project.id, compaction: { auto: true, threshold: 0.7, target: 0.5, keepSteps: 3 } } })
    expect(JSON.stringify(view)).not.toContain('test-key-0123')
    expect(view).toMatchObject({ app: { theme: 'dark' }, project: { threshold: 0.7, target: 0.5, keepSteps: 3 } })
    expect(readFileSync(join(root, '.loupe/config.toml'), 'utf8')).toContain('keep_steps = 3')
    expect(await app.dispatch('settings.set', { app: { theme: 'neon' } })).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    // New sessions start with the model chosen in Settings.
    await call(app, 'settings.set', { app: { model: 'claude-opus-4-8' } })
    const session = await call<{ id: string }>(app, 'session.create', { projectId: project.id })
    expect(await call(app, 'session.get', { sessionId: session.id })).toMatchObject({ model: 'claude-opus-4-8' })
  })
})
