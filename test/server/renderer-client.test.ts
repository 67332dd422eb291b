/**
 * The renderer's WebSocket client (src-renderer/platform/client.ts) against the real browser host, with the few
 * browser globals it reads stood in for: a request too large for the host to read at all (over 64 MB) closes the
 * connection, and the client fails the requests waiting for an answer with an error that says so, fails at once what
 * is asked before it is connected again, then reconnects; one over 16 MB only fails itself.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import WebSocket from 'ws'
import type { BrowserHost } from '../../src-main/server/host'
import { startTestHost, type TestHost } from '../support/browser-host'
import { MAX_FRAME_BYTES, MAX_READ_FRAME_BYTES } from '../../src-main/server/websocket'
import type { LoupeClient } from '../../src-renderer/platform/client'

let testHost: TestHost
let host: BrowserHost
let client: LoupeClient

beforeAll(async () => {
  testHost = await startTestHost('loupe-ws-client-')
  host = testHost.host
  const origin = `http://127.0.0.1:${host.port}`
  const session = new Map<string, string>()
  vi.stubGlobal('window', { addEventListener: () => {} })
  vi.stubGlobal('location', { protocol: 'http:', host: `127.0.0.1:${host.port}`, hash: `#token=${host.token}`, pathname: '/', search: '' })
  vi.stubGlobal('sessionStorage', { getItem: (k: string) => session.get(k) ?? null, setItem: (k: string, v: string) => void session.set(k, v) })
  vi.stubGlobal('history', { replaceState: () => {} })
  // A browser sends the page's origin itself; ws needs to be told.
  vi.stubGlobal(
    'WebSocket',
    class extends WebSocket {
      constructor(url: string) {
        super(url, { origin })
        this.on('error', () => {})
      }
    },
  )
  client = (await import('../../src-renderer/platform/client')).client
})
afterAll(async () => {
  // No more reconnecting once the host is gone.
  vi.stubGlobal('WebSocket', class {})
  await testHost.close()
  vi.unstubAllGlobals()
})

describe('the renderer client over the browser host', () => {
  it('gets its own invalid_input for a request over 16 MB', async () => {
    expect((await client.request('app.info', {} as never)).ok).toBe(true)
    const result = await client.request('app.info', { pad: 'x'.repeat(MAX_FRAME_BYTES) } as never)
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringContaining('at most') } })
    expect((await client.request('app.info', {} as never)).ok).toBe(true)
  }, 20_000)

  it('fails a request too large to read with an error that says so, and reconnects', async () => {
    const statuses: string[] = []
    const reopened = new Promise<void>((resolve) =>
      client.onConnection((status) => {
        statuses.push(status)
        if (status === 'open') resolve()
      }),
    )
    const result = await client.request('app.info', { pad: 'x'.repeat(MAX_READ_FRAME_BYTES) } as never)
    expect(result).toMatchObject({ ok: false, error: { code: 'io_error', message: expect.stringContaining('too large') } })
    // Until the connection is made again, a request fails at once rather than waiting for it.
    expect(await client.request('app.info', {} as never)).toMatchObject({ ok: false, error: { code: 'io_error', message: expect.stringContaining('Not connected to Loupe') } })
    await reopened
    expect(statuses).toEqual(['lost', 'open'])
    expect((await client.request('app.info', {} as never)).ok).toBe(true)
  }, 20_000)
})
