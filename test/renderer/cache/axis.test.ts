import { describe, expect, it } from 'vitest'
import { axisTicks, tokenTick, usdTick } from '../../../src-renderer/features/cache/model/axis'

describe('the cache timeline axes', () => {
  it('the $ axis ticks are round, in at most four decimals, like every other $ figure', () => {
    // A session whose dearest pass cost $0.0235: the top was $0.025, and its quarters read $0.00625 and $0.01875.
    expect(axisTicks(0.0235).map(usdTick)).toEqual(['$0', '$0.006', '$0.012', '$0.018', '$0.024'])
    expect(axisTicks(0.0478).map(usdTick)).toEqual(['$0', '$0.012', '$0.024', '$0.036', '$0.048'])
    expect(axisTicks(0.02).map(usdTick)).toEqual(['$0', '$0.005', '$0.01', '$0.015', '$0.02'])
    expect(axisTicks(1.3).map(usdTick)).toEqual(['$0', '$0.4', '$0.8', '$1.2', '$1.6'])
    for (const max of [0.0007, 0.003, 0.0111, 0.0391, 0.09, 0.2, 3.7]) {
      const ticks = axisTicks(max)
      expect(ticks.at(-1)).toBeGreaterThanOrEqual(max)
      expect(ticks.at(-1)! / max).toBeLessThan(1.5)
      for (const t of ticks) expect(usdTick(t).replace(/^\$/, '')).toBe(String(t))
    }
  })
  it('the token axis ticks are round numbers too', () => {
    expect(axisTicks(7261).map(tokenTick)).toEqual(['0', '2k', '4k', '6k', '8k'])
    expect(axisTicks(2200).map(tokenTick)).toEqual(['0', '600', '1.2k', '1.8k', '2.4k'])
    expect(axisTicks(10_000).map(tokenTick)).toEqual(['0', '2.5k', '5k', '7.5k', '10k'])
  })
})
