/**
 * The capture proxy: a loopback HTTP server that speaks the Messages API by forwarding it. Point any agent at it
 * with `ANTHROPIC_BASE_URL=http://127.0.0.1:<port>`; each request goes to the upstream (the real API or the
 * simulator), its response streams back unchanged, and the exchange is recorded (docs/proxy.md).
 *
 * It listens on 127.0.0.1 only, and refuses requests a web page could make (an `Origin` header, or a `Host` that is
 * not the loopback address, as DNS rebinding would send): agents do not send those.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Clock, Logger } from '../../engine/ports'
import { answerError, forward, type Exchange } from './forward'

export interface ProxyOptions {
  readonly upstream: string
  /** 0 (the default) picks a free port. */
  readonly port?: number
  readonly clock?: Clock
  readonly log?: Logger
  /** Called after each exchange, off the streaming path (after the client has its last byte). */
  readonly onExchange: (exchange: Exchange) => void
  /** How long `close` waits for exchanges already forwarded before it cuts them (default STOP_WAIT_MS). */
  readonly stopWaitMs?: number
}

export interface RunningProxy {
  /** `http://127.0.0.1:PORT`: what the agent sets as ANTHROPIC_BASE_URL. */
  readonly url: string
  readonly port: number
  readonly upstream: string
  /**
   * Stops listening and drops the requests whose bodies are still arriving (their connections are destroyed;
   * nothing of them was forwarded). Exchanges already forwarded may finish and are recorded, for up to
   * `stopWaitMs`; those still running then are cut, and recorded as cancelled. Resolves when all is recorded.
   */
  close(): Promise<void>
}

/** How long stopping waits for the exchanges already forwarded (a streamed answer can run for minutes). */
export const STOP_WAIT_MS = 10_000

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]'])

function fromLoopbackClient(req: IncomingMessage): boolean {
  if (req.headers.origin !== undefined) return false
  const host = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase()
  return LOOPBACK_HOSTS.has(host)
}

export function parseUpstream(upstream: string): URL {
  const url = new URL(upstream)
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`the upstream must be an http(s) URL (got ${url.protocol})`)
  return url
}

export async function startCaptureProxy(options: ProxyOptions): Promise<RunningProxy> {
  const upstream = parseUpstream(options.upstream)
  const clock = options.clock ?? { now: () => Date.now() }
  // Requests from arrival until their exchange is recorded (or until they are dropped, for those never forwarded).
  let inFlight = 0
  // Requests whose bodies are still arriving: nothing of them has gone upstream yet.
  const receiving = new Set<IncomingMessage>()
  let closing = false
  let drained: (() => void) | null = null
  const settled = (): void => {
    inFlight--
    if (inFlight === 0) drained?.()
  }
  const onExchange = (exchange: Exchange): void => {
    // Recording writes to the store; do it after the response has been handed to the client.
    setImmediate(() => {
      try {
        options.onExchange(exchange)
      } catch (err) {
        options.log?.error('capture proxy: recording failed', { error: err instanceof Error ? err.message : String(err) })
      } finally {
        settled()
      }
    })
  }
  const server: Server = createServer({ noDelay: true }, (req, res) => {
    if (!fromLoopbackClient(req)) {
      answerError(req, res, 403, 'permission_error', 'The capture proxy answers local agents only (no Origin header, Host 127.0.0.1 or localhost).')
      return
    }
    if (closing) {
      // A kept-alive connection's next request, after stop: nothing new is forwarded.
      answerError(req, res, 503, 'api_error', 'The capture proxy is stopping.', { unread: true })
      return
    }
    inFlight++
    receiving.add(req)
    void forward(req, res, { upstream, clock, onExchange }).then(
      (result) => {
        receiving.delete(req)
        if (result === 'none') settled()
      },
      (err: unknown) => {
        receiving.delete(req)
        options.log?.error('capture proxy: forwarding failed', { error: err instanceof Error ? err.message : String(err) })
        settled()
      },
    )
  })
  server.keepAliveTimeout = 60_000
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    upstream: upstream.toString().replace(/\/$/, ''),
    close: async () => {
      closing = true
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeIdleConnections()
      // A client still sending its body (or one that never finishes) is not waited for: nothing of it went upstream.
      for (const req of receiving) req.socket.destroy()
      if (inFlight > 0) {
        const allRecorded = new Promise<void>((resolve) => (drained = resolve))
        let timer: NodeJS.Timeout | undefined
        const waited = await Promise.race([
          allRecorded.then(() => true),
          new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), options.stopWaitMs ?? STOP_WAIT_MS))),
        ])
        clearTimeout(timer)
        if (!waited) {
          options.log?.warn('capture proxy: cutting the exchanges still running at stop', { count: inFlight })
          // Each client's connection closing ends its exchange as cancelled, which is then recorded.
          server.closeAllConnections()
          await allRecorded
        }
      }
      // Every exchange is recorded; what is left are idle keep-alive connections of clients.
      server.closeAllConnections()
      await closed
    },
  }
}
