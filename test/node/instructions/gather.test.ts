import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { mkdirSync, realpathSync } from 'node:fs'
import { join } from 'node:path'
import { gatherProjectContext } from '../../../src-main/node/instructions'
import { freezeSession } from '../../../src-main/engine/prompt'
import { sandbox, type Sandbox } from './tmp'

let box: Sandbox
beforeEach(() => {
  box = sandbox()
})
afterEach(() => box.cleanup())

const NOW = new Date(2026, 10, 29, 23, 59).getTime()

function gather(extra: { includeClaudeUserFile?: boolean } = {}) {
  return gatherProjectContext(box.root, { homeDir: box.home, loupeHome: box.loupeHome, now: NOW, ...extra })
}

describe('gatherProjectContext: instruction files', () => {
  it('finds every kind of file in its tier, in prompt order, with display paths', async () => {
    box.write(join(box.loupeHome, 'AGENTS.md'), 'global')
    box.write(join(box.home, '.claude/CLAUDE.md'), 'claude user')
    for (const f of ['LOUPE.md', 'AGENTS.md', 'CLAUDE.md', '.claude/CLAUDE.md', 'CLAUDE.local.md', '.claude/rules/b.md', '.claude/rules/a/z.md']) box.write(f, f)
    const without = await gather()
    expect(without.instructions.map((i) => `${i.tier}:${i.path}`)).toEqual([
      'global:~/.loupe/AGENTS.md',
      'project:LOUPE.md',
      'project:AGENTS.md',
      'project:CLAUDE.md',
      'project:.claude/CLAUDE.md',
      'rule:.claude/rules/a/z.md',
      'rule:.claude/rules/b.md',
      'local:CLAUDE.local.md',
    ])
    const withClaude = await gather({ includeClaudeUserFile: true })
    expect(withClaude.instructions[1]).toMatchObject({ tier: 'global', path: '~/.claude/CLAUDE.md' })
  })

  it('lets ~/.claude/CLAUDE.md import from ~/.claude but a project file not', async () => {
    box.write(join(box.home, '.claude/CLAUDE.md'), '@~/.claude/style.md')
    box.write(join(box.home, '.claude/style.md'), 'user style')
    box.write('AGENTS.md', '@~/.claude/style.md')
    const g = await gather({ includeClaudeUserFile: true })
    const text = freezeSession(g, { contextWindowTokens: 200_000, skills: false }).session.instructions.text
    expect(text).toContain('## ~/.claude/style.md (imported by ~/.claude/CLAUDE.md)\n\nuser style')
    expect(g.notes).toEqual([expect.objectContaining({ reason: 'outside_allowed_roots', message: expect.stringContaining('in AGENTS.md') })])
  })

  it('sends no byte-order mark to the model: the text of a file that starts with one starts after it', async () => {
    const bom = (text: string) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)])
    box.write('CLAUDE.md', bom('Be brief. See @docs/style.md'))
    box.write('docs/style.md', bom('Tabs, not spaces.'))
    box.write('.loupe/memory.md', bom('- project fact'))
    const g = await gather()
    expect(Object.values(g.files).map((f) => (f.read.ok ? f.read.text : '')).filter((t) => t.includes('\uFEFF'))).toEqual([])
    const frozen = freezeSession(g, { contextWindowTokens: 200_000, skills: false })
    expect(frozen.session.instructions.text).toContain('\n\nBe brief.')
    expect(frozen.session.instructions.text).toContain('\n\nTabs, not spaces.')
    expect(frozen.session.memory.text).toContain('- project fact')
    expect(`${frozen.session.instructions.text}${frozen.session.memory.text}`).not.toContain('\uFEFF')
  })

  it('gathers memory and skills', async () => {
    box.write('.loupe/memory.md', '- project fact')
    box.write(join(box.loupeHome, 'memory.md'), '- user fact')
    box.write('.loupe/skills/deploy/SKILL.md', '---\nname: deploy\ndescription: Deploy it.\n---\nSteps.')
    const g = await gather()
    const frozen = freezeSession(g, { contextWindowTokens: 200_000, skills: true })
    expect(frozen.session.memory.text).toContain('- project fact')
    expect(frozen.session.memory.text).toContain('## User memory (~/.loupe/memory.md)')
    expect(frozen.session.skills.text).toContain('- deploy: Deploy it.')
  })
})

