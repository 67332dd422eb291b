/** Test harness for the capture proxy: a store, simulators (plain, or tapped to see what they receive), the SDK. */
import Anthropic from '@anthropic-ai/sdk'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, request, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { connect, type AddressInfo, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Exchange } from '../../../src-main/node/proxy/forward'
import { CaptureRecorder } from '../../../src-main/node/proxy/recorder'
import { startCaptureProxy, type ProxyOptions, type RunningProxy } from '../../../src-main/node/proxy/server'
import { openStore, type Store } from '../../../src-main/node/store'
import type { PassSummary } from '../../../src-main/node/store/passes'
import { IdSource } from '../../../src-main/simulator/ids'
import { createScriptedResponder } from '../../../src-main/simulator/scripted/responder'
import { SimulatorServer, type Pace } from '../../../src-main/simulator/server'

export const API_KEY = 'sk-ant-test-secret-0123456789abcdef'

/** What the tapped simulator saw of one request: whether the client went away before the response ended. */
export interface Tapped {
  readonly path: string
  readonly closedEarly: boolean
}

export interface TappedSimulator {
  readonly baseUrl: string
  /** Resolves with each request's fate once its connection is done. */
  next(): Promise<Tapped>
  close(): Promise<void>
}

/** The simulator's own request handler in a server of ours, so a test sees when a client goes away. */
export async function tappedSimulator(pace: Pace, seed = 'proxy-test'): Promise<TappedSimulator> {
  const simulator = new SimulatorServer({ clock: { now: () => Date.now() }, pace, ids: new IdSource(seed), responder: createScriptedResponder(), faultHeader: true })
  const done: Tapped[] = []
  const waiting: Array<(t: Tapped) => void> = []
  const server: Server = createServer((req, res) => {
    res.once('close', () => {
      const t = { path: req.url ?? '', closedEarly: !res.writableFinished }
      const w = waiting.shift()
      if (w) w(t)
      else done.push(t)
    })
    simulator.handle(req, res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    next: () => new Promise((resolve) => (done.length > 0 ? resolve(done.shift()!) : waiting.push(resolve))),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

export interface ProxyRig {
  readonly store: Store
  readonly proxy: RunningProxy
  readonly recorder: CaptureRecorder
  readonly dir: string
  /** Resolves with the next recorded pass (or null for an exchange that is not a pass). */
  nextRecorded(): Promise<{ exchange: Exchange; pass: PassSummary | null }>
  close(): Promise<void>
}

export async function proxyRig(upstream: string, extra: Pick<ProxyOptions, 'stopWaitMs'> = {}): Promise<ProxyRig> {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-proxy-'))
  const store = openStore(join(dir, 'loupe.db'))
  const recorder = new CaptureRecorder({ store, clock: { now: () => Date.now() }, capturedRoot: join(dir, 'captured'), upstream })
  const recorded: Array<{ exchange: Exchange; pass: PassSummary | null }> = []
  const waiting: Array<(r: { exchange: Exchange; pass: PassSummary | null }) => void> = []
  const proxy = await startCaptureProxy({
    upstream,
    ...extra,
    onExchange: (exchange) => {
      const r = { exchange, pass: recorder.record(exchange) }
      const w = waiting.shift()
      if (w) w(r)
      else recorded.push(r)
    },
  })
  return {
    store,
    proxy,
    recorder,
    dir,
    nextRecorded: () => new Promise((resolve) => (recorded.length > 0 ? resolve(recorded.shift()!) : waiting.push(resolve))),
    close: async () => {
      await proxy.close()
      store.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** The real SDK, as any foreign agent would use it, with a fetch that keeps what was sent and received. */
export function foreignClient(baseURL: string, wire: Array<{ sent: string; received: Promise<string>; headers: Headers }> = []): Anthropic {
  const fetchAndKeep = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const response = await fetch(input, init)
    const [forSdk, forTest] = response.body ? response.body.tee() : [null, null]
    wire.push({ sent: typeof init?.body === 'string' ? init.body : '', received: forTest ? new Response(forTest).text().catch(() => '') : Promise.resolve(''), headers: response.headers })
    return new Response(forSdk, { status: response.status, statusText: response.statusText, headers: response.headers })
  }
  return new Anthropic({ apiKey: API_KEY, baseURL, maxRetries: 0, fetch: fetchAndKeep as never, defaultHeaders: { 'x-stainless-os': 'Test', 'x-stainless-runtime-version': 'test' } })
}

export const TOOLS: Anthropic.Messages.Tool[] = [
  { name: 'read_file', description: 'Read a file', input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
]

export const SYSTEM = `You are a coding agent.\n${'Keep answers short and cite files. '.repeat(300)}`

/** What a plain upstream saw of one request. */
export interface SeenRequest {
  readonly url: string
  readonly headers: IncomingHttpHeaders
  readonly body: Buffer
}

export interface RecordingServer {
  readonly baseUrl: string
  readonly port: number
  /** Every request received, whole, in order. */
  readonly requests: SeenRequest[]
  /** Resolves with the next request as soon as its body has arrived, with its response still open. */
  next(): Promise<{ seen: SeenRequest; res: ServerResponse }>
  close(): Promise<void>
}

/**
 * A plain HTTP server that keeps every request it gets. By default it answers `{}` at once; with `hold`, each
 * response is left open for the test (`next()` hands it over).
 */
export async function recordingServer(options: { hold?: boolean } = {}): Promise<RecordingServer> {
  const requests: SeenRequest[] = []
  const ready: Array<{ seen: SeenRequest; res: ServerResponse }> = []
  const waiting: Array<(r: { seen: SeenRequest; res: ServerResponse }) => void> = []
  const server = createServer((req: IncomingMessage, res) => {
    const parts: Buffer[] = []
    req.on('data', (c: Buffer) => parts.push(c))
    req.on('end', () => {
      const seen = { url: req.url ?? '', headers: req.headers, body: Buffer.concat(parts) }
      requests.push(seen)
      if (!options.hold) {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end('{}')
        return
      }
      const w = waiting.shift()
      if (w) w({ seen, res })
      else ready.push({ seen, res })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    port,
    requests,
    next: () => new Promise((resolve) => (ready.length > 0 ? resolve(ready.shift()!) : waiting.push(resolve))),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

export interface RawAnswer {
  readonly status: number
  readonly headers: IncomingHttpHeaders
  readonly body: string
}

/** One request with any request target (node:http sends the path as given), on a connection of its own. */
export function rawRequest(port: number, path: string, headers: Record<string, string | number>, body: string | Buffer = ''): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path, headers: { host: '127.0.0.1', ...headers }, agent: false }, (res) => {
      const parts: Buffer[] = []
      res.on('data', (c: Buffer) => parts.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts).toString('utf8') }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(body)
  })
}

/**
 * A raw HTTP/1.1 client on a socket of its own: sends `head` (request line and headers, up to the blank line), then
 * lets `send` write the body as it likes, and resolves with the first response once it is whole (by its
 * Content-Length), without waiting for the connection to close. `send` is told when the answer has begun, so it can
 * stop writing.
 */
export function rawExchange(port: number, head: string, send: (socket: Socket, answered: () => boolean) => void = () => {}): Promise<RawAnswer & { readonly socket: Socket }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let received = Buffer.alloc(0)
    let settled = false
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk])
      const end = received.indexOf('\r\n\r\n')
      if (end < 0 || settled) return
      const lines = received.subarray(0, end).toString('latin1').split('\r\n')
      const headers: IncomingHttpHeaders = {}
      for (const line of lines.slice(1)) {
        const colon = line.indexOf(':')
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
      }
      const length = Number(headers['content-length'] ?? 0)
      if (received.length < end + 4 + length) return
      settled = true
      resolve({ status: Number(lines[0]!.split(' ')[1]), headers, body: received.subarray(end + 4, end + 4 + length).toString('utf8'), socket })
    })
    // A client still writing when the proxy closes the connection may see EPIPE or a reset: what counts is the answer.
    socket.on('error', (err) => {
      if (!settled) reject(err)
    })
    socket.on('close', () => {
      if (!settled) reject(new Error(`the connection closed without a whole answer: ${JSON.stringify(received.toString('latin1').slice(0, 200))}`))
    })
    socket.write(head)
    send(socket, () => settled || received.length > 0)
  })
}
