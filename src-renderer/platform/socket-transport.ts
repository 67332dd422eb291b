/**
 * Browser mode's transport: the contract over a WebSocket to the host that served the page, made again when it
 * drops. The socket, the HTTP check and the timer are passed in (client.ts gives the browser's), so these rules run
 * under Node in test/renderer/platform/socket-transport.test.ts.
 *
 * - Nothing waits on a connection that is not there. A request sent before an answer lost with the connection
 *   fails when it closes; once the page has been connected, a request made while it is not fails at once. Only
 *   before the first connection are requests held, and sent when it opens (or failed when it does not).
 * - A dropped connection is made again, 250 ms after and then less often, up to every 5 s.
 * - The host refuses a connection with a token it did not issue (HTTP 401, src-main/server/websocket.ts), and a
 *   restarted host issued a new one. The browser reports that refusal exactly as it reports a host that is not
 *   running (a close that never opened, code 1006), so after such a close the transport asks the host for its
 *   page over HTTP: a host that answers was running, and one more attempt made after that answer that does not
 *   open either means the page is refused. It then stops trying: no attempt with this token can succeed.
 */
import type { ClientFrame, Result, ServerFrame } from '../../src-preload/contract'

/** `open`: connected; `lost`: not connected, trying again; `refused`: the host will not take this page any more. */
export type LinkStatus = 'open' | 'lost' | 'refused'

export interface SocketHandlers {
  opened(): void
  received(text: string): void
  closed(code: number): void
}

export interface Socket {
  send(text: string): void
  isOpen(): boolean
}

export interface SocketTransportDeps {
  /** Starts one connection attempt, which calls `closed` once when it ends, opened or not. */
  connect(handlers: SocketHandlers): Socket
  /** Whether the host answers HTTP on its address (it serves the page there); false on any network failure. */
  hostAnswers(): Promise<boolean>
  schedule(fn: () => void, ms: number): void
}

export interface SocketTransport {
  request(name: string, input: unknown): Promise<Result<unknown>>
  onEvent(listener: (name: string, payload: unknown) => void): () => void
  onStatus(listener: (status: LinkStatus) => void): () => void
  status(): LinkStatus | 'connecting'
}

export const FIRST_RETRY_MS = 250
export const MAX_RETRY_MS = 5000

export const NOT_CONNECTED = {
  lost: 'Not connected to Loupe: the connection was lost and is being made again. Try again once the header says connected.',
  refused: 'Not connected to Loupe: its host was restarted and no longer accepts this page. Open the new URL it printed.',
} as const

export const LOST_WHILE_ASKED = 'The connection to Loupe was lost before this was answered, so it may or may not have been done; reconnecting'
export const TOO_LARGE =
  'A request was too large for the connection to Loupe (over 64 MB), which closed; the requests waiting for an answer failed; reconnecting'

const failure = (message: string): Result<unknown> => ({ ok: false, error: { code: 'io_error', message } })

export function createSocketTransport(deps: SocketTransportDeps): SocketTransport {
  const eventListeners = new Set<(name: string, payload: unknown) => void>()
  const statusListeners = new Set<(status: LinkStatus) => void>()
  const pending = new Map<number, (result: Result<unknown>) => void>()
  // Requests made before the first connection opened: sent when it does.
  let queue: Array<{ id: number; text: string; resolve: (result: Result<unknown>) => void }> = []
  let nextId = 1
  let socket: Socket | null = null
  let status: LinkStatus | 'connecting' = 'connecting'
  let retryMs = FIRST_RETRY_MS
  // The host answered HTTP after the last attempt that did not open: the next attempt reaches a running host.
  let hostAnswered = false

  const setStatus = (next: LinkStatus) => {
    if (status === next) return
    status = next
    for (const listener of statusListeners) listener(next)
  }

  const failSent = (message: string) => {
    for (const [id, resolve] of pending) {
      pending.delete(id)
      resolve(failure(message))
    }
  }

  const retryLater = () => {
    deps.schedule(connect, retryMs)
    retryMs = Math.min(retryMs * 2, MAX_RETRY_MS)
  }

  function connect(): void {
    let opened = false
    const attempt = deps.connect({
      opened() {
        opened = true
        retryMs = FIRST_RETRY_MS
        hostAnswered = false
        setStatus('open')
        for (const { id, text, resolve } of queue.splice(0)) {
          pending.set(id, resolve)
          attempt.send(text)
        }
      },
      received(text) {
        const frame = JSON.parse(text) as ServerFrame
        if (frame.kind === 'response') {
          const resolve = pending.get(frame.id)
          pending.delete(frame.id)
          resolve?.(frame.result)
        } else {
          for (const listener of eventListeners) listener(frame.name, frame.payload)
        }
      },
      closed(code) {
        socket = null
        // 1009: the host closed the connection on a frame too large to read (over 64 MB, src-main/server/websocket.ts).
        failSent(code === 1009 ? TOO_LARGE : LOST_WHILE_ASKED)
        const next = !opened && hostAnswered ? 'refused' : 'lost'
        setStatus(next)
        for (const { resolve } of queue.splice(0)) resolve(failure(NOT_CONNECTED[next]))
        if (next === 'refused') return
        if (opened) return retryLater()
        void deps.hostAnswers().then((answers) => {
          hostAnswered = answers
          if (answers) deps.schedule(connect, 0)
          else retryLater()
        })
      },
    })
    socket = attempt
  }
  connect()

  return {
    request(name, input) {
      const id = nextId++
      const frame: ClientFrame = { kind: 'request', id, name, input }
      const text = JSON.stringify(frame)
      if (status === 'lost' || status === 'refused') return Promise.resolve(failure(NOT_CONNECTED[status]))
      return new Promise((resolve) => {
        if (status === 'open' && socket?.isOpen()) {
          pending.set(id, resolve)
          socket.send(text)
        } else queue.push({ id, text, resolve })
      })
    },
    onEvent(listener) {
      eventListeners.add(listener)
      return () => eventListeners.delete(listener)
    },
    onStatus(listener) {
      statusListeners.add(listener)
      return () => statusListeners.delete(listener)
    },
    status: () => status,
  }
}
