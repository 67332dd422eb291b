/**
 * Browser host figures: cold start to `app.ready`, and the contract's round trip over the WebSocket for a no-op
 * request, side by side with a bare `ws` echo (the transport's own floor) measured in the same run.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import WebSocket, { WebSocketServer } from 'ws'
import { startBrowserHost } from '../src-main/server/host'
import { percentile, round, type Bench } from './bench'

const root = join(__dirname, '..')
const COLD_START_RUNS = 5
const ROUND_TRIPS = 1000

/** Spawns the built host and resolves with ms from spawn to the first `app.ready` frame on a fresh connection. */
async function coldStartOnce(): Promise<number> {
  const home = mkdtempSync(join(tmpdir(), 'loupe-bench-home-'))
  const started = performance.now()
  const child = spawn(process.execPath, [join(root, 'out/main/server.js'), '--port', '0'], {
    env: { ...process.env, LOUPE_HOME: home },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  try {
    const url = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).on('line', (line) => line.startsWith('http://') && resolve(line))
      child.once('exit', (code) => reject(new Error(`host exited ${code}`)))
    })
    const [base, token] = url.split('/#token=') as [string, string]
    await new Promise<void>((resolve, reject) => {
      const ws = new WebSocket(`${base.replace('http', 'ws')}/rpc?token=${token}`, { origin: base })
      ws.on('message', (data) => {
        if ((JSON.parse(data.toString()) as { name?: string }).name === 'app.ready') {
          ws.close()
          resolve()
        }
      })
      ws.on('error', reject)
    })
    return performance.now() - started
  } finally {
    child.kill('SIGTERM')
    await new Promise((r) => child.once('exit', r))
    rmSync(home, { recursive: true, force: true })
  }
}

async function roundTrips(url: string, origin: string, frame: (id: number) => string, count: number): Promise<number[]> {
  const ws = new WebSocket(url, { origin })
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
  const samples: number[] = []
  let resolveOne: (() => void) | null = null
  ws.on('message', (data) => {
    const parsed = JSON.parse(data.toString()) as { kind?: string }
    if (parsed.kind === 'response' || parsed.kind === 'echo') resolveOne?.()
  })
  for (let i = 0; i < count + 50; i++) {
    const t0 = process.hrtime.bigint()
    await new Promise<void>((resolve) => {
      resolveOne = resolve
      ws.send(frame(i + 1))
    })
    // The first 50 calls warm the JIT and the socket; they are not counted.
    if (i >= 50) samples.push(Number(process.hrtime.bigint() - t0) / 1000)
  }
  ws.close()
  return samples
}

const bench: Bench = {
  figures: ['host.cold_start_ms', 'rpc.roundtrip_p50_us', 'rpc.roundtrip_p95_us'],
  async run() {
    if (!existsSync(join(root, 'out/main/server.js'))) throw new Error('build first: npm run build')
    const cold: number[] = []
    for (let i = 0; i < COLD_START_RUNS; i++) cold.push(await coldStartOnce())

    const dir = mkdtempSync(join(tmpdir(), 'loupe-bench-rpc-'))
    mkdirSync(join(dir, 'renderer'))
    writeFileSync(join(dir, 'renderer/index.html'), '')
    const host = await startBrowserHost({ port: 0, dataDir: join(dir, 'home'), rendererDir: join(dir, 'renderer') })
    const echo = new WebSocketServer({ host: '127.0.0.1', port: 0 })
    echo.on('connection', (ws) => ws.on('message', (d) => ws.send(JSON.stringify({ kind: 'echo', id: (JSON.parse(d.toString()) as { id: number }).id }))))
    await new Promise((r) => echo.once('listening', r))
    try {
      const origin = `http://127.0.0.1:${host.port}`
      const ours = await roundTrips(`ws://127.0.0.1:${host.port}/rpc?token=${host.token}`, origin, (id) => JSON.stringify({ kind: 'request', id, name: 'app.ping', input: {} }), ROUND_TRIPS)
      const echoPort = (echo.address() as { port: number }).port
      const floor = await roundTrips(`ws://127.0.0.1:${echoPort}`, origin, (id) => JSON.stringify({ kind: 'request', id, name: 'app.ping', input: {} }), ROUND_TRIPS)
      const p50 = percentile(ours, 50)
      const p95 = percentile(ours, 95)
      return [
        { name: 'host.cold_start_ms', value: round(percentile(cold, 50), 1), unit: 'ms', note: `median of ${COLD_START_RUNS} spawns of out/main/server.js to app.ready` },
        { name: 'rpc.roundtrip_p50_us', value: round(p50, 1), unit: 'µs', baseline: round(percentile(floor, 50), 1), ratio: round(p50 / percentile(floor, 50), 2), note: 'baseline: bare ws echo' },
        { name: 'rpc.roundtrip_p95_us', value: round(p95, 1), unit: 'µs', baseline: round(percentile(floor, 95), 1), ratio: round(p95 / percentile(floor, 95), 2), note: 'baseline: bare ws echo' },
      ]
    } finally {
      echo.close()
      await host.close()
      rmSync(dir, { recursive: true, force: true })
    }
  },
}

export default bench
