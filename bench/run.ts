/**
 * `npm run bench [-- <name prefix> ...]`: runs every bench/*.bench.ts whose figures match, writes
 * bench/results.json (`{ name, value, unit, baseline?, ratio?, goal?, note? }` per figure) and prints a table of the
 * figures measured. A run picked by prefix replaces those figures in results.json and keeps the others, so the file
 * always holds the latest figure of each name.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
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

const resultsPath = join(benchDir, 'results.json')

/**
 * The figures of this run, with the figures of earlier runs that this one did not measure after them (a run of every
 * bench keeps nothing older). An unreadable results.json is replaced.
 */
function mergedResults(fresh: ReadonlyArray<Figure>): Figure[] {
  if (prefixes.length === 0 || !existsSync(resultsPath)) return [...fresh]
  let earlier: Figure[] = []
  try {
    const parsed: unknown = JSON.parse(readFileSync(resultsPath, 'utf8'))
    if (Array.isArray(parsed)) earlier = parsed as Figure[]
  } catch {
    process.stderr.write('bench: results.json could not be read; it is written anew\n')
  }
  // Each figure measured again takes its old place; new ones go at the end.
  const byName = new Map(fresh.map((f) => [f.name, f]))
  const kept = earlier.map((f) => byName.get(f.name) ?? f)
  const known = new Set(earlier.map((f) => f.name))
  return [...kept, ...fresh.filter((f) => !known.has(f.name))]
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
  writeFileSync(resultsPath, JSON.stringify(mergedResults(results), null, 2) + '\n')
  const rows = [['figure', 'value', 'unit', 'baseline', 'ratio', 'goal'], ...results.map((r) => [r.name, format(r.value), r.unit, format(r.baseline), format(r.ratio), r.goal ?? ''])]
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)))
  for (const [i, row] of rows.entries()) {
    console.log(row.map((cell, j) => cell.padEnd(widths[j]!)).join('  ').trimEnd())
    if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '))
  }
  console.log(`\n${results.length} figures measured, written to bench/results.json`)
}

void main()
