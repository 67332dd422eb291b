/**
 * Exporting a session while the host serves other windows (docs/agent-loop.md "The store"): the export runs in
 * slices (`exportSessionToFile`: rows read at once, then bodies, blobs and text step by step, written in batches), so
 * the longest the event loop waits is about one slice, not the whole export. Measured on a session of 1,000 entries
 * of ≈46 KB each (≈46 MB exported), by a callback that re-arms itself with setImmediate and keeps the longest gap.
 * The baseline, in the same run, is the export made in one piece: `exportSession`, `JSON.stringify`, one write.
 * Median of ROUNDS after one warm-up.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { writeFileAtomic } from '../src-main/node/fs/atomic-write'
import { openStore } from '../src-main/node/store'
import { readFile } from 'node:fs/promises'
import { exportSession, exportSessionToFile, importSession, importSessionFromFile } from '../src-main/node/store/export'
import { round, type Bench } from './bench'
import { checkpointAfter, line } from './support/long-session'

const ROUNDS = 5
const ENTRIES = 1_000

const median = (samples: number[]) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)]!

/** The longest time (ms) a ready callback waited while `work` ran. */
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
      const project = store.projects.open(join(dir, 'project'), 1)
      const session = store.sessions.create(project.id, 'large', 1)
      store.transaction(() => {
        for (let i = 0; i < ENTRIES; i++) {
          const text = Array.from({ length: 800 }, (_, k) => line(i, k)).join('\n')
          store.entries.append(session.id, [{ kind: 'user_message', content: [{ type: 'text', text }] }], i)
        }
      })
      const out = join(dir, 'out')
      let n = 0
      const sliced = () => exportSessionToFile(store.db, session.id, join(out, `sliced-${n++}.json`), join(dir, 'data'))
      const whole = () => writeFileAtomic(join(out, `whole-${n++}.json`), JSON.stringify(exportSession(store.db, session.id)))
      await sliced()
      await whole()
      const ours: number[] = []
      const baseline: number[] = []
      // Each measured from a collected heap (npm run bench runs with --expose-gc): the other side's garbage would
      // otherwise be collected, in one pause, during the next measurement.
      const collected = () => (globalThis as { gc?: () => void }).gc?.()
      for (let i = 0; i < ROUNDS; i++) {
        collected()
        ours.push(await longestBlock(sliced))
        collected()
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
          note: 'longest event-loop block while a ≈46 MB session is exported to a file; baseline: the export made and written in one piece',
        },
      ]
    } finally {
      store.close()
      rmSync(dir, { recursive: true, force: true })
    }
  },
}

/** Entries of the import measurement: many small ones, the shape whose rows cost most to check and write. */
const IMPORT_ENTRIES = 100_000

/** Turns between two compactions of that long session: what a model is sent stays within a window, as in real use. */
const TURNS_PER_COMPACTION = 500

/**
 * Importing a session of IMPORT_ENTRIES short messages, compacted every TURNS_PER_COMPACTION turns (≈15 MB
 * exported), while the host serves other windows: after the one parse of the text, rows are checked and staged in
 * slices and copied into the store by one transaction
 * (`importSessionFromFile`). The baseline is the same import run in one piece after the same read and parse
 * (`importSession`), as every import ran before. Each round imports into a new store. Median of ROUNDS after one
 * warm-up.
 */
const importBench: Bench = {
  figures: ['session_import.longest_block_ms', 'session_import.time_ms'],
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'loupe-bench-import-'))
    const source = openStore(join(dir, 'source.db'))
    try {
      const project = source.projects.open(join(dir, 'project'), 1)
      const session = source.sessions.create(project.id, 'long', 1)
      source.transaction(() => {
        for (let i = 0; i < IMPORT_ENTRIES / 2; i++) {
          source.entries.append(session.id, [{ kind: 'user_message', content: [{ type: 'text', text: line(i, 0) }] }], i)
          source.entries.append(session.id, [{ kind: 'assistant_message', passId: 'pas_x' as never, content: [{ type: 'text', text: line(i, 1) }], stopReason: 'end_turn', partial: false }], i)
          if ((i + 1) % TURNS_PER_COMPACTION === 0) source.entries.append(session.id, [checkpointAfter(i)], i)
        }
      })
      const file = join(dir, 'long.json')
      await exportSessionToFile(source.db, session.id, file, join(dir, 'data'))
      let n = 0
      const into = async (importer: (db: ReturnType<typeof openStore>['db'], projectId: string) => Promise<unknown>) => {
        const store = openStore(join(dir, `target-${n++}.db`))
        try {
          const started = performance.now()
          await importer(store.db, store.projects.open(join(dir, 'project'), 1).id)
          return performance.now() - started
        } finally {
          store.close()
        }
      }
      const sliced = () => into((db, projectId) => importSessionFromFile(db, file, projectId))
      const whole = () => into(async (db, projectId) => importSession(db, JSON.parse(await readFile(file, 'utf8')), projectId))
      await sliced()
      await whole()
      const collected = () => (globalThis as { gc?: () => void }).gc?.()
      const ours = { block: [] as number[], time: [] as number[] }
      const baseline = { block: [] as number[], time: [] as number[] }
      for (let i = 0; i < ROUNDS; i++) {
        for (const [side, run] of [[ours, sliced], [baseline, whole]] as const) {
          collected()
          let time = 0
          side.block.push(await longestBlock(async () => (time = await run())))
          side.time.push(time)
        }
      }
      const figure = (name: string, value: number, base: number, unit: string, note: string) => ({ name, value: round(value, 1), unit, baseline: round(base, 1), ratio: round(value / base, 3), note })
      return [
        figure('session_import.longest_block_ms', median(ours.block), median(baseline.block), 'ms', `longest event-loop block while a session of ${IMPORT_ENTRIES} short entries (compacted every ${TURNS_PER_COMPACTION} turns) is imported from its file; baseline: the same import in one piece after the parse`),
        figure('session_import.time_ms', median(ours.time), median(baseline.time), 'ms', `time to import that session from its file (read, parse, check, write); baseline: the same import in one piece after the parse`),
      ]
    } finally {
      source.close()
      rmSync(dir, { recursive: true, force: true })
    }
  },
}

export default [exportBench, importBench]
