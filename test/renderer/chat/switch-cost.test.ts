/** A model switch's question says what the switch costs, and a switch back what the other model still holds. */
import { describe, expect, it } from 'vitest'
import { switchCost } from '../../../src-renderer/features/chat/switch-cost'
import type { EditPriceView } from '../../../src-renderer/state/files'

const cold: EditPriceView = {
  movedBlock: { path: 'tools[0]', label: 'everything: the cache is per model (claude-opus-4-6)' },
  rebilledTokens: 6489,
  nextPassUsd: 0.0406,
  withoutEditUsd: 0.0019,
  deltaUsd: 0.0386,
  cacheWarm: true,
  addedTokens: 0,
  exact: true,
  label: 'moves tools[0]: the next pass re-bills 6,489 tokens (+$0.0386)',
}

describe('what a model switch costs, in words', () => {
  it('says a switch to a model with nothing cached starts afresh', () => {
    expect(switchCost(cold)).toBe('starts the cache afresh (it is kept per model): the next pass writes 6,489 tokens it would have read, +$0.0386 on the next pass.')
  })

  it('says a switch back reads what that model still holds, and writes only the rest', () => {
    const back = { ...cold, cachedOnModel: 6315, rebilledTokens: 182, deltaUsd: -0.0007 }
    expect(switchCost(back)).toBe('reads 6,315 tokens that model still holds cached from its earlier passes (it is kept per model); the next pass writes 182 tokens it would have read, −$0.0007 on the next pass.')
    expect(switchCost({ ...back, exact: false })).toMatch(/^reads ≈6,315 tokens .*writes ≈182 tokens/)
    // This model's entries expired, that model's (a 1h entry) still live: the read there is still said.
    expect(switchCost({ ...back, cacheWarm: false, rebilledTokens: 0 })).toMatch(/^reads 6,315 tokens that model still holds cached/)
    expect(switchCost({ ...back, rebilledTokens: 0 })).toBe('reads 6,315 tokens that model still holds cached from its earlier passes (it is kept per model), so the next pass writes nothing it would have read, −$0.0007 on the next pass.')
  })
  it('after a compaction to a model whose minimum is over what staying reads, says none of it is cache lost, as the Cache view will', () => {
    const short = { ...cold, rebilledTokens: 2655, exact: false, deltaUsd: 0.0041, switchLostUsd: 0, rebilledUnderMinimum: { minimum: 4096 } }
    expect(switchCost(short)).toBe(
      "starts the cache afresh (it is kept per model): the next pass writes ≈2,655 tokens it would have read, +$0.0041 on the next pass from that model's prices and minimum. That model caches nothing under 4,096 tokens, so it could not have read them either: none of it is cache lost, and the Cache view will count no loss for that pass.",
    )
    expect(switchCost(short)).not.toMatch(/for the cache it loses/)
  })

  it('after a message taken back, says the Cache view will count more as that pass\'s loss, with what the take-back lost', () => {
    const taken = { ...cold, switchLostUsd: (6489 * 5.75) / 1e6, historyChanged: true as const }
    expect(switchCost(taken)).toBe(
      "starts the cache afresh (it is kept per model): the next pass writes 6,489 tokens it would have read, +$0.0386 on the next pass: $0.0373 for the cache it loses (the Cache view will count more as that pass's loss, with what taking the message back lost) and +$0.0013 from that model's prices.",
    )
  })

  it("splits the switch's $ into the cache it loses, the figure the Cache view gives that pass, and the other model's prices", () => {
    // Sonnet 4.6 to Opus 4.8: 6,489 tokens written at $6.25/MTok where Opus would read them at $0.50 is the loss;
    // Opus reading at $0.50 where Sonnet reads at $0.30 is the rest.
    const split = { ...cold, switchLostUsd: (6489 * 5.75) / 1e6 }
    expect(switchCost(split)).toBe(
      "starts the cache afresh (it is kept per model): the next pass writes 6,489 tokens it would have read, +$0.0386 on the next pass: $0.0373 for the cache it loses (what the Cache view will count as that pass's loss) and +$0.0013 from that model's prices.",
    )
    // All of it the cache: nothing said of prices.
    expect(switchCost({ ...split, deltaUsd: split.switchLostUsd })).toMatch(/\+\$0\.0373 on the next pass: \$0\.0373 for the cache it loses \(what the Cache view will count as that pass's loss\)\.$/)
    // Nothing to lose (the cache has expired): the $ is the other model's prices alone.
    expect(switchCost({ ...split, cacheWarm: false, rebilledTokens: 0, switchLostUsd: 0, deltaUsd: 0.0012 })).toMatch(/writes its prompt either way, \+\$0\.0012 on the next pass, from that model's prices\.$/)
  })
})
