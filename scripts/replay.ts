/**
 * `npm run replay -- <session.jsonl> [more.jsonl …] [--no-naive] [--ttl-1h] [--no-keep-warm] [--no-thinking] [--json]`: replays
 * recorded Claude Code sessions through Loupe's builder and the simulator, and prints the cached share of input
 * tokens — Loupe, Claude Code on the same session, the best possible (the limit), and a naive client — with Loupe's
 * misses by cause, and what each session cost: Loupe (its keep-warm pre-warms included, and apart), Claude Code from
 * its recorded usage, the naive client. See src-main/node/replay/replay.ts and docs/cache-attribution.md.
 */
import { readFileSync } from 'node:fs'
import { basename } from 'node:path'
import { replayTranscript, type ReplayReport } from '../src-main/node/replay'

const args = process.argv.slice(2)
const files = args.filter((a) => !a.startsWith('--'))
const json = args.includes('--json')

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

async function main(): Promise<void> {
  if (files.length === 0) {
    process.stderr.write('usage: npm run replay -- <session.jsonl> [more.jsonl …] [--no-naive] [--ttl-1h] [--no-keep-warm] [--no-thinking] [--json]\n')
    process.exitCode = 2
    return
  }
  const reports: ReplayReport[] = []
  for (const file of files) {
    const name = basename(file)
    const report = await replayTranscript(readFileSync(file, 'utf8'), name, {
      naive: !args.includes('--no-naive'),
      staticCacheTtl1h: args.includes('--ttl-1h'),
      keepWarm: !args.includes('--no-keep-warm'),
      thinking: !args.includes('--no-thinking'),
      onPass: (done, total) => process.stderr.write(`\r${name}: ${done}/${total} passes`),
    })
    process.stderr.write('\n')
    reports.push(report)
  }
  if (json) {
    const plain = reports.map(({ attributions: _a, attributionMs: _m, ...r }) => r)
    process.stdout.write(`${JSON.stringify(plain, null, 2)}\n`)
  } else process.stdout.write(`${table(reports)}\n`)
}

// No top-level await: package.json has no "type": "module", so tsx runs this file as CommonJS.
void main().catch((err: unknown) => {
  process.stderr.write(`replay: ${err instanceof Error ? err.stack : String(err)}\n`)
  process.exitCode = 1
})
