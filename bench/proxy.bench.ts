/**
 * Capture proxy overhead (docs/proxy.md "Measured"): time to first byte and total stream time through the proxy
 * against the same requests sent straight to a simulator, in the same run, interleaved, so drift in machine load
 * hits both sides alike. Goal: < 5 ms added at p95.
 *
 * Every party runs in its own process, as deployed: the proxy (`npm run proxy`, recording into a temporary data
 * folder) and two identical simulators (`npm run simulator`, `instant` pace, one seed), one behind the proxy and one
 * reached directly; this process is only the client. So both sides cross the same process boundary to reach their
 * server, and what the proxied side adds is the proxy's own cost: one more process and loopback hop, header
 * handling, the copy kept for recording, and whatever the recording leaves behind — not model latency. (A simulator
 * inside this process would answer the direct side without any process switch at all, while the proxied side
 * needs four; on a loaded machine each switch waits for a core, and that wait was counted as the proxy's.)
 *
 * The order alternates (direct then proxied, then proxied then direct …), with the same warm-up for both. Each
 * proxied exchange is recorded (insert, segments, cache attribution) after its last byte; the bench waits for the
 * proxy's "pass N" line before the next request of either side, as an agent runs its tools between requests, so
 * recording never overlaps a measured request. Bodies: a 30 KB system prompt with a breakpoint, one tool, and a
 * conversation that grows by two messages per request (as an agent's would), streamed.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { Agent, request, type IncomingMessage } from 'node:http'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
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

interface Child {
  readonly url: string
  /** Resolves at the next stderr line that matches (the proxy's "pass N" lines). */
  nextLine(): Promise<void>
  stop(): Promise<void>
}

/** A script of this repository in its own process (as `npm run …` runs it); its URL is its first stdout line. */
async function startProcess(script: string, args: ReadonlyArray<string>, env: Record<string, string>, linePattern: RegExp | null): Promise<Child> {
  const root = join(import.meta.dirname ?? __dirname, '..')
  const child: ChildProcess = spawn(process.execPath, [join(root, 'node_modules/tsx/dist/cli.mjs'), join(root, script), ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const waiting: Array<() => void> = []
  let banked = 0
  createInterface({ input: child.stderr! }).on('line', (line) => {
    if (linePattern === null || !linePattern.test(line)) return
    const w = waiting.shift()
    if (w) w()
    else banked++
  })
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (line) => resolve(line.trim()))
    child.once('exit', (code) => reject(new Error(`${script} exited (${code}) before printing its URL`)))
  })
  return {
    url,
    nextLine: () => new Promise<void>((resolve) => (banked > 0 ? (banked--, resolve()) : waiting.push(resolve))),
    stop: async () => {
      if (child.exitCode !== null) return
      const exited = new Promise((r) => child.once('exit', r))
      child.kill('SIGTERM')
      await exited
    },
  }
}

const simulator = (pace: 'instant' | 'realistic' = 'instant'): Promise<Child> => startProcess('src-main/simulator/cli.ts', ['--pace', pace, '--seed', 'bench'], {}, null)

/**
 * A stream's pauses while the proxy forwards and records other exchanges (`proxy.concurrent_gap_added_p99_ms`, the
 * known limit in docs/proxy.md). One client streams answers (a realistic-pace simulator: a delta every 35 ms, ≈44
 * per answer) and times the gaps between chunks while three other clients send 800 KB requests, each recorded on
 * the proxy's thread when it ends (≈25–35 ms: parse, split, insert, attribution).
 */
const STREAM_FILE = Array.from({ length: 200 }, (_, i) => `line ${i}: const value${i} = compute(${i}) // explains step ${i}`).join('\n')
const STREAM_BODY = JSON.stringify({
  model: 'claude-sonnet-4-6',
  max_tokens: 2048,
  stream: true,
  tools: [{ name: 'read_file', description: 'Read a file', input_schema: { type: 'object', properties: { path: { type: 'string' } } } }],
  messages: [
    { role: 'user', content: 'read big.ts' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'big.ts' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: STREAM_FILE }] },
  ],
})
const HEAVY_FILE = 'export function total(cart) {\n  return cart.items.reduce((sum, item) => sum + item.cents, 0) // cents\n}\n'.repeat(40)

