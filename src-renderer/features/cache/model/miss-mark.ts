/**
 * Where the cache timeline draws a miss's triangle (components/TimelineChart.tsx). The triangle sits just above its
 * bar, on the token axis; the pass's $ dot sits on the $ axis, so the two can land on the same spot — the pass that
 * misses is often the dearest, its dot near the top, its bar as tall as the others — and the triangle then covered
 * the dot: neither could be read, and only one could be clicked. The triangle moves out of the dot's way instead:
 * above it where there is room, below it where there is not.
 */

/** The triangle's height, in px: its apex points at the bar. */
export const MISS_MARK_PX = 8
/** The gap the triangle keeps above its bar. */
const ABOVE_BAR_PX = 6
/** The $ dot's radius where it can be clicked (it is drawn smaller), and the gap kept around it. */
export const COST_DOT_HIT_PX = 5
const CLEAR_PX = 2

/**
 * The y of the triangle's apex (it spans `apex − MISS_MARK_PX` to `apex`), from the top of its bar, the y of the
 * pass's $ dot (null when the pass has none) and the highest y the triangle may reach (the chart's top edge).
 */
export function missMarkApex(barTop: number, dotY: number | null, highest: number): number {
  const apex = barTop - ABOVE_BAR_PX
  if (dotY === null) return apex
  const reach = COST_DOT_HIT_PX + CLEAR_PX
  const clear = apex - MISS_MARK_PX >= dotY + reach || apex <= dotY - reach
  if (clear) return apex
  const above = dotY - reach
  return above - MISS_MARK_PX >= highest ? above : dotY + reach + MISS_MARK_PX
}
