/**
 * Agent loop and store figures (docs/agent-loop.md "The store"):
 * - store size after a 300-pass session with ~150k tokens of history, against the unique content and against a
 *   baseline that stores each request body whole (measured in the same run);
 * - the loop's own overhead per pass (everything but the model) with the simulator at instant pace;
 * - a 1,000-pass soak with faults injected into 10% of the requests.
 */
import Database from 'better-sqlite3'
import { join } from 'node:path'
import { unansweredToolUses } from '../src-main/engine/conversation/history'
import { openStore } from '../src-main/node/store'
import { splitBody } from '../src-main/node/store/body-split'
import { sha256Hex } from '../src-main/node/store/blobs'
import type { Fault, FaultPlan } from '../src-main/simulator'
import { percentile, round, type Bench } from './bench'
import { passOverheads, startDriver } from './support/session-driver'

const STORE_PASSES = 300
const SOAK_PASSES = 1000
const SOAK_MODEL = 'claude-haiku-4-5'

/** Bytes a SQLite file really uses (pages in use), after folding the WAL in. */
function usedBytes(db: Database.Database): number {
  db.pragma('wal_checkpoint(TRUNCATE)')
  const pageSize = db.pragma('page_size', { simple: true }) as number
  const pages = db.pragma('page_count', { simple: true }) as number
  const free = db.pragma('freelist_count', { simple: true }) as number
  return (pages - free) * pageSize
}

const storeBench: Bench = {
  figures: ['store.size_ratio_unique', 'store.size_ratio_wholebody', 'loop.overhead_p50_ms', 'loop.overhead_p95_ms'],
  async run() {
    // Each turn reads one ~2.4 kB file: two passes per turn, history growing to ~150k tokens by pass 300.
    const driver = await startDriver({ files: STORE_PASSES / 2, bytesPerFile: 3600 })
    try {
      const turnStarts: number[] = []
      for (let i = 0; driver.committedAt.length < STORE_PASSES; i++) {
        turnStarts.push(performance.now())
        await driver.turn(`read file${i}.txt`)
      }
      const store = openStore(join(driver.dataDir, 'loupe.db'))
      const passes = store.passes.list(driver.sessionId)
      const unique = new Map<string, number>()
      const whole = new Database(':memory:')
      whole.exec('CREATE TABLE bodies (id TEXT PRIMARY KEY, body BLOB NOT NULL, response BLOB)')
      const insertWhole = whole.prepare('INSERT INTO bodies (id, body, response) VALUES (?, ?, ?)')
      let lastBody = ''
      for (const p of passes) {
        const detail = store.passes.get(p.id)!
        lastBody = detail.requestBody
        for (const s of splitBody(detail.requestBody).segments) unique.set(sha256Hex(s.text), Buffer.byteLength(s.text))
        if (detail.responseRaw) unique.set(sha256Hex(detail.responseRaw), Buffer.byteLength(detail.responseRaw))
        insertWhole.run(p.id, Buffer.from(detail.requestBody), detail.responseRaw ? Buffer.from(detail.responseRaw) : null)
      }
      const uniqueBytes = [...unique.values()].reduce((a, b) => a + b, 0)
      const ours = usedBytes(store.db)
      const wholeBytes = (whole.pragma('page_count', { simple: true }) as number) * (whole.pragma('page_size', { simple: true }) as number)
      store.close()

      const overhead = passOverheads(driver, turnStarts)
      const lastTokens = Math.round(Buffer.byteLength(lastBody) / 4)
      return [
        { name: 'store.size_ratio_unique', value: round(ours / uniqueBytes, 3), unit: '×', baseline: uniqueBytes, note: `store ${ours} B vs unique content ${uniqueBytes} B; ${passes.length} passes, last request ≈${lastTokens} tokens`, goal: '≤ 1.2' },
        { name: 'store.size_ratio_wholebody', value: round(wholeBytes / uniqueBytes, 3), unit: '×', baseline: uniqueBytes, note: `whole-body baseline ${wholeBytes} B` },
        { name: 'loop.overhead_p50_ms', value: round(percentile(overhead, 50), 2), unit: 'ms' },
        { name: 'loop.overhead_p95_ms', value: round(percentile(overhead, 95), 2), unit: 'ms' },
      ]
    } finally {
      await driver.close()
    }
  },
}

