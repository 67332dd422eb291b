/**
 * The app's proxy switch and the command line: the default upstream follows the app's model service (a simulator
 * of its own when offline), explicit upstreams are limited to the Anthropic API and loopback addresses (client keys
 * travel through the proxy), and the command line records into the store of the data folder.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startProxyCli } from '../../../src-main/node/proxy/cli'
import { startSimulator } from '../../../src-main/simulator'
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
    if ('exitCode' in running) throw new Error(`the proxy did not start: ${err.join('')}`)
    try {
      expect(out[0]).toBe(`${running.proxy.url}\n`)
      await foreignClient(running.proxy.url).messages.create({ model: 'claude-sonnet-4-6', max_tokens: 64, messages: [{ role: 'user', content: 'hello' }] })
    } finally {
      await running.stop()
    }
    expect(err.some((l) => /^pass 1 · main · claude-sonnet-4-6 · done/.test(l))).toBe(true)
    const store = openStore(join(dir, 'loupe.db'))
    const sessions = store.sessions.listByProject(store.projects.list()[0]!.id)
    expect(store.passes.list(sessions[0]!.id)[0]).toMatchObject({ source: 'proxy', status: 'done' })
    store.close()
  })

  it('refuses a bad port', async () => {
    const err: string[] = []
    expect(await startProxyCli(['--port', 'x'], { out: () => {}, err: (t) => err.push(t) })).toEqual({ exitCode: 2 })
    expect(err.join('')).toContain('--port takes a number')
  })

  it('reads every argument: a misspelt option, a value left off, a stray file or a port in another notation starts nothing (exit 2)', async () => {
    const dir = tempDir()
    const cases: Array<[string[], string]> = [
      [['--prot', '8080'], 'unknown option --prot'],
      [['--upstream'], '--upstream takes a value'],
      [['--upstream', '--port', '0'], '--upstream takes a value'],
      [['--upstream='], '--upstream takes a value'],
      [['--port'], '--port takes a value'],
      [['--port', '0', '--port', '1'], '--port is given twice'],
      [['session.jsonl'], 'unexpected argument "session.jsonl": the proxy takes no file'],
      [['--port', '0x50'], '--port takes a number from 0 to 65535 (got "0x50")'],
      [['--port', '1e3'], '--port takes a number from 0 to 65535 (got "1e3")'],
      [['--port=-1'], '--port takes a number from 0 to 65535 (got "-1")'],
    ]
    for (const [argv, message] of cases) {
      let out = ''
      let err = ''
      expect(await startProxyCli(argv, { out: (t) => (out += t), err: (t) => (err += t) }, { dataDir: dir }), argv.join(' ')).toEqual({ exitCode: 2 })
      expect(err.split('\n')[0], argv.join(' ')).toBe(message)
      expect(out).toBe('')
    }
    // Nothing was started, so nothing was opened in the data folder either.
    expect(readdirSync(dir)).toEqual([])
  })

  it('says in one line why the store will not open, exit 1, and leaves that file as it was', async () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'loupe.db'), 'not a database')
    let out = ''
    let err = ''
    expect(await startProxyCli(['--upstream', 'simulator'], { out: (t) => (out += t), err: (t) => (err += t) }, { dataDir: dir })).toEqual({ exitCode: 1 })
    expect(out).toBe('')
    expect(err).toBe(`The capture proxy cannot record: ${join(dir, 'loupe.db')} is not a Loupe store (not an SQLite database). Move ${join(dir, 'loupe.db')} aside (Loupe then starts with an empty store), or choose another data folder (LOUPE_HOME).\n`)
    expect(readFileSync(join(dir, 'loupe.db'), 'utf8')).toBe('not a database')
  })

  it('forwards to an upstream with a user and password in its URL, and neither prints nor records them', async () => {
    const sim = await startSimulator({ pace: 'instant' })
    const dir = tempDir()
    const err: string[] = []
    const upstream = sim.baseUrl.replace('http://', 'http://gateway-user:s3cret-pw@')
    const running = await startProxyCli([`--upstream=${upstream}`], { out: () => {}, err: (t) => err.push(t) }, { dataDir: dir })
    try {
      if ('exitCode' in running) throw new Error(`the proxy did not start: ${err.join('')}`)
      try {
        await foreignClient(running.proxy.url).messages.create({ model: 'claude-sonnet-4-6', max_tokens: 64, messages: [{ role: 'user', content: 'hello' }] })
      } finally {
        await running.stop()
      }
    } finally {
      await sim.close()
    }
    expect(err.join('')).toContain(`Capture proxy → ${sim.baseUrl}, recording into`)
    expect(err.some((l) => /^pass 1 · main · claude-sonnet-4-6 · done/.test(l))).toBe(true)
    expect(err.join('')).not.toContain('s3cret-pw')
    const store = openStore(join(dir, 'loupe.db'))
    const refs = store.db.prepare('SELECT origin_ref FROM sessions').all() as Array<{ origin_ref: string }>
    store.close()
    expect(refs).toHaveLength(1)
    expect(refs[0]!.origin_ref).toContain(sim.baseUrl)
    expect(refs[0]!.origin_ref).not.toContain('s3cret-pw')
    expect(refs[0]!.origin_ref).not.toContain('gateway-user')
  })

  it('takes --name=value and prints its usage for --help (exit 0)', async () => {
    let out = ''
    expect(await startProxyCli(['--help'], { out: (t) => (out += t), err: () => {} })).toEqual({ exitCode: 0 })
    expect(out).toMatch(/^usage:/)
    const dir = tempDir()
    const running = await startProxyCli(['--port=0', '--upstream=http://127.0.0.1:9'], { out: () => {}, err: () => {} }, { dataDir: dir })
    if ('exitCode' in running) throw new Error('the proxy did not start')
    await running.stop()
  })
})
