/**
 * grep on a large file whose every line matches (a log searched for a word on every line), through ripgrep: the tool
 * keeps the first matches only, and stops ripgrep once it has them (node/tools/process.ts `stopOnceFull`). The
 * baseline, in the same run, is the same ripgrep search read to its end through the same process door, as the tool
 * did before: every match piped through the app's main process and thrown away. Median of RUNS, after one warm-up.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { GREP_MAX_LINE_CHARS, TOOL_OUTPUT_MAX_CHARS } from '../src-main/engine/tools/limits'
import { findRipgrep, grepWithRipgrep } from '../src-main/node/tools/grep-rg'
import { runProcess } from '../src-main/node/tools/process'
import { medianMs, round, type Bench } from './bench'

const RUNS = 3
const FILE_MB = 100

const grepBench: Bench = {
  figures: ['tools.grep_every_line_100mb_ms'],
  async run() {
    const rg = await findRipgrep(process.env)
    if (rg === null) throw new Error('ripgrep (rg) is not on PATH')
    const root = mkdtempSync(join(tmpdir(), 'loupe-bench-grep-'))
    try {
      const line = '2026-12-01 INFO request handled path=/api/thing status=200\n'
      writeFileSync(join(root, 'app.log'), line.repeat(Math.ceil((FILE_MB * 1_000_000) / line.length)))
      const signal = new AbortController().signal
      const ours = () => grepWithRipgrep(rg, { rootReal: root, start: '.', startIsFile: false, pattern: 'INFO', glob: undefined, signal }, process.env)
      const baseline = () =>
        runProcess({
          file: rg,
          args: ['--no-config', '--line-number', '--with-filename', '--no-heading', '--color', 'never', '--hidden', '--no-require-git', '--glob', '!.git', '--sort', 'path', '--no-messages', '--max-columns', String(GREP_MAX_LINE_CHARS + 1), '--max-columns-preview', '--regexp', 'INFO', '--', '.'],
          cwd: root,
          env: process.env,
          timeoutMs: 30_000,
          signal,
          maxOutputChars: TOOL_OUTPUT_MAX_CHARS * 4,
        })
      const value = await medianMs(ours, RUNS)
      const base = await medianMs(baseline, RUNS)
      return [
        {
          name: 'tools.grep_every_line_100mb_ms',
          value: round(value, 1),
          unit: 'ms',
          baseline: round(base, 1),
          ratio: round(value / base, 3),
          note: `ripgrep over a ${FILE_MB} MB log matching every line; baseline: the same search read to its end`,
        },
      ]
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  },
}

export default grepBench