/** An 800 KB request as a long agent session sends it: many tool results, a different tail each time. */
function heavyBody(n: number): string {
  const messages: Array<Record<string, unknown>> = [{ role: 'user', content: `task ${n}` }]
  for (let k = 0; k < 190; k++) {
    messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${k}`, name: 'read_file', input: { path: `src/f${k}.ts` } }] })
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${k}`, content: `${HEAVY_FILE}// ${n}.${k}` }] })
  }
  messages.push({ role: 'assistant', content: [{ type: 'text', text: 'Done.' }] }, { role: 'user', content: 'next' })
  return JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 256, stream: true, tools: [{ name: 'read_file', description: 'Read a file', input_schema: { type: 'object' } }], messages })
}

/** Gaps between the chunks of one streamed answer, after its first. */
function streamGaps(baseUrl: string, agent: Agent): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const gaps: number[] = []
    let last: number | null = null
    const req = request(`${baseUrl}/v1/messages`, {
      method: 'POST',
      agent,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(STREAM_BODY), 'x-api-key': 'sk-bench', 'anthropic-version': '2023-06-01', 'user-agent': 'loupe-bench-stream' },
    }, (res) => {
      res.on('data', () => {
        const now = performance.now()
        if (last !== null) gaps.push(now - last)
        last = now
      })
      res.on('end', () => (res.statusCode === 200 ? resolve(gaps) : reject(new Error(`HTTP ${res.statusCode}`))))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(STREAM_BODY)
  })
}

/**
 * The stream's chunk gaps with three heavy clients sending alongside it, all straight to the simulator, then all
 * through the proxy, twice in alternating order. The simulator itself pauses while it reads an 800 KB request; what
 * the proxied side adds on top is the proxy's: forwarding the heavy bodies and recording them.
 */
