/**
 * The renderer's one way to talk to the main process. It picks the Electron bridge (`window.loupe`, set by the
 * preload) or, in browser mode, a WebSocket to the host that served the page. No other renderer code knows which
 * host it runs in.
 */
import type { LoupeBridge } from '../../src-preload/bridge'
import type {
  EventName,
  EventPayload,
  RequestInput,
  RequestName,
  RequestOutput,
  Result,
} from '../../src-preload/contract'
import { createSocketTransport, type LinkStatus } from './socket-transport'

/**
 * What `onConnection` tells: the socket transport's statuses, and `keyless`: the page was opened without the host's
 * key, so it never connects (nothing is tried: the host refuses a connection without it).
 */
export type ConnectionStatus = LinkStatus | 'keyless'

export interface LoupeClient {
  request<N extends RequestName>(name: N, input: RequestInput<N>): Promise<Result<RequestOutput<N>>>
  on<E extends EventName>(name: E, listener: (payload: EventPayload<E>) => void): () => void
  /**
   * The connection to the host, when it can change: browser mode's WebSocket drops when the host stops, and is made
   * again (socket-transport.ts). Electron's IPC is part of the app's own process and never drops: nothing is said.
   */
  onConnection(listener: (status: ConnectionStatus) => void): () => void
}

function fromBridge(bridge: LoupeBridge): LoupeClient {
  return {
    request: (name, input) => bridge.request(name, input) as never,
    on: (name, listener) => bridge.onEvent((n, payload) => n === name && listener(payload as never)),
    onConnection: () => () => undefined,
  }
}

const TOKEN_KEY = 'loupe.token'
const TOKEN_IN_FRAGMENT = /(?:^|[#&])token=([A-Za-z0-9_-]+)/

/**
 * The token arrives in the URL fragment (never sent over HTTP); keep it for reloads (a duplicated tab gets a copy),
 * then clear it from the address bar, so it stays out of history and shared screens (decision 0001). A copy of the
 * address bar therefore opens a page without it (decision 0074).
 */
function takeToken(): string {
  const match = TOKEN_IN_FRAGMENT.exec(location.hash)
  if (match?.[1]) {
    sessionStorage.setItem(TOKEN_KEY, match[1])
    history.replaceState(null, '', location.pathname + location.search)
    return match[1]
  }
  return sessionStorage.getItem(TOKEN_KEY) ?? ''
}

/** What a page that has no token asked of the host is answered: it never connects. */
const WITHOUT_KEY = 'Not connected to Loupe: this page was opened without its access key. Open the URL the host printed when it started (http://127.0.0.1:…/#token=…).'

function fromBrowserHost(): LoupeClient {
  const token = takeToken()
  // The URL a restarted host printed differs from this page's only in its fragment, so opening it in this tab loads
  // nothing: the page loads itself again to take the new token. So does a page opened without one, given one.
  window.addEventListener('hashchange', () => {
    const fresh = TOKEN_IN_FRAGMENT.exec(location.hash)?.[1]
    if (fresh && fresh !== token) location.reload()
  })
  return token === '' ? withoutKey() : fromWebSocket(token)
}

/**
 * A page with no token (its address typed or copied without the fragment, in a tab that never held one) is not let
 * in, and nothing it can try changes that: it does not connect, and says so to each listener as it subscribes, so
 * the app shows why at once rather than a restart it would infer from a refused attempt.
 */
function withoutKey(): LoupeClient {
  return {
    request: async () => ({ ok: false, error: { code: 'io_error', message: WITHOUT_KEY } }),
    on: () => () => undefined,
    onConnection: (listener) => {
      listener('keyless')
      return () => undefined
    },
  }
}

function fromWebSocket(token: string): LoupeClient {
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/rpc?token=${encodeURIComponent(token)}`
  const transport = createSocketTransport({
    connect(handlers) {
      const ws = new WebSocket(url)
      ws.onopen = () => handlers.opened()
      ws.onmessage = (message) => handlers.received(String(message.data))
      ws.onclose = (event) => handlers.closed(event.code)
      return { send: (text) => ws.send(text), isOpen: () => ws.readyState === WebSocket.OPEN }
    },
    // The host serves the page at its root (src-main/server/static.ts); CSP allows 'self'.
    hostAnswers: () => fetch(`${location.origin}/`, { method: 'HEAD', cache: 'no-store' }).then((r) => r.ok, () => false),
    schedule: (fn, ms) => void setTimeout(fn, ms),
  })
  return {
    request: (name, input) => transport.request(name, input) as never,
    on: (name, listener) => transport.onEvent((n, payload) => n === name && listener(payload as never)),
    onConnection: (listener) => transport.onStatus(listener),
  }
}

declare global {
  interface Window {
    loupe?: LoupeBridge
  }
}

const transport: LoupeClient = window.loupe ? fromBridge(window.loupe) : fromBrowserHost()
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
  onConnection: (listener) => transport.onConnection(listener),
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
