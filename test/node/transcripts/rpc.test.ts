/**
 * The transcripts and proxy requests through the contract, with the real app against its embedded simulator: list
 * a projects folder, import a session, read its totals back, continue it as a Loupe session and run a turn on top of
 * the imported conversation; start the proxy, send a request through it, see the captured pass, stop it.
 */
import Anthropic from '@anthropic-ai/sdk'
import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createApp, type App } from '../../../src-main/node/app'
import { FIXTURES } from './store-helpers'
import { call } from '../../support/app'

function nextEvent<T>(app: App, event: string, match: (payload: T) => boolean = () => true): Promise<T> {
  return new Promise((resolve) => {
    const off = app.events.subscribe((name, payload) => {
      if (name === event && match(payload as T)) {
        off()
        resolve(payload as T)
      }
    })
  })
}

describe('transcripts.* and proxy.* through the contract', () => {
  let dir: string
  let projects: string
  let app: App
  beforeEach(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'loupe-cc-rpc-')))
    projects = join(dir, 'claude', 'projects')
    const project = join(projects, '-home-marco-projects-spotter')
    mkdirSync(project, { recursive: true })
    copyFileSync(join(FIXTURES, 'spotter', 'tool_heavy.jsonl'), join(project, 'tool_heavy.jsonl'))
    copyFileSync(join(FIXTURES, 'spotter', 'short.jsonl'), join(project, 'short.jsonl'))
    process.env.LOUPE_SIM_PACE = 'instant'
    app = await createApp({ host: 'browser', dataDir: join(dir, '.home'), loupeHome: join(dir, '.home'), homeDir: dir })
  })
  afterEach(async () => {
    await call(app, 'proxy.stop', {})
    await app.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('refuses a projects folder that is relative, missing or a file, and lists nothing from a default that is missing', async () => {
    const file = join(dir, 'not-a-folder')
    writeFileSync(file, 'x')
    for (const [folder, code, message] of [
      ['claude/projects', 'invalid_input', 'claude/projects is not an absolute path: give the whole path of the Claude Code projects folder'],
      [join(dir, 'missing'), 'not_found', `No folder at ${join(dir, 'missing')}`],
      [file, 'invalid_input', `${file} is not a folder`],
    ] as const) {
      for (const name of ['transcripts.list', 'transcripts.importAll']) {
        expect(await app.dispatch(name, { folder }), `${name} ${folder}`).toEqual({ ok: false, error: { code, message } })
      }
    }
    // A file of the right name that is not a transcript is refused, not imported as an empty session.
    const junk = join(projects, '-home-marco-projects-spotter', 'junk.jsonl')
    writeFileSync(junk, Buffer.from(Array.from({ length: 30_000 }, (_, i) => (i * 7919) % 251)))
    expect(await app.dispatch('transcripts.import', { path: junk, folder: projects })).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringMatching(/is not a Claude Code session: none of its [\d,]+ lines is a transcript record \(malformed_json ×[\d,]+, truncated_last_line ×1\)$/) } })
    rmSync(junk)
    // An empty file holds no conversation either.
    const empty = join(projects, '-home-marco-projects-spotter', 'empty.jsonl')
    writeFileSync(empty, '')
    expect(await app.dispatch('transcripts.import', { path: empty, folder: projects })).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringMatching(/is empty: there is no conversation to import$/) } })
    rmSync(empty)
    // ~ is the home folder.
    expect(await app.dispatch('transcripts.list', { folder: '~/claude/projects' })).toMatchObject({ ok: true, value: { projectsDir: projects } })
    // No folder given, and no Claude Code here: nothing to list, not an error.
    expect(await app.dispatch('transcripts.list', {})).toMatchObject({ ok: true, value: { projects: [] } })
    // Nor a projects folder to import from: that is what is said, not that the file is missing.
    const defaultFolder = join(dir, '.claude', 'projects')
    expect(await app.dispatch('transcripts.import', { path: '/etc/passwd' })).toEqual({ ok: false, error: { code: 'not_found', message: `The projects folder ${defaultFolder} does not exist: /etc/passwd is read only from inside it` } })
  })

  it('says a grown file’s earlier import is deleted and which session replaces it, listed first', async () => {
    const path = join(projects, '-home-marco-projects-spotter', 'short.jsonl')
    const first = await call<{ sessionId: string; projectId: string }>(app, 'transcripts.import', { path, folder: projects })
    appendFileSync(path, '\nnot json\n')
    const order: string[] = []
    const off = app.events.subscribe((name) => void (name.startsWith('session.') && order.push(name)))
    const deleted = nextEvent<{ sessionId: string; projectId: string }>(app, 'session.deleted')
    const created = nextEvent<{ id: string }>(app, 'session.created')
    const grown = await call<{ status: string; sessionId: string; replaced: unknown }>(app, 'transcripts.import', { path, folder: projects })
    expect(grown).toMatchObject({ status: 'replaced', replaced: { sessionId: first.sessionId, projectId: first.projectId } })
    expect(await deleted).toEqual({ sessionId: first.sessionId, projectId: first.projectId, replacedBy: grown.sessionId })
    expect((await created).id).toBe(grown.sessionId)
    expect(order).toEqual(['session.created', 'session.deleted'])
    off()
  })

  it('lists, imports, totals and continues a Claude Code session', async () => {
    const listing = await call<{ projects: Array<{ project: string; cwd: string | null; sessions: Array<{ path: string; requests: number; imported: unknown; models: string[] }> }> }>(app, 'transcripts.list', { folder: projects })
    expect(listing.projects).toHaveLength(1)
    expect(listing.projects[0]!.cwd).toBe('/home/marco/projects/spotter')
    const heavy = listing.projects[0]!.sessions.find((s) => s.path.endsWith('tool_heavy.jsonl'))!
    expect(heavy).toMatchObject({ requests: 4, imported: null, models: ['claude-opus-4-6'] })

    const imported = await call<{ status: string; sessionId: string; totals: { passes: number; read: number; costUsd: number; compactions: unknown[] } }>(app, 'transcripts.import', { path: heavy.path, folder: projects })
    expect(imported.status).toBe('imported')
    expect(imported.totals.passes).toBe(4)
    expect(imported.totals.costUsd).toBeGreaterThan(0)
    const passes = await call<Array<{ source: string }>>(app, 'pass.list', { sessionId: imported.sessionId })
    expect(passes.map((p) => p.source)).toEqual(['transcript', 'transcript', 'transcript', 'transcript'])
    const again = await call<{ projects: Array<{ sessions: Array<{ path: string; imported: { sessionId: string; changed: boolean } | null }> }> }>(app, 'transcripts.list', { folder: projects })
    expect(again.projects[0]!.sessions.find((s) => s.path === heavy.path)!.imported).toMatchObject({ sessionId: imported.sessionId, changed: false })

    const totals = await call<{ passes: number }>(app, 'transcripts.totals', { sessionId: imported.sessionId })
    expect(totals.passes).toBe(4)

    // The Cache view of the imported session: its recorded usage, the usage-only best possible, the transcript's
    // causes; nothing predicted.
    const usages = await call<Array<{ usage: { cache_read_input_tokens: number; cache_creation_input_tokens: number; input_tokens: number } }>>(app, 'pass.list', { sessionId: imported.sessionId })
    const read = usages.reduce((s, p) => s + p.usage.cache_read_input_tokens, 0)
    const input = usages.reduce((s, p) => s + p.usage.cache_read_input_tokens + p.usage.cache_creation_input_tokens + p.usage.input_tokens, 0)
    const cache = await call<{ basis: string; totals: { passes: number; read: number; inputTotal: number; cachedShare: number; limitShare: number }; agreement: { compared: number }; passes: Array<{ outcome: string | null; cause: string | null; summary: string | null }> }>(
      app,
      'session.cacheSummary',
      { sessionId: imported.sessionId },
    )
    expect(cache.basis).toBe('transcript')
    expect(cache.totals).toMatchObject({ passes: 4, read, inputTotal: input })
    expect(cache.totals.cachedShare).toBeCloseTo(read / input, 10)
    expect(cache.totals.limitShare).toBeGreaterThanOrEqual(cache.totals.cachedShare)
    expect(cache.agreement.compared).toBe(0)
    expect(cache.passes[0]).toMatchObject({ cause: 'cold' })
    expect(cache.passes.every((p) => p.summary !== null && p.cause !== 'unexplained')).toBe(true)
    // One figure for what the misses lost, wherever it is shown: the total, the passes and the causes agree.
    const lost = cache as unknown as { totals: { missTokens: number }; passes: Array<{ missTokens: number }>; byCause: Array<{ kind: string; tokens: number }> }
    expect(lost.totals.missTokens).toBe(lost.passes.reduce((s, p) => s + p.missTokens, 0))
    expect(lost.totals.missTokens).toBe(lost.byCause.filter((c) => c.kind !== 'none' && c.kind !== 'cold').reduce((s, c) => s + c.tokens, 0))
    const partial = cache.passes.findIndex((p) => p.outcome === 'partial')
    expect(lost.passes[partial]!.missTokens).toBeGreaterThan(0)
    expect(cache.passes[partial]!.summary).toContain(lost.passes[partial]!.missTokens.toLocaleString('en-US'))

    // A file outside the projects folder is refused.
    const outside = await app.dispatch('transcripts.import', { path: join(FIXTURES, 'spotter', 'short.jsonl'), folder: projects })
    expect(outside).toMatchObject({ ok: false, error: { code: 'permission_denied' } })

    // The session's working folder is not on this machine: continuing it where the import filed it (the transcript's
    // folder) is refused, and it is continued into a project the user opened.
    expect(await app.dispatch('transcripts.continue', { sessionId: imported.sessionId })).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringContaining('not on this machine') } })
    mkdirSync(join(dir, 'spotter'))
    const here = await call<{ id: string }>(app, 'project.open', { path: join(dir, 'spotter') })
    const continued = await call<{ id: string }>(app, 'transcripts.continue', { sessionId: imported.sessionId, projectId: here.id })
    const ended = nextEvent<{ sessionId: string; reason: string }>(app, 'turn.ended', (p) => p.sessionId === continued.id)
    await call(app, 'run.start', { sessionId: continued.id, text: 'what did we do so far?' })
    expect((await ended).reason).toBe('end_turn')
    const loupePasses = await call<Array<{ id: string; source: string }>>(app, 'pass.list', { sessionId: continued.id })
    expect(loupePasses[0]!.source).toBe('loupe')
    const first = await call<{ requestBody: string }>(app, 'pass.get', { passId: loupePasses[0]!.id })
    // The Loupe pass carries the imported conversation: its first prompt and the tool calls Claude Code made.
    expect(first.requestBody).toContain('start phoenix in background')
    expect(first.requestBody).toContain('toolu_018GZVh9ymkrdx1TnR8reg5Y')
  })

  it('imports every session of the folder', async () => {
    const all = await call<{ results: Array<{ status: string }>; failed: unknown[] }>(app, 'transcripts.importAll', { folder: projects })
    expect(all.failed).toEqual([])
    expect(all.results.map((r) => r.status)).toEqual(['imported', 'imported'])
    const twice = await call<{ results: Array<{ status: string }> }>(app, 'transcripts.importAll', { folder: projects })
    expect(twice.results.map((r) => r.status)).toEqual(['unchanged', 'unchanged'])
  })

  it('marks the files that hold no conversation in the listing, and Import all leaves them out instead of failing on them', async () => {
    const project = join(projects, '-home-marco-projects-spotter')
    writeFileSync(join(project, 'empty.jsonl'), '')
    writeFileSync(join(project, 'broken.jsonl'), 'not json at all\n{"neither": "is this"}\n')
    const listing = await call<{ projects: Array<{ sessions: Array<{ sessionId: string; unimportable: string | null }> }> }>(app, 'transcripts.list', { folder: projects })
    const marks = Object.fromEntries(listing.projects.flatMap((p) => p.sessions).map((s) => [s.sessionId, s.unimportable]))
    expect(marks).toEqual({ tool_heavy: null, short: null, empty: 'it is empty', broken: 'none of its lines is a transcript record' })
    // Its skipped lines by why, for the listing to say how the file is damaged.
    const broken = listing.projects.flatMap((p) => p.sessions).find((s) => s.sessionId === 'broken') as unknown as { skippedLines: number; skippedBy: Record<string, number> }
    expect(broken.skippedLines).toBe(2)
    expect(Object.values(broken.skippedBy).reduce((a, b) => a + b, 0)).toBe(2)
    expect(broken.skippedBy.malformed_json).toBe(1)

    const all = await call<{ results: Array<{ status: string }>; failed: unknown[]; skipped: Array<{ path: string }> }>(app, 'transcripts.importAll', { folder: projects })
    expect(all.failed).toEqual([])
    expect(all.results).toHaveLength(2)
    expect(all.skipped.map((s) => s.path.split('/').pop()).sort()).toEqual(['broken.jsonl', 'empty.jsonl'])
  })

  it('starts the proxy, records a foreign request as a captured pass, and stops', async () => {
    const started = await call<{ running: boolean; url: string; upstreamKind: string }>(app, 'proxy.start', {})
    expect(started).toMatchObject({ running: true, upstreamKind: 'simulator' })
    expect((await app.dispatch('proxy.start', {})) as unknown).toMatchObject({ ok: true, value: { url: started.url } })
    expect((await app.dispatch('proxy.start', { upstream: 'http://127.0.0.1:9' })) as unknown).toMatchObject({ ok: false, error: { code: 'conflict' } })
    expect((await app.dispatch('proxy.start', { upstream: 'https://collector.example' })) as unknown).toMatchObject({ ok: false })
    const completed = nextEvent<{ sessionId: string; pass: { source: string } }>(app, 'pass.completed')
    const client = new Anthropic({ apiKey: 'sk-foreign', baseURL: started.url, maxRetries: 0 })
    await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 64, messages: [{ role: 'user', content: 'hello' }] })
    const event = await completed
    expect(event.pass.source).toBe('proxy')
    const status = await call<{ requests: number; sessions: Array<{ sessionId: string; passes: number }> }>(app, 'proxy.status', {})
    expect(status.requests).toBe(1)
    expect(status.sessions).toEqual([expect.objectContaining({ sessionId: event.sessionId, passes: 1 })])
    expect(await call<{ running: boolean }>(app, 'proxy.stop', {})).toMatchObject({ running: false })
  })
})
