/**
 * Browser mode: the same contract as the Electron host, served to a page in any Chromium on 127.0.0.1.
 * HTTP serves the built renderer; `/rpc` upgrades to the contract's WebSocket. Bound to the loopback address
 * only, with a random per-launch token the page receives in the URL fragment (never sent to the server by the
 * browser) and checks on connect, an Origin check, and a Host check against DNS rebinding.
 */
import { randomBytes } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { ServerFrame } from '../../src-preload/contract'
import { createApp, type App } from '../node/app'
import type { Clock, Logger } from '../engine/ports'
import { contentSecurityPolicy } from '../node/csp'
import { createLogger } from '../node/log'
import { serveStatic } from './static'
import { createRpcSocketServer } from './websocket'

export interface BrowserHostOptions {
  readonly port?: number
  readonly dataDir: string
  readonly rendererDir: string
  readonly clock?: Clock
  readonly log?: Logger
  readonly homeDir?: string
}

export interface BrowserHost {
  readonly url: string
  readonly port: number
  readonly token: string
  readonly app: App
  close(): Promise<void>
}

/** The browser host's CSP: the page may also open the contract's WebSocket on this port. */
export function browserHostCsp(port: number): string {
  return contentSecurityPolicy([`ws://127.0.0.1:${port}`, `ws://localhost:${port}`])
}

export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const log = options.log ?? createLogger()
  const app = await createApp({ host: 'browser', dataDir: options.dataDir, loupeHome: options.dataDir, clock: options.clock, log, homeDir: options.homeDir })
  const token = randomBytes(24).toString('base64url')
  let port = 0
  const allowedHosts = () => [`127.0.0.1:${port}`, `localhost:${port}`]
  const allowedOrigins = () => allowedHosts().map((h) => `http://${h}`)

  const rpc = createRpcSocketServer({
    token,
    allowedOrigins,
    dispatch: app.dispatch,
    events: app.events,
    log,
    onConnection: (ws) => {
      // Each page learns the app is ready when its connection is; this is what the e2e suite and the cold-start
      // benchmark wait on.
      const frame: ServerFrame = { kind: 'event', name: 'app.ready', payload: { at: Date.now(), host: 'browser' } }
      ws.send(JSON.stringify(frame))
    },
  })

  const server: Server = createServer((req, res) => {
    const headers = {
      'Content-Security-Policy': browserHostCsp(port),
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cross-Origin-Opener-Policy': 'same-origin',
    }
    if (!allowedHosts().includes(req.headers.host ?? '')) {
      res.writeHead(421, headers).end('Misdirected request')
      return
    }
    void serveStatic(options.rendererDir, req, res, headers).catch((err: Error) => {
      log.error('static serving failed', { error: err.message })
      if (!res.headersSent) res.writeHead(500, headers)
      res.end()
    })
  })
  server.on('upgrade', (req, socket, head) => {
    if (!allowedHosts().includes(req.headers.host ?? '')) {
      socket.destroy()
      return
    }
    rpc.handleUpgrade(req, socket, head)
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  port = (server.address() as AddressInfo).port
  const url = `http://127.0.0.1:${port}/#token=${token}`
  return {
    url,
    port,
    token,
    app,
    async close() {
      rpc.close()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await app.close()
    },
  }
}
