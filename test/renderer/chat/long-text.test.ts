import { describe, expect, it } from 'vitest'
import { FOLDED_CHARS, FOLDED_LINES, FOLD_OVER_CHARS, FOLD_OVER_LINES, foldLongText, unfoldLabel } from '../../../src-renderer/features/chat/long-text'

const linesOf = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n')

describe('foldLongText', () => {
  it('leaves a message of up to FOLD_OVER_LINES lines and FOLD_OVER_CHARS characters whole', () => {
    expect(foldLongText('read README.md')).toBeNull()
    expect(foldLongText(linesOf(FOLD_OVER_LINES))).toBeNull()
    expect(foldLongText('x'.repeat(FOLD_OVER_CHARS))).toBeNull()
  })

  it('folds a pasted log to its first lines and says how many there are', () => {
    const log = `why is this slow?\n\n${linesOf(6000)}`
    const folded = foldLongText(log)!
    expect(folded.lines).toBe(6002)
    expect(folded.shown.split('\n')).toHaveLength(FOLDED_LINES)
    expect(log.startsWith(folded.shown)).toBe(true)
    expect(unfoldLabel(folded)).toBe('Show all 6,002 lines')
  })

  it('folds one very long line by characters, never splitting a character in two', () => {
    const oneLine = `${'a'.repeat(FOLDED_CHARS - 1)}😀${'b'.repeat(FOLD_OVER_CHARS)}`
    const folded = foldLongText(oneLine)!
    expect(folded.lines).toBe(1)
    expect(folded.shown).toBe('a'.repeat(FOLDED_CHARS - 1))
    expect(unfoldLabel(folded)).toBe(`Show all ${(oneLine.length).toLocaleString('en-US')} characters`)
  })

  it('folds lines that are few but long at FOLDED_CHARS', () => {
    const wide = Array.from({ length: 20 }, () => 'w'.repeat(400)).join('\n')
    const folded = foldLongText(wide)!
    expect(folded.shown.length).toBeLessThanOrEqual(FOLDED_CHARS)
    expect(unfoldLabel(folded)).toBe('Show all 20 lines')
  })
})
