/**
 * `npm run bench [-- <name prefix> ...]`: runs every bench/*.bench.ts whose figures match, writes
 * bench/results.json (`{ name, value, unit, baseline?, ratio?, goal?, note? }` per figure) and prints a table.
 */
import { readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Bench, Figure } from './bench'

const benchDir = import.meta.dirname ?? __dirname
const prefixes = process.argv.slice(2).filter((a) => !a.startsWith('-'))

function matches(bench: Bench): boolean {
  if (prefixes.length === 0) return true
  return bench.figures.some((f) => prefixes.some((p) => f.startsWith(p)))
}

function format(value: number | undefined): string {
  if (value === undefined || Number.isNaN(value)) return ''
  if (Number.isInteger(value)) return String(value)
  return Math.abs(value) >= 100 ? value.toFixed(1) : value.toPrecision(4)
}

async function main(): Promise<void> {
  const files = readdirSync(benchDir).filter((f) => f.endsWith('.bench.ts')).sort()
  const results: Figure[] = []
  for (const file of files) {
    const mod = (await import(pathToFileURL(join(benchDir, file)).href)) as { default: Bench | Bench[] }
    const benches = Array.isArray(mod.default) ? mod.default : [mod.default]
    for (const bench of benches.filter(matches)) {
      process.stderr.write(`bench: ${file} (${bench.figures.join(', ')})\n`)
      try {
        const figures = await bench.run()
        results.push(...figures.filter((f) => prefixes.length === 0 || prefixes.some((p) => f.name.startsWith(p))))
      } catch (err) {
        process.stderr.write(`bench: ${file} failed: ${err instanceof Error ? err.stack : String(err)}\n`)
        process.exitCode = 1
      }
    }
  }
  writeFileSync(join(benchDir, 'results.json'), JSON.stringify(results, null, 2) + '\n')
  const rows = [['figure', 'value', 'unit', 'baseline', 'ratio', 'goal'], ...results.map((r) => [r.name, format(r.value), r.unit, format(r.baseline), format(r.ratio), r.goal ?? ''])]
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)))
  for (const [i, row] of rows.entries()) {
    console.log(row.map((cell, j) => cell.padEnd(widths[j]!)).join('  ').trimEnd())
    if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '))
  }
  console.log(`\n${results.length} figures written to bench/results.json`)
}

void main()
