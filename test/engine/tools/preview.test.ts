import { describe, expect, it } from 'vitest'
import { PREVIEW_MAX_LINE_CHARS, PREVIEW_MAX_LINES, previewChange, refusedPreview } from '../../../src-main/engine/tools/preview'

const numbered = (n: number, from = 1) => Array.from({ length: n }, (_, i) => `line ${i + from}`)
const text = (lines: ReadonlyArray<string>) => lines.map((l) => `${l}\n`).join('')
/** A hunk as unified-diff text, to compare whole. */
const unified = (hunk: { lines: ReadonlyArray<{ kind: string; text: string }> }) =>
  hunk.lines.map((l) => `${l.kind === 'added' ? '+' : l.kind === 'removed' ? '-' : ' '}${l.text}`)

describe('previewChange', () => {
  it('shows one changed line in the middle of a file with three lines of context each side', () => {
    const before = numbered(20)
    const after = [...before]
    after[9] = 'line ten'
    const preview = previewChange('a.txt', text(before), text(after))
    expect(preview).toMatchObject({ path: 'a.txt', created: false, added: 1, removed: 1, omitted: 0, note: null })
    expect(preview.hunks).toHaveLength(1)
    expect(preview.hunks[0]).toMatchObject({ oldStart: 7, newStart: 7 })
    expect(unified(preview.hunks[0]!)).toEqual([' line 7', ' line 8', ' line 9', '-line 10', '+line ten', ' line 11', ' line 12', ' line 13'])
  })

  it('splits changes more than six unchanged lines apart into hunks, and joins those closer', () => {
    const before = numbered(40)
    const after = [...before]
    after[2] = 'changed 3'
    after[8] = 'changed 9' // 5 unchanged lines after line 3: same hunk
    after[30] = 'changed 31' // far: a second hunk
    const preview = previewChange('a.txt', text(before), text(after))
    expect(preview.hunks.map((h) => h.newStart)).toEqual([1, 28])
    expect(preview.added).toBe(3)
    expect(preview.removed).toBe(3)
    expect(unified(preview.hunks[1]!)).toEqual([' line 28', ' line 29', ' line 30', '-line 31', '+changed 31', ' line 32', ' line 33', ' line 34'])
  })

  it('numbers an insertion from where it lands in the new file', () => {
    const before = numbered(10)
    const after = [...before.slice(0, 5), 'new a', 'new b', ...before.slice(5)]
    const preview = previewChange('a.txt', text(before), text(after))
    expect(preview).toMatchObject({ added: 2, removed: 0 })
    expect(preview.hunks[0]).toMatchObject({ oldStart: 3, newStart: 3 })
    expect(unified(preview.hunks[0]!)).toEqual([' line 3', ' line 4', ' line 5', '+new a', '+new b', ' line 6', ' line 7', ' line 8'])
  })

  it('shows a new file as all added, and a file emptied as all removed', () => {
    expect(previewChange('n.txt', null, 'a\nb\n')).toMatchObject({ created: true, added: 2, removed: 0, hunks: [{ oldStart: 0, newStart: 1 }] })
    expect(previewChange('n.txt', 'a\nb\n', '')).toMatchObject({ created: false, added: 0, removed: 2, hunks: [{ oldStart: 1, newStart: 0 }] })
  })

  it('says so when only line ends change, or nothing does', () => {
    expect(previewChange('a.txt', 'a\nb', 'a\nb\n')).toMatchObject({ hunks: [], note: expect.stringMatching(/^Only line ends change/) })
    expect(previewChange('a.txt', 'a\r\nb\r\n', 'a\nb\n')).toMatchObject({ hunks: [], note: expect.stringMatching(/^Only line ends change/) })
    expect(previewChange('a.txt', 'a\n', 'a\n')).toMatchObject({ hunks: [], note: expect.stringMatching(/nothing changes/) })
  })

  it('replaces a file that is not text with all of the new lines, and says why its lines are missing', () => {
    const preview = previewChange('b.dat', null, 'x\ny\n', false)
    expect(preview).toMatchObject({ created: false, added: 2, removed: 0, note: expect.stringMatching(/not UTF-8 text/) })
  })

  it('keeps at most PREVIEW_MAX_LINES lines, counting the rest, and cuts long lines', () => {
    const after = text(numbered(PREVIEW_MAX_LINES + 250))
    const preview = previewChange('big.txt', null, after)
    expect(preview.added).toBe(PREVIEW_MAX_LINES + 250)
    expect(preview.hunks.flatMap((h) => h.lines)).toHaveLength(PREVIEW_MAX_LINES)
    expect(preview.omitted).toBe(250)
    const long = previewChange('min.js', 'a\n', `${'x'.repeat(PREVIEW_MAX_LINE_CHARS * 3)}\n`)
    const added = long.hunks[0]!.lines.find((l) => l.kind === 'added')!
    expect(added.text).toHaveLength(PREVIEW_MAX_LINE_CHARS + 1)
    expect(added.text.endsWith('…')).toBe(true)
  })

  it('previews a one-line edit in a 200,000-line file by its neighbourhood only', () => {
    const before = numbered(200_000)
    const after = [...before]
    after[150_000] = 'edited'
    const preview = previewChange('huge.txt', text(before), text(after))
    expect(preview).toMatchObject({ added: 1, removed: 1, omitted: 0, hunks: [{ oldStart: 149_998, newStart: 149_998 }] })
  })

  it('shows a whole rewrite of a large file as removed and added when the diff would take too long', () => {
    // Every line differs: the diff has no common lines to find, so the preview must still come back, bounded.
    const before = numbered(60_000)
    const after = numbered(60_000, 1_000_000)
    const preview = previewChange('rewrite.txt', text(before), text(after))
    expect(preview).toMatchObject({ added: 60_000, removed: 60_000 })
    expect(preview.hunks.flatMap((h) => h.lines)).toHaveLength(PREVIEW_MAX_LINES)
    expect(preview.omitted).toBe(120_000 - PREVIEW_MAX_LINES)
  })

  it('words a refused call as the model will read it, with no lines', () => {
    expect(refusedPreview('a.txt', 'old_string was not found in a.txt.')).toEqual({
      path: 'a.txt',
      created: false,
      added: 0,
      removed: 0,
      hunks: [],
      omitted: 0,
      note: 'This call will not change the file: old_string was not found in a.txt.',
    })
  })
})
