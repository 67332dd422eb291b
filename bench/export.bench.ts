/**
 * Exporting a session while the host serves other windows (docs/agent-loop.md "The store"): the export runs in
 * slices (`exportSessionText`), so the longest the event loop waits is one slice, not the whole export. Measured on
 * the largest recorded session (ae4a77f8: 217 passes, ≈2.2 MB exported) by a callback that re-arms itself; the baseline,
 * in the same run, is the export made in one piece (`exportSession` then `JSON.stringify`), whose block is its whole
 * duration. Median of ROUNDS after one warm-up.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openStore } from '../src-main/node/store'
import { exportSession, exportSessionText } from '../src-main/node/store/export'
import { importTranscript } from '../src-main/node/transcripts/store-import'
import { round, type Bench } from './bench'

const ROUNDS = 7
const SESSION = 'ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl'

const median = (samples: number[]) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)]!

/**
 * The longest time (ms) the event loop could not run a ready callback while `work` ran: a ticker re-arms itself with
 * setImmediate and keeps the longest gap between two of its runs.
 */
async function longestBlock(work: () => Promise<unknown>): Promise<number> {
  let running = true
  let last = performance.now()
  let longest = 0
  const tick = () => {
    const now = performance.now()
    longest = Math.max(longest, now - last)
    last = now
    if (running) setImmediate(tick)
  }
  setImmediate(tick)
  await new Promise((resolve) => setImmediate(resolve))
  last = performance.now()
  longest = 0
  await work()
  running = false
  // The ticker's run after the work sees its last block.
  await new Promise((resolve) => setImmediate(resolve))
  tick()
  return longest
}

const exportBench: Bench = {
  figures: ['export.longest_block_ms'],
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'loupe-bench-export-'))
    const store = openStore(join(dir, 'loupe.db'))
    try {
      const { sessionId } = await importTranscript(store, join(import.meta.dirname ?? __dirname, '..', 'test', 'fixtures', 'real', 'spotter', SESSION), { now: 1 })
      const sliced = () => exportSessionText(store.db, sessionId)
      const whole = async () => JSON.stringify(exportSession(store.db, sessionId))
      await sliced()
      await whole()
      const ours: number[] = []
      const baseline: number[] = []
      for (let i = 0; i < ROUNDS; i++) {
        ours.push(await longestBlock(sliced))
        baseline.push(await longestBlock(whole))
      }
      const value = median(ours)
      const base = median(baseline)
      return [
        {
          name: 'export.longest_block_ms',
          value: round(value, 1),
          unit: 'ms',
          baseline: round(base, 1),
          ratio: round(value / base, 3),
          note: 'longest event-loop block while exporting ae4a77f8 (217 passes); baseline: the export made in one piece',
        },
      ]
    } finally {
      store.close()
      rmSync(dir, { recursive: true, force: true })
    }
  },
}

export default exportBench
