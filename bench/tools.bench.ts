/**
 * The change preview shown with an edit_file or write_file approval (docs/tools.md "Permission modes"): it runs on
 * the main process, so its time is time every window waits. Measured on a 20 MiB file (READ_MAX_FILE_BYTES) of
 * 1.9 million short lines: one line edited in the middle, and a rewrite of every line. The baseline, in the same
 * run, is the obvious preview: split both texts into lines and diff them whole (with the same time limit).
 * Each figure is the median of RUNS, after one warm-up.
 */
import { diffArrays } from 'diff'
import { previewChange } from '../src-main/engine/tools/preview'
import { splitLines } from '../src-main/engine/tools/render'
import { round, type Bench } from './bench'

const RUNS = 7
const MiB = 1024 * 1024

function textOf(bytes: number, salt: string): string {
  const lines: string[] = []
  for (let i = 0, size = 0; size < bytes; i++) {
    const line = `${salt}${i}`.padEnd(10, '.')
    lines.push(line)
    size += line.length + 1
  }
  return `${lines.join('\n')}\n`
}

function median(fn: () => unknown): number {
  fn()
  const samples: number[] = []
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now()
    fn()
    samples.push(performance.now() - start)
  }
  return samples.sort((a, b) => a - b)[Math.floor(RUNS / 2)]!
}

/** The obvious preview: every line of both texts, diffed whole. */
function wholeDiff(before: string, after: string): number {
  const changes = diffArrays(splitLines(before) as string[], splitLines(after) as string[], { timeout: 100 })
  return changes?.length ?? 0
}

const previewBench: Bench = {
  figures: ['tools.preview_edit_20mib_ms', 'tools.preview_rewrite_20mib_ms'],
  async run() {
    const before = textOf(20 * MiB, 'L')
    const edited = before.replace('L1000000.', 'EDITED...')
    const rewritten = textOf(20 * MiB, 'z')
    const figure = (name: string, after: string, what: string) => {
      const value = median(() => previewChange('big.txt', before, after))
      const baseline = median(() => wholeDiff(before, after))
      return { name, value: round(value, 1), unit: 'ms', baseline: round(baseline, 1), ratio: round(value / baseline, 3), goal: '< 100', note: what }
    }
    return [
      figure('tools.preview_edit_20mib_ms', edited, 'one line edited in a 20 MiB file; baseline: split both texts and diff them whole'),
      figure('tools.preview_rewrite_20mib_ms', rewritten, 'every line of a 20 MiB file rewritten; baseline: split both texts and diff them whole'),
    ]
  },
}

export default previewBench
