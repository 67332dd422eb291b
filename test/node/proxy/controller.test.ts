/**
 * The app's proxy switch and the command line: the default upstream follows the app's model service (a simulator
 * of its own when offline), explicit upstreams are limited to the Anthropic API and loopback addresses (client keys
 * travel through the proxy), and the command line records into the store of the data folder.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startProxyCli } from '../../../src-main/node/proxy/cli'
import { allowedUpstream, ProxyController, ProxyError } from '../../../src-main/node/proxy/controller'
import { openStore } from '../../../src-main/node/store'
import { foreignClient } from './harness'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'loupe-proxy-ctl-'))
  dirs.push(d)
  return d
}

describe('allowedUpstream', () => {
  it('takes the Anthropic API and loopback addresses', () => {
    expect(allowedUpstream('https://api.anthropic.com/')).toEqual({ url: 'https://api.anthropic.com', kind: 'anthropic' })
    expect(allowedUpstream('http://127.0.0.1:8080')).toEqual({ url: 'http://127.0.0.1:8080', kind: 'custom' })
    expect(allowedUpstream('http://localhost:9/base/')).toEqual({ url: 'http://localhost:9/base', kind: 'custom' })
  })

  it('refuses anything else, where client keys would go', () => {
    for (const bad of ['http://api.anthropic.com', 'https://api.anthropic.com.evil.example', 'https://example.com', 'ftp://127.0.0.1', 'not a url']) {
      expect(() => allowedUpstream(bad), bad).toThrow(ProxyError)
    }
  })
})

describe('ProxyController', () => {
  it('starts a simulator upstream when the app is offline, records per client, and stops', async () => {
    const dir = tempDir()
    const store = openStore(join(dir, 'loupe.db'))
    const created: string[] = []
    const recorded: string[] = []
    let resolveRecorded: () => void = () => {}
    const oneRecorded = new Promise<void>((r) => (resolveRecorded = r))
    const controller = new ProxyController({
      store,
      clock: { now: () => Date.now() },
      dataDir: dir,
      modelKind: () => 'simulator',
      env: { LOUPE_SIM_PACE: 'instant' },
      onSessionCreated: (s) => created.push(s.id),
      onPassRecorded: (sessionId) => {
        recorded.push(sessionId)
        resolveRecorded()
      },
    })
    try {
      expect(controller.status()).toMatchObject({ running: false, url: null })
      const status = await controller.start()
      expect(status).toMatchObject({ running: true, upstreamKind: 'simulator' })
      expect(await controller.start()).toEqual(status)
      await expect(controller.start({ upstream: 'http://127.0.0.1:9' })).rejects.toMatchObject({ kind: 'running' })
      const answer = await foreignClient(status.url!).messages.create({ model: 'claude-sonnet-4-6', max_tokens: 64, messages: [{ role: 'user', content: 'hello' }] })
      expect(answer.type).toBe('message')
      await oneRecorded
      const running = controller.status()
      expect(running.requests).toBe(1)
      expect(running.sessions).toHaveLength(1)
      expect(created).toEqual([running.sessions[0]!.sessionId])
      expect(recorded).toEqual(created)
      const stopped = await controller.stop()
      expect(stopped).toMatchObject({ running: false, projectId: running.projectId })
      expect(store.passes.list(created[0]!)).toHaveLength(1)
    } finally {
      await controller.stop()
      store.close()
    }
  })

  it('says how many recorded requests failed, and why the newest did', async () => {
    const dir = tempDir()
    const store = openStore(join(dir, 'loupe.db'))
    let recorded = 0
    let onRecorded: () => void = () => {}
    const controller = new ProxyController({
      store,
      clock: { now: () => Date.now() },
      dataDir: dir,
      modelKind: () => 'simulator',
      env: { LOUPE_SIM_PACE: 'instant' },
      onPassRecorded: () => {
        recorded++
        onRecorded()
      },
    })
    const recordedCount = (n: number) => new Promise<void>((resolve) => (onRecorded = () => recorded >= n && resolve()))
    try {
      const status = await controller.start()
      const client = foreignClient(status.url!)
      const two = recordedCount(2)
      await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 64, messages: [{ role: 'user', content: 'hello' }] })
      // A request the service refuses (no max_tokens): the agent gets a 400, and the pass is recorded as failed.
      await expect(client.messages.create({ model: 'claude-sonnet-4-6', messages: [{ role: 'user', content: 'hello' }] } as never)).rejects.toMatchObject({ status: 400 })
      await two
      const after = controller.status()
      expect(after).toMatchObject({ requests: 2, failed: 1 })
      expect(after.lastError?.message).toMatch(/^HTTP 400 · invalid_request_error: .*max_tokens/)
      expect(after.sessions).toMatchObject([{ passes: 2, failed: 1 }])
    } finally {
      await controller.stop()
      store.close()
    }
  })

  it('starts towards what answers the app at that moment: the simulator, then the API once a key is saved', async () => {
    const dir = tempDir()
    const store = openStore(join(dir, 'loupe.db'))
    let kind: 'simulator' | 'anthropic' = 'simulator'
    const controller = new ProxyController({ store, clock: { now: () => Date.now() }, dataDir: dir, modelKind: () => kind, env: { LOUPE_SIM_PACE: 'instant' } })
    try {
      expect((await controller.start()).upstreamKind).toBe('simulator')
      await controller.stop()
      kind = 'anthropic'
      expect(await controller.start()).toMatchObject({ upstreamKind: 'anthropic', upstream: 'https://api.anthropic.com' })
    } finally {
      await controller.stop()
      store.close()
    }
  })

  it('refuses an upstream that is not the API or loopback', async () => {
    const dir = tempDir()
    const store = openStore(join(dir, 'loupe.db'))
    const controller = new ProxyController({ store, clock: { now: () => Date.now() }, dataDir: dir, modelKind: () => 'anthropic' })
    await expect(controller.start({ upstream: 'https://collector.example' })).rejects.toMatchObject({ kind: 'upstream_refused' })
    expect(controller.status().running).toBe(false)
    store.close()
  })
})

describe('npm run proxy', () => {
  it('prints its URL first and records into the data folder', async () => {
    const dir = tempDir()
    const out: string[] = []
    const err: string[] = []
    const running = await startProxyCli(['--upstream', 'simulator'], { out: (t) => out.push(t), err: (t) => err.push(t), env: { LOUPE_SIM_PACE: 'instant' } }, { dataDir: dir })
    expect(running).not.toBeNull()
    try {
      expect(out[0]).toBe(`${running!.proxy.url}\n`)
      await foreignClient(running!.proxy.url).messages.create({ model: 'claude-sonnet-4-6', max_tokens: 64, messages: [{ role: 'user', content: 'hello' }] })
    } finally {
      await running!.stop()
    }
    expect(err.some((l) => /^pass 1 · main · claude-sonnet-4-6 · done/.test(l))).toBe(true)
    const store = openStore(join(dir, 'loupe.db'))
    const sessions = store.sessions.listByProject(store.projects.list()[0]!.id)
    expect(store.passes.list(sessions[0]!.id)[0]).toMatchObject({ source: 'proxy', status: 'done' })
    store.close()
  })

  it('refuses a bad port', async () => {
    const err: string[] = []
    expect(await startProxyCli(['--port', 'x'], { out: () => {}, err: (t) => err.push(t) })).toBeNull()
    expect(err.join('')).toContain('--port takes a number')
  })
})
