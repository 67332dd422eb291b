/**
 * `npm run proxy -- [--port N] [--upstream URL|simulator]`: the capture proxy on its own, recording into Loupe's
 * store (the data folder: `LOUPE_HOME`, else ~/.loupe) so the app shows the captured sessions. Prints the proxy's
 * URL on the first line, then one line per recorded pass; Ctrl-C stops it after the requests in flight.
 *
 * Kept apart from scripts/proxy.ts so tests can run it in-process.
 */
import type { Clock } from '../../engine/ports'
import { startSimulator, type RunningSimulator } from '../../simulator/index'
import { browserDataDir, databaseFile } from '../data-dir'
import { ANTHROPIC_BASE_URL } from '../model/connect'
import { openStore, type Store } from '../store'
import type { PassSummary } from '../store/passes'
import { CaptureRecorder, capturedRoot } from './recorder'
import { parseUpstream, startCaptureProxy, type RunningProxy } from './server'

export interface ProxyCliIo {
  readonly out: (text: string) => void
  readonly err: (text: string) => void
  readonly env?: Readonly<Record<string, string | undefined>>
}

export interface RunningProxyCli {
  readonly proxy: RunningProxy
  readonly store: Store
  stop(): Promise<void>
}

const USAGE = `usage:
  npm run proxy -- [--port N] [--upstream URL|simulator]

Starts a loopback proxy that speaks the Messages API. Point an agent at it with
  ANTHROPIC_BASE_URL=http://127.0.0.1:<port>
and each request is forwarded to the upstream (default ${ANTHROPIC_BASE_URL}; "simulator" starts Loupe's offline
simulator), streamed back unchanged, and recorded in Loupe's store as a pass of a captured session per client.
API keys pass through and are never stored.`

function flag(argv: ReadonlyArray<string>, name: string): string | undefined {
  const i = argv.indexOf(name)
  if (i >= 0) return argv[i + 1]
  return argv.find((a) => a.startsWith(`${name}=`))?.slice(name.length + 1)
}

function line(pass: PassSummary): string {
  const u = pass.usage
  const tokens = u === null ? 'no usage' : `${u.cache_read_input_tokens} read · ${u.cache_creation_input_tokens} written · ${u.input_tokens} uncached · ${u.output_tokens} out`
  const ms = pass.doneAt === null ? '' : ` · ${pass.doneAt - pass.queuedAt} ms`
  return `pass ${pass.seq} · ${pass.kind} · ${pass.model} · ${pass.status} · ${tokens}${pass.costUsd === null ? '' : ` · $${pass.costUsd.toFixed(4)}`}${ms}\n`
}

/** Starts the proxy; null (after printing why) on bad arguments. */
export async function startProxyCli(argv: ReadonlyArray<string>, io: ProxyCliIo, options: { clock?: Clock; dataDir?: string } = {}): Promise<RunningProxyCli | null> {
  if (argv.includes('--help')) {
    io.out(USAGE + '\n')
    return null
  }
  const rawPort = flag(argv, '--port') ?? '0'
  const port = Number(rawPort)
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    io.err(`--port takes a number from 0 to 65535 (got "${rawPort}")\n${USAGE}\n`)
    return null
  }
  const clock = options.clock ?? { now: () => Date.now() }
  const raw = flag(argv, '--upstream') ?? ANTHROPIC_BASE_URL
  let simulator: RunningSimulator | null = null
  let upstream: string
  if (raw === 'simulator') {
    simulator = await startSimulator({ pace: io.env?.LOUPE_SIM_PACE === 'instant' ? 'instant' : 'realistic' })
    upstream = simulator.baseUrl
  } else {
    try {
      upstream = parseUpstream(raw).toString().replace(/\/$/, '')
    } catch (err) {
      io.err(`--upstream: ${err instanceof Error ? err.message : String(err)}\n${USAGE}\n`)
      return null
    }
  }
  const dataDir = options.dataDir ?? browserDataDir(io.env as NodeJS.ProcessEnv | undefined)
  const store = openStore(databaseFile(dataDir))
  const recorder = new CaptureRecorder({ store, clock, capturedRoot: capturedRoot(dataDir), upstream, onPassRecorded: (_id, pass) => io.err(line(pass)) })
  let proxy: RunningProxy
  try {
    proxy = await startCaptureProxy({ upstream, port, clock, onExchange: (e) => recorder.record(e) })
  } catch (err) {
    store.close()
    await simulator?.close()
    io.err(`The capture proxy could not listen on port ${port}: ${err instanceof Error ? err.message : String(err)}\n`)
    return null
  }
  io.out(`${proxy.url}\n`)
  io.err(`Capture proxy → ${upstream}, recording into ${databaseFile(dataDir)}\nexport ANTHROPIC_BASE_URL=${proxy.url}\n`)
  return {
    proxy,
    store,
    stop: async () => {
      await proxy.close()
      await simulator?.close()
      store.close()
    },
  }
}
