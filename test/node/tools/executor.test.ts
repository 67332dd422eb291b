import { readFileSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { freezeSessionSection } from '../../../src-main/engine/prompt'
import { toToolResultBlock, TOOL_SPECS } from '../../../src-main/engine/tools'
import { gatherProjectContext } from '../../../src-main/node/instructions'
import { VALID_INPUTS } from '../../engine/tools/samples'
import { makeFixture, Session, type Fixture } from './fixture'

let fx: Fixture
let session: Session
beforeEach(() => {
  fx = makeFixture({
    'src/app.ts': 'a\n',
    '.loupe/skills/release/SKILL.md': '---\nname: release\ndescription: How to cut a release\n---\n\n# Release\n\nRun `npm version`.\n',
    '.loupe/skills/review/SKILL.md': 'Review body\n',
  })
  session = new Session(fx)
})
afterEach(async () => {
  await session.executor.dispose()
  fx.cleanup()
})

describe('remember', () => {
  it('appends one fact per line to project memory, creating the file', async () => {
    const first = await session.call('remember', { fact: 'Tests run with\n  npm test', scope: 'project' })
    expect(first).toEqual({
      kind: 'ok',
      content: 'Saved to project memory (.loupe/memory.md): Tests run with npm test',
      effects: [{ type: 'memory_saved', scope: 'project', fact: 'Tests run with npm test', file: '.loupe/memory.md' }],
    })
    fx.write('.loupe/memory.md', `${fx.read('.loupe/memory.md')}# kept by the user`)
    await session.call('remember', { fact: 'Use pnpm', scope: 'project' })
    expect(fx.read('.loupe/memory.md')).toBe('- Tests run with npm test\n# kept by the user\n- Use pnpm\n')
  })

  it('saves user facts under the app folder, outside the project', async () => {
    const outcome = await session.call('remember', { fact: 'Prefers tabs', scope: 'user' })
    expect(outcome.effects).toEqual([{ type: 'memory_saved', scope: 'user', fact: 'Prefers tabs', file: join(fx.home, 'memory.md') }])
    expect(readFileSync(join(fx.home, 'memory.md'), 'utf8')).toBe('- Prefers tabs\n')
  })

  it.each(['project', 'user'] as const)('keeps both facts when two sessions save %s facts at the same moment', async (scope) => {
    // Two sessions (two windows, or two running at once): each its own executor and project door onto the same root.
    const other = new Session(fx)
    try {
      const outcomes = await Promise.all([session.call('remember', { fact: 'fact from session A', scope }), other.call('remember', { fact: 'fact from session B', scope })])
      expect(outcomes.map((o) => o.kind)).toEqual(['ok', 'ok'])
      const text = scope === 'project' ? fx.read('.loupe/memory.md') : readFileSync(join(fx.home, 'memory.md'), 'utf8')
      expect(text.split('\n').sort()).toEqual(['', '- fact from session A', '- fact from session B'])
    } finally {
      await other.executor.dispose()
    }
  })
})

describe('skill', () => {
  it('returns the body without its frontmatter', async () => {
    expect(await session.call('skill', { name: 'release' })).toEqual({
      kind: 'ok',
      content: 'Skill "release" (.loupe/skills/release/SKILL.md):\n\n# Release\n\nRun `npm version`.',
      effects: [{ type: 'skill_loaded', name: 'release', path: '.loupe/skills/release/SKILL.md' }],
    })
  })

  it('lists the skills there are when the name is unknown, and refuses names that are paths', async () => {
    const missing = await session.call('skill', { name: 'deploy' })
    expect(missing).toMatchObject({ kind: 'error', code: 'not_found', content: 'There is no skill named "deploy". Available: release, review.' })
    expect(await session.call('skill', { name: '../../outside' })).toMatchObject({ kind: 'error', code: 'invalid_input' })
  })

  it('refuses a SKILL.md that is a link out of the root', async () => {
    const { mkdirSync } = await import('node:fs')
    mkdirSync(join(fx.root, '.loupe/skills/sneaky'))
    symlinkSync(join(fx.outside, 'skills/evil/SKILL.md'), join(fx.root, '.loupe/skills/sneaky/SKILL.md'))
    const outcome = await session.call('skill', { name: 'sneaky' })
    expect(outcome).toMatchObject({ kind: 'error', code: 'outside_root' })
  })

  it('loads every skill the prompt lists by the name it is listed under, whatever its frontmatter calls it', async () => {
    fx.write('.loupe/skills/pdf/SKILL.md', '---\nname: pdf-tools\ndescription: Fill and merge PDF forms\n---\nUse qpdf.\n')
    fx.write('.loupe/skills/release-check/SKILL.md', '---\nname: Release Checklist\ndescription: Cut a release\n---\nBump the version.\n')
    // A folder the tool could never be asked for is not listed.
    fx.write('.loupe/skills/My Notes/SKILL.md', '---\nname: notes\ndescription: Take notes\n---\nWrite them down.\n')
    const gathered = await gatherProjectContext(fx.root, { homeDir: fx.base, loupeHome: fx.home, now: 0 })
    const section = freezeSessionSection(gathered, { origin: { kind: 'session_start' }, contextWindowTokens: 200_000, skills: true }).skills
    const listed = section.text.split('\n').filter((line) => line.startsWith('- ')).map((line) => /^- ([^ :]+)/.exec(line)![1]!)
    expect(listed).toEqual(['pdf', 'release', 'release-check'])
    expect(section.text).toContain('- pdf (pdf-tools): Fill and merge PDF forms\n- release: How to cut a release\n- release-check (Release Checklist): Cut a release')
    for (const name of listed) expect(await session.call('skill', { name }), name).toMatchObject({ kind: 'ok', effects: [{ type: 'skill_loaded', name, path: `.loupe/skills/${name}/SKILL.md` }] })
    // A frontmatter name is answered with the names to call, which leave out the folder no call can name.
    expect(await session.call('skill', { name: 'pdf-tools' })).toMatchObject({ kind: 'error', code: 'not_found', content: 'There is no skill named "pdf-tools". Available: pdf, release, release-check, review.' })
    // What the Files view lists says where the two names differ, and why a folder is left out.
    expect(section.notes).toEqual([
      { path: '.loupe/skills/My Notes/SKILL.md', kind: 'bad_name', message: '.loupe/skills/My Notes/SKILL.md is not listed: its folder name "My Notes" is not a skill name the `skill` tool takes (letters, digits, ".", "_" or "-", at most 64)' },
      { path: '.loupe/skills/pdf/SKILL.md', kind: 'skill_name', message: '.loupe/skills/pdf/SKILL.md names itself "pdf-tools": it is listed and loaded as pdf, its folder\'s name' },
      { path: '.loupe/skills/release-check/SKILL.md', kind: 'skill_name', message: '.loupe/skills/release-check/SKILL.md names itself "Release Checklist": it is listed and loaded as release-check, its folder\'s name' },
      { path: '.loupe/skills/review/SKILL.md', kind: 'bad_frontmatter', message: '.loupe/skills/review/SKILL.md is not listed: it has no frontmatter' },
    ])
  })
})

describe('the executor', () => {
  it('returns the plan for todo_write', async () => {
    const todos = [{ content: 'read', status: 'done' }, { content: 'edit', status: 'in_progress' }]
    expect(await session.call('todo_write', { todos })).toEqual({
      kind: 'ok',
      content: 'Plan updated:\n[x] read\n[~] edit',
      effects: [{ type: 'todos_updated', todos }],
    })
  })

  it('leaves compact to the compaction layer', async () => {
    expect(await session.call('compact', {})).toMatchObject({ kind: 'error', code: 'not_executable' })
  })

  it('never throws: unknown tools and bad input come back as results the model can read', async () => {
    expect(await session.call('rm_rf', {})).toMatchObject({ kind: 'error', code: 'unknown_tool' })
    const bad = await session.call('read_file', { path: 'a', offset: -1 })
    expect(bad).toMatchObject({ kind: 'error', code: 'invalid_input' })
    expect(bad.content).toContain('offset')
  })

  it('answers every tool, and each outcome becomes a tool_result block', async () => {
    for (const spec of TOOL_SPECS) {
      if (spec.name === 'bash' && process.platform === 'win32') continue
      const input = spec.name === 'bash' ? { command: 'true' } : VALID_INPUTS[spec.name]
      const outcome = await session.call(spec.name, input)
      const block = toToolResultBlock('toolu_1', outcome)
      expect(block.tool_use_id).toBe('toolu_1')
      expect(block.is_error === true).toBe(outcome.kind === 'error')
      expect(typeof block.content).toBe('string')
    }
  })
})
