import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { mkdirSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { listInstructionFiles, type FileNode } from '../../../src-main/node/files'
import { filesSandbox, type FilesSandbox } from './sandbox'

let box: FilesSandbox
beforeEach(() => {
  box = filesSandbox()
})
afterEach(() => box.cleanup())

const list = () => listInstructionFiles({ root: box.root, loupeHome: box.loupeHome, homeDir: box.homeDir, now: box.now() })
const byPath = (nodes: ReadonlyArray<FileNode>, path: string): FileNode | undefined => {
  for (const n of nodes) {
    if (n.path === path) return n
    const inner = byPath(n.children, path)
    if (inner) return inner
  }
  return undefined
}

describe('listInstructionFiles: the files as the prompt builder resolved them', () => {
  it('shows every instruction file with its fate, imports as children and paths: rules as conditional', async () => {
    box.write('CLAUDE.md', '# Project\n\nSee @docs/style.md for the style.\n')
    box.write('docs/style.md', 'Tabs, not spaces.\n')
    box.write('.claude/rules/tests.md', '---\npaths:\n  - "test/**"\n---\nTests use vitest.\n')
    box.write('.claude/rules/empty.md', '   \n')
    box.write('CLAUDE.local.md', new Uint8Array([0x61, 0x00, 0x62]))
    const listing = await list()

    expect(listing.instructions.map((n) => [n.path, n.status])).toEqual([
      ['CLAUDE.md', 'included'],
      ['.claude/rules/empty.md', 'empty'],
      ['.claude/rules/tests.md', 'conditional'],
      ['CLAUDE.local.md', 'skipped'],
    ])
    const claude = byPath(listing.instructions, 'CLAUDE.md')!
    expect(claude.children.map((c) => [c.path, c.kind, c.status, c.importedBy])).toEqual([['docs/style.md', 'import', 'included', 'CLAUDE.md']])
    expect(claude.tokens).toBeGreaterThan(0)
    expect(byPath(listing.instructions, '.claude/rules/tests.md')!.patterns).toEqual(['test/**'])
    const binary = byPath(listing.instructions, 'CLAUDE.local.md')!
    expect(binary.reason).toContain('binary')
    expect(binary.editable).toBe(false)
  })

  it('marks a file cut or omitted when the 40,000-character budget runs out, and a same-text file as a duplicate', async () => {
    // The budget goes to the most specific files first: the local file takes most of it, AGENTS.md is cut.
    box.write('CLAUDE.local.md', `${'local rule line\n'.repeat(2300)}`)
    box.write('AGENTS.md', `${'project rule line\n'.repeat(1000)}`)
    box.link('CLAUDE.md', 'AGENTS.md')
    const listing = await list()
    const status = Object.fromEntries(listing.instructions.map((n) => [n.path, n.status]))
    expect(status).toEqual({ 'AGENTS.md': 'cut', 'CLAUDE.md': 'duplicate', 'CLAUDE.local.md': 'included' })
    expect(byPath(listing.instructions, 'CLAUDE.md')!.reason).toContain('same text as AGENTS.md')
    expect(listing.usedChars).toBeLessThanOrEqual(listing.budgetChars)
  })

  it('lists memory files and offers the missing ones (and AGENTS.md) for creation', async () => {
    box.write('.loupe/memory.md', '- the build is `make`\n')
    const listing = await list()
    expect(listing.memory.map((m) => [m.path, m.status])).toEqual([['.loupe/memory.md', 'included']])
    expect(listing.creatable.map((c) => c.kind)).toEqual(['instructions', 'user_memory', 'global_instructions'])
    expect(listing.creatable.find((c) => c.kind === 'user_memory')!.path).toBe('~/.loupe/memory.md')
  })

  it('shows a link out of the project as skipped and not editable, without reading it', async () => {
    box.link('AGENTS.md', join(box.outside, 'secret.md'))
    const listing = await list()
    const node = byPath(listing.instructions, 'AGENTS.md')!
    expect(node.status).toBe('skipped')
    expect(node.skip).toBe('outside_allowed_roots')
    expect(node.reason).toContain('outside')
    expect(node.editable).toBe(false)
    expect(JSON.stringify(listing)).not.toContain('TOP-SECRET')
  })

  it('says a memory file that is a broken symbolic link is one, in the words the memory tool uses', async () => {
    mkdirSync(join(box.root, '.loupe'), { recursive: true })
    symlinkSync(join(box.root, 'gone.md'), join(box.root, '.loupe', 'memory.md'))
    const memory = (await list()).memory.find((n) => n.path === '.loupe/memory.md')
    expect(memory).toMatchObject({ status: 'skipped', skip: 'unreadable', skipDetail: 'it is a symbolic link whose target does not exist (a broken link)' })
  })

  it('notes an import that was not read once, in the words of the reading', async () => {
    box.write('CLAUDE.md', '# Project\n\nSee @docs/logo.md and @docs/gone.md.\n')
    box.write('docs/logo.md', new Uint8Array([0x61, 0x00, 0x62]))
    symlinkSync(join(box.root, 'docs', 'nowhere.md'), join(box.root, 'docs', 'gone.md'))
    const notes = (await list()).notes
    expect(notes.filter((n) => n.path === 'docs/logo.md')).toHaveLength(1)
    expect(notes.filter((n) => n.path === 'docs/gone.md')).toEqual([expect.objectContaining({ message: expect.stringContaining('a broken link') })])
  })

  it('notes a file the prompt builder did not read once, in the reader\'s words, not again as the builder\'s `skipped`', async () => {
    box.write('AGENTS.md', 'x'.repeat(1024 * 1024 + 1))
    box.link('CLAUDE.md', join(box.outside, 'secret.md'))
    mkdirSync(join(box.root, '.loupe'), { recursive: true })
    symlinkSync(join(box.root, 'gone.md'), join(box.root, '.loupe', 'memory.md'))
    const notes = (await list()).notes
    expect(notes.filter((n) => n.path === 'AGENTS.md').map((n) => n.kind)).toEqual(['too_large'])
    expect(notes.filter((n) => n.path === 'CLAUDE.md').map((n) => n.kind)).toEqual(['outside_allowed_roots'])
    expect(notes.filter((n) => n.path === '.loupe/memory.md')).toHaveLength(1)
  })

  it('says when a skill is listed under its folder name because its frontmatter names it otherwise', async () => {
    box.write('.loupe/skills/pdf/SKILL.md', '---\nname: pdf-tools\ndescription: Fill PDF forms\n---\nUse qpdf.\n')
    box.write('.loupe/skills/deploy/SKILL.md', '---\nname: deploy\ndescription: Deploy it\n---\nSteps.\n')
    const notes = (await list()).notes
    expect(notes.filter((n) => n.path.startsWith('.loupe/skills/'))).toEqual([
      { path: '.loupe/skills/pdf/SKILL.md', kind: 'skill_name', message: '.loupe/skills/pdf/SKILL.md names itself "pdf-tools": it is listed and loaded as pdf, its folder\'s name' },
    ])
  })
})

describe('listInstructionFiles: the session block on the inspector’s basis', () => {
  it('gives system[1] the size the prompt builder plans for it, and shares it out as the context map does', async () => {
    const { freezeSession, buildPromptPlan } = await import('../../../src-main/engine/prompt')
    const { gatherProjectContext } = await import('../../../src-main/node/instructions')
    const { nodeHasher } = await import('../../../src-main/node/hasher')
    box.write('CLAUDE.md', '# Project instructions\n\nUse TypeScript strict mode.\n\n@docs/style.md\n')
    box.write('docs/style.md', 'Two-space indent.\n')
    box.write('AGENTS.md', 'Run `npm test`.\n')
    box.write('.loupe/memory.md', '- The user deploys with make ship.\n')
    const listing = await list()

    const gathered = await gatherProjectContext(box.root, { homeDir: box.homeDir, loupeHome: box.loupeHome, now: box.now() })
    const frozen = freezeSession(gathered, { contextWindowTokens: 200_000, skills: true })
    const plan = buildPromptPlan({
      model: 'claude-sonnet-4-6',
      maxTokens: 1000,
      settings: { features: { sandbox: false, hooks: false, todo: false, skills: true }, staticCacheTtl1h: false },
      tools: [],
      ...frozen,
      history: [{ message: { role: 'user', content: [{ type: 'text', text: 'Hi.' }] }, provenance: { entryIds: ['e1'], kind: 'user_input' } }],
      previousTailIndex: null,
      hasher: nodeHasher,
    })
    const sessionBlock = plan.system.find((b) => b.provenance.kind === 'system' && b.provenance.block === 'session')!
    // The inspector's system[1]: the same total, not instructions + memory files alone.
    expect(listing.sessionBlockTokens).toBe(sessionBlock.tokens)
    const parts = listing.sessionBlock
    // Memory whole (the map's "Memory") is its files and the section's header; the row shows the files' share.
    expect(parts.memory).toBeGreaterThan(parts.memoryFiles)
    expect(byPath(listing.memory, '.loupe/memory.md')!.tokens).toBe(parts.memoryFiles)
    expect(Math.abs(parts.instructionFiles + parts.instructionHeadings + parts.memory + parts.skills - listing.sessionBlockTokens)).toBeLessThanOrEqual(2)
  })

  it("keeps a file's figure while another file's size changes the block's, and the block's total true", async () => {
    box.write('CLAUDE.md', `# Project instructions\n\n${'Use TypeScript strict mode everywhere.\n'.repeat(10)}yyyy`)
    box.write('.loupe/memory.md', '- The user deploys with make ship.\n')
    const listings = []
    // AGENTS.md grows a character at a time: the block's size, and its round-up, move with it.
    for (let extra = 0; extra < 8; extra++) {
      box.write('AGENTS.md', `Run \`npm test\`.\n${'x'.repeat(extra)}`)
      listings.push(await list())
    }
    expect(new Set(listings.map((l) => byPath(l.instructions, 'CLAUDE.md')!.tokens)).size).toBe(1)
    expect(new Set(listings.map((l) => byPath(l.memory, '.loupe/memory.md')!.tokens)).size).toBe(1)
    for (const l of listings) {
      // The summary's "instruction files" is the rows', and its parts make the block's total.
      expect(l.sessionBlock.instructionFiles).toBe(byPath(l.instructions, 'CLAUDE.md')!.tokens + byPath(l.instructions, 'AGENTS.md')!.tokens)
      const parts = l.sessionBlock
      expect(Math.abs(parts.instructionFiles + parts.instructionHeadings + parts.memory + parts.skills - l.sessionBlockTokens)).toBeLessThanOrEqual(1)
    }
  })
})
