/**
 * The browser host over a real WebSocket: the token and origin checks, and a few hundred malformed payloads sent
 * to every request of the contract. Each gets a typed error, and the host keeps answering afterwards.
 */
import fc from 'fast-check'
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { errorCodes, requestNames, type ServerFrame } from '../../src-preload/contract'
import type { BrowserHost } from '../../src-main/server/host'
import { startTestHost, type TestHost } from '../support/browser-host'

let testHost: TestHost
let host: BrowserHost

beforeAll(async () => {
  testHost = await startTestHost('loupe-ws-')
  host = testHost.host
})
afterAll(async () => {
  await testHost.close()
})

function connect(token = host.token, origin = `http://127.0.0.1:${host.port}`): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/rpc?token=${token}`, { origin })
    ws.once('open', () => resolve(ws))
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)))
    ws.once('error', reject)
  })
}

/** Sends raw text frames and collects the responses by id. */
function rpc(ws: WebSocket) {
  const waiting = new Map<number, (frame: ServerFrame) => void>()
  const orphans: ServerFrame[] = []
  ws.on('message', (data) => {
    const frame = JSON.parse(data.toString()) as ServerFrame
    if (frame.kind !== 'response') return
    const resolve = waiting.get(frame.id)
    if (resolve) {
      waiting.delete(frame.id)
      resolve(frame)
    } else orphans.push(frame)
  })
  let id = 1
  return {
    orphans,
    call(name: unknown, input: unknown): Promise<Extract<ServerFrame, { kind: 'response' }>> {
      const frameId = id++
      return new Promise((resolve) => {
        waiting.set(frameId, resolve as (f: ServerFrame) => void)
        ws.send(JSON.stringify({ kind: 'request', id: frameId, name, input }))
      })
    },
  }
}

describe('browser host WebSocket', () => {
  it('refuses a missing or wrong token, and a foreign origin', async () => {
    await expect(connect('')).rejects.toThrow('HTTP 401')
    await expect(connect('not-the-token')).rejects.toThrow('HTTP 401')
    await expect(connect(host.token, 'http://evil.example')).rejects.toThrow('HTTP 403')
    const ws = await connect()
    ws.close()
  })

  it('answers a few hundred malformed payloads to every request with typed errors, and keeps working', async () => {
    const ws = await connect()
    const client = rpc(ws)
    const codes = new Set<string>(errorCodes)
    // Inputs that are never valid for any request: wrong types, extra fields, huge strings.
    const malformed = fc.oneof(
      fc.anything().filter((v) => typeof v !== 'object' || v === null || Array.isArray(v)),
      fc.dictionary(fc.string({ minLength: 1 }).filter((k) => !['path', 'projectId', 'title'].includes(k)), fc.anything(), { minKeys: 1 }),
      fc.record({ path: fc.oneof(fc.integer(), fc.constant(''), fc.constant('x'.repeat(5000)), fc.array(fc.string())) }),
      fc.record({ projectId: fc.oneof(fc.integer(), fc.constant('../../etc/passwd'), fc.constant('a'.repeat(100)), fc.constant(null)) }),
      fc.record({ projectId: fc.constant('prj_x'), title: fc.oneof(fc.integer(), fc.constant('t'.repeat(1000))) }),
    )
    let sent = 0
    for (const name of requestNames) {
      await fc.assert(
        fc.asyncProperty(malformed, async (input) => {
          sent++
          const { result } = await client.call(name, input)
          // What the server saw is the JSON form (undefined fields vanish in it).
          const sentInput: unknown = input === undefined ? undefined : JSON.parse(JSON.stringify(input) ?? 'null')
          if (result.ok) {
            // Requests without fields may accept an empty input; anything else must be refused.
            const empty = sentInput === undefined || (typeof sentInput === 'object' && sentInput !== null && !Array.isArray(sentInput) && Object.keys(sentInput).length === 0)
            expect(empty).toBe(true)
            return
          }
          expect(codes.has(result.error.code)).toBe(true)
          expect(['invalid_input', 'not_found', 'unsupported']).toContain(result.error.code)
        }),
        { numRuns: 60 },
      )
    }
    // Unknown and hostile request names.
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.constant('__proto__'), fc.constant('constructor')), async (name) => {
        fc.pre(typeof name !== 'string' || !(requestNames as string[]).includes(name))
        sent++
        const { result } = await client.call(name, {})
        expect(result).toMatchObject({ ok: false, error: { code: 'unknown_request' } })
      }),
      { numRuns: 100 },
    )
    expect(sent).toBeGreaterThan(300)
    // Frames that are not requests at all.
    ws.send('not json')
    ws.send(JSON.stringify({ kind: 'request', id: 'x', name: 'app.info' }))
    ws.send(Buffer.from([0xff, 0xfe, 0x00]), { binary: true })
    // And the host still answers.
    const info = await client.call('app.info', {})
    expect(info.result).toMatchObject({ ok: true, value: { name: 'Loupe' } })
    expect(client.orphans.every((f) => f.kind === 'response' && !f.result.ok)).toBe(true)
    ws.close()
  })

  it('serves only files inside the renderer folder', async () => {
    const base = `http://127.0.0.1:${host.port}`
    expect((await fetch(`${base}/`)).status).toBe(200)
    expect((await fetch(`${base}/..%2f..%2fetc%2fpasswd`)).status).toBeGreaterThanOrEqual(400)
    expect((await fetch(`${base}/%2e%2e/home/loupe.db`)).status).toBeGreaterThanOrEqual(400)
    // A page on another name that resolves to 127.0.0.1 (DNS rebinding) is refused by the Host check.
    const rebound = await new Promise<number>((resolve, reject) =>
      request({ host: '127.0.0.1', port: host.port, path: '/', headers: { Host: 'evil.example' } }, (res) => resolve(res.statusCode ?? 0))
        .on('error', reject)
        .end(),
    )
    expect(rebound).toBe(421)
    expect((await fetch(`${base}/`)).headers.get('content-security-policy')).toContain("script-src 'self'")
  })
})
