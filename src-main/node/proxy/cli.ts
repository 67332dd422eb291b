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

/** What the command line asked for, or why it cannot be read: nothing is started for a line it cannot read. */
type ParsedArgs = { readonly ok: true; readonly help: boolean; readonly port: string | undefined; readonly upstream: string | undefined } | { readonly ok: false; readonly message: string }

const VALUED = new Set(['--port', '--upstream'])

/**
 * Every argument is read, none ignored: a misspelt option (`--prot 8080`) or a value left off (`--upstream` at the end)
 * would otherwise start the proxy on a port nobody asked for, or forward the agent's requests, API key and all, to the
 * default upstream instead of the one meant.
 */
function parseArgs(argv: ReadonlyArray<string>): ParsedArgs {
  const values = new Map<string, string>()
  let help = false
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === '--help') {
      help = true
      continue
    }
    const eq = arg.indexOf('=')
    const name = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg
    if (!VALUED.has(name)) return { ok: false, message: arg.startsWith('-') ? `unknown option ${name}` : `unexpected argument "${arg}": the proxy takes no file` }
    if (values.has(name)) return { ok: false, message: `${name} is given twice` }
    const value = eq > 0 && arg.startsWith('--') ? arg.slice(eq + 1) : argv[++i]
    if (value === undefined || value === '' || (eq < 0 && value.startsWith('--'))) return { ok: false, message: `${name} takes a value` }
    values.set(name, value)
  }
  return { ok: true, help, port: values.get('--port'), upstream: values.get('--upstream') }
}

function line(pass: PassSummary): string {
  const u = pass.usage
  const tokens = u === null ? 'no usage' : `${u.cache_read_input_tokens} read · ${u.cache_creation_input_tokens} written · ${u.input_tokens} uncached · ${u.output_tokens} out`
  const ms = pass.doneAt === null ? '' : ` · ${pass.doneAt - pass.queuedAt} ms`
  return `pass ${pass.seq} · ${pass.kind} · ${pass.model} · ${pass.status} · ${tokens}${pass.costUsd === null ? '' : ` · $${pass.costUsd.toFixed(4)}`}${ms}\n`
}

/** The URL without its user and password, if it has them. */
function withoutCredentials(url: string): string {
  const parsed = new URL(url)
  if (parsed.username === '' && parsed.password === '') return url
  parsed.username = ''
  parsed.password = ''
  return parsed.toString().replace(/\/$/, '')
}

/** Why the command ended without a running proxy: 0 after --help, 1 it could not start, 2 bad arguments. */
export interface ProxyCliExit {
  readonly exitCode: 0 | 1 | 2
}

/** Starts the proxy; an exit code (after printing why, in a line) when it did not. */
export async function startProxyCli(argv: ReadonlyArray<string>, io: ProxyCliIo, options: { clock?: Clock; dataDir?: string } = {}): Promise<RunningProxyCli | ProxyCliExit> {
  const args = parseArgs(argv)
  if (!args.ok) {
    io.err(`${args.message}\n${USAGE}\n`)
    return { exitCode: 2 }
  }
  if (args.help) {
    io.out(USAGE + '\n')
    return { exitCode: 0 }
  }
  const rawPort = args.port ?? '0'
  const port = Number(rawPort)
  // Digits only: Number() would also take "0x50", "1e3" and " 80 ".
  if (!/^\d+$/.test(rawPort) || port > 65535) {
    io.err(`--port takes a number from 0 to 65535 (got "${rawPort}")\n${USAGE}\n`)
    return { exitCode: 2 }
  }
  const clock = options.clock ?? { now: () => Date.now() }
  const raw = args.upstream ?? ANTHROPIC_BASE_URL
  let upstream: string | null = null
  if (raw !== 'simulator') {
    try {
      upstream = parseUpstream(raw).toString().replace(/\/$/, '')
    } catch (err) {
      io.err(`--upstream: ${err instanceof Error ? err.message : String(err)}\n${USAGE}\n`)
      return { exitCode: 2 }
    }
  }
  const dataDir = options.dataDir ?? browserDataDir(io.env as NodeJS.ProcessEnv | undefined)
  let store: Store
  try {
    store = openStore(databaseFile(dataDir))
  } catch (err) {
    // The store's own words name loupe.db and what to do (node/store/database.ts).
    io.err(`The capture proxy cannot record: ${err instanceof Error ? err.message : String(err)}\n`)
    return { exitCode: 1 }
  }
  let simulator: RunningSimulator | null = null
  if (upstream === null) {
    simulator = await startSimulator({ pace: io.env?.LOUPE_SIM_PACE === 'instant' ? 'instant' : 'realistic' })
    upstream = simulator.baseUrl
  }
  // A user and password in the URL are forwarded (as Basic auth) but never printed or kept with the sessions: like
  // the API keys passing through, they are credentials (docs/proxy.md).
  const shownUpstream = withoutCredentials(upstream)
  const recorder = new CaptureRecorder({ store, clock, capturedRoot: capturedRoot(dataDir), upstream: shownUpstream, onPassRecorded: (_id, pass) => io.err(line(pass)) })
  let proxy: RunningProxy
  try {
    proxy = await startCaptureProxy({ upstream, port, clock, onExchange: (e) => recorder.record(e) })
  } catch (err) {
    store.close()
    await simulator?.close()
    io.err(`The capture proxy could not listen on port ${port}: ${err instanceof Error ? err.message : String(err)}\n`)
    return { exitCode: 1 }
  }
  io.out(`${proxy.url}\n`)
  io.err(`Capture proxy → ${shownUpstream}, recording into ${databaseFile(dataDir)}\nexport ANTHROPIC_BASE_URL=${proxy.url}\n`)
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
