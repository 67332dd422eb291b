/**
 * The context map: one stacked bar of the pass's tokens by source, with a legend. Clicking a source scrolls the
 * request to its first block; clicking a file's source opens the file.
 */
import { memo, useLayoutEffect, useMemo, useRef, useState } from 'react'
import { legendOrder, offBy, type ContextSlice } from '../model/context-map'
import { grouped, tokens } from '../../../ui/format'

/** Rows the legend shows folded: in a narrow inspector each source takes a row, and the bytes keep the room. */
const LEGEND_ROWS = 3

interface Props {
  readonly slices: ReadonlyArray<ContextSlice>
  /** The slices the pass's cache cause names (model/context-map.ts `causeSliceKeys`): listed first, and marked. */
  readonly causeKeys: ReadonlySet<string>
  /**
   * The input tokens the service counted for the pass (read, written and uncached), when it answered: the map's parts
   * are estimates, and the two totals side by side would otherwise read as a disagreement.
   */
  readonly measured?: number | null
  /** Every source listed, or only the rows that fit folded and "+N more"; the request view keeps it from pass to pass. */
  readonly whole: boolean
  onWhole(whole: boolean): void
  onReveal(ordinal: number): void
}

/** The distinct rows of a wrapping box's children, top to bottom, by where each starts. */
function rowTops(children: ReadonlyArray<Element>): number[] {
  return [...new Set(children.map((el) => Math.round(el.getBoundingClientRect().top)))].sort((a, b) => a - b)
}

export const ContextMap = memo(function ContextMap({ slices, causeKeys, measured = null, whole, onWhole, onReveal }: Props) {
  const ordered = useMemo(() => legendOrder(slices, causeKeys), [slices, causeKeys])
  const legend = useRef<HTMLDivElement>(null)
  // How many sources fit in the folded rows with "+N more" after them, measured before the legend is painted: null
  // while every source is laid out to be measured (a new pass, a new width).
  const [fit, setFit] = useState<number | null>(null)
  // Whether the whole legend is taller than the folded rows, so that "Fewer" would fold anything.
  const [foldable, setFoldable] = useState(false)
  const [width, setWidth] = useState(0)
  useLayoutEffect(() => setFit(null), [ordered, width])
  useLayoutEffect(() => {
    const box = legend.current
    if (!box) return
    const observer = new ResizeObserver(() => setWidth(box.clientWidth))
    observer.observe(box)
    return () => observer.disconnect()
  }, [])
  useLayoutEffect(() => {
    const box = legend.current
    if (!box) return
    const items = [...box.querySelectorAll('.insp-map-item')]
    if (whole || fit === null) {
      const rows = rowTops(items)
      setFoldable(rows.length > LEGEND_ROWS)
      if (whole || fit !== null) return
      // All of it shown: the sources that start on the folded rows fit, less what "+N more" needs (checked below).
      setFit(rows.length <= LEGEND_ROWS ? ordered.length : items.filter((el) => Math.round(el.getBoundingClientRect().top) <= rows[LEGEND_ROWS - 1]!).length)
      return
    }
    // "+N more" wrapped to a row of its own: it takes the place of the last source shown.
    const more = box.querySelector('.insp-map-more')
    if (more && fit > 0 && rowTops([...items, more]).indexOf(Math.round(more.getBoundingClientRect().top)) >= LEGEND_ROWS) setFit(fit - 1)
  })

  const total = slices.reduce((sum, s) => sum + s.tokens, 0)
  if (total === 0) return null
  const pct = (n: number) => `${((100 * n) / total).toFixed(n / total < 0.1 ? 1 : 0)}%`
  const shown = whole || fit === null ? ordered : ordered.slice(0, fit)
  const hidden = ordered.slice(shown.length)
  return (
    <figure className="insp-map" aria-label="Context map">
      <div className="insp-map-bar" role="img" aria-label={slices.map((s) => `${s.label} ${tokens(s.tokens)} tokens`).join(', ')}>
        {slices.map((s) => (
          <span
            key={s.key}
            className={`insp-map-slice g-${s.group}`}
            style={{ flexGrow: s.tokens }}
            title={`${s.label}: ≈${grouped(s.tokens)} tokens (${pct(s.tokens)})`}
            onClick={() => onReveal(s.firstOrdinal)}
          />
        ))}
      </div>
      {/* The source the pass's cause names first, then the largest: the biggest parts are what the map is for. Folded,
          the legend shows its first rows whole and says how many more there are; unfolded, every source. The bar above
          keeps the request's order. The total stays beside the legend. */}
      <figcaption className="insp-map-caption">
        <div ref={legend} className="insp-map-legend">
          {shown.map((s) => {
            const cause = causeKeys.has(s.key)
            return (
              <button
                key={s.key}
                type="button"
                className={`insp-map-item${cause ? ' cause' : ''}`}
                data-cause={cause || undefined}
                onClick={() => onReveal(s.firstOrdinal)}
                title={`Show ${s.label} in the request${cause ? ' (what the pass’s cache cause names)' : ''}`}
              >
                <i className={`insp-map-dot g-${s.group}`} />
                <span className="insp-map-label">{s.label}</span>
                <span className="insp-map-tok">
                  {tokens(s.tokens)} · {pct(s.tokens)}
                </span>
              </button>
            )
          })}
          {/* One button that says "+N more" or "Fewer": the same element either way, so the keyboard stays on it. */}
          {(whole ? foldable : hidden.length > 0) && (
            <button type="button" className="insp-map-more" aria-expanded={whole} onClick={() => onWhole(!whole)} title={whole ? undefined : hidden.map((s) => s.label).join(', ')}>
              {whole ? 'Fewer' : `+${hidden.length} more`}
            </button>
          )}
        </div>
        <span className="insp-map-total" data-testid="context-map-total" title={measured === null ? undefined : "Counted by the model service for this pass's input: read from the cache, written to it, and uncached"}>
          {measured === null ? `≈${tokens(total)} tokens in all (estimates)` : `≈${tokens(total)} tokens by estimate; ${tokens(measured)} counted${offBy(total, measured)}`}
        </span>
      </figcaption>
    </figure>
  )
})
