/**
 * The browser host's framing, over a real WebSocket (docs/security.md): a frame over 16 MB, a binary frame, or text
 * that is not JSON is answered `invalid_input` under the id the frame carries, so the client can match the answer,
 * and the connection goes on; only a frame over 64 MB, which is not read, closes the connection (1009).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import type { ServerFrame } from '../../src-preload/contract'
import type { BrowserHost } from '../../src-main/server/host'
import { startTestHost, type TestHost } from '../support/browser-host'
import { leadingId, MAX_FRAME_BYTES, MAX_READ_FRAME_BYTES, readFrame } from '../../src-main/server/websocket'

let testHost: TestHost
let host: BrowserHost

beforeAll(async () => {
  testHost = await startTestHost('loupe-ws-frames-')
  host = testHost.host
})
afterAll(async () => {
  await testHost.close()
})

type Response = Extract<ServerFrame, { kind: 'response' }>

/** A connection that collects responses by id, and says when it closed and with which code. */
async function connection() {
  const ws = new WebSocket(`ws://127.0.0.1:${host.port}/rpc?token=${host.token}`, { origin: `http://127.0.0.1:${host.port}` })
  ws.on('error', () => {})
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve())
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)))
  })
  const responses = new Map<number, Response>()
  let waiting: (() => void) | null = null
  let closeCode: number | null = null
  ws.on('message', (data) => {
    const frame = JSON.parse(data.toString()) as ServerFrame
    if (frame.kind !== 'response') return
    responses.set(frame.id, frame)
    waiting?.()
  })
  ws.on('close', (code) => {
    closeCode = code
    waiting?.()
  })
  return {
    ws,
    /** Resolves when every id has its answer, or the connection closed: whichever comes first. */
    async answers(ids: number[]): Promise<{ responses: Map<number, Response>; closeCode: number | null }> {
      while (!ids.every((id) => responses.has(id)) && closeCode === null) await new Promise<void>((resolve) => (waiting = resolve))
      return { responses, closeCode }
    },
  }
}

const request = (id: number, input: unknown = {}) => JSON.stringify({ kind: 'request', id, name: 'app.info', input })

describe('browser host WebSocket frames', () => {
  it('answers a frame over 16 MB with invalid_input under its id, and answers the requests around it', async () => {
    const c = await connection()
    c.ws.send(request(1))
    const big = request(2, { pad: 'x'.repeat(MAX_FRAME_BYTES) })
    expect(Buffer.byteLength(big)).toBeGreaterThan(MAX_FRAME_BYTES)
    c.ws.send(big)
    c.ws.send(request(3))
    const { responses, closeCode } = await c.answers([1, 2, 3])
    expect(closeCode).toBeNull()
    expect(responses.get(1)!.result.ok).toBe(true)
    expect(responses.get(3)!.result.ok).toBe(true)
    const refused = responses.get(2)!.result
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    expect(!refused.ok && refused.error.message).toContain('at most 16777216 bytes')
    c.ws.close()
  }, 20_000)

  it('answers a binary frame, and text that is not JSON, under the id it carries', async () => {
    const c = await connection()
    c.ws.send(Buffer.from(request(5)), { binary: true })
    c.ws.send(request(6).slice(0, 40))
    c.ws.send(Buffer.from([0xff, 0xfe, 0x00]), { binary: true })
    c.ws.send(request(7))
    const { responses, closeCode } = await c.answers([5, 6, 7])
    expect(closeCode).toBeNull()
    expect(responses.get(5)!.result).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringContaining('binary') } })
    expect(responses.get(6)!.result).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringContaining('not JSON') } })
    expect(responses.get(7)!.result.ok).toBe(true)
    // Bytes that are not UTF-8 carry no id to read: that answer goes to id -1.
    await c.answers([-1])
    expect(responses.get(-1)!.result).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    c.ws.close()
  }, 10_000)

  it('closes the connection with 1009 on a frame over 64 MB, which it does not read', async () => {
    const c = await connection()
    c.ws.send('x'.repeat(MAX_READ_FRAME_BYTES + 1))
    const { closeCode } = await c.answers([1])
    expect(closeCode).toBe(1009)
  }, 20_000)
})

describe('readFrame', () => {
  it('reads the id at the start of a frame it does not parse', () => {
    expect(leadingId('{"kind":"request","id":42,"name":"app.info","input":{"pad":"')).toBe(42)
    expect(leadingId(' { "id" : 7 , "kind":"request"')).toBe(7)
    expect(leadingId('{"kind":"request","name":"x","id":3}')).toBe(-1)
    expect(leadingId('{"kind":"request","id":-3,')).toBe(-1)
    expect(leadingId('{"kind":"request","id":99999999999999999,')).toBe(-1)
    expect(leadingId('not json')).toBe(-1)
  })

  it('refuses an oversized frame without parsing it, and a binary one with its id', () => {
    const big = Buffer.alloc(MAX_FRAME_BYTES + 1, ' ')
    big.write('{"kind":"request","id":9,"name":"app.info","input":"')
    expect(readFrame(big, false)).toMatchObject({ ok: false, id: 9 })
    expect(readFrame(Buffer.from(request(4)), true)).toMatchObject({ ok: false, id: 4 })
    expect(readFrame(Buffer.from(request(4)), false)).toEqual({ ok: true, id: 4, name: 'app.info', input: {} })
  })
})
