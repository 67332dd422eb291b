/**
 * A save whose file changed on disk into one the Files view cannot edit (not UTF-8 any more, over 1 MB, a FIFO):
 * there is nothing to merge with, so the text sent is kept first and the save is refused with a message that says
 * what changed and where the text is. The file on disk is left as it is.
 */
import { lstatSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { listVersions, openFile, saveFile } from '../../../src-main/node/files'
import { FIFOS, mkfifo, releaseFifo, within } from '../tools/fifo'
import { failure, filesSandbox, type FilesSandbox } from './sandbox'

let box: FilesSandbox
let clock = 0
beforeEach(() => {
  clock = Date.UTC(2026, 10, 29, 12, 0)
  box = filesSandbox(() => (clock += 1000))
})
afterEach(() => {
  releaseFifo(join(box.root, 'AGENTS.md'))
  box.cleanup()
})

const MINE = 'my careful edit\n'

async function keptText(): Promise<string[]> {
  const versions = await listVersions(box.dataDir, join(box.root, 'AGENTS.md'))
  return versions.filter((v) => v.kind === 'mine').map((v) => readFileSync(v.path, 'utf8'))
}

describe('saving over a file that changed into one the view cannot edit', () => {
  it('keeps the text when the file is no longer valid UTF-8, and says so', async () => {
    box.write('AGENTS.md', 'rules\n')
    const opened = await openFile(box, 'AGENTS.md')
    const latin1 = new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a])
    box.write('AGENTS.md', latin1)
    const err = await failure(saveFile(box, { path: 'AGENTS.md', text: MINE, baseSha256: opened.sha256 }))
    expect(err.code).toBe('conflict')
    expect(err.message).toMatch(/^AGENTS\.md changed on disk: it is no longer valid UTF-8, and saving over it would change bytes you did not touch\. Nothing was written; your text was kept in \/.*\.mine\.AGENTS\.md$/)
    expect(await keptText()).toEqual([MINE])
    expect(err.message).toContain((await listVersions(box.dataDir, join(box.root, 'AGENTS.md')))[0]!.path)
    expect(new Uint8Array(readFileSync(join(box.root, 'AGENTS.md')))).toEqual(latin1)
  })

  it('keeps the text when the file grew past 1 MB, instead of calling it an unknown file', async () => {
    box.write('AGENTS.md', 'rules\n')
    const opened = await openFile(box, 'AGENTS.md')
    const big = 'x'.repeat(1024 * 1024 + 1)
    box.write('AGENTS.md', big)
    const err = await failure(saveFile(box, { path: 'AGENTS.md', text: MINE, baseSha256: opened.sha256 }))
    expect(err.code).toBe('conflict')
    expect(err.message).toContain('AGENTS.md changed on disk: it is now larger than 1 MB')
    expect(err.message).not.toContain('is not an instruction or memory file')
    expect(await keptText()).toEqual([MINE])
    expect(readFileSync(join(box.root, 'AGENTS.md'), 'utf8')).toBe(big)
  })

  it('keeps the text when the file became binary', async () => {
    box.write('AGENTS.md', 'rules\n')
    const opened = await openFile(box, 'AGENTS.md')
    box.write('AGENTS.md', new Uint8Array([0x61, 0x00, 0x62]))
    const err = await failure(saveFile(box, { path: 'AGENTS.md', text: MINE, baseSha256: opened.sha256 }))
    expect(err.message).toContain('AGENTS.md changed on disk: it is now a binary file')
    expect(await keptText()).toEqual([MINE])
  })

  it.runIf(FIFOS)('keeps the text when the file became a FIFO, without blocking on it', async () => {
    box.write('CLAUDE.md', 'another file\n')
    box.write('AGENTS.md', 'rules\n')
    const opened = await openFile(box, 'AGENTS.md')
    rmSync(join(box.root, 'AGENTS.md'))
    mkfifo(join(box.root, 'AGENTS.md'))
    const err = await within(3_000, failure(saveFile(box, { path: 'AGENTS.md', text: MINE, baseSha256: opened.sha256 })), 'save')
    expect(err.code).toBe('conflict')
    expect(err.message).toContain('AGENTS.md changed on disk')
    expect(await keptText()).toEqual([MINE])
    expect(lstatSync(join(box.root, 'AGENTS.md')).isFIFO()).toBe(true)
  })

  it('still refuses a path that is not listed at all, keeping nothing', async () => {
    box.write('src/main.ts', 'code')
    expect((await failure(saveFile(box, { path: 'src/main.ts', text: MINE, baseSha256: null }))).code).toBe('permission_denied')
    expect(await listVersions(box.dataDir, join(box.root, 'src/main.ts'))).toEqual([])
  })
})
