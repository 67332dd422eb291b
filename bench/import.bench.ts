/**
 * Claude Code import speed over the three large spotter sessions (9.4 MB, 5,778 lines), against the time to merely
 * `JSON.parse` every line of the same text, measured in the same run (docs/claude-code-import.md
 * "Measured on the real fixtures").
 *
 * "Import" is everything the importer does with the text: split and parse the lines, narrow them to records,
 * dedupe requests, find checkpoints, and reconstruct the messages of every request. Text is in memory for both
 * sides, so disk speed is in neither figure.
 *
 * `import.store_mb_per_s` is the import into the store, as the app's Import button and `npm run import -- --store`
 * do it (`importTranscript`): the same three sessions with their subagent files read from disk, every request
 * written as a pass (bytes split into segments, compressed blobs, attribution), the conversation as entries, the
 * subagents as child sessions, all into a new store file per round.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { reconstructPasses } from '../src-main/engine/transcripts/reconstruct'
import { importSessionText } from '../src-main/engine/transcripts/session'
import { openStore } from '../src-main/node/store'
import { loadSession } from '../src-main/node/transcripts/load'
import { importTranscript } from '../src-main/node/transcripts/store-import'
import { round, timeMs, type Bench } from './bench'

const SESSIONS = [
  'fa812bfe-b295-4cca-9c2f-fdf01028cb46.jsonl',
  'ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl',
  '4d5611e5-241a-462a-8d15-5122611a9569.jsonl',
]
const WARMUP_ROUNDS = 3
const ROUNDS = 9

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

const bench: Bench = {
  figures: ['import.mb_per_s', 'import.vs_parse_ratio'],
  async run() {
    const dir = join(import.meta.dirname ?? __dirname, '..', 'test', 'fixtures', 'real', 'spotter')
    const texts = SESSIONS.map((f) => readFileSync(join(dir, f), 'utf8'))
    const bytes = texts.reduce((sum, t) => sum + Buffer.byteLength(t, 'utf8'), 0)
    let sink = 0
    const parseOnly = (): void => {
      for (const text of texts) {
        for (const line of text.split('\n')) if (line.length > 0) sink += JSON.parse(line) === null ? 0 : 1
      }
    }
    const importAll = (): void => {
      for (const text of texts) {
        const session = importSessionText(text)
        sink += reconstructPasses(session).length
      }
    }
    for (let i = 0; i < WARMUP_ROUNDS; i++) {
      parseOnly()
      importAll()
    }
    const parseMs: number[] = []
    const importMs: number[] = []
    // Interleaved, so drift in machine load hits both sides alike.
    for (let i = 0; i < ROUNDS; i++) {
      parseMs.push(await timeMs(parseOnly))
      importMs.push(await timeMs(importAll))
    }
    if (sink === 0) throw new Error('nothing parsed')
    const parse = median(parseMs)
    const imported = median(importMs)
    const mb = bytes / 1e6
    return [
      {
        name: 'import.mb_per_s',
        value: round(mb / (imported / 1000), 1),
        unit: 'MB/s',
        goal: '> 20',
        note: `${round(mb, 2)} MB in ${round(imported, 1)} ms (median of ${ROUNDS})`,
      },
      {
        name: 'import.vs_parse_ratio',
        value: round(imported / parse, 2),
        unit: 'x',
        baseline: round(parse, 1),
        ratio: round(imported / parse, 2),
        goal: '<= 3',
        note: `import ${round(imported, 1)} ms / JSON.parse of every line ${round(parse, 1)} ms`,
      },
    ]
  },
}

const STORE_WARMUP_ROUNDS = 2
const STORE_ROUNDS = 7

const storeBench: Bench = {
  figures: ['import.store_mb_per_s'],
  async run() {
    const dir = join(import.meta.dirname ?? __dirname, '..', 'test', 'fixtures', 'real', 'spotter')
    const paths = SESSIONS.map((f) => join(dir, f))
    // What the import reads: each session file and its 2.x subagent files.
    const files = paths.flatMap((p) => {
      const sub = join(p.replace(/\.jsonl$/, ''), 'subagents')
      return [p, ...(existsSync(sub) ? readdirSync(sub).map((f) => join(sub, f)) : [])]
    })
    const mb = files.reduce((sum, f) => sum + statSync(f).size, 0) / 1e6
    const now = Date.UTC(2026, 10, 29, 12)
    let passes = 0
    let dbBytes = 0
    const importAll = async (): Promise<number> => {
      const home = mkdtempSync(join(tmpdir(), 'loupe-import-bench-'))
      const store = openStore(join(home, 'loupe.db'))
      try {
        const start = performance.now()
        let n = 0
        for (const path of paths) {
          const r = await importTranscript(store, path, { now })
          n += r.passes + r.children.reduce((sum, c) => sum + c.passes, 0)
        }
        const ms = performance.now() - start
        passes = n
        dbBytes = (store.db.pragma('page_count', { simple: true }) as number) * (store.db.pragma('page_size', { simple: true }) as number)
        return ms
      } finally {
        store.close()
        rmSync(home, { recursive: true, force: true })
      }
    }
    // Reading and parsing alone (files, subagents, records, requests): the part of the import that is not the store.
    const loadAll = async (): Promise<number> => {
      const start = performance.now()
      for (const path of paths) if (!(await loadSession(path)).ok) throw new Error(`${path} did not load`)
      return performance.now() - start
    }
    for (let i = 0; i < STORE_WARMUP_ROUNDS; i++) {
      await loadAll()
      await importAll()
    }
    const storeMs: number[] = []
    const loadMs: number[] = []
    for (let i = 0; i < STORE_ROUNDS; i++) {
      loadMs.push(await loadAll())
      storeMs.push(await importAll())
    }
    const ms = median(storeMs)
    return [
      {
        name: 'import.store_mb_per_s',
        value: round(mb / (ms / 1000), 1),
        unit: 'MB/s',
        // No goal of its own (the import goal is import.mb_per_s, reading and reconstructing); shown to follow.
        note: `${round(mb, 2)} MB (3 sessions with their subagent files) into a new store in ${round(ms, 1)} ms (median of ${STORE_ROUNDS}, range ${round(Math.min(...storeMs), 0)}–${round(Math.max(...storeMs), 0)}); ${passes} passes, ${round(dbBytes / 1e6, 1)} MB database; reading and parsing alone ${round(median(loadMs), 1)} ms; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`,
      },
    ]
  },
}

export default [bench, storeBench]
