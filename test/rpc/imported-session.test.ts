/**
 * A session imported from a Claude Code transcript is read-only through the contract: a message, a retry or a mode
 * switch is refused with a plain error, and nothing is added to it (no entry, no pass). Continued as a Loupe session,
 * the conversation takes messages again.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createApp, type App } from '../../src-main/node/app'
import { call, turnEnded } from '../support/app'

const FIXTURE = join(__dirname, '..', 'fixtures', 'real', 'spotter', 'tool_heavy.jsonl')

describe('a session imported from a transcript', () => {
  let dir: string
  let projects: string
  let app: App
  beforeEach(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'loupe-rpc-imported-')))
    projects = join(dir, 'claude', 'projects')
    mkdirSync(join(projects, '-home-marco-projects-spotter'), { recursive: true })
    copyFileSync(FIXTURE, join(projects, '-home-marco-projects-spotter', 'tool_heavy.jsonl'))
    process.env.LOUPE_SIM_PACE = 'instant'
    app = await createApp({ host: 'browser', dataDir: join(dir, '.home'), loupeHome: join(dir, '.home'), homeDir: dir })
  })
  afterEach(async () => {
    await app.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('refuses a new session in the folder of Claude Code\'s transcripts, and in the proxy\'s captured requests', async () => {
    const path = join(projects, '-home-marco-projects-spotter', 'tool_heavy.jsonl')
    const { projectId } = await call<{ projectId: string }>(app, 'transcripts.import', { path, folder: projects })
    // Its working folder is not on this machine: the session was filed under its transcript's folder.
    const created = await app.dispatch('session.create', { projectId })
    expect(created).toEqual({ ok: false, error: { code: 'unsupported', message: expect.stringContaining("holds Claude Code's transcripts") } })
    // The project says so, so a window offers no new session there.
    const listed = await call<Array<{ id: string; notWorkingFolder?: string }>>(app, 'project.list', {})
    expect(listed.find((p) => p.id === projectId)?.notWorkingFolder).toMatch(/^Claude Code's transcripts/)
    expect(await call<unknown[]>(app, 'session.list', { projectId })).toHaveLength(1)

    mkdirSync(join(dir, '.home', 'captured'), { recursive: true })
    const captured = await call<{ id: string }>(app, 'project.open', { path: join(dir, '.home', 'captured') })
    expect(await app.dispatch('session.create', { projectId: captured.id })).toMatchObject({ ok: false, error: { code: 'unsupported', message: expect.stringContaining('capture proxy') } })
    // A project of the user's own takes sessions as before.
    mkdirSync(join(dir, 'spotter'))
    const here = await call<{ id: string; notWorkingFolder?: string }>(app, 'project.open', { path: join(dir, 'spotter') })
    expect(here.notWorkingFolder).toBeUndefined()
    expect(await app.dispatch('session.create', { projectId: here.id })).toMatchObject({ ok: true })
  })

  it("writes no file into the folder of Claude Code's transcripts from the Files view, and offers none to create there", async () => {
    const folder = join(projects, '-home-marco-projects-spotter')
    const path = join(folder, 'tool_heavy.jsonl')
    const { projectId } = await call<{ projectId: string }>(app, 'transcripts.import', { path, folder: projects })
    const listing = await call<{ creatable: Array<{ path: string }> }>(app, 'files.list', { projectId })
    // Only Loupe's own files (in its home) are offered, none in the logs folder.
    expect(listing.creatable.map((c) => c.path).filter((p) => !p.startsWith('~') && !p.startsWith('/'))).toEqual([])
    const saved = await app.dispatch('files.save', { projectId, path: 'AGENTS.md', text: '# x\n', baseSha256: null })
    expect(saved).toMatchObject({ ok: false })
    expect(existsSync(join(folder, 'AGENTS.md'))).toBe(false)
  })

  it("writes no compaction settings into the folder of Claude Code's transcripts, nor the proxy's captures", async () => {
    const folder = join(projects, '-home-marco-projects-spotter')
    const { projectId } = await call<{ projectId: string }>(app, 'transcripts.import', { path: join(folder, 'tool_heavy.jsonl'), folder: projects })
    const compaction = { auto: true, threshold: 0.6, target: 0.3, keepSteps: 3 }
    const saved = await app.dispatch('settings.set', { app: { defaultMode: 'auto' }, project: { projectId, compaction } })
    expect(saved).toEqual({ ok: false, error: { code: 'permission_denied', message: expect.stringContaining("holds Claude Code's transcripts") } })
    expect(existsSync(join(folder, '.loupe'))).toBe(false)
    // Refused whole: the app setting sent with it was not saved either.
    expect((await call<{ app: { defaultMode: string } }>(app, 'settings.get', {})).app.defaultMode).not.toBe('auto')

    mkdirSync(join(dir, '.home', 'captured'), { recursive: true })
    const captured = await call<{ id: string }>(app, 'project.open', { path: join(dir, '.home', 'captured') })
    expect(await app.dispatch('settings.set', { project: { projectId: captured.id, compaction } })).toMatchObject({ ok: false, error: { code: 'permission_denied', message: expect.stringContaining('capture proxy') } })
    expect(existsSync(join(dir, '.home', 'captured', '.loupe'))).toBe(false)
  })

  it('refuses a message, a retry and a mode switch, and adds nothing to it', async () => {
    const path = join(projects, '-home-marco-projects-spotter', 'tool_heavy.jsonl')
    const { sessionId } = await call<{ sessionId: string }>(app, 'transcripts.import', { path, folder: projects })
    const before = await call<{ entries: unknown[]; mode: string; session: { origin: string } }>(app, 'session.get', { sessionId })
    // The session says who ran it, so a window can tell before any pass has loaded.
    expect(before.session.origin).toBe('transcript')
    const passesBefore = await call<unknown[]>(app, 'pass.list', { sessionId })
    const started: string[] = []
    app.events.subscribe((name) => name === 'run.started' && started.push(name))

    const sent = await app.dispatch('run.start', { sessionId, text: 'go on' })
    expect(sent).toEqual({ ok: false, error: { code: 'unsupported', message: expect.stringContaining('imported from a Claude Code transcript and is read-only') } })
    expect(await app.dispatch('run.retry', { sessionId })).toMatchObject({ ok: false, error: { code: 'unsupported' } })
    expect(await app.dispatch('session.setMode', { sessionId, mode: before.mode === 'plan' ? 'auto' : 'plan' })).toMatchObject({ ok: false, error: { code: 'unsupported' } })
    expect(await app.dispatch('session.setModel', { sessionId, model: 'claude-haiku-4-5' })).toMatchObject({ ok: false, error: { code: 'unsupported' } })
    // Nor a compaction, a pin or an edit applied now.
    expect(await app.dispatch('compaction.run', { sessionId, dryRun: true })).toMatchObject({ ok: false, error: { code: 'unsupported' } })
    expect(await app.dispatch('pin.add', { sessionId, text: 'keep this' })).toMatchObject({ ok: false, error: { code: 'unsupported' } })
    expect(await app.dispatch('files.apply', { sessionId, paths: ['CLAUDE.md'] })).toMatchObject({ ok: false, error: { code: 'unsupported' } })
    expect(await app.dispatch('files.unapplied', { sessionId })).toMatchObject({ ok: false, error: { code: 'unsupported' } })

    const after = await call<{ entries: unknown[]; running: boolean; mode: string }>(app, 'session.get', { sessionId })
    expect(after).toMatchObject({ entries: before.entries, running: false, mode: before.mode })
    expect(await call<unknown[]>(app, 'pass.list', { sessionId })).toEqual(passesBefore)
    expect(started).toEqual([])

    // Its continuation is a Loupe session: a message starts a turn there. (The transcript's working folder is not on
    // this machine, so it is continued into a project the user opened.)
    mkdirSync(join(dir, 'spotter'))
    const here = await call<{ id: string }>(app, 'project.open', { path: join(dir, 'spotter') })
    const continued = await call<{ id: string }>(app, 'transcripts.continue', { sessionId, projectId: here.id })
    // Its history ends with the user's interruption, recorded after the last request: the new message goes on from
    // it, and the model service takes the request.
    const ended = turnEnded(app, continued.id)
    expect(await app.dispatch('run.start', { sessionId: continued.id, text: 'what did we do so far?' })).toMatchObject({ ok: true })
    expect(await ended).toBe('end_turn')
  })
})