/** Faults in ~10% of requests, chosen by a fixed sequence so runs compare. */
function tenPercentFaults(): FaultPlan & { injected: () => number } {
  const kinds: Fault[] = [{ kind: 'rate_limit', retryAfterMs: 5 }, { kind: 'overloaded' }, { kind: 'server_error' }, { kind: 'reset', afterEvents: 3 }]
  let n = 0
  let injected = 0
  return {
    next(context) {
      if (context.method !== 'POST' || !context.path.endsWith('/messages')) return null
      n++
      if (n % 10 !== 7) return null
      injected++
      return kinds[injected % kinds.length]!
    },
    injected: () => injected,
  }
}

const soakBench: Bench = {
  figures: ['soak.passes_completed', 'soak.entries_lost', 'soak.invalid_sessions', 'soak.memory_growth_ratio'],
  async run() {
    const faults = tenPercentFaults()
    // A model with a 200k-token window, so that automatic compaction keeps the history bounded as it would in a
    // long real session (with a 1M window the history, and the memory holding it, would simply grow).
    const driver = await startDriver({ files: 40, bytesPerFile: 300, faults, model: SOAK_MODEL })
    const gc = (globalThis as { gc?: () => void }).gc
    const heap = () => {
      gc?.()
      return process.memoryUsage().heapUsed
    }
    try {
      const observed = new Set<string>()
      driver.app.events.subscribe((name, p) => {
        if (name === 'entries.appended') for (const e of (p as { entries: Array<{ id: string }> }).entries) observed.add(e.id)
      })
      let heapAt100 = 0
      let passes = 0
      const prompts = ['list the files', 'read README.md', 'grep for "fox"']
      for (let i = 0; passes < SOAK_PASSES; i++) {
        const reason = await driver.turn(i % 4 === 3 ? `read file${i % 40}.txt` : prompts[i % prompts.length]!)
        // A turn that ended on a model error is retried, as a user would.
        if (reason === 'error') await retry(driver)
        passes = driver.committedAt.length
        if (heapAt100 === 0 && passes >= 100) heapAt100 = heap()
      }
      const heapAt1000 = heap()
      const store = openStore(join(driver.dataDir, 'loupe.db'))
      const entries = store.entries.list(driver.sessionId)
      const stored = new Set<string>(entries.map((e) => e.id))
      const lost = [...observed].filter((id) => !stored.has(id)).length
      const all = store.passes.list(driver.sessionId)
      const completed = all.filter((p) => p.status === 'done' && p.kind === 'main').length
      const invalid = unansweredToolUses(entries).length > 0 || all.some((p) => sha256Hex(store.passes.requestBody(p.id)) !== p.requestSha256) ? 1 : 0
      store.close()
      return [
        { name: 'soak.passes_completed', value: completed, unit: 'passes', note: `${all.length} passes recorded (${all.filter((p) => p.kind === 'summary').length} compaction summaries), ${faults.injected()} faults injected, ${SOAK_MODEL}` },
        { name: 'soak.entries_lost', value: lost, unit: 'entries', goal: '0' },
        { name: 'soak.invalid_sessions', value: invalid, unit: 'sessions', goal: '0' },
        { name: 'soak.memory_growth_ratio', value: round(heapAt1000 / heapAt100, 3), unit: '×', note: `heap ${Math.round(heapAt100 / 2 ** 20)} MB at pass 100, ${Math.round(heapAt1000 / 2 ** 20)} MB at pass 1000${gc ? '' : ' (no --expose-gc: noisy)'}`, goal: '≤ 1.2' },
      ]
    } finally {
      await driver.close()
    }
  },
}

async function retry(driver: Awaited<ReturnType<typeof startDriver>>): Promise<void> {
  const ended = new Promise<void>((resolve) => {
    const off = driver.app.events.subscribe((name) => {
      if (name === 'turn.ended') {
        off()
        resolve()
      }
    })
  })
  const r = await driver.app.dispatch('run.retry', { sessionId: driver.sessionId })
  if (r.ok) await ended
}

export default [storeBench, soakBench]
