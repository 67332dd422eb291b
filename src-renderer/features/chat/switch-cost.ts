/**
 * What a model switch costs, in words for its question in the chat's header (decision 0021), from the price
 * `cache.priceEdit` gives (docs/cache-attribution.md, "Edits priced before they happen").
 */
import type { EditPriceView } from '../../state/files'
import { shownDifference, signedUsd, usd } from '../../ui/format'

/**
 * The switch's $ against staying, and what it is made of: the cache lost (written on the new model where, as warm as
 * the old one, it would have read) — the figure the Cache view and the inspector give as the next pass's loss, which
 * is measured against the best possible on its own model — and the two models' prices for the same prompt. Without
 * the split a user sees "+$0.0386" here and "lost $0.0372" there for the same switch. The parts are each rounded as
 * shown and the second is the shown difference, so the sentence adds up.
 */
function deltaWords(price: EditPriceView): string {
  if (price.deltaUsd === null) return ''
  const total = `, ${signedUsd(price.deltaUsd)} on the next pass`
  const lost = price.switchLostUsd
  if (lost === undefined) return total
  const lostShown = shownDifference(lost, 0)
  const prices = shownDifference(price.deltaUsd, lost)
  if (lostShown === 0) return prices === 0 ? total : `${total}, from that model's prices`
  // After a message taken back, the Cache view measures that pass against the last pass's prefix, which held what the
  // taken-back message followed: it counts the take-back's loss there too.
  const counted = price.historyChanged ? 'the Cache view will count more as that pass\'s loss, with what taking the message back lost' : "what the Cache view will count as that pass's loss"
  const cache = `${usd(lost)} for the cache it loses (${counted})`
  return prices === 0 ? `${total}: ${cache}` : `${total}: ${cache} and ${signedUsd(prices)} from that model's prices`
}

/** What a switch costs, in the price's own words: the next pass re-bills the whole prompt, and its $ against staying. */
export function switchCost(price: EditPriceView): string {
  const tokens = `${price.exact ? '' : '≈'}${price.rebilledTokens.toLocaleString('en-US')} tokens`
  const delta = deltaWords(price)
  // Not a one-off: under the other model's minimum, no pass of this session is cached until it grows past it.
  const none = price.uncacheable
  if (none) {
    const size = `${price.exact ? '' : '≈'}${none.tokens.toLocaleString('en-US')}`
    const each = none.perPassUsd === null ? '' : ` (${signedUsd(none.perPassUsd)} a pass against staying)`
    return `caches none of this session: that model caches nothing under ${none.minimum.toLocaleString('en-US')} tokens, and this prompt is ${size}. Every pass pays for all of it in full until the conversation grows past that${each}.`
  }
  // A switch back: the other model's cache still holds what its own passes wrote, and the next pass reads that there —
  // said even where this model's entries have expired (a 1h entry on that model can outlive them).
  const held = price.cachedOnModel ?? 0
  if (held > 0) {
    const rest = price.rebilledTokens > 0 ? `; the next pass writes ${tokens} it would have read` : ', so the next pass writes nothing it would have read'
    return `reads ${price.exact ? '' : '≈'}${held.toLocaleString('en-US')} tokens that model still holds cached from its earlier passes (it is kept per model)${rest}${delta}.`
  }
  // What staying would read is under that model's minimum (after a compaction, the tools and system alone): it could
  // not have read it however warm, so the Cache view counts no loss for that pass, and the $ is all that model's.
  const short = price.rebilledUnderMinimum
  if (short && price.cacheWarm) {
    const cost = price.deltaUsd === null ? '' : `, ${signedUsd(price.deltaUsd)} on the next pass from that model's prices and minimum`
    return `starts the cache afresh (it is kept per model): the next pass writes ${tokens} it would have read${cost}. That model caches nothing under ${short.minimum.toLocaleString('en-US')} tokens, so it could not have read them either: none of it is cache lost, and the Cache view will count no loss for that pass.`
  }
  if (!price.cacheWarm) return `costs no cache read: nothing of this session is in the cache now (expired, or under the model's minimum), so the next pass writes its prompt either way${delta}.`
  return `starts the cache afresh (it is kept per model): the next pass writes ${tokens} it would have read${delta}.`
}
