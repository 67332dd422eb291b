/**
 * The capture proxy forwards a request to its upstream and nowhere else: only origin-form request targets (one "/",
 * then a path on the upstream) are forwarded. A target that could name another host — `//host/…`, `http://host/…`,
 * a backslash that URL parsers read as "/" — is answered 400 in the API's error shape, and the client's key goes
 * nowhere.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { targetUrl } from '../../../src-main/node/proxy/forward'
import { proxyRig, rawRequest, recordingServer } from './harness'

const KEY = 'sk-ant-secret'

const cleanups: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

describe('the request targets the capture proxy forwards', () => {
  it('refuses a target naming another host with an API-shaped 400, forwarding nothing, and still forwards paths', async () => {
    const upstream = await recordingServer()
    // Where the key must never go: a server of its own, on another port of the same machine.
    const elsewhere = await recordingServer()
    const proxy = await proxyRig(upstream.baseUrl)
    cleanups.push(upstream.close, elsewhere.close, proxy.close)
    const other = `127.0.0.1:${elsewhere.port}`
    for (const target of [`//${other}/v1/messages`, `///${other}/v1/messages`, `http://${other}/v1/messages`, `/\\${other}/v1/messages`, `/v1/\\..\\..\\${other}/v1/messages`, '*']) {
      const answer = await rawRequest(proxy.proxy.port, target, { 'x-api-key': KEY, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' }, '{"model":"m"}')
      expect(answer.status, target).toBe(400)
      expect(JSON.parse(answer.body), target).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } })
      expect(JSON.parse(answer.body).error.message, target).toContain('Nothing was forwarded')
    }
    expect(elsewhere.requests).toEqual([])
    expect(upstream.requests).toEqual([])

    const ok = await rawRequest(proxy.proxy.port, '/v1/models?limit=1', { 'x-api-key': KEY })
    expect(ok.status).toBe(200)
    expect(upstream.requests.map((r) => [r.url, r.headers['x-api-key']])).toEqual([['/v1/models?limit=1', KEY]])
    expect(elsewhere.requests).toEqual([])
  })

  it('resolves a target under the upstream only: same origin, inside its path prefix', () => {
    const base = new URL('http://127.0.0.1:9/base')
    expect(targetUrl(base, '/v1/messages?beta=true')?.href).toBe('http://127.0.0.1:9/base/v1/messages?beta=true')
    expect(targetUrl(new URL('https://api.anthropic.com'), '/v1/messages')?.href).toBe('https://api.anthropic.com/v1/messages')
    for (const bad of ['//evil.example/v1/messages', 'https://evil.example/v1/messages', '/\\evil.example/x', 'v1/messages', '/../v1/messages', '/%2e%2e/v1/messages', '']) {
      expect(targetUrl(base, bad), bad).toBeNull()
    }
  })
})
