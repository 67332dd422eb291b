import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { writeFileAtomic } from '../../../src-main/node/fs/atomic-write'

describe('writeFileAtomic', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'loupe-atomic-'))
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('judges the folder where the file really lands just before it takes its name, and leaves nothing behind when refused', async () => {
    // The folder named is a link elsewhere by the time the content is written (as after a swap while a caller
    // serialized): the hook is given where the link leads.
    mkdirSync(join(dir, 'guarded'))
    symlinkSync(join(dir, 'guarded'), join(dir, 'out'))
    const seen: string[] = []
    const write = writeFileAtomic(join(dir, 'out', 'x.json'), ['{"a":', '1}'], {
      beforeRename: async (folderReal) => {
        seen.push(folderReal)
        if (folderReal.endsWith('guarded')) throw new Error('now leads somewhere refused')
      },
    })
    await expect(write).rejects.toThrow('now leads somewhere refused')
    expect(seen).toEqual([join(dir, 'guarded')])
    expect(readdirSync(join(dir, 'guarded'))).toEqual([])
  })

  it('with noReplace, never replaces a file that took the name meanwhile', async () => {
    const target = join(dir, 'x.json')
    const write = writeFileAtomic(target, 'mine', {
      noReplace: true,
      beforeRename: async () => writeFileSync(target, 'theirs'),
    })
    await expect(write).rejects.toMatchObject({ code: 'EEXIST' })
    expect(readFileSync(target, 'utf8')).toBe('theirs')
    expect(readdirSync(dir)).toEqual(['x.json'])
    // A free name is taken.
    await writeFileAtomic(join(dir, 'y.json'), 'new', { noReplace: true })
    expect(readFileSync(join(dir, 'y.json'), 'utf8')).toBe('new')
    expect(readdirSync(dir).sort()).toEqual(['x.json', 'y.json'])
  })
})
