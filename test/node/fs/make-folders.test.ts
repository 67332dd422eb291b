/** Folders made level by level (`makeFolders`), against real temporary folders and Linux's /proc. */
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { makeFolders, makeFoldersSync } from '../../../src-main/node/fs/make-folders'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'loupe-make-folders-'))
  dirs.push(d)
  return d
}

describe.each([
  ['makeFolders', (path: string) => makeFolders(path)],
  ['makeFoldersSync', async (path: string) => makeFoldersSync(path)],
])('%s', (_name, make) => {
  it('makes every missing level, and does nothing to a folder that is there', async () => {
    const root = tempDir()
    const deep = join(root, 'a', 'b', 'c')
    await make(deep)
    expect(statSync(deep).isDirectory()).toBe(true)
    writeFileSync(join(deep, 'kept.txt'), 'x')
    await make(deep)
    await make(join(root, 'a'))
    expect(existsSync(join(deep, 'kept.txt'))).toBe(true)
  })

  it('refuses a level that is a file, naming it', async () => {
    const root = tempDir()
    writeFileSync(join(root, 'file'), 'x')
    await expect(make(join(root, 'file', 'below'))).rejects.toMatchObject({ code: 'ENOTDIR' })
    await expect(make(join(root, 'file'))).rejects.toMatchObject({ code: 'ENOTDIR', path: join(root, 'file') })
  })

  // mkdir(…, { recursive: true }) never returns here on Node 20: /proc answers ENOENT for the missing level for ever.
  it.runIf(existsSync('/proc/self'))('fails at once under /proc, where a level can never be made', async () => {
    await expect(make('/proc/loupe-no-such-folder/below')).rejects.toMatchObject({ code: 'ENOENT' })
  })
})
