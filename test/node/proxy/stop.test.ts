/**
 * Stopping the capture proxy (`proxy.stop`, Ctrl-C, the app's shutdown) waits for what was forwarded, and for
 * nothing else: a client still sending its body is dropped at once, an exchange already upstream may finish and is
 * recorded, and one that runs past the wait is cut and recorded as cancelled.
 */
import { connect, type Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { proxyRig, rawExchange, recordingServer } from './harness'

const cleanups: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

const REQUEST = '{"model":"claude-sonnet-4-6","max_tokens":16,"messages":[{"role":"user","content":"hi"}]}'

function head(length: number, extra = ''): string {
  return `POST /v1/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: stop-test\r\nx-api-key: sk-ant-stop-test\r\ncontent-type: application/json\r\ncontent-length: ${length}\r\n${extra}\r\n`
}

/**
 * A client that sends its headers and part of its body, then nothing more. `Expect: 100-continue` makes the proxy
 * say when it has the request in hand (Node answers "100 Continue" as it hands the request over).
 */
function stalledClient(port: number): Promise<{ socket: Socket; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    const closed = new Promise<void>((done) => socket.once('close', () => done()))
    socket.on('error', () => {})
    socket.once('data', (chunk: Buffer) => {
      if (!chunk.toString('latin1').startsWith('HTTP/1.1 100')) return reject(new Error(`unexpected answer: ${chunk.toString('latin1')}`))
      socket.write('{"model":"cl')
      resolve({ socket, closed })
    })
    socket.write(head(100, 'Expect: 100-continue\r\n'))
  })
}

describe('stopping the capture proxy', () => {
  it('drops a client still sending its body, and lets an exchange already forwarded finish and be recorded', async () => {
    const upstream = await recordingServer({ hold: true })
    const proxy = await proxyRig(upstream.baseUrl)
    cleanups.push(upstream.close, proxy.close)

    // One exchange is upstream, its answer held there.
    const forwarded = rawExchange(proxy.proxy.port, head(REQUEST.length), (socket) => socket.write(REQUEST))
    const held = await upstream.next()
    // Another client never finishes its body.
    const stalled = await stalledClient(proxy.proxy.port)

    const stopping = proxy.proxy.close()
    await stalled.closed
    expect(upstream.requests).toHaveLength(1)

    const message = '{"type":"message","id":"msg_1"}'
    held.res.writeHead(200, { 'content-type': 'application/json', 'content-length': message.length })
    held.res.end(message)
    const answer = await forwarded
    expect(answer.status).toBe(200)
    expect(JSON.parse(answer.body)).toMatchObject({ id: 'msg_1' })
    await stopping
    const { exchange, pass } = await proxy.nextRecorded()
    expect(exchange.outcome).toBe('done')
    expect(pass).toMatchObject({ status: 'done', source: 'proxy' })
    expect(proxy.recorder.requests).toBe(1)
  }, 10_000)

  it('cuts an exchange still running after the wait, and records it as cancelled', async () => {
    const upstream = await recordingServer({ hold: true })
    const proxy = await proxyRig(upstream.baseUrl, { stopWaitMs: 50 })
    cleanups.push(upstream.close, proxy.close)
    const forwarded = rawExchange(proxy.proxy.port, head(REQUEST.length), (socket) => socket.write(REQUEST))
    forwarded.catch(() => {})
    const held = await upstream.next()
    const upstreamClosed = new Promise<void>((resolve) => held.res.once('close', () => resolve()))

    await proxy.proxy.close()
    await expect(forwarded).rejects.toThrow()
    // The upstream saw the abort, as for a client that goes away.
    await upstreamClosed
    const { exchange, pass } = await proxy.nextRecorded()
    expect(exchange.outcome).toBe('cancelled')
    expect(pass).toMatchObject({ status: 'cancelled', source: 'proxy' })
  }, 10_000)
})
