/** A typed folder path becomes a project root, or a plainly worded error. */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { resolveProjectFolder } from '../../../src-main/node/projects/resolve-folder'

let base: string
beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'loupe-open-')))
})
afterEach(() => rmSync(base, { recursive: true, force: true }))

describe('resolveProjectFolder', () => {
  it('resolves a folder through a link to its real path', async () => {
    mkdirSync(join(base, 'real'))
    symlinkSync(join(base, 'real'), join(base, 'link'))
    expect(await resolveProjectFolder(join(base, 'link'), base)).toBe(join(base, 'real'))
  })

  it('names a symbolic link loop as one, not as a raw ELOOP', async () => {
    symlinkSync(join(base, 'b'), join(base, 'a'))
    symlinkSync(join(base, 'a'), join(base, 'b'))
    await expect(resolveProjectFolder(join(base, 'a'), base)).rejects.toMatchObject({
      code: 'io_error',
      message: `Cannot open ${join(base, 'a')}: it is a symbolic link loop (or passes through one)`,
    })
  })

  it('says a file is not a folder, and a missing path is missing', async () => {
    writeFileSync(join(base, 'file'), 'x')
    await expect(resolveProjectFolder(join(base, 'file'), base)).rejects.toMatchObject({ code: 'not_a_directory' })
    await expect(resolveProjectFolder(join(base, 'nope'), base)).rejects.toMatchObject({ code: 'not_found' })
  })
})
