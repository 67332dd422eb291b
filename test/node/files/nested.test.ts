/**
 * Nested instruction files in the Files view: the AGENTS.md / CLAUDE.md / LOUPE.md of a folder below the root, which
 * the loop sends after the breakpoints when the agent reads a file under that folder, are listed (marked so, with no
 * share of the session block), editable through the same door, and found with the reader's own limits: over 1 MB,
 * binary and links out of the root are listed as skipped, symlinked folders are not followed, and none breaks the
 * listing.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { listInstructionFiles, openFile, saveFile, type FileNode } from '../../../src-main/node/files'
import { MAX_NESTED_DEPTH } from '../../../src-main/node/files/nested'
import { createNestedContextReader, gatherProjectContext } from '../../../src-main/node/instructions'
import { freezeSessionSection } from '../../../src-main/engine/prompt'
import { filesSandbox, SECRET, type FilesSandbox } from './sandbox'

let box: FilesSandbox
beforeEach(() => {
  box = filesSandbox()
})
afterEach(() => box.cleanup())

const list = () => listInstructionFiles({ root: box.root, loupeHome: box.loupeHome, homeDir: box.homeDir, now: box.now() })
const row = (nodes: ReadonlyArray<FileNode>, path: string): FileNode | undefined => {
  for (const n of nodes) {
    if (n.path === path) return n
    const inner = row(n.children, path)
    if (inner) return inner
  }
  return undefined
}

describe('nested instruction files in the listing', () => {
  it('lists src/AGENTS.md (the file the loop delivers for src/math.ts) as sent after the breakpoints, outside the session block', async () => {
    box.write('AGENTS.md', '# Root\n')
    box.write('src/AGENTS.md', '## src/AGENTS.md\n\nPrefer pure functions. See @conventions.md.\n')
    box.write('src/conventions.md', 'Named exports only.\n')
    box.write('src/math.ts', 'export const add = (a: number, b: number) => a + b\n')
    box.write('src/deep/er/CLAUDE.md', 'Deep rules.\n')
    box.write('node_modules/pkg/AGENTS.md', 'Not the project’s.\n')
    const listing = await list()
    const before = (await gatherProjectContext(box.root, { homeDir: box.homeDir, loupeHome: box.loupeHome, now: box.now() }))

    // What the loop sends for src/math.ts is what the listing shows for src/.
    const section = freezeSessionSection(before, { origin: { kind: 'session_start' }, contextWindowTokens: 200_000, skills: false })
    const delivered = await createNestedContextReader(before, section.instructions, { homeDir: box.homeDir }).forFile('src/math.ts')
    expect(delivered.notes.map((n) => ('path' in n ? n.path : null))).toContain('src/AGENTS.md')

    expect(listing.instructions.map((n) => [n.path, n.kind, n.status])).toEqual([
      ['AGENTS.md', 'instruction', 'included'],
      ['src/AGENTS.md', 'nested', 'nested'],
      ['src/deep/er/CLAUDE.md', 'nested', 'nested'],
    ])
    const nested = row(listing.instructions, 'src/AGENTS.md')!
    expect(nested).toMatchObject({ editable: true, tokens: 0, tier: null })
    expect(nested.reason).toBe('not in the session block: sent after the breakpoints, once per session, the first time the agent reads or edits a file under src/')
    expect(nested.children.map((c) => [c.path, c.kind, c.status])).toEqual([['src/conventions.md', 'import', 'nested']])
    // The session block's size is that of the root's files alone.
    const rootOnly = await (async () => {
      box.write('src/AGENTS.md', '')
      return list()
    })()
    expect(rootOnly.sessionBlockTokens).toBe(listing.sessionBlockTokens)
  })

  it('opens and saves a nested file through the same door', async () => {
    box.write('pkg/AGENTS.md', 'Old.\n')
    const opened = await openFile(box, 'pkg/AGENTS.md')
    const saved = await saveFile(box, { path: 'pkg/AGENTS.md', text: 'New.\n', baseSha256: opened.sha256 })
    expect(saved.status).toBe('saved')
    expect(readFileSync(join(box.root, 'pkg/AGENTS.md'), 'utf8')).toBe('New.\n')
  })

  it('keeps the reader’s limits: too large, binary and a link out of the root are skipped, a linked folder is not entered', async () => {
    box.write('big/AGENTS.md', 'x'.repeat(1_100_000))
    box.write('bin/AGENTS.md', new Uint8Array([0x41, 0x00, 0x42]))
    mkdirSync(join(box.root, 'out'))
    symlinkSync(join(box.outside, 'secret.md'), join(box.root, 'out/AGENTS.md'))
    symlinkSync(box.outside, join(box.root, 'linked'))
    box.write('loop/placeholder.txt', '')
    symlinkSync(join(box.root, 'loop'), join(box.root, 'loop/again'))
    const listing = await list()
    const status = (p: string) => row(listing.instructions, p)
    expect(status('big/AGENTS.md')).toMatchObject({ status: 'skipped', skip: 'too_large', editable: false })
    expect(status('bin/AGENTS.md')).toMatchObject({ status: 'skipped', skip: 'binary', editable: false })
    expect(status('out/AGENTS.md')).toMatchObject({ status: 'skipped', skip: 'outside_allowed_roots', editable: false })
    expect(JSON.stringify(listing)).not.toContain(SECRET)
    expect(listing.instructions.some((n) => n.path.startsWith('linked/') || n.path.startsWith('loop/again'))).toBe(false)
    await expect(openFile(box, 'out/AGENTS.md')).rejects.toThrow()
  })

  it('says an AGENTS.md deeper than the view lists is past its depth, not that it is no instruction file, while the loop sends it', async () => {
    const dir = Array.from({ length: MAX_NESTED_DEPTH + 1 }, (_, i) => `d${i + 1}`).join('/')
    box.write('AGENTS.md', '# Root\n')
    box.write(`${dir}/AGENTS.md`, 'Deep rules.\n')
    box.write(`${dir}/deep.ts`, 'export {}\n')
    const gathered = await gatherProjectContext(box.root, { homeDir: box.homeDir, loupeHome: box.loupeHome, now: box.now() })
    const section = freezeSessionSection(gathered, { origin: { kind: 'session_start' }, contextWindowTokens: 200_000, skills: false })
    const delivered = await createNestedContextReader(gathered, section.instructions, { homeDir: box.homeDir }).forFile(`${dir}/deep.ts`)
    expect(delivered.notes.map((n) => ('path' in n ? n.path : null))).toContain(`${dir}/AGENTS.md`)

    const refused = await openFile(box, `${dir}/AGENTS.md`).then(() => null, (err: Error) => err)
    expect(refused?.message).toBe(
      `${dir}/AGENTS.md is ${MAX_NESTED_DEPTH + 1} folder levels below the project: the Files view lists and opens nested instruction files only down to ${MAX_NESTED_DEPTH} levels, ` +
        `though the agent is still sent this one the first time it reads or edits a file under ${dir}/. Edit it in another editor.`,
    )
    // A file that is no instruction file is still called so.
    box.write(`${dir}/NOTES.md`, 'x\n')
    await expect(openFile(box, `${dir}/NOTES.md`)).rejects.toThrow('is not an instruction or memory file of this project')
  })

  it('lists .claude/CLAUDE.md once, as the session block\'s, not again as the CLAUDE.md of the folder .claude', async () => {
    for (const text of ['Team rules.\n', 'x'.repeat(1_100_000)]) {
      box.write('.claude/CLAUDE.md', text)
      const listing = await list()
      expect(listing.instructions.filter((n) => n.path === '.claude/CLAUDE.md').map((n) => n.kind)).toEqual(['instruction'])
      expect(listing.notes.filter((n) => n.path === '.claude/CLAUDE.md').length).toBeLessThanOrEqual(1)
    }
  })
})
