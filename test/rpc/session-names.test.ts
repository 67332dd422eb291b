/**
 * Session names through the contract (decision 0051): a name given at session.create or session.rename, and the one
 * a first message gives, are kept as every name is; a rename to nothing that shows is refused and the name kept;
 * every window hears the name as kept. A project opened from a folder with a hostile name is listed clean.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createApp, type App } from '../../src-main/node/app'
import { call, turnEnded } from '../support/app'

describe('session names over the contract', () => {
  let dir: string
  let app: App
  let heard: Array<{ name: string; title: string }>
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'loupe-names-rpc-'))
    process.env.LOUPE_SIM_PACE = 'instant'
    app = await createApp({ host: 'browser', dataDir: join(dir, '.home'), loupeHome: join(dir, '.home'), homeDir: dir })
    heard = []
    app.events.subscribe((name, payload) => {
      if (name === 'session.created' || name === 'session.renamed') heard.push({ name, title: (payload as { title: string }).title })
    })
  })
  afterEach(async () => {
    await app.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('keeps a created or renamed name clean, refuses one with nothing that shows, and keeps the old name', async () => {
    const folder = join(dir, 'shop\u202Etxt.exe\nlegacy')
    mkdirSync(folder)
    const project = await call<{ id: string; name: string }>(app, 'project.open', { path: folder })
    expect(project.name).toBe('shoptxt.exe legacy')
    expect((await call<Array<{ name: string }>>(app, 'project.list', {})).map((p) => p.name)).toEqual(['shoptxt.exe legacy'])

    const created = await call<{ id: string; title: string }>(app, 'session.create', { projectId: project.id, title: 'a\u0000b\tc\u200B' })
    expect(created.title).toBe('ab c')
    const renamed = await call<{ title: string }>(app, 'session.rename', { sessionId: created.id, title: '  Login\r\nbug \u2067fix\u2069\u001b[0m ' })
    expect(renamed.title).toBe('Login bug fix')
    expect(heard).toEqual([{ name: 'session.created', title: 'ab c' }, { name: 'session.renamed', title: 'Login bug fix' }])

    for (const title of ['', '   ', '\u0000\u202E', '\u200B\u2060\uFEFF\n']) {
      expect(await app.dispatch('session.rename', { sessionId: created.id, title }), JSON.stringify(title)).toEqual({
        ok: false,
        error: { code: 'invalid_input', message: 'session.rename: title: a name needs at least one character that shows (not only spaces, control or invisible characters)' },
      })
    }
    expect(await app.dispatch('session.rename', { sessionId: created.id, title: 'x'.repeat(201) })).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    const listed = await call<Array<{ title: string }>>(app, 'session.list', { projectId: project.id })
    expect(listed.map((s) => s.title)).toEqual(['Login bug fix'])
    expect(heard).toHaveLength(2)

    // A title that shows nothing at session.create is no title: the session is named by the time it was made.
    const untitled = await call<{ title: string }>(app, 'session.create', { projectId: project.id, title: '\u202E\u0000' })
    expect(untitled.title).toMatch(/^Session \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/)
  })

  it('names a session by its first message as every name is kept, and a message taken back gives the date back', async () => {
    writeFileSync(join(dir, 'README.md'), '# Names\n')
    const project = await call<{ id: string }>(app, 'project.open', { path: dir })
    const session = await call<{ id: string; title: string }>(app, 'session.create', { projectId: project.id })
    const ended = turnEnded(app, session.id)
    await call(app, 'run.start', { sessionId: session.id, text: '\u200B\n\u202Efix\u0000 the\u2028login\tbug\u200B\nthe rest' })
    expect(await ended).toBe('end_turn')
    const titles = async () => (await call<Array<{ title: string }>>(app, 'session.list', { projectId: project.id })).map((s) => s.title)
    expect(await titles()).toEqual(['fix the login bug'])
    expect(heard.at(-1)).toEqual({ name: 'session.renamed', title: 'fix the login bug' })
    // The name the message gave is told from one the user chose by comparing the two: the kept forms must agree.
    const opened = await call<{ entries: Array<{ id: string; kind: string }> }>(app, 'session.get', { sessionId: session.id })
    await call(app, 'run.takeBack', { sessionId: session.id, entryId: opened.entries.find((e) => e.kind === 'user_message')!.id })
    expect(await titles()).toEqual([session.title])
  })
})
