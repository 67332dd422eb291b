/**
 * How an amount of money is written, wherever it is shown: the renderer's views (src-renderer/ui/format.ts) and the
 * sentences the main process writes for them (what-ifs, edit prices). One rule, so the same amount reads the same in
 * every view.
 */

/** "$12.34" from a dollar up, "$0.0523" below it (a pass costs cents or less, and two decimals would show most
 * passes as $0.00 or $0.01), "<$0.0001" for what is not zero but rounds to it, "−$0.0120" when negative. */
export function usd(n: number | null | undefined): string {
  if (n === null || n === undefined || Number.isNaN(n)) return '—'
  if (n === 0) return '$0'
  const abs = Math.abs(n)
  const sign = n < 0 ? '−' : ''
  if (abs < 0.0001) return `${sign}<$0.0001`
  return `${sign}$${abs.toFixed(abs < 1 ? 4 : 2)}`
}

/** A change in money, its sign always shown: "+$0.0123", "−$0.0040", "$0". */
export function signedUsd(n: number | null | undefined): string {
  return n !== null && n !== undefined && n > 0 ? `+${usd(n)}` : usd(n)
}

/** `n` rounded as usd() writes it: to the cent from a dollar up, to a hundredth of a cent below. */
function asShown(n: number): number {
  const places = Math.abs(n) < 1 ? 4 : 2
  return Math.round(n * 10 ** places) / 10 ** places
}

/**
 * The difference between two amounts shown one after the other as a figure and its part ("+$0.0103: $0.0102 the cache
 * lost, +$0.0001 the rest"), as a reader works it out from them: each rounded as it is shown, then subtracted. The
 * exact difference, rounded on its own, can be a hundredth of a cent off, and the sentence would not add up.
 */
export function shownDifference(a: number, b: number): number {
  return asShown(asShown(a) - asShown(b))
}

/** The most decimals `sideBySide` writes: a millionth of a cent, well below any price's step. */
const MAX_SIDE_PLACES = 8

/**
 * Two amounts said side by side with their difference after them ("Next pass $0.0018 instead of $0.0008 (+$0.0010)"),
 * where the difference is the exact one rounded once — the figure other views give for the same change. Each is
 * written as usd() writes it when a reader's subtraction of the two, as written, gives that difference; when rounding
 * each side moves it (a hundredth of a cent below a dollar, a cent above), both are written with as many more decimals
 * as it takes ("$0.00177 instead of $0.00083 (+$0.0009)"), so the sentence adds up without a figure that disagrees.
 */
export function sideBySide(a: number, b: number): readonly [string, string] {
  const difference = asShown(a - b)
  if (asShown(asShown(a) - asShown(b)) === difference) return [usd(a), usd(b)]
  const written = (n: number, places: number) => `${n < 0 ? '−' : ''}$${Math.abs(n).toFixed(places)}`
  const rounded = (n: number, places: number) => Math.round(n * 10 ** places) / 10 ** places
  let places = Math.abs(a) < 1 && Math.abs(b) < 1 ? 5 : 3
  while (places < MAX_SIDE_PLACES && asShown(rounded(a, places) - rounded(b, places)) !== difference) places++
  return [written(a, places), written(b, places)]
}
