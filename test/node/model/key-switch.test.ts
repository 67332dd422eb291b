/**
 * An API key set or removed in Settings takes effect at the next model call, without a restart: the whole app
 * (store, sessions, settings, handlers) starts on the offline simulator; a key stored through `settings.setApiKey`
 * sends the next pass — and the next compaction's summary request — to the API address with that key; another key
 * replaces it; forgetting it goes back to the simulator. The "API" is a simulator on loopback behind a small
 * recording proxy that notes each request's key header (never a real network), and the key appears in no recorded
 * request, event, answer or database file.
 */
import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createApp, type App } from '../../../src-main/node/app'
import { openModelAccess, SIMULATOR_LABEL } from '../../../src-main/node/model/connect'
import { memorySecretStore } from '../../../src-main/node/model/keys'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator'
import { isSummaryRequest } from '../compaction/harness'

const KEY_A = 'sk-ant-api03-first-test-key-0123456789abcdefghij-AAAA'
const KEY_B = 'sk-ant-api03-second-test-key-9876543210zyxwvutsrq-BBBB'

interface Seen {
  readonly key: string | null
  readonly summary: boolean
}

/** A loopback "API": the simulator (accepting only the two test keys) behind a proxy that records each key. */
async function fakeApi(): Promise<{ url: string; seen: Seen[]; close(): Promise<void> }> {
  const simulator: RunningSimulator = await startSimulator({ pace: 'instant', apiKeys: [KEY_A, KEY_B], seed: 'key-switch' })
  const target = new URL(simulator.baseUrl)
  const seen: Seen[] = []
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      if (req.method === 'POST' && req.url?.startsWith('/v1/messages') && !req.url.includes('count_tokens')) {
        let summary = false
        try {
          summary = isSummaryRequest(JSON.parse(body.toString('utf8')))
        } catch {
          summary = false
        }
        // The SDK sends the key as `authorization: Bearer …`; the API (and the simulator) also take `x-api-key`.
        const bearer = req.headers.authorization?.match(/^Bearer\s+(.+)$/i)?.[1]
        const header = req.headers['x-api-key']
        seen.push({ key: (typeof header === 'string' ? header : null) ?? bearer ?? null, summary })
      }
      const upstream = httpRequest({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: { ...req.headers, host: target.host } }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      })
      upstream.on('error', () => res.destroy())
      upstream.end(body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
      await simulator.close()
    },
  }
}

