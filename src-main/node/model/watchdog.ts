/**
 * An idle watchdog on response bodies: a `fetch` wrapper that fails a body from which nothing has arrived for a set
 * time. The SDK's `timeout` covers only the wait for response headers; after the 200, nothing else ends a stream
 * that goes silent but stays open (after the computer sleeps, or the network changes under it) until Node's fetch
 * gives up on its own body timeout, 300 s. The failure is a connection failure (StreamStalledError): the client
 * retries it as it retries a stream that broke after its 200 (client.ts), and says why.
 */
import type { Fetch } from './capture'

/**
 * How long a response body may stay silent before its attempt is abandoned. The service sends `ping` events while
 * it works on a stream, so a live stream does not stay silent for long; a minute and a half is far past the gaps of
 * a healthy one, and well short of the 300 s a stalled stream took before. It errs long on purpose: abandoning a
 * stream that was only slow costs a retry, and the abandoned attempt is billed for what it had streamed.
 */
export const STREAM_IDLE_TIMEOUT_MS = 90_000

/** A response body from which nothing arrived for `idleMs`. Classified as a connection failure, never as a stop. */
export class StreamStalledError extends Error {
  constructor(readonly idleMs: number) {
    super(
      `Nothing arrived for ${formatSeconds(idleMs)} after the service had begun to answer, so the stream was given up: the connection had stalled (a network change or the computer sleeping can leave one open but silent)`,
    )
    this.name = 'StreamStalledError'
  }
}

function formatSeconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`
}

/** The StreamStalledError behind an error, as the SDK rethrows it (wrapped, with the original as its `cause`). */
export function stalledCause(err: unknown): StreamStalledError | null {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof StreamStalledError) return e
  }
  return null
}

/**
 * Wraps `base` so that every response body fails with a StreamStalledError once a read has waited `idleMs` with
 * nothing arriving; the connection underneath is cancelled. Any bytes reset the wait, the service's pings among them.
 */
export function idleWatchdogFetch(base: Fetch, idleMs: number = STREAM_IDLE_TIMEOUT_MS): Fetch {
  return async (input, init) => {
    const response = await base(input, init)
    // A status that carries no body (204, 205, 304) cannot be given one again.
    if (!response.body || response.status === 204 || response.status === 205 || response.status === 304) return response
    const reader = response.body.getReader()
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        let timer: ReturnType<typeof setTimeout> | undefined
        const stalled = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new StreamStalledError(idleMs)), idleMs)
        })
        try {
          const next = await Promise.race([reader.read(), stalled])
          if (next.done) controller.close()
          else controller.enqueue(next.value)
        } catch (err) {
          // Given up: the silent connection is closed, not left for the body timeout underneath.
          if (err instanceof StreamStalledError) reader.cancel(err).catch(() => undefined)
          controller.error(err)
        } finally {
          clearTimeout(timer)
        }
      },
      cancel(reason) {
        return reader.cancel(reason)
      },
    })
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers })
  }
}
