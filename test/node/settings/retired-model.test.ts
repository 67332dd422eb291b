/**
 * A model past its end of life (decision 0065), through the contract with the app's clock moved across the day:
 * Settings keeps the choice made before but starts new sessions on a served model and says why; no session is switched
 * to it, and no switch to it is priced; a session already on it keeps it until the user switches.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openModelEndpoint } from '../../../src-main/node/model/endpoint'
import { memorySecretStore } from '../../../src-main/node/model/keys'
import { SettingsService } from '../../../src-main/node/settings/service'
import { openSettings } from '../../../src-main/node/settings/store'
import { call, simulatorApp, turnEnded, type SimulatorApp } from '../../support/app'

let running: SimulatorApp | null = null
afterEach(async () => {
  await running?.close()
  running = null
})

describe('a retired model', () => {
  it('is kept as the setting it was but no longer starts a session, and is no switch to make or price', async () => {
    let now = Date.parse('2026-11-20T10:00:00Z')
    running = await simulatorApp({ seed: 'retired-model', model: 'claude-sonnet-4-6', clock: { now: () => now } })
    const { app } = running
    type Settings = { app: { model: string | null }; effectiveModel: string; chosenModelRetired: string | null; problems: string[]; models: { id: string; endOfLife: string | null }[] }

    // Ten days before its end of life, Sonnet 4.5 is a choice like any other.
    await call(app, 'settings.set', { app: { model: 'claude-sonnet-4-5' } })
    const before = await call<Settings>(app, 'settings.get', {})
    expect(before.effectiveModel).toBe('claude-sonnet-4-5')
    expect(before.chosenModelRetired).toBeNull()
    expect(before.models.find((m) => m.id === 'claude-sonnet-4-5')?.endOfLife).toBe('2026-11-30')
    expect(before.models.find((m) => m.id === 'claude-sonnet-4-6')?.endOfLife).toBeNull()
    const root = join(running.dir, 'demo')
    mkdirSync(root)
    const project = await call<{ id: string }>(app, 'project.open', { path: root })
    const { id: older } = await call<{ id: string }>(app, 'session.create', { projectId: project.id })
    expect((await call<{ model: string }>(app, 'session.get', { sessionId: older })).model).toBe('claude-sonnet-4-5')
    const ended = turnEnded(app, older)
    await call(app, 'run.start', { sessionId: older, text: 'hello' })
    await ended

    // Past it: the setting is kept (nothing the user chose is lost), new sessions start on the served default, and
    // Settings says why.
    now = Date.parse('2026-12-03T09:00:00Z')
    const after = await call<Settings>(app, 'settings.get', {})
    expect(after.app.model).toBe('claude-sonnet-4-5')
    expect(after.effectiveModel).toBe('claude-sonnet-4-6')
    expect(after.problems).toEqual([])
    expect(after.chosenModelRetired).toBe(
      'The model chosen for new sessions, Claude Sonnet 4.5, was retired on 30 Nov 2026: the API no longer serves it, so new sessions start on Claude Sonnet 4.6 until another model is chosen.',
    )
    const { id: newer } = await call<{ id: string }>(app, 'session.create', { projectId: project.id })
    expect((await call<{ model: string }>(app, 'session.get', { sessionId: newer })).model).toBe('claude-sonnet-4-6')

    // Chosen anew, in Settings or for a session, or priced as a switch: refused, naming the served models.
    const retired = /^Claude Sonnet 4\.5 \(claude-sonnet-4-5(-20250929)?\) was retired on 30 Nov 2026: the API no longer serves it; choose one of .*claude-opus-4-5$/
    for (const [method, params] of [
      ['settings.set', { app: { model: 'claude-sonnet-4-5' } }],
      ['session.setModel', { sessionId: newer, model: 'claude-sonnet-4-5-20250929' }],
      ['cache.priceEdit', { sessionId: older, edit: { kind: 'model', model: 'claude-sonnet-4-5-20250929' } }],
    ] as const) {
      const refused = await app.dispatch(method, params as never)
      expect(refused, method).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringMatching(retired) } })
    }
    expect((await call<{ model: string }>(app, 'session.get', { sessionId: newer })).model).toBe('claude-sonnet-4-6')

    // The session on it keeps it (its own model is no switch) until the user switches it to a served one.
    expect(await call(app, 'session.setModel', { sessionId: older, model: 'claude-sonnet-4-5' })).toEqual({ model: 'claude-sonnet-4-5' })
    expect(await call(app, 'session.setModel', { sessionId: older, model: 'claude-opus-4-5' })).toEqual({ model: 'claude-opus-4-5' })
    // A served model chosen in Settings clears the problem.
    const chosen = await call<Settings>(app, 'settings.set', { app: { model: 'claude-haiku-4-5' } })
    expect(chosen.effectiveModel).toBe('claude-haiku-4-5')
    expect(chosen.chosenModelRetired).toBeNull()
  })

  it('named by LOUPE_MODEL is passed over for the default, and Settings says so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loupe-retired-env-'))
    const env = { LOUPE_MODEL: 'claude-sonnet-4-5-20250929' }
    const clock = { now: () => Date.parse('2026-12-03T09:00:00Z') }
    const endpoint = await openModelEndpoint({ env, secrets: memorySecretStore(), clock })
    try {
      const settings = new SettingsService({ store: await openSettings(dir), secrets: memorySecretStore(), env, endpoint, dataDir: dir, loupeHome: dir, now: clock.now })
      const view = await settings.view(null)
      expect(view.effectiveModel).toBe('claude-sonnet-4-6')
      expect(view.chosenModelRetired).toBe(
        'LOUPE_MODEL names Claude Sonnet 4.5, which was retired on 30 Nov 2026: the API no longer serves it, so new sessions start on Claude Sonnet 4.6 until another model is chosen.',
      )
      // A model chosen in Settings wins over LOUPE_MODEL, and then nothing is said of it.
      const chosen = await settings.update({ model: 'claude-opus-4-6' }, null)
      expect([chosen.effectiveModel, chosen.chosenModelRetired]).toEqual(['claude-opus-4-6', null])
    } finally {
      await endpoint.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
