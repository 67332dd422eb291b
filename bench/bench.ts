/**
 * The shape every benchmark file follows. `npm run bench` (bench/run.ts) loads every `bench/*.bench.ts`, whose
 * default export is a `Bench` or an array of them, runs the ones matching the name prefix given on the command
 * line, and writes bench/results.json plus a table.
 *
 * Figures are stable ids (`host.cold_start_ms`): later work keeps the names so results can be compared over time.
 * A figure compared against a baseline measured in the same run carries `baseline` and `ratio` (ours / baseline).
 */
export interface Figure {
  readonly name: string
  readonly value: number
  readonly unit: string
  readonly baseline?: number
  readonly ratio?: number
  /** The figure's goal, e.g. "< 5" — shown in the table, never asserted. */
  readonly goal?: string
  readonly note?: string
}

export interface Bench {
  /** The figure names this bench produces; `npm run bench -- <prefix>` runs a bench if any name matches. */
  readonly figures: ReadonlyArray<string>
  run(): Promise<ReadonlyArray<Figure>>
}

/** Percentile by nearest rank over a copy of the samples. */
export function percentile(samples: ReadonlyArray<number>, p: number): number {
  if (samples.length === 0) return Number.NaN
  const sorted = [...samples].sort((a, b) => a - b)
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[rank]!
}

/** Milliseconds elapsed while `fn` runs, with a high-resolution clock. */
export async function timeMs(fn: () => unknown | Promise<unknown>): Promise<number> {
  const start = performance.now()
  await fn()
  return performance.now() - start
}

/** The median time of `runs` runs of `fn`, after one warm-up run. */
export async function medianMs(fn: () => unknown | Promise<unknown>, runs: number): Promise<number> {
  await fn()
  const times: number[] = []
  for (let i = 0; i < runs; i++) times.push(await timeMs(fn))
  return percentile(times, 50)
}

export function round(value: number, digits = 3): number {
  const f = 10 ** digits
  return Math.round(value * f) / f
}
