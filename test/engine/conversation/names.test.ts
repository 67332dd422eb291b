/**
 * The one rule for a name the app shows (src-preload/names.ts, decision 0051), against what an imported transcript,
 * a folder's name or a pasted rename can hold.
 */
import { describe, expect, it } from 'vitest'
import { cleanName, MAX_NAME_CHARS } from '../../../src-preload/names'

describe('cleanName', () => {
  it('leaves a name that needs nothing as it is, in any script', () => {
    for (const name of ['Greeter refactor', 'fix parseDate (again)', 'مرحبا بالعالم', 'שלום עולם', 'Übergrößenträger', '日本語のセッション', 'Tiếng Việt', '👨‍👩‍👧 family', '🏴󠁧󠁢󠁳󠁣󠁴󠁿 trip', 'keycap 1️⃣', 'नमस्ते दुनिया']) {
      expect(cleanName(name), name).toBe(name)
    }
  })

  it('puts a name on one line: line breaks, tabs and every kind of space become one space, none at the ends', () => {
    expect(cleanName('  fix\r\nthe\tlogin\n\nbug  ')).toBe('fix the login bug')
    expect(cleanName('a\u2028b\u2029c\u0085d\u000Be\u000Cf')).toBe('a b c d e f')
    expect(cleanName('a\u00A0\u2003\u3000b')).toBe('a b')
  })

  it('drops NUL, DEL and the other control characters', () => {
    expect(cleanName('a\u0000b\u0007c\u007Fd\u0090e')).toBe('abcde')
    expect(cleanName('\u0000\u0001\u001F')).toBe('')
  })

  it('drops a terminal escape whole, not only its ESC', () => {
    expect(cleanName('\u001b[1;31mred\u001b[0m text')).toBe('red text')
    expect(cleanName('\u001b]0;a window title\u0007plain')).toBe('plain')
    expect(cleanName('\u001b]8;;https://example.com\u001b\\link\u001b]8;;\u001b\\')).toBe('link')
  })

  it('neutralises direction controls, so a name cannot reorder itself or what follows it', () => {
    // "evil‮gnp.exe" draws as "evilexe.png".
    expect(cleanName('evil\u202Egnp.exe')).toBe('evilgnp.exe')
    expect(cleanName('\u202Aa\u202Bb\u202Cc\u202Dd\u2066e\u2067f\u2068g\u2069h\u200Ei\u200Fj\u061Ck')).toBe('abcdefghijk')
  })

  it('drops invisible characters, keeping the joiners that join two characters', () => {
    expect(cleanName('a\u200Bb\u2060c\uFEFFd\u00ADe\u180Ef\u2062g')).toBe('abcdefg')
    expect(cleanName('\u200B\u200D\u2060\uFEFF')).toBe('')
    // An emoji family and a Persian word keep their joiners; one at an end or beside a space joins nothing.
    expect(cleanName('👨\u200D👩')).toBe('👨\u200D👩')
    expect(cleanName('می\u200Cخواهم')).toBe('می\u200Cخواهم')
    expect(cleanName('\u200Dabc\u200D \u200C')).toBe('abc')
    expect(cleanName('a\u200D\u200D\u200Db')).toBe('a\u200Db')
    // Fillers that draw as blank count as spaces: a name of them alone is empty.
    expect(cleanName('\u3164\u115F\u2800')).toBe('')
  })

  it('keeps tag characters only inside a flag', () => {
    expect(cleanName('ok\u{E0049}\u{E0047}\u{E004E}\u{E004F}\u{E0052}\u{E0045}')).toBe('ok')
    expect(cleanName('\u{E0001}\u{E0065}\u{E006E}')).toBe('')
  })

  it('drops half a surrogate pair and keeps a whole one', () => {
    expect(cleanName('a\uD800b\uDC00c')).toBe('abc')
    expect(cleanName('\uD83D')).toBe('')
    expect(cleanName('ok \uD83D\uDE00')).toBe('ok 😀')
    expect(cleanName('\uDE00\uD83D')).toBe('')
  })

  it('keeps at most four combining marks on a character', () => {
    const zalgo = `Z${'\u0301\u0316\u0327\u0350'.repeat(25)}algo`
    expect(cleanName(zalgo)).toBe('Z\u0301\u0316\u0327\u0350algo')
    expect(cleanName('e\u0301\u0302')).toBe('e\u0301\u0302')
  })

  it(`cuts a long name to ${MAX_NAME_CHARS} characters with "…", and a 10 MB one too`, () => {
    expect(cleanName('x'.repeat(MAX_NAME_CHARS))).toBe('x'.repeat(MAX_NAME_CHARS))
    expect(cleanName('x'.repeat(MAX_NAME_CHARS + 1))).toBe(`${'x'.repeat(MAX_NAME_CHARS - 1)}…`)
    const huge = cleanName(`${'word '.repeat(2_000_000)}end`)
    expect(huge.length).toBeLessThanOrEqual(MAX_NAME_CHARS)
    expect(huge.endsWith('word…')).toBe(true)
    // A name of only what is dropped, however long, is empty.
    expect(cleanName('\u0000'.repeat(10_000_000))).toBe('')
    expect(cleanName('hello world', 8)).toBe('hello w…')
  })

  it('never cuts a character in half', () => {
    const emoji = cleanName('😀'.repeat(150))
    expect(emoji).toBe(`${'😀'.repeat(99)}…`)
    const families = cleanName('👨\u200D👩\u200D👧 '.repeat(40))
    expect(families.length).toBeLessThanOrEqual(MAX_NAME_CHARS)
    expect(families.endsWith('👨\u200D👩\u200D👧…')).toBe(true)
    const accents = cleanName(`${'e\u0301'.repeat(150)}`)
    expect(accents).toBe(`${'e\u0301'.repeat(99)}…`)
  })

  it('is its own fixed point: a clean name cleaned again is the same', () => {
    const hostile = [
      'evil\u202Egnp.exe\n\u0000',
      '\u200Dabc\u200D',
      '\uD800'.repeat(3) + 'x',
      `${'👨\u200D'.repeat(300)}👩`,
      `${'a\u200D'.repeat(150)}`,
      ' '.repeat(9_000) + 'late',
      `${'x'.repeat(199)}\u200D👩`,
      `Z${'\u0301'.repeat(500)}`,
      '\u001b[31m'.repeat(100) + 'red',
    ]
    for (const text of hostile) {
      const once = cleanName(text)
      expect(cleanName(once), JSON.stringify(text.slice(0, 40))).toBe(once)
      expect(once.length).toBeLessThanOrEqual(MAX_NAME_CHARS)
      expect(once).not.toMatch(/[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/)
    }
  })
})
