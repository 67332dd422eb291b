/**
 * The app's capture proxy switch (`proxy.start` / `proxy.stop` / `proxy.status`): one proxy at a time, recording
 * into the app's store. Its upstream is the app's own model service by default — the real API when a key is set,
 * else a simulator started for the proxy — or an explicit URL, which must be the Anthropic API or a loopback
 * address: client API keys travel through the proxy, and the app never sends them anywhere else.
 */
import type { Session } from '../../../src-preload/contract'
import type { Clock, Logger } from '../../engine/ports'
import { startSimulator, type RunningSimulator } from '../../simulator/index'
import { ANTHROPIC_BASE_URL } from '../model/connect'
import type { Store } from '../store'
import type { PassSummary } from '../store/passes'
import { CaptureRecorder, capturedRoot } from './recorder'
import { startCaptureProxy, type RunningProxy } from './server'

export interface ProxyStatus {
  readonly running: boolean
  readonly url: string | null
  readonly upstream: string | null
  readonly upstreamKind: 'simulator' | 'anthropic' | 'custom' | null
  readonly startedAt: number | null
  readonly projectId: string | null
  readonly requests: number
  /** Of `requests`, those that failed; and the newest failure in words, with when it ended. */
  readonly failed: number
  readonly lastError: { readonly at: number; readonly message: string } | null
  readonly sessions: ReadonlyArray<{ readonly sessionId: string; readonly client: string; readonly passes: number; readonly failed: number }>
}

export class ProxyError extends Error {
  constructor(
    readonly kind: 'running' | 'upstream_refused' | 'listen_failed',
    message: string,
  ) {
    super(message)
  }
}

export interface ProxyControllerDeps {
  readonly store: Store
  readonly clock: Clock
  readonly dataDir: string
  /** Which model service the app uses now (it changes when a key is saved or forgotten): the default upstream follows it at each start. */
  readonly modelKind: () => 'simulator' | 'anthropic'
  readonly env?: Readonly<Record<string, string | undefined>>
  readonly log?: Logger
  readonly onSessionCreated?: (session: Session) => void
  readonly onPassRecorded?: (sessionId: string, pass: PassSummary) => void
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]'])

/** An explicit upstream the app accepts: the Anthropic API, or a service on this machine. */
export function allowedUpstream(raw: string): { url: string; kind: 'anthropic' | 'custom' } {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new ProxyError('upstream_refused', `Not a URL: ${raw}`)
  }
  if (url.protocol === 'https:' && url.origin === ANTHROPIC_BASE_URL) return { url: url.origin, kind: 'anthropic' }
  if ((url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK.has(url.hostname)) return { url: url.toString().replace(/\/$/, ''), kind: 'custom' }
  throw new ProxyError('upstream_refused', `The proxy forwards API keys, so its upstream must be ${ANTHROPIC_BASE_URL} or a loopback address (got ${url.origin})`)
}

interface Running {
  readonly proxy: RunningProxy
  readonly recorder: CaptureRecorder
  readonly simulator: RunningSimulator | null
  readonly kind: 'simulator' | 'anthropic' | 'custom'
  readonly startedAt: number
}

export class ProxyController {
  private running: Running | null = null
  private lastProjectId: string | null = null

  constructor(private readonly deps: ProxyControllerDeps) {}

  status(): ProxyStatus {
    const r = this.running
    if (r === null) return { running: false, url: null, upstream: null, upstreamKind: null, startedAt: null, projectId: this.lastProjectId, requests: 0, failed: 0, lastError: null, sessions: [] }
    return {
      running: true,
      url: r.proxy.url,
      upstream: r.proxy.upstream,
      upstreamKind: r.kind,
      startedAt: r.startedAt,
      projectId: r.recorder.project ?? this.lastProjectId,
      requests: r.recorder.requests,
      failed: r.recorder.failed,
      lastError: r.recorder.lastError,
      sessions: r.recorder.capturedSessions(),
    }
  }

  async start(options: { port?: number; upstream?: string } = {}): Promise<ProxyStatus> {
    if (this.running !== null) {
      // Asking again for what runs is answered with its status; asking for another port or upstream is a conflict.
      const r = this.running
      const samePort = options.port === undefined || options.port === 0 || options.port === r.proxy.port
      const sameUpstream = options.upstream === undefined || allowedUpstream(options.upstream).url === r.proxy.upstream
      if (samePort && sameUpstream) return this.status()
      throw new ProxyError('running', `The capture proxy already runs at ${r.proxy.url} (upstream ${r.proxy.upstream}); stop it first`)
    }
    const { deps } = this
    let simulator: RunningSimulator | null = null
    let upstream: string
    let kind: Running['kind']
    if (options.upstream !== undefined) {
      const allowed = allowedUpstream(options.upstream)
      upstream = allowed.url
      kind = allowed.kind
    } else if (deps.modelKind() === 'anthropic') {
      upstream = ANTHROPIC_BASE_URL
      kind = 'anthropic'
    } else {
      simulator = await startSimulator({ pace: (deps.env ?? process.env).LOUPE_SIM_PACE === 'instant' ? 'instant' : 'realistic' })
      upstream = simulator.baseUrl
      kind = 'simulator'
    }
    const recorder = new CaptureRecorder({
      store: deps.store,
      clock: deps.clock,
      capturedRoot: capturedRoot(deps.dataDir),
      upstream,
      ...(deps.log ? { log: deps.log } : {}),
      ...(deps.onSessionCreated ? { onSessionCreated: deps.onSessionCreated } : {}),
      ...(deps.onPassRecorded ? { onPassRecorded: deps.onPassRecorded } : {}),
    })
    let proxy: RunningProxy
    try {
      proxy = await startCaptureProxy({ upstream, port: options.port ?? 0, clock: deps.clock, ...(deps.log ? { log: deps.log } : {}), onExchange: (e) => recorder.record(e) })
    } catch (err) {
      await simulator?.close()
      throw new ProxyError('listen_failed', `The capture proxy could not listen on port ${options.port ?? 0}: ${err instanceof Error ? err.message : String(err)}`)
    }
    this.running = { proxy, recorder, simulator, kind, startedAt: deps.clock.now() }
    return this.status()
  }

  async stop(): Promise<ProxyStatus> {
    const r = this.running
    if (r === null) return this.status()
    this.running = null
    this.lastProjectId = r.recorder.project ?? this.lastProjectId
    await r.proxy.close()
    await r.simulator?.close()
    return this.status()
  }
}
