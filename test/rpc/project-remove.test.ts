/**
 * Taking a project out of the sidebar (project.remove): nothing is deleted, every window hears it, opening the folder
 * again brings it back with its sessions; refused while a turn runs there.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { App } from '../../src-main/node/app'
import { call, simulatorApp, turnEnded, type SimulatorApp } from '../support/app'

describe('removing a project from the list', () => {
  let running: SimulatorApp
  let dir: string
  let app: App
  beforeEach(async () => {
    running = await simulatorApp({ seed: 'project-remove' })
    ;({ dir, app } = running)
    mkdirSync(join(dir, 'work'))
    mkdirSync(join(dir, 'other'))
  })
  afterEach(() => running.close())

  it('takes it out of the list and tells every window; opening the folder again brings it back with its sessions', async () => {
    const project = await call<{ id: string }>(app, 'project.open', { path: join(dir, 'work') })
    const other = await call<{ id: string }>(app, 'project.open', { path: join(dir, 'other') })
    const session = await call<{ id: string }>(app, 'session.create', { projectId: project.id, title: 'kept' })
    const ended = turnEnded(app, session.id)
    await call(app, 'run.start', { sessionId: session.id, text: 'hello' })
    await ended

    const heard: unknown[] = []
    app.events.subscribe((name, payload) => name === 'project.removed' && heard.push(payload))
    expect(await call(app, 'project.remove', { projectId: project.id })).toEqual({ removed: true })
    expect(heard).toEqual([{ projectId: project.id }])
    expect((await call<Array<{ id: string }>>(app, 'project.list', {})).map((p) => p.id)).toEqual([other.id])
    // Removing it again changes nothing and says so; an unknown project is not found.
    expect(await call(app, 'project.remove', { projectId: project.id })).toEqual({ removed: false })
    expect(heard).toHaveLength(1)
    expect(await app.dispatch('project.remove', { projectId: 'prj_nonesuch' })).toMatchObject({ ok: false, error: { code: 'not_found' } })

    // Nothing was deleted: the same project comes back with its session, its passes and its entries.
    const back = await call<{ id: string }>(app, 'project.open', { path: join(dir, 'work') })
    expect(back.id).toBe(project.id)
    expect((await call<Array<{ id: string }>>(app, 'project.list', {})).map((p) => p.id)).toEqual([project.id, other.id])
    const sessions = await call<Array<{ id: string; title: string }>>(app, 'session.list', { projectId: project.id })
    expect(sessions.map((s) => s.title)).toEqual(['kept'])
    expect((await call<unknown[]>(app, 'pass.list', { sessionId: session.id })).length).toBeGreaterThan(0)
  })

  it('is refused while a turn runs in one of its sessions', async () => {
    const project = await call<{ id: string }>(app, 'project.open', { path: join(dir, 'work') })
    const session = await call<{ id: string }>(app, 'session.create', { projectId: project.id, title: 'busy one' })
    const ended = turnEnded(app, session.id)
    await call(app, 'run.start', { sessionId: session.id, text: 'hello' })
    const refused = await app.dispatch('project.remove', { projectId: project.id })
    expect(refused).toMatchObject({ ok: false, error: { code: 'busy' } })
    if (!refused.ok) expect(refused.error.message).toMatch(/A turn is running in "busy one"/)
    await ended
    expect(await call(app, 'project.remove', { projectId: project.id })).toEqual({ removed: true })
  })
})
