/**
 * The capture proxy with the real SDK as a foreign client, against the simulator: responses byte-identical to
 * direct ones, recorded request bytes hashing to what the simulator received, a client abort passed upstream, keys
 * never stored, and a captured session per client with the full inspector's data (segments, attribution).
 */
import { ATTRIBUTION_VERSION } from '../../../src-main/engine/cache'
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { attributePass } from '../../../src-main/node/cache'
import { wireRequestOf } from '../../../src-main/engine/model/wire-body'
import { openStore } from '../../../src-main/node/store'
import { sessionOrigin } from '../../../src-main/node/transcripts/origins'
import { API_KEY, foreignClient, proxyRig, SYSTEM, tappedSimulator, TOOLS, type ProxyRig, type TappedSimulator } from './harness'

const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest('hex')

/** Headers that describe the connection or the moment, not the response. */
const VOLATILE = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding'])
function stableHeaders(h: Headers): Record<string, string> {
  const out: Record<string, string> = {}
  h.forEach((value, name) => {
    if (!VOLATILE.has(name)) out[name] = value
  })
  return out
}

const cleanups: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

async function rig(pace: 'instant' | 'realistic' = 'instant'): Promise<{ direct: TappedSimulator; behind: TappedSimulator; proxy: ProxyRig }> {
  // Two simulators with one seed answer the same requests with the same bytes (ids included).
  const direct = await tappedSimulator(pace)
  const behind = await tappedSimulator(pace)
  const proxy = await proxyRig(behind.baseUrl)
  cleanups.push(direct.close, behind.close, proxy.close)
  return { direct, behind, proxy }
}

const conversation = [
  { role: 'user' as const, content: 'read README.md' },
]

