/** The span a text from outside (Revert) replaces in the editor, as one undoable edit (decision 0046). */
import { describe, expect, it } from 'vitest'
import { BOM, changedSpan, editorChange } from '../../../src-renderer/features/files/components/changed-span'

const apply = (from: string, to: string) => {
  const span = changedSpan(from, to)
  return span ? from.slice(0, span.start) + span.text + from.slice(span.end) : from
}

describe('the span that differs', () => {
  it('is only what changed, and turns one text into the other', () => {
    expect(changedSpan('# Style\n\nTwo-space indent.\nMY-EDIT\n', '# Style\n\nTwo-space indent.\n')).toEqual({ start: 27, end: 35, text: '' })
    expect(changedSpan('abc', 'aXc')).toEqual({ start: 1, end: 2, text: 'X' })
    expect(changedSpan('abc', 'abc')).toBeNull()
    expect(changedSpan('', 'new file')).toEqual({ start: 0, end: 0, text: 'new file' })
    expect(changedSpan('all of it', '')).toEqual({ start: 0, end: 9, text: '' })
    // A repeated letter at the seam: the prefix and suffix do not overlap.
    expect(changedSpan('aaa', 'aa')).toEqual({ start: 2, end: 3, text: '' })
    expect(changedSpan('aa', 'aaa')).toEqual({ start: 2, end: 2, text: 'a' })
    for (const [from, to] of [['one\ntwo\nthree', 'one\nthree'], ['x', 'yxy'], ['abab', 'ab'], ['héllo 🙂', 'hello 🙃'], ['a\r\nb', 'a\r\nc\r\nb']]) expect(apply(from!, to!)).toBe(to)
  })

  it('never splits a CRLF line break or a surrogate pair', () => {
    // "\r" then "\n" differs from "\r" then "x": the span starts before the "\r".
    expect(changedSpan('a\r\nb', 'a\rxb')).toEqual({ start: 1, end: 3, text: '\rx' })
    expect(changedSpan('a\r\nb', 'ax\r\nb')).toEqual({ start: 1, end: 1, text: 'x' })
    expect(changedSpan('a\r\nb', 'a\nb')).toEqual({ start: 1, end: 3, text: '\n' })
    // 🙂 and 🙃 share their high surrogate.
    const span = changedSpan('x🙂y', 'x🙃y')!
    expect(span).toEqual({ start: 1, end: 3, text: '🙃' })
  })
})

describe('the edit that turns an editor holding a byte-order mark aside into a text', () => {
  it('counts from after the mark, keeps it, and asks for the whole value when the text drops it', () => {
    // The editor holds the mark aside: its text is what follows it.
    expect(editorChange(BOM, '# Rules\r\nBe brief.\r\n', `${BOM}# Rules\r\nBe very brief.\r\n`)).toEqual({ start: 12, end: 12, text: 'very ' })
    expect(editorChange(BOM, 'same', `${BOM}same`)).toBeNull()
    expect(editorChange(BOM, 'text', 'text')).toBe('replace')
    // Without a mark held, a text that starts with one puts it in the text, as an edit.
    expect(editorChange('', 'text', `${BOM}text`)).toEqual({ start: 0, end: 0, text: BOM })
    expect(editorChange('', 'abc', 'aXc')).toEqual({ start: 1, end: 2, text: 'X' })
  })
})
