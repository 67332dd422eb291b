import { readFileSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { toToolResultBlock, TOOL_SPECS } from '../../../src-main/engine/tools'
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
