/**
 * The idle watchdog on response bodies, over a fake fetch: a body that keeps sending (however slowly, as long as each
 * gap is shorter than the limit) is read whole; one that sends its headers and an event and then nothing is failed
 * with a StreamStalledError once the limit passes, and the connection underneath is cancelled.
 */
import { describe, expect, it } from 'vitest'
import { idleWatchdogFetch, stalledCause, StreamStalledError, STREAM_IDLE_TIMEOUT_MS } from '../../../src-main/node/model/watchdog'

const encoder = new TextEncoder()
const EVENT = 'event: ping\ndata: {"type":"ping"}\n\n'
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A fake fetch answering 200 with a body sending `chunks` events `gapMs` apart, then ending, or staying silent with `stall`. */
function fakeFetch(chunks: number, gapMs: number, stall: boolean) {
  const seen = { cancelled: null as unknown }
  const fetch = async () => {
    let sent = 0
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent === chunks) {
          if (stall) return new Promise<void>(() => undefined)
          controller.close()
          return
        }
        if (sent > 0) await sleep(gapMs)
        sent++
        controller.enqueue(encoder.encode(EVENT))
      },
      cancel(reason) {
        seen.cancelled = reason
      },
    })
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream', 'request-id': 'req_1' } })
  }
  return { fetch, seen }
}

describe('idleWatchdogFetch', () => {
  it('reads a slow stream whole while no gap reaches the limit, keeping status and headers', async () => {
    const { fetch } = fakeFetch(8, 10, false)
    const response = await idleWatchdogFetch(fetch, 60)('http://sim/v1/messages')
    expect(response.status).toBe(200)
    expect(response.headers.get('request-id')).toBe('req_1')
    expect(await response.text()).toBe(EVENT.repeat(8))
  })

  it('fails a body that goes silent after its headers and an event, and cancels the connection underneath', async () => {
    const { fetch, seen } = fakeFetch(1, 0, true)
    const response = await idleWatchdogFetch(fetch, 30)('http://sim/v1/messages')
    const reader = response.body!.getReader()
    expect(new TextDecoder().decode((await reader.read()).value)).toBe(EVENT)
    const started = Date.now()
    const failure = await reader.read().then(
      () => null,
      (err: unknown) => err,
    )
    expect(Date.now() - started).toBeGreaterThanOrEqual(25)
    expect(failure).toBeInstanceOf(StreamStalledError)
    expect((failure as Error).message).toBe(
      'Nothing arrived for 30 ms after the service had begun to answer, so the stream was given up: the connection had stalled (a network change or the computer sleeping can leave one open but silent)',
    )
    // Not a stop: neither the SDK nor the capture may take it for an abort.
    expect((failure as Error).name).not.toBe('AbortError')
    expect((failure as Error).message).not.toMatch(/aborted/i)
    expect(seen.cancelled).toBe(failure)
  })

  it('is found behind the errors the SDK wraps it in', () => {
    const stalled = new StreamStalledError(STREAM_IDLE_TIMEOUT_MS)
    expect(stalled.message).toMatch(/^Nothing arrived for 90 s /)
    const wrapped = Object.assign(new Error(stalled.message), { cause: Object.assign(new Error('Connection error.'), { cause: stalled }) })
    expect(stalledCause(wrapped)).toBe(stalled)
    expect(stalledCause(new Error('terminated'))).toBeNull()
    expect(stalledCause('not an error')).toBeNull()
  })
})
