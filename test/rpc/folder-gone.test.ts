/**
 * A project whose folder was deleted, renamed or moved on disk after it was opened (decision 0022): listed as gone,
 * no session starts and no message is sent there, its sessions stay readable; back in place, it works again.
 */
import { mkdirSync, renameSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { App } from '../../src-main/node/app'
import { call, simulatorApp, turnEnded, type SimulatorApp } from '../support/app'

describe('a project whose folder is gone', () => {
  let running: SimulatorApp
  let dir: string
  let app: App
  beforeEach(async () => {
    running = await simulatorApp({ seed: 'folder-gone' })
    ;({ dir, app } = running)
    mkdirSync(join(dir, 'work'))
  })
  afterEach(() => running.close())

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
