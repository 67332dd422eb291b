/**
 * The contract over a WebSocket: one JSON frame per request, one per response, events pushed as they happen.
 * A connection is accepted only with the per-launch token and from the page's own origin (see docs/security.md).
 */
import { timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type WebSocket } from 'ws'
import type { ServerFrame } from '../../src-preload/contract'
import type { Logger } from '../engine/ports'
import type { Dispatch } from '../rpc/dispatch'
import type { EventHub } from '../rpc/events'

/** Largest frame accepted. The contract's own limits are smaller; this stops a runaway client early. */
export const MAX_FRAME_BYTES = 16 * 1024 * 1024

export function tokenMatches(given: string | null, expected: string): boolean {
  if (!given) return false
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

export interface RpcSocketOptions {
  readonly token: string
  readonly allowedOrigins: () => ReadonlyArray<string>
  readonly dispatch: Dispatch
  readonly events: EventHub
  readonly log: Logger
  readonly onConnection: (socket: WebSocket) => void
}

export function createRpcSocketServer(options: RpcSocketOptions) {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES })

  function refuse(socket: Duplex, status: number, reason: string): void {
    socket.write(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`)
    socket.destroy()
  }

  function handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://localhost')
    if (url.pathname !== '/rpc') return refuse(socket, 404, 'Not Found')
    if (!tokenMatches(url.searchParams.get('token'), options.token)) {
      options.log.warn('websocket refused: bad token')
      return refuse(socket, 401, 'Unauthorized')
    }
    const origin = req.headers.origin
    if (!origin || !options.allowedOrigins().includes(origin)) {
      options.log.warn('websocket refused: origin', { origin })
      return refuse(socket, 403, 'Forbidden')
    }
    wss.handleUpgrade(req, socket, head, (ws) => attach(ws))
  }

  function attach(ws: WebSocket): void {
    const send = (frame: ServerFrame) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(frame))
    }
    const unsubscribe = options.events.subscribe((name, payload) => send({ kind: 'event', name, payload }))
    ws.on('close', unsubscribe)
    ws.on('error', (err) => options.log.warn('websocket error', { error: err.message }))
    ws.on('message', (data, isBinary) => {
      void (async () => {
        let frame: unknown
        try {
          frame = JSON.parse(isBinary ? '' : data.toString())
        } catch {
          return send({ kind: 'response', id: -1, result: { ok: false, error: { code: 'invalid_input', message: 'Frames are JSON text' } } })
        }
        const f = frame as { kind?: unknown; id?: unknown; name?: unknown; input?: unknown } | null
        const id = f && typeof f.id === 'number' && Number.isSafeInteger(f.id) ? f.id : -1
        if (!f || typeof f !== 'object' || f.kind !== 'request' || id < 0) {
          return send({ kind: 'response', id, result: { ok: false, error: { code: 'invalid_input', message: 'Expected {kind:"request", id:number, name, input}' } } })
        }
        send({ kind: 'response', id, result: await options.dispatch(f.name, f.input) })
      })()
    })
    options.onConnection(ws)
  }

  function close(): void {
    // wss.close() leaves open connections alone; a stopping host must not wait on a page that never leaves.
    for (const client of wss.clients) client.terminate()
    wss.close()
  }

  return { handleUpgrade, close }
}
