/**
 * A session's life through the contract, with the real loop against the embedded simulator: a turn, then rename,
 * export, delete (blobs collected), import (identical), and the exported passes re-assembling to their bytes.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createApp, type App } from '../../src-main/node/app'
import { sha256Hex } from '../../src-main/node/store/blobs'
import { call, turnEnded } from '../support/app'

describe('session lifecycle', () => {
  let dir: string
  let app: App
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'loupe-life-'))
    writeFileSync(join(dir, 'README.md'), '# Lifecycle\n\nA test project.\n' + 'Long enough to be stored compressed. '.repeat(120))
    process.env.LOUPE_SIM_PACE = 'instant'
    app = await createApp({ host: 'browser', dataDir: join(dir, '.home'), loupeHome: join(dir, '.home'), homeDir: dir })
  })
  afterEach(async () => {
    await app.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('lists what each session is doing: waiting for an approval, or idle', async () => {
    writeFileSync(join(dir, 'greet.ts'), 'export const greet = () => "hello"\n')
    const project = await call<{ id: string }>(app, 'project.open', { path: dir })
    const asking = await call<{ id: string }>(app, 'session.create', { projectId: project.id })
    const idle = await call<{ id: string }>(app, 'session.create', { projectId: project.id })
    const activities = async () =>
      Object.fromEntries((await call<Array<{ id: string; activity: string | null }>>(app, 'session.list', { projectId: project.id })).map((s) => [s.id, s.activity]))
    expect(await activities()).toEqual({ [asking.id]: null, [idle.id]: null })

    const approval = new Promise<string>((resolve) =>
      app.events.subscribe((name, payload) => name === 'approval.requested' && resolve((payload as { toolUseId: string }).toolUseId)),
    )
    const ended = turnEnded(app, asking.id)
    await call(app, 'run.start', { sessionId: asking.id, text: 'replace "hello" with "goodbye" in greet.ts' })
    const toolUseId = await approval
    expect(await activities()).toEqual({ [asking.id]: 'waiting', [idle.id]: null })
    const answered = new Promise<unknown>((resolve) => app.events.subscribe((name, payload) => name === 'approval.answered' && resolve(payload)))
    await call(app, 'approval.answer', { sessionId: asking.id, toolUseId, answer: { kind: 'once' } })
    // Every window hears it, not only the one that answered.
    expect(await answered).toEqual({ sessionId: asking.id, toolUseId })
    expect(await ended).toBe('end_turn')
    expect(await activities()).toEqual({ [asking.id]: null, [idle.id]: null })
  })

  it('names a session from its first message, and never over a name the user gave', async () => {
    const project = await call<{ id: string }>(app, 'project.open', { path: dir })
    const titleOf = async (id: string) => (await call<Array<{ id: string; title: string }>>(app, 'session.list', { projectId: project.id })).find((s) => s.id === id)!.title
    const heard: unknown[] = []
    app.events.subscribe((name, payload) => name === 'session.renamed' && heard.push(payload))

    const fresh = await call<{ id: string; title: string }>(app, 'session.create', { projectId: project.id })
    expect(fresh.title).toMatch(/^Session \d{4}-\d\d-\d\d \d\d:\d\d$/)
    let ended = turnEnded(app, fresh.id)
    await call(app, 'run.start', { sessionId: fresh.id, text: '\n  read   README.md\nthen tell me what it says' })
    expect(await titleOf(fresh.id)).toBe('read README.md')
    expect(heard).toEqual([expect.objectContaining({ id: fresh.id, title: 'read README.md' })])
    await ended
    // Only the first message names it.
    ended = turnEnded(app, fresh.id)
    await call(app, 'run.start', { sessionId: fresh.id, text: 'read README.md again' })
    await ended
    expect(await titleOf(fresh.id)).toBe('read README.md')

    const named = await call<{ id: string }>(app, 'session.create', { projectId: project.id, title: 'Mine' })
    const renamed = await call<{ id: string }>(app, 'session.create', { projectId: project.id })
    await call(app, 'session.rename', { sessionId: renamed.id, title: 'Renamed first' })
    for (const id of [named.id, renamed.id]) {
      ended = turnEnded(app, id)
      await call(app, 'run.start', { sessionId: id, text: 'read README.md' })
      await ended
    }
    expect(await titleOf(named.id)).toBe('Mine')
    expect(await titleOf(renamed.id)).toBe('Renamed first')

    // A command first names nothing; the first request after it does.
    const commanded = await call<{ id: string; title: string }>(app, 'session.create', { projectId: project.id })
    ended = turnEnded(app, commanded.id)
    await call(app, 'run.start', { sessionId: commanded.id, text: '/compact' })
    await ended
    expect(await titleOf(commanded.id)).toBe(commanded.title)
    ended = turnEnded(app, commanded.id)
    await call(app, 'run.start', { sessionId: commanded.id, text: 'list the files' })
    await ended
    expect(await titleOf(commanded.id)).toBe('list the files')
  })

  it('runs a turn, exports, deletes and imports a session identically', async () => {
    const project = await call<{ id: string }>(app, 'project.open', { path: dir })
    const session = await call<{ id: string }>(app, 'session.create', { projectId: project.id })
    const ended = turnEnded(app, session.id)
    await call(app, 'run.start', { sessionId: session.id, text: 'read README.md' })
    expect(await ended).toBe('end_turn')
    // An answered turn has nothing to retry: a retry would send a conversation ending with the model's answer.
    expect(await app.dispatch('run.retry', { sessionId: session.id })).toMatchObject({ ok: false, error: { code: 'unsupported', message: expect.stringContaining('Nothing to retry') } })

    // Every window hears of a rename, a delete and an import, not only the one that asked.
    const heard: Array<[string, unknown]> = []
    app.events.subscribe((name, payload) => (name === 'session.renamed' || name === 'session.deleted' || name === 'session.created') && heard.push([name, payload]))
    const renamed = await call<{ title: string }>(app, 'session.rename', { sessionId: session.id, title: 'Reading the README' })
    expect(renamed.title).toBe('Reading the README')
    expect(heard).toEqual([['session.renamed', renamed]])
    const passes = await call<Array<{ id: string; requestSha256: string }>>(app, 'pass.list', { sessionId: session.id })
    expect(passes.length).toBe(2)
    for (const p of passes) {
      const detail = await call<{ requestBody: string }>(app, 'pass.get', { passId: p.id })
      expect(sha256Hex(detail.requestBody)).toBe(p.requestSha256)
    }

    const exported = await call<{ path: string; replaced: boolean }>(app, 'session.export', { sessionId: session.id })
    expect(exported.replaced).toBe(false)
    const first = readFileSync(exported.path, 'utf8')
    const deleted = await call<{ deleted: boolean; blobsCollected: number }>(app, 'session.delete', { sessionId: session.id })
    expect(deleted.deleted).toBe(true)
    expect(heard.at(-1)).toEqual(['session.deleted', { sessionId: session.id, projectId: project.id }])
    expect(deleted.blobsCollected).toBeGreaterThan(0)
    expect(await app.dispatch('session.get', { sessionId: session.id })).toMatchObject({ ok: false, error: { code: 'not_found' } })

    const imported = await call<{ id: string }>(app, 'session.import', { projectId: project.id, path: exported.path })
    expect(imported.id).toBe(session.id)
    // Every window lists it, as it lists a session made elsewhere.
    expect(heard.at(-1)).toEqual(['session.created', imported])
    const again = await call<{ path: string }>(app, 'session.export', { sessionId: session.id, path: join(dir, 'again.json') })
    expect(readFileSync(again.path, 'utf8')).toBe(first)
    const state = await call<{ entries: unknown[] }>(app, 'session.get', { sessionId: session.id })
    expect(state.entries.length).toBeGreaterThan(3)

    // A second import of the same session answers with the session that is here, changes nothing and tells no
    // window (an export keeps its ids, so it imports once); a file that is not an export is refused.
    const heardBefore = heard.length
    const entriesBefore = state.entries.length
    expect(await call(app, 'session.import', { projectId: project.id, path: exported.path })).toEqual({ ...imported, alreadyPresent: true })
    expect(heard).toHaveLength(heardBefore)
    expect((await call<{ entries: unknown[] }>(app, 'session.get', { sessionId: session.id })).entries).toHaveLength(entriesBefore)
    expect(await app.dispatch('session.import', { projectId: project.id, path: join(dir, 'README.md') })).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    // A relative path would be read from wherever the host runs; a folder is not an export file.
    expect(await app.dispatch('session.import', { projectId: project.id, path: 'again.json' })).toMatchObject({ ok: false, error: { code: 'invalid_input', message: 'Give an absolute path for the file to import' } })
    expect(await app.dispatch('session.import', { projectId: project.id, path: dir })).toMatchObject({ ok: false, error: { code: 'invalid_input', message: `${dir} is a folder: give the export file in it` } })

    // An export makes a new file: it never replaces one, and never writes among the store's own files.
    const readme = readFileSync(join(dir, 'README.md'), 'utf8')
    expect(await app.dispatch('session.export', { sessionId: session.id, path: join(dir, 'README.md') })).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringContaining('already exists') } })
    expect(readFileSync(join(dir, 'README.md'), 'utf8')).toBe(readme)
    // A folder is said to be one, with a file name to give instead.
    expect(await app.dispatch('session.export', { sessionId: session.id, path: dir })).toMatchObject({ ok: false, error: { code: 'invalid_input', message: `${dir} is a folder: give the name of a new file in it, such as ${join(dir, 'session.json')}` } })
    const db = readFileSync(join(dir, '.home', 'loupe.db'))
    expect(await app.dispatch('session.export', { sessionId: session.id, path: join(dir, '.home', 'loupe.db') })).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringContaining('keeps its own files') } })
    expect(await app.dispatch('session.export', { sessionId: session.id, path: join(dir, '.home', 'new.json') })).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    expect(readFileSync(join(dir, '.home', 'loupe.db')).equals(db)).toBe(true)
    // The session's own default export is written again, and the answer says it replaced the earlier one.
    expect(await call<{ path: string; replaced: boolean }>(app, 'session.export', { sessionId: session.id })).toMatchObject({ path: exported.path, replaced: true })
  })

  it('refuses a second turn while one runs, and stops a turn on cancel', async () => {
    const project = await call<{ id: string }>(app, 'project.open', { path: dir })
    const session = await call<{ id: string }>(app, 'session.create', { projectId: project.id })
    // In build mode the edit waits for an approval: the turn is running until it is answered.
    const ended = turnEnded(app, session.id)
    const asked = new Promise<void>((resolve) => app.events.subscribe((name) => name === 'approval.requested' && resolve()))
    await call(app, 'run.start', { sessionId: session.id, text: 'replace "test" with "demo" in README.md' })
    await asked
    expect(await app.dispatch('run.start', { sessionId: session.id, text: 'again' })).toMatchObject({ ok: false, error: { code: 'busy' } })
    await call(app, 'run.cancel', { sessionId: session.id })
    expect(await ended).toBe('cancelled')
    const state = await call<{ entries: Array<{ kind: string; outcome?: string }> }>(app, 'session.get', { sessionId: session.id })
    // The edit never ran, and its call got a result saying so: the session stays valid for the API.
    expect(state.entries.filter((e) => e.kind === 'tool_result').at(-1)?.outcome).toBe('interrupted')
    expect(readFileSync(join(dir, 'README.md'), 'utf8')).toContain('A test project')
  })
})