describe('an API key changed in Settings', () => {
  let dir: string
  let app: App | null = null
  let api: Awaited<ReturnType<typeof fakeApi>>
  const events: Array<{ name: string; payload: unknown }> = []

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'loupe-key-switch-'))
    api = await fakeApi()
    events.length = 0
  })
  afterEach(async () => {
    await app?.close()
    app = null
    await api.close()
    rmSync(dir, { recursive: true, force: true })
  })

  async function call<T>(name: string, input: Record<string, unknown>): Promise<T> {
    const result = await app!.dispatch(name, input)
    if (!result.ok) throw new Error(`${name}: ${result.error.code} ${result.error.message}`)
    return result.value as T
  }

  async function send(sessionId: string, text: string): Promise<string> {
    const ended = new Promise<string>((resolve) => {
      const stop = app!.events.subscribe((name, payload) => {
        const p = payload as { sessionId?: string; reason?: string }
        if (name === 'turn.ended' && p.sessionId === sessionId) {
          stop()
          resolve(String(p.reason))
        }
      })
    })
    await call('run.start', { sessionId, text })
    return ended
  }

  it('is used by the next pass and the next compaction, and removing it goes back to the simulator', async () => {
    const root = join(dir, 'project')
    mkdirSync(root)
    writeFileSync(join(root, 'README.md'), `# Demo\n\n${'The ledger keeps integer cents. '.repeat(80)}\n`)
    mkdirSync(join(root, '.loupe'))
    writeFileSync(join(root, '.loupe/config.toml'), '[compaction]\nkeep_steps = 1\n')
    const home = join(dir, 'home')
    // No key in the environment: the app starts on the embedded simulator, as it does for a user without one.
    app = await createApp({ host: 'browser', dataDir: home, loupeHome: home, homeDir: dir, env: { ANTHROPIC_BASE_URL: api.url, LOUPE_SIM_PACE: 'instant' } })
    app.events.subscribe((name, payload) => events.push({ name, payload }))
    const project = await call<{ id: string }>('project.open', { path: root })
    const session = await call<{ id: string }>('session.create', { projectId: project.id })

    const atStart = await call<{ endpoint: { kind: string; label: string; baseUrl: string } }>('settings.get', {})
    expect(atStart.endpoint).toMatchObject({ kind: 'simulator', label: SIMULATOR_LABEL, baseUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) })
    expect(atStart.endpoint.baseUrl).not.toBe(api.url)
    expect(await send(session.id, 'read README.md')).toBe('end_turn')
    expect(api.seen).toEqual([])

    // A key: the next pass goes to the API with it, no restart.
    const status = await call<Record<string, unknown>>('settings.setApiKey', { key: KEY_A })
    expect(status).toEqual({ configured: true, source: 'store', hint: '…AAAA', restartNeeded: false })
    // Named as what answers, not as a model: each session names its own.
    expect(events.filter((e) => e.name === 'endpoint.changed').map((e) => e.payload)).toEqual([{ kind: 'anthropic', label: 'Anthropic API', model: expect.any(String) }])
    expect(await call('settings.get', {})).toMatchObject({ endpoint: { kind: 'anthropic', baseUrl: api.url }, apiKey: { restartNeeded: false } })
    expect(await call('app.info', {})).toMatchObject({ model: { kind: 'anthropic' } })
    expect(await send(session.id, 'list the root')).toBe('end_turn')
    expect(api.seen.length).toBeGreaterThan(0)
    expect(api.seen.every((s) => s.key === KEY_A)).toBe(true)

    // Another key: the next compaction's summary request carries it.
    const before = api.seen.length
    await call('settings.setApiKey', { key: KEY_B })
    expect(events.filter((e) => e.name === 'endpoint.changed')).toHaveLength(1)
    expect(await send(session.id, '/compact the ledger')).toBe('compacted')
    const compaction = api.seen.slice(before)
    expect(compaction).toEqual([{ key: KEY_B, summary: true }])

    // Removing the key goes back to the simulator, as at start-up: the API hears nothing more.
    const cleared = await call<Record<string, unknown>>('settings.setApiKey', { key: null })
    expect(cleared).toMatchObject({ configured: false, restartNeeded: false })
    expect(events.filter((e) => e.name === 'endpoint.changed').at(-1)!.payload).toMatchObject({ kind: 'simulator', label: SIMULATOR_LABEL })
    const seenBefore = api.seen.length
    expect(await send(session.id, 'read README.md')).toBe('end_turn')
    expect(api.seen).toHaveLength(seenBefore)
    expect(await call('settings.get', {})).toMatchObject({ endpoint: { kind: 'simulator', baseUrl: atStart.endpoint.baseUrl } })

    // The key reached the API and nothing else: no recorded request, event or answer, and no database file.
    const passes = await call<Array<{ id: string }>>('pass.list', { sessionId: session.id })
    for (const pass of passes) {
      const detail = JSON.stringify(await call('pass.get', { passId: pass.id }))
      expect(detail).not.toContain('first-test-key')
      expect(detail).not.toContain('second-test-key')
    }
    const everything = JSON.stringify(events)
    expect(everything).not.toContain('first-test-key')
    expect(everything).not.toContain('second-test-key')
    await app.close()
    app = null
    for (const file of readdirSync(home).filter((f) => !f.startsWith('secrets'))) {
      const path = join(home, file)
      let bytes: Buffer
      try {
        bytes = readFileSync(path)
      } catch {
        continue // a folder
      }
      expect(bytes.includes('first-test-key')).toBe(false)
      expect(bytes.includes('second-test-key')).toBe(false)
    }
  })
})

describe('openModelAccess after a key change', () => {
  it('points the same client at the new key, then back at the simulator, keeping the simulator it started', async () => {
    const api = await fakeApi()
    const store = memorySecretStore()
    const access = await openModelAccess({ env: { ANTHROPIC_BASE_URL: api.url }, store, simulatorPace: 'instant', maxRetries: 0 })
    try {
      const client = access.client
      const ask = () => client.send({ model: 'claude-sonnet-4-6', max_tokens: 100, messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }] }, {})
      expect(access.label).toBe(SIMULATOR_LABEL)
      const simulatorUrl = client.endpoint.baseUrl
      expect((await ask()).ok).toBe(true)
      expect(await access.refresh()).toBe(false)

      await store.set(KEY_A)
      expect(await access.refresh()).toBe(true)
      expect(client.endpoint).toEqual({ kind: 'anthropic', baseUrl: api.url })
      expect(access.keySource).toBe('store')
      expect((await ask()).ok).toBe(true)
      expect(api.seen.map((s) => s.key)).toEqual([KEY_A])
      expect(await access.refresh()).toBe(false)

      // A key the API refuses is still the one used: the call fails with an authentication error, not silently.
      await store.set('sk-ant-api03-not-accepted-0123456789-NOPE')
      expect(await access.refresh()).toBe(true)
      const refused = await ask()
      expect(refused.ok === false && refused.error.kind).toBe('authentication')
      expect(JSON.stringify(refused)).not.toContain('not-accepted')

      await store.set(null)
      expect(await access.refresh()).toBe(true)
      expect(client.endpoint).toEqual({ kind: 'simulator', baseUrl: simulatorUrl })
      expect((await ask()).ok).toBe(true)
      expect(api.seen).toHaveLength(2)
      expect(JSON.stringify(access)).not.toContain('test-key')
    } finally {
      await access.close()
      await api.close()
    }
  })
})
