/**
 * Hostile files (docs/context-engine.md "Project instructions", its Safety paragraph): each gives its note, nothing
 * throws, nothing outside the root is read.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { realpathSync } from 'node:fs'
import { join } from 'node:path'
import { createNestedContextReader, gatherProjectContext } from '../../../src-main/node/instructions'
import { freezeSession, MAX_IMPORT_DEPTH, type GatheredContext } from '../../../src-main/engine/prompt'
import { recordingAccess, sandbox, SECRET, type Sandbox } from './tmp'

let box: Sandbox
beforeEach(() => {
  box = sandbox()
})
afterEach(() => box.cleanup())

async function gather(io = recordingAccess()): Promise<{ g: GatheredContext; opened: string[] }> {
  const g = await gatherProjectContext(box.root, { homeDir: box.home, loupeHome: box.loupeHome, now: Date.UTC(2026, 10, 29), io })
  return { g, opened: io.opened }
}

function noteFor(g: GatheredContext, path: string): string {
  return g.notes.filter((n) => n.path === path).map((n) => `${n.reason}: ${n.message}`).join('\n')
}

describe('hostile instruction files', () => {
  it('skips a symlink that leads out of the root, and reads none of its target', async () => {
    box.link('CLAUDE.md', join(box.outside, 'secret.md'))
    const { g, opened } = await gather()
    expect(noteFor(g, 'CLAUDE.md')).toMatch(/^outside_allowed_roots:/)
    expect(JSON.stringify(g)).not.toContain(SECRET)
    expect(opened).toEqual([])
  })

  it('follows a symlink that stays inside the root', async () => {
    box.write('docs/agents.md', 'Linked rules.')
    box.link('AGENTS.md', 'docs/agents.md')
    const { g } = await gather()
    const frozen = freezeSession(g, { contextWindowTokens: 200_000, skills: false })
    expect(frozen.session.instructions.text).toContain('## AGENTS.md\n\nLinked rules.')
  })

  it('stops an import cycle with a note', async () => {
    box.write('AGENTS.md', '@a.md')
    box.write('a.md', 'A then @b.md')
    box.write('b.md', 'B then @a.md')
    const { g } = await gather()
    const frozen = freezeSession(g, { contextWindowTokens: 200_000, skills: false })
    expect(frozen.session.notes).toContainEqual(expect.objectContaining({ kind: 'import_cycle', path: 'a.md' }))
    expect(frozen.session.instructions.parts.map((p) => p.path)).toEqual(['AGENTS.md', 'a.md', 'b.md'])
  })

  it(`reads a 6-deep import chain only ${MAX_IMPORT_DEPTH} levels deep`, async () => {
    box.write('AGENTS.md', '@l1.md')
    for (let i = 1; i <= 6; i++) box.write(`l${i}.md`, i < 6 ? `level ${i} @l${i + 1}.md` : 'level 6')
    const { g, opened } = await gather()
    expect(noteFor(g, 'l6.md')).toMatch(/^import_depth_limit:/)
    expect(opened.some((p) => p.endsWith('l6.md'))).toBe(false)
    const frozen = freezeSession(g, { contextWindowTokens: 200_000, skills: false })
    expect(frozen.session.instructions.parts.map((p) => p.path)).toEqual(['AGENTS.md', 'l1.md', 'l2.md', 'l3.md', 'l4.md', 'l5.md'])
  })

  it('refuses absolute and home-folder imports that leave the root', async () => {
    box.write('AGENTS.md', `See @${join(box.outside, 'secret.md')} and @~/secret.md.`)
    const { g, opened } = await gather()
    expect(g.notes.filter((n) => n.reason === 'outside_allowed_roots')).toHaveLength(2)
    expect(JSON.stringify(g.files)).not.toContain(SECRET)
    expect(opened.every((p) => p.startsWith(realpathSync(box.root)))).toBe(true)
  })

  it('leaves @scope/pkg strings that are not files alone, silently', async () => {
    box.write('AGENTS.md', 'Use @claude-flow/cli and @types/node.')
    box.write('claude-flow/cli/index.ts', '')
    const { g } = await gather()
    expect(g.notes).toEqual([])
    expect(Object.values(g.files)[0]!.imports.map((l) => l.status)).toEqual(['not_a_file', 'not_a_file'])
  })

  it('skips a binary file', async () => {
    box.write('LOUPE.md', new Uint8Array([0x23, 0x20, 0x00, 0x01, 0x02]))
    const { g } = await gather()
    expect(noteFor(g, 'LOUPE.md')).toMatch(/^binary:/)
  })

  it('skips a 10 MB file without reading it', async () => {
    box.write('.claude/rules/huge.md', 'x'.repeat(10 * 1024 * 1024))
    const { g, opened } = await gather()
    expect(noteFor(g, '.claude/rules/huge.md')).toMatch(/^too_large:/)
    expect(opened.some((p) => p.endsWith('huge.md'))).toBe(false)
  })

  it('replaces invalid UTF-8 and says so', async () => {
    box.write('CLAUDE.local.md', new Uint8Array([0x4f, 0x4b, 0x20, 0xff, 0xfe, 0x21]))
    const { g } = await gather()
    expect(noteFor(g, 'CLAUDE.local.md')).toMatch(/^invalid_utf8_replaced:/)
    const frozen = freezeSession(g, { contextWindowTokens: 200_000, skills: false })
    expect(frozen.session.instructions.text).toContain('OK \uFFFD\uFFFD!')
  })

  it('applies a rule with bad frontmatter everywhere, with a note', async () => {
    box.write('.claude/rules/bad.md', "---\npaths: ['src/**\n---\nAlways check types.")
    const { g } = await gather()
    const frozen = freezeSession(g, { contextWindowTokens: 200_000, skills: false })
    expect(frozen.session.notes).toContainEqual(expect.objectContaining({ kind: 'bad_frontmatter', path: '.claude/rules/bad.md' }))
    expect(frozen.session.instructions.text).toContain('Always check types.')
  })

  it('notes a dangling link and a folder where a file was expected', async () => {
    box.link('AGENTS.md', 'missing.md')
    box.write('LOUPE.md/inner.txt', 'a folder named LOUPE.md')
    const { g } = await gather()
    expect(noteFor(g, 'AGENTS.md')).toMatch(/^unreadable:/)
    expect(noteFor(g, 'LOUPE.md')).toMatch(/^not_a_file:/)
  })

  it('refuses memory and skill files that link out of the root', async () => {
    box.link('.loupe/memory.md', join(box.outside, 'secret.md'))
    box.link('.loupe/skills/evil/SKILL.md', join(box.outside, 'secret.md'))
    const { g, opened } = await gather()
    expect(noteFor(g, '.loupe/memory.md')).toMatch(/^outside_allowed_roots:/)
    expect(noteFor(g, '.loupe/skills/evil/SKILL.md')).toMatch(/^outside_allowed_roots:/)
    expect(opened).toEqual([])
  })

  it('does not follow a symlinked rules folder', async () => {
    box.write(join(box.outside, 'rules/r.md'), SECRET)
    box.link('.claude/rules/linked', join(box.outside, 'rules'))
    const { g } = await gather()
    expect(noteFor(g, '.claude/rules/linked')).toMatch(/^symlinked_folder_not_followed:/)
    expect(JSON.stringify(g)).not.toContain(SECRET)
  })

  it('never throws, even for a root that does not exist', async () => {
    const g = await gatherProjectContext(join(box.base, 'nope'), { homeDir: box.home, loupeHome: box.loupeHome, now: 0 })
    expect(g.notes).toEqual([expect.objectContaining({ reason: 'root_unreadable' })])
    expect(() => freezeSession(g, { contextWindowTokens: 200_000, skills: true })).not.toThrow()
  })

  it('reads nothing outside the root and ~/.loupe when everything hostile is there at once', async () => {
    box.link('CLAUDE.md', join(box.outside, 'secret.md'))
    box.write('AGENTS.md', `@${join(box.outside, 'secret.md')} @~/secret.md @a.md`)
    box.write('a.md', '@AGENTS.md @../outside/secret.md')
    box.write(join(box.loupeHome, 'AGENTS.md'), 'Global. @../secret.md')
    box.link('.loupe/memory.md', join(box.home, 'secret.md'))
    const { g, opened } = await gather()
    const allowed = [realpathSync(box.root), realpathSync(box.loupeHome)]
    expect(opened.length).toBeGreaterThan(0)
    for (const path of opened) expect(allowed.some((a) => path.startsWith(a + '/'))).toBe(true)
    expect(JSON.stringify(g)).not.toContain(SECRET)
  })
})

describe('hostile nested instruction files', () => {
  it('refuses a nested AGENTS.md that links out of the root, with a note, and delivers nothing from it', async () => {
    box.write('pkg/a.ts', '')
    box.link('pkg/AGENTS.md', join(box.outside, 'secret.md'))
    const io = recordingAccess()
    const g = await gatherProjectContext(box.root, { homeDir: box.home, loupeHome: box.loupeHome, now: 0, io })
    const frozen = freezeSession(g, { contextWindowTokens: 200_000, skills: false })
    const reader = createNestedContextReader(g, frozen.session.instructions, { homeDir: box.home, io })
    const result = await reader.forFile('pkg/a.ts')
    expect(result.notes).toEqual([])
    expect(result.gatherNotes).toEqual([expect.objectContaining({ path: 'pkg/AGENTS.md', reason: 'outside_allowed_roots' })])
    expect(io.opened).toEqual([])
  })
})

describe('a project rooted at the home folder', () => {
  it('shows memory once when project and user memory are the same file', async () => {
    const g = await gatherProjectContext(box.home, { homeDir: box.home, loupeHome: box.loupeHome, now: 0 })
    expect(g.memory.project).toBeNull()
    box.write(join(box.loupeHome, 'memory.md'), '- one fact')
    const again = await gatherProjectContext(box.home, { homeDir: box.home, loupeHome: box.loupeHome, now: 0 })
    const text = freezeSession(again, { contextWindowTokens: 200_000, skills: false }).session.memory.text
    expect(text.match(/- one fact/g)).toHaveLength(1)
  })
})