async function concurrentStall(): Promise<{ directP99: number; proxiedP99: number; directMax: number; proxiedMax: number; gaps: number; recorded: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-proxy-bench-concurrent-'))
  const children: Child[] = []
  const streamAgent = new Agent({ keepAlive: true, maxSockets: 1 })
  const heavyAgent = new Agent({ keepAlive: true, maxSockets: 3 })
  let recorded = 0
  try {
    const upstream = await simulator('realistic')
    children.push(upstream)
    const proxy = await startProcess('scripts/proxy.ts', ['--upstream', upstream.url], { LOUPE_HOME: dir }, null)
    children.push(proxy)
    const phase = async (baseUrl: string, answers: number): Promise<number[]> => {
      let stop = false
      const heavy = async (client: number): Promise<void> => {
        for (let n = 0; !stop; n++) {
          await send(baseUrl, heavyAgent, heavyBody(client * 1000 + n))
          if (baseUrl === proxy.url) recorded++
        }
      }
      const loaders = [heavy(1), heavy(2), heavy(3)]
      const gaps: number[] = []
      for (let i = 0; i < answers; i++) gaps.push(...(await streamGaps(baseUrl, streamAgent)))
      stop = true
      await Promise.all(loaders)
      return gaps
    }
    await streamGaps(proxy.url, streamAgent)
    await streamGaps(upstream.url, streamAgent)
    const direct: number[] = []
    const proxied: number[] = []
    for (const order of [0, 1]) {
      if (order === 0) {
        direct.push(...(await phase(upstream.url, 8)))
        proxied.push(...(await phase(proxy.url, 8)))
      } else {
        proxied.push(...(await phase(proxy.url, 8)))
        direct.push(...(await phase(upstream.url, 8)))
      }
    }
    return { directP99: percentile(direct, 99), proxiedP99: percentile(proxied, 99), directMax: Math.max(...direct), proxiedMax: Math.max(...proxied), gaps: proxied.length, recorded }
  } finally {
    streamAgent.destroy()
    heavyAgent.destroy()
    for (const child of children.reverse()) await child.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

const bench: Bench = {
  figures: ['proxy.ttfb_added_p95_ms', 'proxy.stream_added_p95_ms', 'proxy.concurrent_gap_added_p99_ms'],
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'loupe-proxy-bench-'))
    const children: Child[] = []
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    const directTimes: Timing[] = []
    const proxiedTimes: Timing[] = []
    try {
      const direct = await simulator()
      children.push(direct)
      const behind = await simulator()
      children.push(behind)
      const proxy = await startProcess('scripts/proxy.ts', ['--upstream', behind.url], { LOUPE_HOME: dir }, /^pass \d+ /)
      children.push(proxy)
      const sendDirect = (text: string): Promise<Timing> => send(direct.url, agent, text)
      const sendProxied = async (text: string): Promise<Timing> => {
        const recorded = proxy.nextLine()
        const timing = await send(proxy.url, agent, text)
        await recorded
        return timing
      }
      for (let i = 0; i < WARMUP + SAMPLES; i++) {
        const text = body(i)
        let d: Timing
        let p: Timing
        if (i % 2 === 0) {
          d = await sendDirect(text)
          p = await sendProxied(text)
        } else {
          p = await sendProxied(text)
          d = await sendDirect(text)
        }
        if (i >= WARMUP) {
          directTimes.push(d)
          proxiedTimes.push(p)
        }
      }
    } finally {
      agent.destroy()
      for (const child of children.reverse()) await child.stop()
      rmSync(dir, { recursive: true, force: true })
    }
    const p95 = (xs: Timing[], pick: (t: Timing) => number) => percentile(xs.map(pick), 95)
    const ttfbDirect = p95(directTimes, (t) => t.ttfbMs)
    const ttfbProxy = p95(proxiedTimes, (t) => t.ttfbMs)
    const totalDirect = p95(directTimes, (t) => t.totalMs)
    const totalProxy = p95(proxiedTimes, (t) => t.totalMs)
    const p50 = (xs: Timing[], pick: (t: Timing) => number) => percentile(xs.map(pick), 50)
    const addedMedian = p50(proxiedTimes, (t) => t.ttfbMs) - p50(directTimes, (t) => t.ttfbMs)
    const note = `${SAMPLES} streamed requests each way, interleaved in alternating order; p95 proxied − p95 direct (p50: ${round(addedMedian, 2)} ms added); proxy and both simulators (instant pace) each in their own process; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`
    const stall = await concurrentStall()
    return [
      {
        name: 'proxy.concurrent_gap_added_p99_ms',
        value: round(stall.proxiedP99 - stall.directP99, 3),
        unit: 'ms',
        baseline: round(stall.directP99, 3),
        ratio: round(stall.proxiedP99 / stall.directP99, 3),
        note: `a stream's chunk gaps while three other clients send 800 KB requests alongside it: through the proxy, which records ${stall.recorded} of them meanwhile, p99 against all sent straight to the simulator (${stall.gaps} gaps each way over 16 answers, alternating; longest ${round(stall.proxiedMax, 1)} ms against ${round(stall.directMax, 1)} ms; deltas every 35 ms)`,
      },
      { name: 'proxy.ttfb_added_p95_ms', value: round(ttfbProxy - ttfbDirect, 3), unit: 'ms', baseline: round(ttfbDirect, 3), ratio: round(ttfbProxy / ttfbDirect, 3), goal: '< 5', note },
      { name: 'proxy.stream_added_p95_ms', value: round(totalProxy - totalDirect, 3), unit: 'ms', baseline: round(totalDirect, 3), ratio: round(totalProxy / totalDirect, 3), goal: '< 5', note },
    ]
  },
}

export default bench
