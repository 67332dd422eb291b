import { describe, expect, it } from 'vitest'
import { freezeSessionSection, MEMORY_FILE_BUDGET_CHARS, sessionChangeWords, sessionFileChanges, SKILL_DESCRIPTION_MAX_CHARS } from '../../../src-main/engine/prompt'
import { gathered } from './fakes'

const origin = { kind: 'session_start' } as const

describe('memory section', () => {
  it('shows project then user memory under a line saying memory may be out of date', () => {
    const g = gathered({
      files: { '.loupe/memory.md': { text: '- tabs' }, '~/.loupe/memory.md': { text: '- short answers' } },
      memory: { project: '.loupe/memory.md', user: '~/.loupe/memory.md' },
    })
    const text = freezeSessionSection(g, { origin, contextWindowTokens: 200_000, skills: false }).memory.text
    expect(text).toContain('Memory may be out of date')
    expect(text.indexOf('## Project memory (.loupe/memory.md)')).toBeLessThan(text.indexOf('## User memory (~/.loupe/memory.md)'))
  })

  it(`cuts each file at ${MEMORY_FILE_BUDGET_CHARS} characters with a note`, () => {
    const long = Array.from({ length: 2000 }, (_, i) => `- fact ${i}`).join('\n')
    const g = gathered({ files: { '.loupe/memory.md': { text: long } }, memory: { project: '.loupe/memory.md' } })
    const memory = freezeSessionSection(g, { origin, contextWindowTokens: 200_000, skills: false }).memory
    expect(memory.text).toContain('[Truncated: .loupe/memory.md is longer than 8,000 characters; read the file for the rest.]')
    const body = memory.text.slice(memory.text.indexOf('- fact 0'), memory.text.indexOf('\n\n[Truncated'))
    expect(body.length).toBeLessThanOrEqual(MEMORY_FILE_BUDGET_CHARS)
    expect(memory.notes).toEqual([expect.objectContaining({ kind: 'truncated', path: '.loupe/memory.md' })])
  })

  it('names a memory file too large to read instead of dropping it without a word', () => {
    const g = gathered({
      files: { '.loupe/memory.md': { skipped: { ok: false, reason: 'too_large', detail: 'larger than 1048576 bytes' } } },
      memory: { project: '.loupe/memory.md' },
    })
    const memory = freezeSessionSection(g, { origin, contextWindowTokens: 200_000, skills: false }).memory
    expect(memory.text).toContain('## Project memory (.loupe/memory.md)\n\n[Not read: .loupe/memory.md is larger than 1 MB, too large for the prompt; read the file if it matters.]')
    expect(memory.parts).toEqual([expect.objectContaining({ path: '.loupe/memory.md', allocation: 'omitted' })])
    expect(memory.notes).toEqual([expect.objectContaining({ kind: 'skipped', path: '.loupe/memory.md' })])
  })

  it('is empty when there is no memory', () => {
    expect(freezeSessionSection(gathered({ files: {} }), { origin, contextWindowTokens: 200_000, skills: false }).memory.text).toBe('')
  })
})

function skillFile(name: string, description: string): { text: string } {
  return { text: `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n---\n\nBody of ${name}, never listed.` }
}

