import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { capOutput, capText, HeadTailBuffer, renderCapped } from '../../../src-main/engine/tools'

const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n') + '\n'

describe('capping', () => {
  it('leaves text within the budget alone', () => {
    expect(capOutput('short', 100, 'head_and_tail', 'hint')).toBe('short')
  })

  it('keeps the head, cut at a line break, with a note saying how to get the rest', () => {
    const text = lines(1000)
    const out = capOutput(text, 200, 'head', 'Use offset.')
    expect(out.startsWith('line 1\nline 2\n')).toBe(true)
    expect(out).toMatch(/\[… \d+ of \d+ characters omitted here\. Use offset\.\]$/)
    expect(out.split('\n').slice(0, -1).every((l) => /^line \d+$/.test(l))).toBe(true)
  })

  it('keeps both ends for command output', () => {
    const out = capOutput(lines(1000), 200, 'head_and_tail', 'Redirect.')
    expect(out.startsWith('line 1\n')).toBe(true)
    expect(out.endsWith('line 1000\n')).toBe(true)
    expect(out).toContain('the end follows. Redirect.]')
  })

  it('never keeps more than the budget, and accounts for every character', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 500 }), fc.integer({ min: 2, max: 300 }), fc.constantFrom('head', 'head_and_tail' as const), (text, max, shape) => {
        const capped = capText(text, max, shape)
        expect(capped.head.length + capped.tail.length).toBeLessThanOrEqual(max)
        expect(capped.head.length + capped.tail.length + capped.omittedChars).toBe(text.length)
        expect(text.startsWith(capped.head)).toBe(true)
        expect(text.endsWith(capped.tail)).toBe(true)
      }),
    )
  })
})

describe('HeadTailBuffer', () => {
  it('keeps the ends of a stream of any chunking within bounded memory', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 80 }), { maxLength: 60 }), fc.integer({ min: 2, max: 200 }), (chunks, max) => {
        const buffer = new HeadTailBuffer(max)
        for (const chunk of chunks) buffer.push(chunk)
        const all = chunks.join('')
        const result = buffer.result()
        expect(result.totalChars).toBe(all.length)
        expect(result.head.length + result.tail.length).toBeLessThanOrEqual(max)
        expect(result.head.length + result.tail.length + result.omittedChars).toBe(all.length)
        expect(all.startsWith(result.head)).toBe(true)
        expect(all.endsWith(result.tail)).toBe(true)
        if (all.length <= max) expect(renderCapped(result, '')).toBe(all)
      }),
    )
  })
})
