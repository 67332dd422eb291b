/**
 * Instruction and rule files that are not regular files: a FIFO named like a rule is never opened, and the listing
 * says it was left out, as it does for every other skipped file.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { join } from 'node:path'
import { gatherProjectContext } from '../../../src-main/node/instructions'
import { listInstructionFiles } from '../../../src-main/node/files'
import { FIFOS, mkfifo, releaseFifo, within } from '../tools/fifo'
import { recordingAccess, sandbox, type Sandbox } from './tmp'

let box: Sandbox
const fifos: string[] = []
beforeEach(() => {
  box = sandbox()
})
afterEach(() => {
  for (const fifo of fifos.splice(0)) releaseFifo(fifo)
  box.cleanup()
})

function fifoAt(rel: string): void {
  box.write(join(rel, '..', '.keep'), '')
  const abs = join(box.root, rel)
  mkfifo(abs)
  fifos.push(abs)
}

describe.runIf(FIFOS)('FIFOs among instruction files', () => {
  it('notes a FIFO rule file in the gathering and in files.list, without opening it', async () => {
    box.write('.claude/rules/real.md', 'A real rule.')
    fifoAt('.claude/rules/pipe.md')
    const io = recordingAccess()
    const g = await within(3_000, gatherProjectContext(box.root, { homeDir: box.home, loupeHome: box.loupeHome, now: 0, io }), 'gather')
    expect(g.notes).toContainEqual({ path: '.claude/rules/pipe.md', reason: 'not_a_file', message: '.claude/rules/pipe.md was not read: it is not a regular file' })
    expect(io.opened.some((p) => p.endsWith('pipe.md'))).toBe(false)
    const listing = await within(3_000, listInstructionFiles({ root: box.root, homeDir: box.home, loupeHome: box.loupeHome, now: 0 }), 'files.list')
    expect(listing.notes).toContainEqual({ path: '.claude/rules/pipe.md', kind: 'not_a_file', message: '.claude/rules/pipe.md was not read: it is not a regular file' })
    expect(listing.instructions.map((n) => n.path)).toEqual(['.claude/rules/real.md'])
  })

  it('notes a FIFO top-level instruction file without opening it', async () => {
    fifoAt('AGENTS.md')
    const io = recordingAccess()
    const g = await within(3_000, gatherProjectContext(box.root, { homeDir: box.home, loupeHome: box.loupeHome, now: 0, io }), 'gather')
    expect(g.notes).toContainEqual(expect.objectContaining({ path: 'AGENTS.md', reason: 'not_a_file' }))
    expect(io.opened).toEqual([])
  })
})

describe('symbolic link loops among instruction files', () => {
  it('are named as loops in the notes', async () => {
    box.link('CLAUDE.md', 'CLAUDE.md')
    const g = await gatherProjectContext(box.root, { homeDir: box.home, loupeHome: box.loupeHome, now: 0 })
    expect(g.notes).toContainEqual({ path: 'CLAUDE.md', reason: 'unreadable', message: 'CLAUDE.md was not read: it is a symbolic link loop' })
  })
})
