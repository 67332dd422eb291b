/**
 * Capture proxy overhead (issue 10, "Benchmark"): time to first byte and total stream time through the proxy
 * against the same requests sent straight to the simulator, in the same run, interleaved (direct, proxied, direct …)
 * so drift in machine load hits both sides alike. Goal: < 5 ms added at p95.
 *
 * The proxy runs as it is deployed, in its own process (`npm run proxy`, recording into a temporary data folder);
 * the simulators answer at `instant` pace in this process, so what is measured is the proxy's own cost (one more
 * loopback hop, header handling, the copy kept for recording), not model latency. Each proxied exchange is
 * recorded (insert, segments, cache attribution) after its last byte; the bench waits for the proxy's "pass N"
 * line before the next request, as an agent runs its tools between requests, so recording never overlaps a
 * measured request. Bodies: a 30 KB system prompt with a breakpoint, one tool, and a conversation that grows by
 * two messages per request (as an agent's would), streamed.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { Agent, request, type IncomingMessage } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { startSimulator } from '../src-main/simulator/index'
import { percentile, round, type Bench } from './bench'

const WARMUP = 20
const SAMPLES = 200
const SYSTEM = `You are a coding agent.\n${'Keep answers short, cite the files you read, and never guess. '.repeat(480)}`

interface Timing {
  readonly ttfbMs: number
  readonly totalMs: number
}

function body(i: number): string {
  const messages: Array<{ role: string; content: string }> = []
  for (let k = 0; k <= i % 40; k++) {
    messages.push({ role: 'user', content: `read file number ${k}` })
    messages.push({ role: 'assistant', content: `File ${k} holds a short note about step ${k}.` })
  }
  messages.push({ role: 'user', content: 'read README.md' })
  return JSON.stringify({
    model: 'claude-sonnet-4-6',
    max_tokens: 1024,
    stream: true,
    system: [{ type: 'text', text: SYSTEM, cache_control: { type: 'ephemeral' } }],
    tools: [{ name: 'read_file', description: 'Read a file', input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } }],
    messages,
  })
}

function send(baseUrl: string, agent: Agent, text: string): Promise<Timing> {
  return new Promise((resolve, reject) => {
    const start = performance.now()
    let first: number | null = null
    const req = request(`${baseUrl}/v1/messages`, {
      method: 'POST',
      agent,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'x-api-key': 'sk-bench', 'anthropic-version': '2023-06-01', 'user-agent': 'loupe-bench' },
    }, (res: IncomingMessage) => {
      res.on('data', () => {
        first ??= performance.now()
      })
      res.on('end', () => {
        const end = performance.now()
        if (res.statusCode !== 200) reject(new Error(`HTTP ${res.statusCode}`))
        else resolve({ ttfbMs: (first ?? end) - start, totalMs: end - start })
      })
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(text)
  })
}

/** `npm run proxy` in a child process: its URL is the first stdout line, a "pass N" stderr line per recorded pass. */
async function startProxyProcess(upstream: string, dataDir: string): Promise<{ url: string; nextPass(): Promise<void>; stop(): Promise<void> }> {
  const root = join(import.meta.dirname ?? __dirname, '..')
  const child: ChildProcess = spawn(process.execPath, [join(root, 'node_modules/tsx/dist/cli.mjs'), join(root, 'scripts/proxy.ts'), '--upstream', upstream], {
    env: { ...process.env, LOUPE_HOME: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const waiting: Array<() => void> = []
  let banked = 0
  createInterface({ input: child.stderr! }).on('line', (line) => {
    if (!/^pass \d+ /.test(line)) return
    const w = waiting.shift()
    if (w) w()
    else banked++
  })
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (line) => resolve(line.trim()))
    child.once('exit', (code) => reject(new Error(`the proxy exited (${code}) before printing its URL`)))
  })
  return {
    url,
    nextPass: () => new Promise<void>((resolve) => (banked > 0 ? (banked--, resolve()) : waiting.push(resolve))),
    stop: async () => {
      if (child.exitCode !== null) return
      const exited = new Promise((r) => child.once('exit', r))
      child.kill('SIGTERM')
      await exited
    },
  }
}

const bench: Bench = {
  figures: ['proxy.ttfb_added_p95_ms', 'proxy.stream_added_p95_ms'],
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'loupe-proxy-bench-'))
    const direct = await startSimulator({ pace: 'instant', seed: 'bench' })
    const behind = await startSimulator({ pace: 'instant', seed: 'bench' })
    const proxy = await startProxyProcess(behind.baseUrl, dir)
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    const directTimes: Timing[] = []
    const proxiedTimes: Timing[] = []
    try {
      for (let i = 0; i < WARMUP + SAMPLES; i++) {
        const text = body(i)
        const d = await send(direct.baseUrl, agent, text)
        const recorded = proxy.nextPass()
        const p = await send(proxy.url, agent, text)
        await recorded
        if (i >= WARMUP) {
          directTimes.push(d)
          proxiedTimes.push(p)
        }
      }
    } finally {
      agent.destroy()
      await proxy.stop()
      await direct.close()
      await behind.close()
      rmSync(dir, { recursive: true, force: true })
    }
    const p95 = (xs: Timing[], pick: (t: Timing) => number) => percentile(xs.map(pick), 95)
    const ttfbDirect = p95(directTimes, (t) => t.ttfbMs)
    const ttfbProxy = p95(proxiedTimes, (t) => t.ttfbMs)
    const totalDirect = p95(directTimes, (t) => t.totalMs)
    const totalProxy = p95(proxiedTimes, (t) => t.totalMs)
    const p50 = (xs: Timing[], pick: (t: Timing) => number) => percentile(xs.map(pick), 50)
    const addedMedian = p50(proxiedTimes, (t) => t.ttfbMs) - p50(directTimes, (t) => t.ttfbMs)
    const note = `${SAMPLES} streamed requests each way, interleaved; p95 proxied − p95 direct (p50: ${round(addedMedian, 2)} ms added); proxy in its own process, simulator at instant pace`
    return [
      { name: 'proxy.ttfb_added_p95_ms', value: round(ttfbProxy - ttfbDirect, 3), unit: 'ms', baseline: round(ttfbDirect, 3), ratio: round(ttfbProxy / ttfbDirect, 3), goal: '< 5', note },
      { name: 'proxy.stream_added_p95_ms', value: round(totalProxy - totalDirect, 3), unit: 'ms', baseline: round(totalDirect, 3), ratio: round(totalProxy / totalDirect, 3), goal: '< 5', note },
    ]
  },
}

export default bench
