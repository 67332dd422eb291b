/**
 * Claude Code import speed over the three large spotter sessions (9.4 MB, 5,778 lines), against the time to merely
 * `JSON.parse` every line of the same text, measured in the same run (issue 10, "Benchmark").
 *
 * "Import" is everything the importer does with the text: split and parse the lines, narrow them to records,
 * dedupe requests, find checkpoints, and reconstruct the messages of every request. Text is in memory for both
 * sides, so disk speed is in neither figure.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { reconstructPasses } from '../src-main/engine/transcripts/reconstruct'
import { importSessionText } from '../src-main/engine/transcripts/session'
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

export default bench
