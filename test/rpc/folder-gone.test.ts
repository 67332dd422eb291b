/**
 * A project whose folder was deleted, renamed or moved on disk after it was opened (decision 0022): listed as gone,
 * no session starts and no message is sent there, its sessions stay readable; back in place, it works again.
 */
import { mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createApp, type App } from '../../src-main/node/app'
import { call, turnEnded } from '../support/app'

describe('a project whose folder is gone', () => {
  let dir: string
  let app: App
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'loupe-gone-'))
    mkdirSync(join(dir, 'work'))
    process.env.LOUPE_SIM_PACE = 'instant'
    app = await createApp({ host: 'browser', dataDir: join(dir, '.home'), loupeHome: join(dir, '.home'), homeDir: dir })
  })
  afterEach(async () => {
    await app.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('is listed as gone, refuses a new session and a message, keeps its sessions readable, and works again once back', async () => {
    const project = await call<{ id: string; folderGone?: true }>(app, 'project.open', { path: join(dir, 'work') })
    expect(project.folderGone).toBeUndefined()
    const session = await call<{ id: string }>(app, 'session.create', { projectId: project.id })
    const ended = turnEnded(app, session.id)
    await call(app, 'run.start', { sessionId: session.id, text: 'hello' })
    await ended

    renameSync(join(dir, 'work'), join(dir, 'work-renamed'))
    const listed = await call<Array<{ id: string; folderGone?: true }>>(app, 'project.list', {})
    expect(listed.find((p) => p.id === project.id)?.folderGone).toBe(true)

    const created = await app.dispatch('session.create', { projectId: project.id })
    expect(created.ok).toBe(false)
    if (!created.ok) expect(created.error.message).toMatch(/work is gone .*open it where it is now/)
    const sent = await app.dispatch('run.start', { sessionId: session.id, text: 'still there?' })
    expect(sent.ok).toBe(false)
    if (!sent.ok) expect(sent.error.message).toMatch(/is gone/)
    const read = await call<{ entries: unknown[] }>(app, 'session.get', { sessionId: session.id })
    expect(read.entries.length).toBeGreaterThan(0)

    renameSync(join(dir, 'work-renamed'), join(dir, 'work'))
    const back = await call<Array<{ id: string; folderGone?: true }>>(app, 'project.list', {})
    expect(back.find((p) => p.id === project.id)?.folderGone).toBeUndefined()
    await call(app, 'session.create', { projectId: project.id })
  })
})
