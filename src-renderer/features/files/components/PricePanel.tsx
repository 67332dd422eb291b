/**
 * What the edit does to the session's next pass, before it is saved: applied now, which block moves, how many
 * tokens the next pass re-bills and what that costs; at the next compaction, that nothing above the breakpoints
 * moves and what the note about it costs. Figures counted by the model service are shown as they are; when it could
 * not count, they are estimates and say so. The choice between the two is made here.
 */
import type { ApplyChoice, EditPriceView } from '../../../state/files'
import { useSlow } from '../../palette/use-slow'
import { laterWords, nowWords, ownTokensNow, withoutSessionWords } from '../price-words'
import { WithNames } from '../../../ui/Isolated'

interface Props {
  /** The session of Loupe's the edit is priced for; null when there is none. */
  readonly sessionTitle: string | null
  /** The session shown when it takes no messages (imported or captured): nothing is priced against it. */
  readonly readOnlySession?: { readonly title: string; readonly origin: 'transcript' | 'captured' } | null
  /** The file edited, and how many sessions of Loupe's its project has: what a save does with none selected. */
  readonly path: string
  readonly loupeSessions: number
  readonly dirty: boolean
  readonly price: { readonly now: EditPriceView | null; readonly later: EditPriceView | null; readonly base?: EditPriceView | null; readonly loading: boolean; readonly error: string | null; readonly forDraft: string | null }
  readonly choice: ApplyChoice
  /** The text in the editor: the price shown is current when it was made for exactly this. */
  readonly draft: string
  onChoose(choice: ApplyChoice): void
}

export function PricePanel({ sessionTitle, readOnlySession = null, path, loupeSessions, dirty, price, choice, draft, onChoose }: Props) {
  const slow = useSlow(price.loading)
  if (!sessionTitle && readOnlySession) {
    // The price is what Loupe's next pass pays for the edit, and this session will send none.
    return (
      <p className="files-price muted" data-testid="price-read-only">
        “<bdi>{readOnlySession.title}</bdi>” was {readOnlySession.origin === 'captured' ? 'captured by the proxy' : 'imported from Claude Code'} and takes no messages: Loupe sends no pass in it, so there is no price to show and nothing to apply it to. A saved edit is read by the first pass of a new session.
      </p>
    )
  }
  if (!sessionTitle) {
    return (
      <p className="files-price muted" data-testid="price-no-session">
        <WithNames text={withoutSessionWords(path, loupeSessions)} names={[path]} dir="ltr" />
      </p>
    )
  }
  if (!dirty) return <p className="files-price muted">Edit the file to see what the change costs the next pass of “<bdi>{sessionTitle}</bdi>”.</p>
  if (price.error) return <p className="files-price error">{price.error}</p>
  const now = price.now
  const later = price.later
  const nowText = now ? nowWords(now, price.base ?? null) : null
  const laterText = laterWords(later)
  return (
    <div className="files-price" aria-busy={price.loading} data-testid="price-panel" data-current={!price.loading && price.forDraft === draft && price.now !== null}>
      <div className="files-price-head">
        What this edit does to the next pass of “<bdi>{sessionTitle}</bdi>”{slow && <span className="muted"> · pricing…</span>}
      </div>
      {price.forDraft === null ? (
        <p className="muted">Pricing…</p>
      ) : !now || !nowText ? (
        <p className="muted">The session has not sent a pass yet: nothing is cached, so the edit costs nothing extra.</p>
      ) : (
        <>
          <div className="files-price-choices" role="radiogroup" aria-label="When the edit applies">
            <label className={`files-price-choice${choice === 'now' ? ' chosen' : ''}`}>
              <input type="radio" name="apply" checked={choice === 'now'} onChange={() => onChoose('now')} />
              <span>
                <strong>Apply now</strong>
                <span className="files-price-sum" data-testid="price-now-sum">
                  {nowText.summary}
                </span>
              </span>
            </label>
            <label className={`files-price-choice${choice === 'later' ? ' chosen' : ''}`}>
              <input type="radio" name="apply" checked={choice === 'later'} onChange={() => onChoose('later')} />
              <span>
                <strong>At the next compaction</strong>
                <span className="files-price-sum" data-testid="price-later-sum">
                  {laterText.summary}
                </span>
              </span>
            </label>
          </div>
          {/* The chosen one's figures, the width of the pane: both choices stay in view above them. */}
          {choice === 'now' ? (
            <p
              className="files-price-line"
              data-testid="price-now"
              data-usd={now.deltaUsd ?? ''}
              data-tokens={now.rebilledTokens}
              data-added={now.addedTokens}
              data-own={ownTokensNow(now, price.base ?? null) ?? ''}
              data-next-usd={now.nextPassUsd ?? ''}
              data-without-usd={now.withoutEditUsd ?? ''}
              data-exact={now.exact}
            >
              {nowText.detail.join(' ')}
            </p>
          ) : (
            <p className="files-price-line" data-testid="price-later" data-usd={later?.deltaUsd ?? ''} data-added={later?.addedTokens ?? ''} data-exact={later?.exact ?? ''}>
              {laterText.detail.join(' ')}
            </p>
          )}
          {/* How the figures were made, folded: the editor above keeps the height (the panel sits under it). */}
          <details className="files-price-basis muted small">
            <summary>{now.exact && (later?.exact ?? true) ? 'Counted by the model service' : 'Estimated'}: how</summary>
            <span data-testid="price-basis">
              {now.exact && (later?.exact ?? true)
                ? 'Counted by the model service (count_tokens) on the next request as it would be sent; the message you type next costs the same either way and is left out.'
                : 'Estimated (about 4 characters a token, scaled to what earlier passes measured): the model service could not count the next request just now.'}{' '}
              The choice between now and the next compaction is kept for the next edits.
            </span>
          </details>
        </>
      )}
    </div>
  )
}
