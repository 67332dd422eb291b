/**
 * A user who saves an API key where the API cannot be reached (no network, a proxy that is down) or where it refuses
 * the key: the failure says where the request went, that nothing was billed, and the way back to the simulator —
 * which forgetting the key brings back, without a restart, for the retry of the same turn.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Entry } from '../../../src-main/engine/conversation/entries'
import { createApp, type App } from '../../../src-main/node/app'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator'
import { call, turnEnded } from '../../support/app'

// Obvious fakes: nothing here is a key anyone can use.
const FAKE_KEY = 'sk-ant-api03-not-a-real-key-0000000000000000000000-FAKE'

let app: App | null = null
let sim: RunningSimulator | null = null
let dir = ''

afterEach(async () => {
  await app?.close()
  app = null
  await sim?.close()
  sim = null
  if (dir) rmSync(dir, { recursive: true, force: true })
})

async function start(baseUrl: string): Promise<{ sessionId: string; failure(): string | undefined }> {
  dir = mkdtempSync(join(tmpdir(), 'loupe-unreachable-'))
  const root = join(dir, 'project')
  mkdirSync(root)
  writeFileSync(join(root, 'README.md'), '# Demo\n')
  const home = join(dir, 'home')
  app = await createApp({ host: 'browser', dataDir: home, loupeHome: home, homeDir: dir, env: { ANTHROPIC_BASE_URL: baseUrl, LOUPE_SIM_PACE: 'instant' } })
  const project = await call<{ id: string }>(app, 'project.open', { path: root })
  const session = await call<{ id: string }>(app, 'session.create', { projectId: project.id })
  await call(app, 'settings.setApiKey', { key: FAKE_KEY })
  const current = app
  return {
    sessionId: session.id,
    failure: () => (current.services.store.entries.list(session.id) as Entry[]).filter((e) => e.kind === 'turn_failed').at(-1)?.message,
  }
}

describe('an API key the API cannot be reached with', () => {
  it('says the API could not be reached, that nothing was billed, and how to go back; forgetting the key lets Retry use the simulator', async () => {
    // Port 9 (discard) on loopback: nothing listens, every connection is refused, as with no network.
    const s = await start('http://127.0.0.1:9')
    const ended = turnEnded(app!, s.sessionId)
    await call(app!, 'run.start', { sessionId: s.sessionId, text: 'hello' })
    expect(await ended).toBe('error')
    expect(s.failure()).toBe(
      'Could not reach the Anthropic API at 127.0.0.1:9: Connection error. No response came back, so nothing was billed. Check the network and retry, or remove the API key (Settings → Forget the key, or unset ANTHROPIC_API_KEY) to go back to the offline simulator.',
    )

    // Forgetting the key: the retry of the same turn is answered by the simulator, no restart.
    await call(app!, 'settings.setApiKey', { key: null })
    const retried = turnEnded(app!, s.sessionId)
    await call(app!, 'run.retry', { sessionId: s.sessionId })
    expect(await retried).toBe('end_turn')
  }, 30_000)

  it('says a refused key was not billed and how to go back', async () => {
    // An "API" that knows other keys only: it answers 401 to this one.
    sim = await startSimulator({ pace: 'instant', apiKeys: ['sk-ant-api03-some-other-fake-key-11111111111111-OTHR'] })
    const s = await start(sim.baseUrl)
    const ended = turnEnded(app!, s.sessionId)
    await call(app!, 'run.start', { sessionId: s.sessionId, text: 'hello' })
    expect(await ended).toBe('error')
    expect(s.failure()).toMatch(/^The Anthropic API refused the API key \(HTTP 401\): .+\. Nothing was billed\. Check the key in Settings, or remove the API key \(Settings → Forget the key, or unset ANTHROPIC_API_KEY\) to go back to the offline simulator\.$/)
  }, 30_000)
})
