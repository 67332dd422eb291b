/**
 * The renderer's one way to talk to the main process. It picks the Electron bridge (`window.loupe`, set by the
 * preload) or, in browser mode, a WebSocket to the host that served the page. No other renderer code knows which
 * host it runs in.
 */
import type { LoupeBridge } from '../../src-preload/bridge'
import type {
  ClientFrame,
  EventName,
  EventPayload,
  RequestInput,
  RequestName,
  RequestOutput,
  Result,
  ServerFrame,
} from '../../src-preload/contract'

export interface LoupeClient {
  request<N extends RequestName>(name: N, input: RequestInput<N>): Promise<Result<RequestOutput<N>>>
  on<E extends EventName>(name: E, listener: (payload: EventPayload<E>) => void): () => void
}

type AnyListener = (name: string, payload: unknown) => void

function fromBridge(bridge: LoupeBridge): LoupeClient {
  return {
    request: (name, input) => bridge.request(name, input) as never,
    on: (name, listener) => bridge.onEvent((n, payload) => n === name && listener(payload as never)),
  }
}

const TOKEN_KEY = 'loupe.token'

/** The token arrives in the URL fragment (never sent over HTTP); keep it for reloads, then clear it from view. */
function takeToken(): string {
  const match = /(?:^|[#&])token=([A-Za-z0-9_-]+)/.exec(location.hash)
  if (match?.[1]) {
    sessionStorage.setItem(TOKEN_KEY, match[1])
    history.replaceState(null, '', location.pathname + location.search)
    return match[1]
  }
  return sessionStorage.getItem(TOKEN_KEY) ?? ''
}

function fromWebSocket(): LoupeClient {
  const token = takeToken()
  const listeners = new Set<AnyListener>()
  const pending = new Map<number, (result: Result<unknown>) => void>()
  const queue: string[] = []
  let nextId = 1
  let socket: WebSocket | null = null
  let retryMs = 250

  const fail = (message: string) => {
    for (const [id, resolve] of pending) {
      pending.delete(id)
      resolve({ ok: false, error: { code: 'io_error', message } })
    }
  }

  const connect = () => {
    const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/rpc?token=${encodeURIComponent(token)}`)
    socket = ws
    ws.onopen = () => {
      retryMs = 250
      for (const frame of queue.splice(0)) ws.send(frame)
    }
    ws.onmessage = (message) => {
      const frame = JSON.parse(String(message.data)) as ServerFrame
      if (frame.kind === 'response') {
        pending.get(frame.id)?.(frame.result)
        pending.delete(frame.id)
      } else {
        for (const listener of listeners) listener(frame.name, frame.payload)
      }
    }
    ws.onclose = (event) => {
      socket = null
      // 1009: the host closed the connection on a frame too large to read (over 64 MB, src-main/server/websocket.ts);
      // every request still waiting for an answer fails with it, and the connection is made again.
      fail(
        event.code === 1009
          ? 'A request was too large for the connection to Loupe (over 64 MB), which closed; the requests waiting for an answer failed; reconnecting'
          : 'The connection to Loupe was lost; reconnecting',
      )
      for (const listener of listeners) listener('connection.lost', null)
      setTimeout(connect, retryMs)
      retryMs = Math.min(retryMs * 2, 5000)
    }
  }
  connect()

  return {
    request(name, input) {
      const id = nextId++
      const frame: ClientFrame = { kind: 'request', id, name, input }
      const text = JSON.stringify(frame)
      return new Promise((resolve) => {
        pending.set(id, resolve as (r: Result<unknown>) => void)
        if (socket?.readyState === WebSocket.OPEN) socket.send(text)
        else queue.push(text)
      })
    },
    on(name, listener) {
      const wrapped: AnyListener = (n, payload) => n === name && listener(payload as never)
      listeners.add(wrapped)
      return () => listeners.delete(wrapped)
    },
  }
}

declare global {
  interface Window {
    loupe?: LoupeBridge
  }
}

const transport: LoupeClient = window.loupe ? fromBridge(window.loupe) : fromWebSocket()
const storeLostListeners = new Set<(message: string) => void>()

/**
 * Every answer passes here: a `store_lost` one (the store's file went away under the main process) is also told to
 * whoever listens, so it is said once for the whole app, not only by the view that happened to ask.
 */
export const client: LoupeClient = {
  async request(name, input) {
    const result = await transport.request(name, input)
    if (!result.ok && result.error.code === 'store_lost') for (const listener of storeLostListeners) listener(result.error.message)
    return result
  },
  on: (name, listener) => transport.on(name, listener),
}

export function onStoreLost(listener: (message: string) => void): () => void {
  storeLostListeners.add(listener)
  return () => storeLostListeners.delete(listener)
}

/** Unwraps a Result for callers that show the error in the UI: throws a ContractFailure with the message. */
export class ContractFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message)
  }
}
export async function call<N extends RequestName>(name: N, input: RequestInput<N>): Promise<RequestOutput<N>> {
  const result = await client.request(name, input)
  if (!result.ok) throw new ContractFailure(result.error.code, result.error.message)
  return result.value
}