describe('skills listing', () => {
  it('lists name and description only, sorted by name, and never the body', () => {
    const g = gathered({
      files: { 'release/SKILL.md': skillFile('release', 'Cut a release.'), 'deploy/SKILL.md': skillFile('deploy', 'Deploy to staging.') },
      skills: [['release', 'release/SKILL.md'], ['deploy', 'deploy/SKILL.md']],
    })
    const text = freezeSessionSection(g, { origin, contextWindowTokens: 200_000, skills: true }).skills.text
    expect(text).toContain('- deploy: Deploy to staging.\n- release: Cut a release.')
    expect(text).not.toContain('Body of')
  })

  it('lists a skill under its folder name, the one the skill tool takes, with a frontmatter name that differs as its title', () => {
    const g = gathered({
      files: {
        'b/SKILL.md': skillFile('Release Checklist', 'Cut a release.'),
        'a/SKILL.md': skillFile('zz-deploy', 'Deploy to staging.'),
        'c/SKILL.md': skillFile('mine', 'Mine.'),
        'd/SKILL.md': skillFile('zz-deploy', 'Deploy to production.'),
      },
      skills: [['b', 'b/SKILL.md'], ['a', 'a/SKILL.md'], ['my skill', 'c/SKILL.md'], ['d', 'd/SKILL.md']],
    })
    const roomy = freezeSessionSection(g, { origin, contextWindowTokens: 200_000, skills: true }).skills
    // Two folders that give one frontmatter name are two skills, each loaded by its own folder's name.
    expect(roomy.text).toContain('skill` tool before starting.\n\n- a (zz-deploy): Deploy to staging.\n- b (Release Checklist): Cut a release.\n- d (zz-deploy): Deploy to production.')
    // A folder the tool would refuse (a space in its name) is not listed.
    expect(roomy.text).not.toContain('Mine.')
    expect(roomy.notes.map((n) => [n.path, n.kind]).sort()).toEqual([['a/SKILL.md', 'skill_name'], ['b/SKILL.md', 'skill_name'], ['c/SKILL.md', 'bad_name'], ['d/SKILL.md', 'skill_name']])
    // Names only: the names the tool takes.
    const namesOnly = freezeSessionSection(g, { origin, contextWindowTokens: 5_000, skills: true }).skills
    expect(namesOnly.text.endsWith('\n\n- a\n- b\n- d')).toBe(true)
  })

  it(`caps each description at ${SKILL_DESCRIPTION_MAX_CHARS} characters`, () => {
    const g = gathered({ files: { 'long/SKILL.md': skillFile('long', 'word '.repeat(200)) }, skills: [['long', 'long/SKILL.md']] })
    const line = freezeSessionSection(g, { origin, contextWindowTokens: 200_000, skills: true }).skills.text.split('\n').at(-1)!
    expect(line.length).toBeLessThanOrEqual('- long: '.length + SKILL_DESCRIPTION_MAX_CHARS)
    expect(line.endsWith('…')).toBe(true)
  })

  it('shortens descriptions, then lists names only, to stay within 1% of the window', () => {
    const files: Record<string, { text: string }> = {}
    const skills: Array<[string, string]> = []
    for (let i = 0; i < 40; i++) {
      const name = `skill-${String(i).padStart(2, '0')}`
      files[`${name}/SKILL.md`] = skillFile(name, 'd'.repeat(240))
      skills.push([name, `${name}/SKILL.md`])
    }
    const g = gathered({ files, skills })
    const roomy = freezeSessionSection(g, { origin, contextWindowTokens: 1_000_000, skills: true }).skills
    expect(roomy.descriptionCap).toBe(SKILL_DESCRIPTION_MAX_CHARS)
    const tight = freezeSessionSection(g, { origin, contextWindowTokens: 200_000, skills: true }).skills
    expect(tight.text.length).toBeLessThanOrEqual(200_000 * 0.01 * 4)
    expect(tight.descriptionCap).toBeLessThan(SKILL_DESCRIPTION_MAX_CHARS)
    const namesOnly = freezeSessionSection(g, { origin, contextWindowTokens: 20_000, skills: true }).skills
    expect(namesOnly.descriptionCap).toBe(0)
    expect(namesOnly.text).toContain('- skill-00\n- skill-01\n')
    const tiny = freezeSessionSection(g, { origin, contextWindowTokens: 10_000, skills: true }).skills
    expect(tiny.text.length).toBeLessThanOrEqual(400)
    expect(tiny.text).toMatch(/- … and \d+ more skills, not listed for space$/)
  })

  it('skips a skill with bad frontmatter or no name, with a note', () => {
    const g = gathered({
      files: { 'a/SKILL.md': { text: '---\nname: [x\n---\n' }, 'b/SKILL.md': { text: '---\ndescription: no name\n---\n' }, 'c/SKILL.md': { text: 'plain' } },
      skills: [['a', 'a/SKILL.md'], ['b', 'b/SKILL.md'], ['c', 'c/SKILL.md']],
    })
    const s = freezeSessionSection(g, { origin, contextWindowTokens: 200_000, skills: true }).skills
    expect(s.text).toBe('')
    expect(s.notes.map((n) => n.path)).toEqual(['a/SKILL.md', 'b/SKILL.md', 'c/SKILL.md'])
  })

  it('is left out when the skills feature is off', () => {
    const g = gathered({ files: { 'a/SKILL.md': skillFile('x', 'y') }, skills: [['a', 'a/SKILL.md']] })
    expect(freezeSessionSection(g, { origin, contextWindowTokens: 200_000, skills: false }).skills.text).toBe('')
  })
})

