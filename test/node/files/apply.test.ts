/**
 * The Files view's flow through the contract, against the simulator: edit AGENTS.md, price the edit, save it,
 * apply it now; the next pass sends the edited file, its cache miss is attributed to the apply-now, and what it
 * cost matches the price shown before.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { PassAttribution } from '../../../src-main/engine/cache'
import { createApp, type App } from '../../../src-main/node/app'
import { createModelClient } from '../../../src-main/node/model/client'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/index'

function manualClock(start = Date.UTC(2026, 10, 29, 14, 0)) {
  let now = start
  return { now: () => now, advance: (ms: number) => void (now += ms) }
}

async function call<T>(app: App, name: string, input: unknown): Promise<T> {
  const result = await app.dispatch(name, input)
  if (!result.ok) throw new Error(`${name}: ${result.error.code} ${result.error.message}`)
  return result.value as T
}

function turnEnded(app: App, sessionId: string): Promise<string> {
  return new Promise((resolve) => {
    const off = app.events.subscribe((name, payload) => {
      const p = payload as { sessionId: string; reason: string }
      if (name === 'turn.ended' && p.sessionId === sessionId) {
        off()
        resolve(p.reason)
      }
    })
  })
}

interface Price {
  movedBlock: { path: string; label: string } | null
  rebilledTokens: number
  nextPassUsd: number
  withoutEditUsd: number
  deltaUsd: number
  label: string
}

describe('files through the contract', () => {
  let dir: string
  let root: string
  let app: App
  let sim: RunningSimulator
  const clock = manualClock()

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'loupe-files-app-'))
    root = join(dir, 'shop')
    mkdirSync(root)
    writeFileSync(join(root, 'README.md'), '# Shop\n\nA small shop.\n')
    writeFileSync(join(root, 'AGENTS.md'), `# Agents\n\nRun \`npm test\` before you finish.\n${'Prices are integer cents. '.repeat(200)}\n`)
    sim = await startSimulator({ clock, seed: 'files-app' })
    const client = createModelClient({ baseUrl: sim.baseUrl, apiKey: 'sk-sim-test', kind: 'simulator', maxRetries: 0, clock })
    app = await createApp({
      host: 'browser',
      dataDir: join(dir, '.home'),
      loupeHome: join(dir, '.home'),
      homeDir: dir,
      clock,
      endpoint: { client, kind: 'simulator', label: 'Offline simulator', model: 'claude-sonnet-4-6', close: async () => {} },
    })
  })
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

  it('an edit applied now is sent by the next pass, which pays the price shown before', async () => {
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
    const price = await call<Price>(app, 'cache.priceEdit', {
      sessionId: session.id,
      edit: { kind: 'instruction_file', path: 'AGENTS.md', applyNow: true, charsBefore: opened.text.length, charsAfter: edited.length },
    })
    expect(price.movedBlock?.path).toBe('system[1]')
    expect(price.rebilledTokens).toBeGreaterThan(0)

    const saved = await call<{ status: string }>(app, 'files.save', { projectId: project.id, path: 'AGENTS.md', text: edited, baseSha256: opened.sha256 })
    expect(saved.status).toBe('saved')
    expect(readFileSync(join(root, 'AGENTS.md'), 'utf8')).toBe(edited)
    const applied = await call<{ applied: boolean; entryId: string }>(app, 'files.apply', { sessionId: session.id, paths: ['AGENTS.md'] })
    expect(applied.applied).toBe(true)

    await turn(session.id, 'list the root')
    const passes = await call<Array<{ id: string }>>(app, 'pass.list', { sessionId: session.id })
    const first = await call<{ requestBody: string; attribution: PassAttribution }>(app, 'pass.get', { passId: passes[2]!.id })
    expect(first.requestBody).toContain('`npm run lint`')
    await call(app, 'session.cacheSummary', { sessionId: session.id })
    const attributed = await call<{ attribution: PassAttribution }>(app, 'pass.get', { passId: passes[2]!.id })
    const a = attributed.attribution
    expect(a.cause.kind).toBe('changed_block')
    expect(a.cause.label).toContain('AGENTS.md edited')
    expect(a.cause.label).toContain('applied now by the user')
    // The price was the tokens re-billed at the write price instead of the read price; the pass paid that.
    // The price was the cached prefix the next pass could no longer read; measure what it really lost.
    const prev = await call<{ usage: { input_tokens: number; cache_read_input_tokens: number; cache_creation_input_tokens: number } }>(app, 'pass.get', { passId: passes[1]!.id })
    const cachedBefore = prev.usage.cache_read_input_tokens + prev.usage.cache_creation_input_tokens
    const rebilled = cachedBefore - a.actual!.tokens.read
    expect(rebilled).toBeGreaterThan(0)
    // Between measured points the price scales the chars/4 estimate, so it is close, not exact (docs/inspector.md).
    expect(Math.abs(rebilled - price.rebilledTokens) / rebilled).toBeLessThan(0.35)
  })

  it('refuses to apply while nothing is frozen, and answers busy-free before the first pass', async () => {
    const project = await call<{ id: string }>(app, 'project.open', { path: root })
    const session = await call<{ id: string }>(app, 'session.create', { projectId: project.id })
    const applied = await call<{ applied: boolean; message: string }>(app, 'files.apply', { sessionId: session.id, paths: ['AGENTS.md'] })
    expect(applied.applied).toBe(false)
    expect(applied.message).toContain('first pass')
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
