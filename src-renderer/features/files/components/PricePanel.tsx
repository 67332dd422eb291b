/**
 * What the edit does to the session's next pass, before it is saved: applied now, which block moves, how many
 * tokens the next pass re-bills and what that costs; at the next compaction, that nothing above the breakpoints
 * moves. The choice between the two is made here.
 */
import type { ApplyChoice, EditPriceView } from '../../../state/files'
import { useSlow } from '../../palette/use-slow'

const money = (n: number | null) => (n === null ? '—' : `${n < 0 ? '−' : ''}$${Math.abs(n).toFixed(4)}`)
const signed = (n: number | null) => (n === null ? '' : `${n >= 0 ? '+' : '−'}$${Math.abs(n).toFixed(4)}`)

interface Props {
  readonly sessionTitle: string | null
  readonly dirty: boolean
  readonly price: { readonly now: EditPriceView | null; readonly later: EditPriceView | null; readonly loading: boolean; readonly error: string | null; readonly forDraft: string | null }
  readonly choice: ApplyChoice
  onChoose(choice: ApplyChoice): void
}

export function PricePanel({ sessionTitle, dirty, price, choice, onChoose }: Props) {
  const slow = useSlow(price.loading)
  if (!sessionTitle) {
    return <p className="files-price muted">No session is open in this project: a saved edit is read by the first pass of the next session, at no extra cost.</p>
  }
  if (!dirty) return <p className="files-price muted">Edit the file to see what the change costs the next pass of “{sessionTitle}”.</p>
  if (price.error) return <p className="files-price error">{price.error}</p>
  const now = price.now
  const later = price.later
  return (
    <div className="files-price" aria-busy={price.loading} data-testid="price-panel">
      <div className="files-price-head">
        What this edit does to the next pass of “{sessionTitle}”{slow && <span className="muted"> · pricing…</span>}
      </div>
      {price.forDraft === null ? (
        <p className="muted">Pricing…</p>
      ) : !now ? (
        <p className="muted">The session has not sent a pass yet: nothing is cached, so the edit costs nothing extra.</p>
      ) : (
        <div className="files-price-choices" role="radiogroup" aria-label="When the edit applies">
          <label className={`files-price-choice${choice === 'now' ? ' chosen' : ''}`}>
            <input type="radio" name="apply" checked={choice === 'now'} onChange={() => onChoose('now')} />
            <span>
              <strong>Apply now</strong>
              <span className="files-price-line" data-testid="price-now" data-usd={now.deltaUsd ?? ''} data-tokens={now.rebilledTokens}>
                {now.movedBlock ? (
                  <>
                    moves <code>{now.movedBlock.label}</code>; re-bills ≈{now.rebilledTokens.toLocaleString('en-US')} tokens · next pass {money(now.nextPassUsd)} instead of {money(now.withoutEditUsd)} (<strong>{signed(now.deltaUsd)}</strong>)
                  </>
                ) : (
                  now.label
                )}
              </span>
              {!now.cacheWarm && <span className="muted small">The cache has already expired: the next pass re-bills its prefix either way.</span>}
            </span>
          </label>
          <label className={`files-price-choice${choice === 'later' ? ' chosen' : ''}`}>
            <input type="radio" name="apply" checked={choice === 'later'} onChange={() => onChoose('later')} />
            <span>
              <strong>At the next compaction</strong>
              <span className="files-price-line" data-testid="price-later">
                nothing above the breakpoints moves ({signed(later?.deltaUsd ?? 0)}); the model keeps the old text until the session compacts
              </span>
            </span>
          </label>
        </div>
      )}
    </div>
  )
}