describe('what reading the session block again sends besides the files applied', () => {
  // A budget of 3,000 characters: the project's AGENTS.md is served first, and the global CLAUDE.md gets what is left.
  const freeze = (agents: string, claude: string) =>
    freezeSessionSection(
      gathered({ files: { 'AGENTS.md': { text: agents }, '~/CLAUDE.md': { text: claude } }, instructions: [['global', '~/CLAUDE.md'], ['project', 'AGENTS.md']] }),
      { origin, contextWindowTokens: 200_000, skills: false, instructionsBudgetChars: 3_000 },
    )
  const claude = Array.from({ length: 400 }, (_, i) => `- rule ${i}`).join('\n')
  const agents = 'Run the tests.\n'.repeat(40)

  it('names a file whose cut the budget moved as cut shorter or longer, not as changed on disk', () => {
    const before = freeze(agents, claude)
    expect(before.instructions.parts.find((p) => p.path === '~/CLAUDE.md')?.allocation).toBe('truncated')
    // AGENTS.md grows: CLAUDE.md, the same on disk, is cut shorter.
    const grown = freeze(`${agents}${'Prices are integer cents.\n'.repeat(20)}`, claude)
    expect(sessionFileChanges(before, grown, ['AGENTS.md'])).toEqual([{ path: '~/CLAUDE.md', kind: 'cut_shorter' }])
    expect(sessionChangeWords(sessionFileChanges(before, grown, ['AGENTS.md']))).toBe('~/CLAUDE.md, cut shorter by the instructions budget')
    // And back: it shrinks, and CLAUDE.md is cut longer.
    expect(sessionFileChanges(grown, before, ['AGENTS.md'])).toEqual([{ path: '~/CLAUDE.md', kind: 'cut_longer' }])
    // Left for later, AGENTS.md is itself changed on disk; CLAUDE.md only moved.
    expect(sessionFileChanges(before, grown)).toEqual([
      { path: '~/CLAUDE.md', kind: 'cut_shorter' },
      { path: 'AGENTS.md', kind: 'changed' },
    ])
  })

  it('names a file changed on disk as changed, cut or not, and says each kind once', () => {
    const before = freeze(agents, claude)
    const edited = `- rule first\n${claude}`
    expect(sessionFileChanges(before, freeze(agents, edited), [])).toEqual([{ path: '~/CLAUDE.md', kind: 'changed' }])
    expect(
      sessionChangeWords([
        { path: 'AGENTS.md', kind: 'changed' },
        { path: '.loupe/memory.md', kind: 'changed' },
        { path: '~/CLAUDE.md', kind: 'cut_shorter' },
      ]),
    ).toBe('AGENTS.md, .loupe/memory.md, changed on disk since the session block was read, and ~/CLAUDE.md, cut shorter by the instructions budget')
  })
})
