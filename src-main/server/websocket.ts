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

/**
 * Largest frame read at all. A frame over MAX_FRAME_BYTES but under this is read, not parsed, and answered
 * `invalid_input` with the id found at its start, so the request fails and the connection goes on. One over this
 * is not read: the connection is closed with 1009 (a WebSocket cannot skip a frame), and the client fails every
 * request still waiting for an answer (docs/security.md).
 */
export const MAX_READ_FRAME_BYTES = 4 * MAX_FRAME_BYTES

/** How much of a frame's start is searched for its id when the frame is not parsed whole. */
const ID_SEARCH_CHARS = 256

/**
 * The request id at the start of a frame that is not parsed whole (too large, not JSON, cut short): `"id"` as the
 * first key, or right after `"kind":"request"`, as the clients write it (`{"kind":"request","id":7,…`). -1 when it
 * is not there.
 */
export function leadingId(start: string): number {
  const m = /^\s*\{\s*(?:"kind"\s*:\s*"request"\s*,\s*)?"id"\s*:\s*(\d{1,16})\s*[,}]/.exec(start.slice(0, ID_SEARCH_CHARS))
  const id = m ? Number(m[1]) : -1
  return Number.isSafeInteger(id) ? id : -1
}

const utf8 = new TextDecoder('utf-8', { fatal: true })

/**
 * What a frame asks, or why it is refused and the id to answer with (-1 when none can be read). Frames are JSON
 * text of at most MAX_FRAME_BYTES; a binary frame is refused too, with its id when it holds UTF-8 JSON.
 */
export function readFrame(data: Buffer, isBinary: boolean): { ok: true; id: number; name: unknown; input: unknown } | { ok: false; id: number; message: string } {
  if (data.length > MAX_FRAME_BYTES) {
    const id = leadingId(data.subarray(0, ID_SEARCH_CHARS).toString('utf8'))
    return { ok: false, id, message: `Frame of ${data.length} bytes; frames are at most ${MAX_FRAME_BYTES} bytes (16 MB)` }
  }
  let text: string
  try {
    text = isBinary ? utf8.decode(data) : data.toString('utf8')
  } catch {
    return { ok: false, id: -1, message: 'Frames are JSON text (this one was binary, and not UTF-8)' }
  }
  let frame: unknown
  try {
    frame = JSON.parse(text)
  } catch {
    return { ok: false, id: leadingId(text), message: isBinary ? 'Frames are JSON text (this one was binary, and not JSON)' : 'Frames are JSON text (this one is not JSON)' }
  }
  const f = frame as { kind?: unknown; id?: unknown; name?: unknown; input?: unknown } | null
  const id = f && typeof f.id === 'number' && Number.isSafeInteger(f.id) && f.id >= 0 ? f.id : -1
  if (isBinary) return { ok: false, id, message: 'Frames are JSON text (this one was binary); send the request as a text frame' }
  if (!f || typeof f !== 'object' || f.kind !== 'request' || id < 0) return { ok: false, id, message: 'Expected {kind:"request", id:number, name, input}' }
  return { ok: true, id, name: f.name, input: f.input }
}

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
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_READ_FRAME_BYTES })

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
        // The server's binaryType is the default, 'nodebuffer': one Buffer per message.
        const frame = readFrame(data as Buffer, isBinary)
        if (!frame.ok) return send({ kind: 'response', id: frame.id, result: { ok: false, error: { code: 'invalid_input', message: frame.message } } })
        send({ kind: 'response', id: frame.id, result: await options.dispatch(frame.name, frame.input) })
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
