/**
 * The context map: one stacked bar of the pass's tokens by source, with a legend. Clicking a source scrolls the
 * request to its first block; clicking a file's source opens the file.
 */
import { memo } from 'react'
import { offBy, type ContextSlice } from '../model/context-map'
import { grouped, tokens } from '../../../ui/format'

interface Props {
  readonly slices: ReadonlyArray<ContextSlice>
  /**
   * The input tokens the service counted for the pass (read, written and uncached), when it answered: the map's parts
   * are estimates, and the two totals side by side would otherwise read as a disagreement.
   */
  readonly measured?: number | null
  onReveal(ordinal: number): void
}

export const ContextMap = memo(function ContextMap({ slices, measured = null, onReveal }: Props) {
  const total = slices.reduce((sum, s) => sum + s.tokens, 0)
  if (total === 0) return null
  const pct = (n: number) => `${((100 * n) / total).toFixed(n / total < 0.1 ? 1 : 0)}%`
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
      {/* Largest first: the legend shows three whole rows before it scrolls, and the biggest parts are what the map is
          for. The bar above keeps the request's order. The total stays beside the legend, never scrolled away. */}
      <figcaption className="insp-map-caption">
        <div className="insp-map-legend">
          {[...slices].sort((a, b) => b.tokens - a.tokens).map((s) => (
            <button key={s.key} type="button" className="insp-map-item" onClick={() => onReveal(s.firstOrdinal)} title={`Show ${s.label} in the request`}>
              <i className={`insp-map-dot g-${s.group}`} />
              <span className="insp-map-label">{s.label}</span>
              <span className="insp-map-tok">
                {tokens(s.tokens)} · {pct(s.tokens)}
              </span>
            </button>
          ))}
        </div>
        <span className="insp-map-total" data-testid="context-map-total" title={measured === null ? undefined : "Counted by the model service for this pass's input: read from the cache, written to it, and uncached"}>
          {measured === null ? `≈${tokens(total)} tokens in all (estimates)` : `≈${tokens(total)} tokens by estimate; ${tokens(measured)} counted${offBy(total, measured)}`}
        </span>
      </figcaption>
    </figure>
  )
})