describe('gatherProjectContext: session facts', () => {
  it('lists one level of the root, sorted, folders marked, .git hidden, capped at 100', async () => {
    for (let i = 0; i < 150; i++) box.write(`f${String(i).padStart(3, '0')}.txt`, '')
    box.write('src/index.ts', '')
    box.link('lib', 'src')
    mkdirSync(join(box.root, '.git'))
    const g = await gather()
    expect(g.facts.listingTotal).toBe(152)
    expect(g.facts.listing).toHaveLength(100)
    expect(g.facts.listing.slice(0, 2)).toEqual([{ name: 'f000.txt', isDirectory: false }, { name: 'f001.txt', isDirectory: false }])
    const small = sandbox()
    try {
      small.write('src/a.ts', '')
      small.link('lib', 'src')
      small.write('README.md', '')
      const g2 = await gatherProjectContext(small.root, { homeDir: small.home, loupeHome: small.loupeHome, now: NOW })
      expect(g2.facts.listing).toEqual([
        { name: 'README.md', isDirectory: false },
        { name: 'lib', isDirectory: true },
        { name: 'src', isDirectory: true },
      ])
    } finally {
      small.cleanup()
    }
  })

  it('keeps the local date and never the time', async () => {
    const g = await gather()
    expect(g.facts.date).toBe('2026-11-29')
    expect(g.facts.root).toBe(realpathSync(box.root))
    expect(g.facts.projectName).toBe('project')
  })

  it('reads branch and HEAD from a loose ref, from packed-refs, and a detached HEAD', async () => {
    const sha = 'abcdef0123456789abcdef0123456789abcdef01'
    box.write('.git/HEAD', 'ref: refs/heads/feature/x\n')
    box.write('.git/refs/heads/feature/x', `${sha}\n`)
    expect((await gather()).facts.git).toEqual({ branch: 'feature/x', head: sha })
    box.write('.git/HEAD', 'ref: refs/heads/main\n')
    box.write('.git/packed-refs', `# pack-refs with: peeled\n${sha.replace('a', 'b')} refs/heads/main\n`)
    expect((await gather()).facts.git).toEqual({ branch: 'main', head: sha.replace('a', 'b') })
    box.write('.git/HEAD', `${sha}\n`)
    expect((await gather()).facts.git).toEqual({ branch: null, head: sha })
  })

  it('follows a .git file to a worktree folder and its common refs', async () => {
    const sha = '1111111111111111111111111111111111111111'
    const common = join(box.base, 'main-repo/.git')
    box.write(join(common, 'worktrees/wt/HEAD'), 'ref: refs/heads/wt-branch\n')
    box.write(join(common, 'worktrees/wt/commondir'), '../..\n')
    box.write(join(common, 'refs/heads/wt-branch'), sha)
    box.write('.git', `gitdir: ${join(common, 'worktrees/wt')}\n`)
    expect((await gather()).facts.git).toEqual({ branch: 'wt-branch', head: sha })
  })

  it('says a branch with no commits has no HEAD, and a folder without git has no git facts', async () => {
    expect((await gather()).facts.git).toBeNull()
    box.write('.git/HEAD', 'ref: refs/heads/main\n')
    expect((await gather()).facts.git).toEqual({ branch: 'main', head: null })
  })

  it('collects build facts from the root and package.json', async () => {
    box.write('package.json', JSON.stringify({ scripts: { test: 'vitest run' }, packageManager: 'pnpm@9.0.0' }))
    box.write('go.mod', 'module x')
    const g = await gather()
    expect(g.build).toEqual({ rootFiles: ['go.mod', 'package.json'], packageJson: { testScript: 'vitest run', packageManager: 'pnpm@9.0.0' } })
    expect(Object.keys(g.files)).toEqual([])
    const notes = freezeSession(g, { contextWindowTokens: 200_000, skills: false }).project.buildProfiles.map((p) => p.detected)
    expect(notes).toEqual(['pnpm, vitest', 'Go'])
  })
})
