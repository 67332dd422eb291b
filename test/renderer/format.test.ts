/** The shared formats: one amount of money, one count, one time reads the same in every view. */
import { describe, expect, it } from 'vitest'
import { clock, dateTime, grouped, oneLine, sideBySide, signedUsd, tokens, usd } from '../../src-renderer/ui/format'

describe('usd', () => {
  it('writes dollars with two decimals and amounts below a dollar with four', () => {
    expect(usd(12.345)).toBe('$12.35')
    expect(usd(1)).toBe('$1.00')
    expect(usd(0.0523)).toBe('$0.0523')
    expect(usd(0.5)).toBe('$0.5000')
  })

  it('says zero, nothing, and what is not zero but rounds to it, apart', () => {
    expect(usd(0)).toBe('$0')
    expect(usd(null)).toBe('—')
    expect(usd(undefined)).toBe('—')
    expect(usd(Number.NaN)).toBe('—')
    expect(usd(0.00004)).toBe('<$0.0001')
  })

  it('marks negative amounts with a minus sign', () => {
    expect(usd(-0.012)).toBe('−$0.0120')
    expect(usd(-3.5)).toBe('−$3.50')
  })

  it('shows the sign of a change always', () => {
    expect(signedUsd(0.0123)).toBe('+$0.0123')
    expect(signedUsd(-0.004)).toBe('−$0.0040')
    expect(signedUsd(0)).toBe('$0')
    expect(signedUsd(null)).toBe('—')
  })

  it('writes two amounts said with their difference so that they add up to it, with more decimals only where rounding each would not', () => {
    expect(sideBySide(0.0119, 0.0016)).toEqual(['$0.0119', '$0.0016'])
    // $0.0018 − $0.0008 reads $0.0010; the difference, rounded once, is $0.0009.
    expect(sideBySide(0.00177, 0.00083)).toEqual(['$0.00177', '$0.00083'])
    // From a dollar up usd() writes cents: $3.12 − $3.05 would read $0.07 for a change of $0.0712.
    expect(sideBySide(3.1234, 3.0522)).toEqual(['$3.1234', '$3.0522'])
    expect(sideBySide(3.12, 3.05)).toEqual(['$3.12', '$3.05'])
  })
})

describe('counts and times', () => {
  it('groups digits and shortens large token counts', () => {
    expect(grouped(1234567)).toBe('1,234,567')
    expect(grouped(-1200)).toBe('-1,200')
    expect(tokens(9_999)).toBe('9,999')
    expect(tokens(12_345)).toBe('12.3k')
    expect(tokens(123_456)).toBe('123k')
    expect(tokens(null)).toBe('—')
  })

  it('writes times on a 24-hour clock and dates year first', () => {
    const at = new Date(2026, 10, 29, 19, 4, 7).getTime()
    expect(clock(at)).toBe('19:04:07')
    expect(dateTime(at)).toBe('2026-11-29 19:04')
  })
})

describe('oneLine', () => {
  it('collapses spaces and line breaks, and cuts at a code point with an ellipsis', () => {
    expect(oneLine('  keep the\n\tAPI   notes ')).toBe('keep the API notes')
    expect(oneLine('🙂'.repeat(100))).toBe(`${'🙂'.repeat(79)}…`)
    expect(oneLine(`${'a'.repeat(78)} b c`, 80)).toBe(`${'a'.repeat(78)}…`)
  })
})
