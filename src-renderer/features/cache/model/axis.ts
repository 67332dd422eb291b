/**
 * The cache timeline's two axes (tokens on the left, $ per pass on the right): five gridlines, 0 to the axis's top in
 * quarters. The top is four times a round step, so every gridline falls on a round number that reads in as few digits
 * as the app's other figures: $0.006, $0.012, $0.018, $0.024 — not the quarters of a round top ($0.00625, $0.01875).
 */

/** Steps between gridlines: one or two significant digits, whose multiples by 1 to 4 keep as few. */
const STEPS = [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10]

/** The smallest round step at or above `n`. */
export function roundStep(n: number): number {
  if (!(n > 0)) return 1
  const p = 10 ** Math.floor(Math.log10(n))
  // 1e-9 absorbs the floating-point error of `m * p` (0.3 × 0.01 is 0.0030000000000000005).
  for (const m of STEPS) if (m * p >= n * (1 - 1e-9)) return m * p
  return 10 * p
}

/** The axis's gridline values, 0 first, the top last (at or above `max`). */
export function axisTicks(max: number): number[] {
  const step = roundStep(max / 4)
  return [0, 1, 2, 3, 4].map((i) => Number((i * step).toPrecision(12)))
}

/** A token tick: 600, 1.2k, 2.5k, 3M — as many decimals as the tick needs, never a rounded-off value. */
export const tokenTick = (n: number): string =>
  n >= 1_000_000 ? `${Number((n / 1_000_000).toFixed(3))}M` : n >= 1000 ? `${Number((n / 1000).toFixed(3))}k` : String(Math.round(n))

/** A dollar tick: $0, $0.006, $0.0125, $1.5 (never more than the four decimals the app's $ figures show). */
export const usdTick = (n: number): string => `$${Number(n.toFixed(4))}`
