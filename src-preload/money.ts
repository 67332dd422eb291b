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
 * The difference between two amounts shown side by side ("$0.0018 instead of $0.0008"), as a reader works it out from
 * them: each rounded as it is shown, then subtracted. The exact difference, rounded on its own, can be a hundredth of
 * a cent off (+$0.0009), and the sentence would not add up.
 */
export function shownDifference(a: number, b: number): number {
  return asShown(asShown(a) - asShown(b))
}
