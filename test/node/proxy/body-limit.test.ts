/**
 * The capture proxy holds a request body in memory until it is whole, so it takes no more than the API does
 * (32 MB, the simulator's limit): a larger body is answered 413 in the API's error shape as soon as the limit is
 * passed — up front when its Content-Length says so — nothing is forwarded, and the refused exchange is recorded as
 * a failed pass.
 */
import type { Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { MAX_REQUEST_BODY_BYTES } from '../../../src-main/node/proxy/forward'
import { MAX_BODY_BYTES } from '../../../src-main/simulator/http'
import { proxyRig, rawExchange, recordingServer } from './harness'

const KEY = 'sk-ant-test-body-limit-secret'

const cleanups: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

async function rig() {
  const upstream = await recordingServer()
  const proxy = await proxyRig(upstream.baseUrl)
  cleanups.push(upstream.close, proxy.close)
  return { upstream, proxy }
}

function head(lengthHeader: string): string {
  return `POST /v1/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: big-body-agent\r\nx-api-key: ${KEY}\r\ncontent-type: application/json\r\nanthropic-version: 2023-06-01\r\n${lengthHeader}\r\n\r\n`
}

/** Writes 1 MB chunks (chunked encoding), waiting for each to drain, until the answer begins or `max` is written. */
function sendChunked(max: number): { written: () => number; send: (socket: Socket, answered: () => boolean) => void } {
  let written = 0
  const chunk = Buffer.alloc(1024 * 1024, 'a')
  return {
    written: () => written,
    send: (socket, answered) => {
      const next = (): void => {
        if (answered() || socket.destroyed) return
        if (written >= max) {
          socket.write('0\r\n\r\n')
          return
        }
        written += chunk.length
        socket.write(`${chunk.length.toString(16)}\r\n`)
        socket.write(chunk)
        if (socket.write('\r\n')) setImmediate(next)
        else socket.once('drain', next)
      }
      const start = '{"model":"claude-sonnet-4-6","messages":[],"pad":"'
      socket.write(`${start.length.toString(16)}\r\n${start}\r\n`)
      next()
    },
  }
}

describe('the capture proxy body limit', () => {
  it('is the API limit the simulator enforces', () => {
    expect(MAX_REQUEST_BODY_BYTES).toBe(MAX_BODY_BYTES)
    expect(MAX_REQUEST_BODY_BYTES).toBe(32 * 1024 * 1024)
  })

  it('answers a Content-Length over the limit with a 413 before reading the body, and records the refusal', async () => {
    const { upstream, proxy } = await rig()
    const declared = 1_500_000_000
    // Only the headers and a few bytes are sent: the answer must not wait for the rest.
    const answer = await rawExchange(proxy.proxy.port, head(`content-length: ${declared}`), (socket) => socket.write('{"model":"claude-sonnet-4-6"'))
    expect(answer.status).toBe(413)
    expect(answer.headers.connection).toBe('close')
    const body = JSON.parse(answer.body)
    expect(body).toMatchObject({ type: 'error', error: { type: 'request_too_large' } })
    expect(body.error.message).toContain(String(MAX_REQUEST_BODY_BYTES))
    answer.socket.destroy()

    const { exchange, pass } = await proxy.nextRecorded()
    expect(exchange).toMatchObject({ outcome: 'failed', status: 413, refused: { reason: 'too_large', bytes: declared, limit: MAX_REQUEST_BODY_BYTES } })
    expect(pass).toMatchObject({ source: 'proxy', kind: 'main', status: 'failed', requestBytes: 0, error: { kind: 'request_too_large' } })
    expect(proxy.recorder.requests).toBe(1)
    const detail = proxy.store.passes.get(pass!.id)!
    expect(detail.plan).toMatchObject({ captured: { path: '/v1/messages', refused: { bytes: declared, limit: MAX_REQUEST_BODY_BYTES } } })
    expect(JSON.stringify(detail)).not.toContain(KEY)
    expect(upstream.requests).toEqual([])
  }, 10_000)

  it('answers a chunked body with a 413 as soon as it passes the limit, without waiting for its end', async () => {
    const { upstream, proxy } = await rig()
    const max = 4 * MAX_REQUEST_BODY_BYTES
    const body = sendChunked(max)
    const answer = await rawExchange(proxy.proxy.port, head('transfer-encoding: chunked'), body.send)
    expect(answer.status).toBe(413)
    expect(JSON.parse(answer.body)).toMatchObject({ type: 'error', error: { type: 'request_too_large' } })
    // The client was still sending when the answer came.
    expect(body.written()).toBeLessThan(max)
    answer.socket.destroy()

    const { exchange, pass } = await proxy.nextRecorded()
    expect(exchange.refused?.bytes).toBeGreaterThan(MAX_REQUEST_BODY_BYTES)
    expect(exchange.requestBody.length).toBe(0)
    expect(pass).toMatchObject({ status: 'failed', error: { kind: 'request_too_large' } })
    expect(upstream.requests).toEqual([])
  })

  it('still forwards a body of exactly the limit whole', async () => {
    const { upstream, proxy } = await rig()
    // Exactly the limit: a JSON string padded to it.
    const body = Buffer.alloc(MAX_REQUEST_BODY_BYTES, 'b')
    body.write('{"model":"claude-sonnet-4-6","pad":"')
    body.write('"}', MAX_REQUEST_BODY_BYTES - 2)
    const answer = await rawExchange(proxy.proxy.port, head(`content-length: ${body.length}`), (socket) => socket.write(body))
    expect(answer.status).toBe(200)
    answer.socket.destroy()
    const { exchange } = await proxy.nextRecorded()
    expect(exchange.requestBody.equals(body)).toBe(true)
    expect(upstream.requests.map((r) => r.body.length)).toEqual([MAX_REQUEST_BODY_BYTES])
  }, 60_000)
})