describe('the capture proxy, with the SDK as a foreign client', () => {
  it('streams responses byte-identical to direct ones, and records the exact bytes the simulator received', async () => {
    const { direct, proxy } = await rig()
    const directWire: Array<{ sent: string; received: Promise<string>; headers: Headers }> = []
    const proxiedWire: typeof directWire = []
    const viaDirect = foreignClient(direct.baseUrl, directWire)
    const viaProxy = foreignClient(proxy.proxy.url, proxiedWire)
    const request = { model: 'claude-sonnet-4-6', max_tokens: 1024, system: [{ type: 'text' as const, text: SYSTEM, cache_control: { type: 'ephemeral' as const } }], tools: TOOLS, messages: conversation }

    for (let i = 0; i < 2; i++) {
      const a = await viaDirect.messages.stream(request).finalMessage()
      const b = await viaProxy.messages.stream(request).finalMessage()
      expect(b).toEqual(a)
      const { pass, exchange } = await proxy.nextRecorded()
      const d = directWire[i]!
      const p = proxiedWire[i]!
      expect(await p.received).toBe(await d.received)
      expect(stableHeaders(p.headers)).toEqual(stableHeaders(d.headers))
      // What the store holds is what the simulator hashed on arrival, and what the SDK sent.
      const echoed = p.headers.get('x-sim-request-sha256')
      expect(pass!.requestSha256).toBe(echoed)
      expect(pass!.requestSha256).toBe(sha256(p.sent))
      expect(proxy.store.passes.requestBody(pass!.id)).toBe(p.sent)
      expect(exchange.outcome).toBe('done')
      expect(pass).toMatchObject({ source: 'proxy', status: 'done', kind: 'main', model: 'claude-sonnet-4-6', messageId: a.id, stopReason: a.stop_reason })
      expect(pass!.usage).toMatchObject({ input_tokens: a.usage.input_tokens, cache_read_input_tokens: a.usage.cache_read_input_tokens, output_tokens: a.usage.output_tokens })
      expect(pass!.costUsd).toBeGreaterThan(0)
      expect(pass!.firstByteAt).not.toBeNull()
    }

    // The second pass read the cached prefix the first wrote, and is attributed by the cache engine.
    const passes = proxy.store.passes.list(proxy.recorder.capturedSessions()[0]!.sessionId)
    expect(passes).toHaveLength(2)
    expect(passes[1]!.usage!.cache_read_input_tokens).toBeGreaterThan(0)
    expect((passes[1]!.attribution as { version?: number }).version).toBe(ATTRIBUTION_VERSION)
  })

  it('attributes each captured pass as the cache engine does from the stored pass, without reading it back', async () => {
    const { proxy } = await rig()
    const client = foreignClient(proxy.proxy.url)
    const system = (day: string) => [{ type: 'text' as const, text: SYSTEM }, { type: 'text' as const, text: `Today is ${day}.`, cache_control: { type: 'ephemeral' as const } }]
    const messages: Array<{ role: 'user' | 'assistant'; content: string }> = [{ role: 'user', content: 'read README.md' }]
    // A growing conversation, then a changed system block, then the string form of system.
    for (const day of ['Monday', 'Monday', 'Monday', 'Tuesday']) {
      await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 256, system: system(day), tools: TOOLS, messages })
      messages.push({ role: 'assistant', content: `Noted on ${day}.` }, { role: 'user', content: 'and the next file' })
    }
    await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 256, system: SYSTEM, tools: TOOLS, messages })
    const recorded = []
    for (let i = 0; i < 5; i++) recorded.push((await proxy.nextRecorded()).pass!)
    // A second handle on the same file knows nothing in memory: it attributes each pass from what the store keeps
    // (its segments, plan and response), given the request as the recorder reads it.
    const fresh = openStore(join(proxy.dir, 'loupe.db'))
    try {
      for (const pass of recorded) {
        expect(pass.attribution).not.toBeNull()
        const request = wireRequestOf(JSON.parse(fresh.passes.requestBody(pass.id)))!
        expect(attributePass(fresh, pass.id, { request, onError: (err) => { throw err } })).toEqual(pass.attribution)
      }
    } finally {
      fresh.close()
    }
    // After a restart nothing is given: each pass, the string-form one included, is read back from its stored body.
    const restarted = openStore(join(proxy.dir, 'loupe.db'))
    try {
      for (const pass of recorded) expect(attributePass(restarted, pass.id, { onError: (err) => { throw err } })).toEqual(pass.attribution)
    } finally {
      restarted.close()
    }
  })

  it('splits a captured request at its blocks, labelled by position and kind', async () => {
    const { proxy } = await rig()
    const client = foreignClient(proxy.proxy.url)
    await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 256, system: [{ type: 'text', text: SYSTEM }, { type: 'text', text: 'Today is Monday.' }], tools: TOOLS, messages: conversation })
    const { pass } = await proxy.nextRecorded()
    const detail = proxy.store.passes.get(pass!.id)!
    expect(detail.segments.map((s) => [s.path, s.provenance])).toEqual([
      ['tools[0]', { kind: 'tool', name: 'read_file', foreign: true }],
      ['system[0]', { kind: 'system', block: 'block 0', foreign: true }],
      ['system[1]', { kind: 'system', block: 'block 1', foreign: true }],
      ['messages[0]', { kind: 'history', historyKind: 'user_input', position: 0, foreign: true }],
    ])
    expect(JSON.parse(detail.responseRaw!)).toMatchObject({ type: 'message', role: 'assistant' })
  })

  it('passes a client abort mid-stream on to the upstream, and records the pass as cancelled', async () => {
    const { behind, proxy } = await rig('realistic')
    const client = foreignClient(proxy.proxy.url)
    const stream = client.messages.stream({ model: 'claude-sonnet-4-6', max_tokens: 1024, tools: TOOLS, messages: [{ role: 'user', content: 'explain this project' }] })
    let deltas = 0
    try {
      for await (const event of stream) {
        if (event.type === 'content_block_delta' && ++deltas === 1) stream.abort()
      }
    } catch {
      // The SDK reports the abort as an error: expected.
    }
    expect(deltas).toBeGreaterThan(0)
    const seen = await behind.next()
    expect(seen).toEqual({ path: '/v1/messages', closedEarly: true })
    const { pass } = await proxy.nextRecorded()
    expect(pass).toMatchObject({ status: 'cancelled', source: 'proxy' })
    expect(pass!.error?.kind).toBe('aborted')
  })

  it('never stores the API key', async () => {
    const { proxy } = await rig()
    const client = foreignClient(proxy.proxy.url)
    await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 64, messages: conversation })
    await client.messages.countTokens({ model: 'claude-sonnet-4-6', messages: conversation })
    await proxy.nextRecorded()
    const count = await proxy.nextRecorded()
    expect(count.pass).toMatchObject({ kind: 'count', source: 'proxy', status: 'done' })
    proxy.store.db.pragma('wal_checkpoint(TRUNCATE)')
    for (const name of readdirSync(proxy.dir)) {
      if (!name.startsWith('loupe.db')) continue
      expect(readFileSync(join(proxy.dir, name)).includes(Buffer.from(API_KEY)), name).toBe(false)
    }
    const detail = proxy.store.passes.get(count.pass!.id)!
    expect(JSON.stringify(detail)).not.toContain(API_KEY)
  })

  it('keeps one captured session per client, named by its x-loupe-client header or user agent', async () => {
    const { proxy } = await rig()
    const a = foreignClient(proxy.proxy.url)
    await a.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 64, messages: conversation }, { headers: { 'x-loupe-client': 'agent-one' } })
    await a.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 64, messages: conversation }, { headers: { 'x-loupe-client': 'agent-two' } })
    await a.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 64, messages: conversation }, { headers: { 'x-loupe-client': 'agent-one' } })
    for (let i = 0; i < 3; i++) await proxy.nextRecorded()
    const sessions = proxy.recorder.capturedSessions()
    expect(sessions.map((s) => [s.client, s.passes])).toEqual([['agent-one', 2], ['agent-two', 1]])
    const origin = sessionOrigin(proxy.store, sessions[0]!.sessionId)!
    expect(origin.origin).toBe('captured')
    expect(origin.ref).toMatchObject({ kind: 'proxy', client: 'agent-one' })
    expect(proxy.store.projects.get(origin.projectId)!.name).toBe('Captured requests')
  })

  it('forwards what is not a Messages pass without recording it, and refuses requests a web page could make', async () => {
    const { proxy } = await rig()
    const models = await fetch(`${proxy.proxy.url}/v1/models`, { headers: { 'x-api-key': API_KEY, 'anthropic-version': '2023-06-01' } })
    expect(models.status).toBe(200)
    expect((await proxy.nextRecorded()).pass).toBeNull()
    const fromPage = await fetch(`${proxy.proxy.url}/v1/messages`, { method: 'POST', headers: { origin: 'https://evil.example', 'content-type': 'application/json' }, body: '{}' })
    expect(fromPage.status).toBe(403)
  })

  it('answers an unreachable upstream with an API-shaped 502 and records the failure', async () => {
    const proxy = await proxyRig('http://127.0.0.1:1')
    cleanups.push(proxy.close)
    const client = foreignClient(proxy.proxy.url)
    await expect(client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 64, messages: conversation })).rejects.toMatchObject({ status: 502 })
    const { pass } = await proxy.nextRecorded()
    expect(pass).toMatchObject({ status: 'failed', source: 'proxy' })
    expect(pass!.error?.kind).toBe('connection')
  })
})
