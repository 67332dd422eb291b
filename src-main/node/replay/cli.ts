/**
 * `npm run replay -- <session.jsonl> [more.jsonl …] [--no-naive] [--ttl-1h] [--no-keep-warm] [--no-thinking] [--json]`:
 * replays recorded Claude Code sessions through Loupe's builder and the simulator, and prints the cached share of
 * input tokens — Loupe, Claude Code on the same session, the best possible (the limit), and a naive client — with
 * Loupe's misses by cause, and what each session cost. See replay.ts and docs/cache-attribution.md.
 *
 * Each file is read through the transcripts' one reading door (`readTranscriptFile`: regular files only, size-capped,
 * streamed), so a folder, a device or a FIFO named on the command line is refused instead of read forever. A file
 * that cannot be replayed is named on one line and the others are still replayed; the exit code says one failed.
 *
 * Kept apart from scripts/replay.ts so tests can run it in-process with their own output sinks.
 */
import { basename } from 'node:path'
import { importSession, skippedReasons } from '../../engine/transcripts'
import { readTranscriptFile } from '../transcripts/read'
import { replaySession, ReplayInputError, type ReplayReport } from './replay'

export interface ReplayCliIo {
  readonly out: (text: string) => void
  readonly err: (text: string) => void
  /**
   * Whether `err` is a terminal, where a file's count of passes is rewritten in place as they go. Elsewhere (a log
   * file, CI) the count is written once, when the file is done, rather than one overwritten line per pass.
   */
  readonly live?: boolean
}

const USAGE = 'usage: npm run replay -- <session.jsonl> [more.jsonl …] [--no-naive] [--ttl-1h] [--no-keep-warm] [--no-thinking] [--json]'
const FLAGS = new Set(['--no-naive', '--ttl-1h', '--no-keep-warm', '--no-thinking', '--json', '--help'])

const pct = (x: number): string => `${(x * 100).toFixed(2)}%`

function table(reports: ReadonlyArray<ReplayReport>): string {
  const usd = (x: number): string => x.toFixed(2)
  const rows = [['session', 'passes', 'loupe', 'claude code', 'limit', 'naive', 'agree', 'unexplained', 'keep-warm', 'loupe $', 'keep-warm $', 'claude code $', 'naive $', 'count ratio']]
  for (const r of reports) {
    const kw = r.loupe.keepWarm
    rows.push([
      r.session,
      String(r.passes),
      pct(r.loupe.share),
      pct(r.claudeCode.share),
      pct(r.loupe.limitShare),
      r.naive ? pct(r.naive.share) : '-',
      `${r.loupe.summary.agreement.agreed}/${r.loupe.summary.agreement.compared}`,
      String(r.loupe.summary.agreement.unexplained),
      String(kw.passes),
      usd(r.loupe.cost.usd),
      kw.usd === null ? '-' : usd(kw.usd),
      usd(r.claudeCode.cost.usd),
      r.naive ? usd(r.naive.cost.usd) : '-',
      r.countRatio.ratio.toFixed(3),
    ])
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)))
  const lines = rows.map((row) => row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd())
  lines.splice(1, 0, widths.map((w) => '-'.repeat(w)).join('  '))
  for (const r of reports) {
    const causes = r.loupe.summary.byCause.filter((c) => c.kind !== 'cold').map((c) => `${c.kind} ×${c.passes} (${c.tokens.toLocaleString('en-US')} tokens)`)
    const kw = r.loupe.keepWarm
    lines.push(`\n${r.session}: misses ${causes.length ? causes.join(', ') : 'none'}`)
    lines.push(`  input side $: loupe ${usd(r.loupe.cost.inputUsd)} (keep-warm ${usd(kw.inputUsd)}), claude code ${usd(r.claudeCode.cost.inputUsd)}${r.naive ? `, naive ${usd(r.naive.cost.inputUsd)}` : ''}`)
    lines.push(`  count ratio ${r.countRatio.ratio.toFixed(3)}: the same added conversation counted for Loupe (simulator) over Claude Code (billed), ${r.countRatio.pairs} pass pairs; loupe $ at Claude Code's count ≈ ${usd(r.loupe.cost.usd / (r.countRatio.ratio || 1))}`)
    if (kw.passes > 0) lines.push(`  keep-warm: ${kw.passes} pre-warm${kw.passes === 1 ? '' : 's'}, read ${kw.read.toLocaleString('en-US')}, wrote 1h ${kw.write1h.toLocaleString('en-US')}, uncached ${kw.uncached.toLocaleString('en-US')} tokens`)
    lines.push(`  what-if 1h static TTL: ${r.loupe.summary.whatIfs.staticTtl1h.note}`)
    lines.push(`  what-if keep-alive: ${r.loupe.summary.whatIfs.keepAlive.note}`)
  }
  return lines.join('\n')
}

/** Returns the process exit code: 0 every file replayed, 1 a file could not be, 2 bad arguments. */
export async function runReplayCli(argv: ReadonlyArray<string>, io: ReplayCliIo): Promise<number> {
  const flags = new Set(argv.filter((a) => a.startsWith('--')))
  const files = argv.filter((a) => !a.startsWith('--'))
  if (flags.has('--help')) {
    io.out(USAGE + '\n')
    return 0
  }
  const unknown = [...flags].filter((f) => !FLAGS.has(f))
  if (unknown.length > 0) {
    io.err(`unknown option ${unknown.join(', ')}\n${USAGE}\n`)
    return 2
  }
  if (files.length === 0) {
    io.err(USAGE + '\n')
    return 2
  }
  const reports: ReplayReport[] = []
  let failed = 0
  for (const file of files) {
    const name = basename(file)
    const read = await readTranscriptFile(file)
    if (!read.ok) {
      io.err(`replay: ${read.error.message}\n`)
      failed++
      continue
    }
    try {
      reports.push(
        await replaySession(importSession(read.parsed), name, {
          naive: !flags.has('--no-naive'),
          staticCacheTtl1h: flags.has('--ttl-1h'),
          keepWarm: !flags.has('--no-keep-warm'),
          thinking: !flags.has('--no-thinking'),
          onPass: (done, total) => {
            if (io.live || done === total) io.err(`${io.live ? '\r' : ''}${name}: ${done}/${total} passes`)
          },
        }),
      )
      io.err('\n')
      // The documented contract (docs/claude-code-import.md): damaged lines are skipped and counted, never fatal.
      const parsed = read.parsed
      if (parsed.skippedTotal > 0) {
        io.err(`replay: ${file}: skipped ${parsed.skippedTotal} of ${parsed.lineCount} lines (${skippedReasons(parsed.skipped)})\n`)
      }
    } catch (err) {
      // A file that holds nothing to replay is the user's to fix, and says so in a line; anything else is a fault
      // in the replay itself, and keeps its stack for whoever fixes it.
      if (!(err instanceof ReplayInputError)) throw err
      io.err(`replay: ${file}: ${err.message}\n`)
      failed++
    }
  }
  if (reports.length > 0) {
    if (flags.has('--json')) {
      const plain = reports.map(({ attributions: _a, attributionMs: _m, ...r }) => r)
      io.out(`${JSON.stringify(plain, null, 2)}\n`)
    } else io.out(`${table(reports)}\n`)
  }
  return failed > 0 ? 1 : 0
}
