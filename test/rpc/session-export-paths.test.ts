/**
 * Where session.export writes, judged before the session is serialized: a path the file system cannot take is
 * invalid_input, a folder that cannot take the file is io_error with its cause (never `internal`), and a symbolic
 * link into the data folder followed by folders not made yet is refused like the data folder itself.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createApp, type App } from '../../src-main/node/app'
import { call } from '../support/app'

describe('session.export paths', () => {
  let dir: string
  let home: string
  let app: App
  let sessionId: string
  beforeEach(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'loupe-export-paths-')))
    home = join(dir, '.home')
    process.env.LOUPE_SIM_PACE = 'instant'
    app = await createApp({ host: 'browser', dataDir: home, loupeHome: home, homeDir: dir })
    mkdirSync(join(dir, 'project'))
    const project = await call<{ id: string }>(app, 'project.open', { path: join(dir, 'project') })
    sessionId = (await call<{ id: string }>(app, 'session.create', { projectId: project.id })).id
  })
  afterEach(async () => {
    await app.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('refuses a link into the data folder followed by a folder that does not exist yet, and writes nothing there', async () => {
    mkdirSync(join(dir, 'x'))
    symlinkSync(home, join(dir, 'x', 'tohome'))
    const before = readdirSync(home)
    const answer = await app.dispatch('session.export', { sessionId, path: join(dir, 'x', 'tohome', 'newdir', 'x.json') })
    expect(answer).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringContaining('keeps its own files') } })
    expect(existsSync(join(home, 'newdir'))).toBe(false)
    expect(readdirSync(home)).toEqual(before)
    // Through the link into its exports/ folder is where an export may go.
    expect(await app.dispatch('session.export', { sessionId, path: join(dir, 'x', 'tohome', 'exports', 'mine.json') })).toMatchObject({ ok: true })
  })

  it('answers invalid_input for a NUL, a relative path and a name over 255 bytes', async () => {
    const nul = await app.dispatch('session.export', { sessionId, path: join(dir, 'a\0b.json') })
    expect(nul).toEqual({ ok: false, error: { code: 'invalid_input', message: 'session.export: path: a path cannot contain a NUL character' } })
    expect(await app.dispatch('session.export', { sessionId, path: 'x.json' })).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    const long = await app.dispatch('session.export', { sessionId, path: join(dir, `${'n'.repeat(300)}.json`) })
    expect(long).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringContaining('longer than 255 bytes') } })
  })

  it('answers io_error with the cause for a parent that is a file and a folder that takes no new file', async () => {
    writeFileSync(join(dir, 'plain'), 'a file')
    const underFile = await app.dispatch('session.export', { sessionId, path: join(dir, 'plain', 'sub', 'x.json') })
    expect(underFile).toMatchObject({ ok: false, error: { code: 'io_error', message: expect.stringContaining('is a file, not a folder') } })
    const proc = await app.dispatch('session.export', { sessionId, path: '/proc/self/x.json' })
    expect(proc).toMatchObject({ ok: false, error: { code: 'io_error', message: expect.stringContaining('Cannot write in /proc/self') } })
    // Nothing was left behind by the check.
    expect(readdirSync(dir).filter((name) => name.endsWith('.loupe-tmp'))).toEqual([])
  })
})
