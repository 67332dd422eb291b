import { describe, expect, it } from 'vitest'
import { PREVIEW_MAX_CHARS, PREVIEW_MAX_LINE_CHARS, PREVIEW_MAX_LINES, previewChange, refusedPreview } from '../../../src-main/engine/tools/preview'

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

  it('says when line ends change, with the lines or alone, and when nothing does', () => {
    expect(previewChange('a.txt', 'a\nb', 'a\nb\n')).toMatchObject({ added: 0, removed: 0, hunks: [], note: 'A final line end is added.' })
    expect(previewChange('a.txt', 'a\nb\n', 'A\nb')).toMatchObject({ added: 1, removed: 1, note: 'The final line end is removed.' })
    // Every line's end changes: every line is changed, and the note says why "-b" and "+b" look alike.
    const crlf = previewChange('a.txt', 'a\r\nb\r\nc\r\n', 'a\nB\nc\n')
    expect(crlf).toMatchObject({ added: 3, removed: 3, note: expect.stringMatching(/Line ends change between \\r\\n and \\n/) })
    expect(unified(crlf.hunks[0]!)).toEqual(['-a', '-b', '-c', '+a', '+B', '+c'])
    expect(previewChange('a.txt', 'a\n', 'a\n')).toMatchObject({ hunks: [], note: expect.stringMatching(/nothing changes/) })
  })

  it('counts only changed lines as not shown, and never cuts a character in half', () => {
    const before = numbered(2_000)
    const after = before.map((l, i) => (i % 20 === 10 ? `${l} edited` : l))
    // Time enough to diff on a loaded machine: past the app's limit the lines are shown removed, then added.
    const preview = previewChange('a.txt', text(before), text(after), true, 60_000)
    expect(preview).toMatchObject({ added: 100, removed: 100 })
    const shownChanges = preview.hunks.flatMap((h) => h.lines).filter((l) => l.kind !== 'context').length
    expect(shownChanges + preview.omitted).toBe(200)
    const emoji = previewChange('e.txt', 'a\n', `${'x'.repeat(PREVIEW_MAX_LINE_CHARS - 1)}😀\n`)
    const cut = emoji.hunks[0]!.lines.find((l) => l.kind === 'added')!.text
    expect(cut).toBe(`${'x'.repeat(PREVIEW_MAX_LINE_CHARS - 1)}…`)
  })

  it('replaces a file that is not text with all of the new lines, and says why its lines are missing', () => {
    const preview = previewChange('b.dat', null, 'x\ny\n', false)
    expect(preview).toMatchObject({ created: false, added: 2, removed: 0, note: expect.stringMatching(/not UTF-8 text/) })
  })

  it('keeps about half the lines of one long run, saying how many more, and cuts long lines', () => {
    const after = text(numbered(PREVIEW_MAX_LINES + 250))
    const preview = previewChange('big.txt', null, after)
    expect(preview.added).toBe(PREVIEW_MAX_LINES + 250)
    const lines = preview.hunks.flatMap((h) => h.lines)
    expect(lines.filter((l) => l.kind === 'added')).toHaveLength(PREVIEW_MAX_LINES / 2 - 1)
    expect(lines.at(-1)).toEqual({ kind: 'skipped', text: '… 451 more lines added' })
    expect(preview.omitted).toBe(451)
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

  it('shows a whole rewrite of a large file as some lines removed, then some of the lines it writes', () => {
    // Every line differs: too many to diff, so shown removed then added, each run cut to half the budget.
    const before = numbered(60_000)
    const after = numbered(60_000, 1_000_000)
    const preview = previewChange('rewrite.txt', text(before), text(after))
    expect(preview).toMatchObject({ added: 60_000, removed: 60_000 })
    const lines = preview.hunks.flatMap((h) => h.lines)
    expect(lines).toHaveLength(PREVIEW_MAX_LINES)
    expect(lines.filter((l) => l.kind === 'added')[0]).toEqual({ kind: 'added', text: 'line 1000000' })
    expect(lines.filter((l) => l.kind === 'skipped').map((l) => l.text)).toEqual(['… 59,801 more lines removed', '… 59,801 more lines added'])
    expect(preview.omitted).toBe(120_000 - (PREVIEW_MAX_LINES - 2))
    // A rewrite small enough to diff shows its added lines too, after the removed ones.
    const small = previewChange('r.txt', text(numbered(450)), text(numbered(300, 5_000)))
    const kinds = small.hunks.flatMap((h) => h.lines).map((l) => l.kind)
    expect(kinds.filter((k) => k === 'added').length).toBeGreaterThan(100)
  })

  it('keeps a preview of long lines under PREVIEW_MAX_CHARS', () => {
    const wide = Array.from({ length: 300 }, (_, i) => `${i} ${'w'.repeat(PREVIEW_MAX_LINE_CHARS)}`)
    const preview = previewChange('wide.txt', null, text(wide))
    const chars = preview.hunks.flatMap((h) => h.lines).reduce((n, l) => n + l.text.length, 0)
    expect(chars).toBeLessThanOrEqual(PREVIEW_MAX_CHARS)
    expect(preview.omitted).toBe(300 - preview.hunks.flatMap((h) => h.lines).filter((l) => l.kind === 'added').length)
  })

  it('says why a refused call changes nothing, with no lines', () => {
    expect(refusedPreview('a.txt', 'The text the agent wants to replace is not in the file.')).toEqual({
      path: 'a.txt',
      created: false,
      added: 0,
      removed: 0,
      hunks: [],
      omitted: 0,
      note: 'The text the agent wants to replace is not in the file. Allowing it changes nothing: the tool only tells the agent why.',
      refused: true,
    })
  })
})
