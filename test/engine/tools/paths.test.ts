import { describe, expect, it } from 'vitest'
import { checkGlobPattern, lexicalProjectPath } from '../../../src-main/engine/tools/paths'

describe('lexicalProjectPath', () => {
  it.each([
    ['src/a.ts', 'src/a.ts'],
    ['./src//a.ts', 'src/a.ts'],
    ['src/../README.md', 'README.md'],
    ['.', '.'],
    ['/work/p', '.'],
    ['/work/p/src/a.ts', 'src/a.ts'],
    ['/work/p/src/../b', 'b'],
  ])('%s is inside as %s', (input, relative) => {
    expect(lexicalProjectPath('/work/p', input)).toEqual({ ok: true, relative })
  })

  it.each(['..', '../p/a', 'src/../../a', '/work', '/work/pp/a', '/etc/passwd', '~', '~/x', '/work/p/../x', 'a\0b'])('%s is refused', (input) => {
    expect(lexicalProjectPath('/work/p', input).ok).toBe(false)
  })

  it('understands Windows roots', () => {
    expect(lexicalProjectPath('C:\\Users\\me\\proj', 'c:\\users\\me\\proj\\src\\a.ts')).toEqual({ ok: true, relative: 'src/a.ts' })
    expect(lexicalProjectPath('C:\\Users\\me\\proj', '..\\other').ok).toBe(false)
    expect(lexicalProjectPath('C:\\Users\\me\\proj', 'D:\\x').ok).toBe(false)
  })
})

describe('checkGlobPattern', () => {
  it('keeps patterns inside the root', () => {
    expect(checkGlobPattern('src/**/*.ts').ok).toBe(true)
    expect(checkGlobPattern('**/..x').ok).toBe(true)
    expect(checkGlobPattern('file{1..9}.txt').ok).toBe(true)
    for (const pattern of ['../*', '/etc/*', 'a/../../b', '~/x', 'C:\\x', '{..,src}/*', 'src/{a,..}/*', '..']) {
      expect(checkGlobPattern(pattern).ok).toBe(false)
    }
  })
})
