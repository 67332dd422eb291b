/**
 * Golden tests on real instruction trees copied from public repositories (test/fixtures/real/SOURCES.md): the
 * resolved session section, its budget notes, and which rules and nested files fire for which read path.
 * A golden file that changes shows, in review, exactly which prompt bytes a change moved.
 */
import { describe, expect, it } from 'vitest'
import { join } from 'node:path'
import { createNestedContextReader, gatherProjectContext } from '../../../src-main/node/instructions'
import { freezeSession, matchingRules, renderNote, type FrozenSession, type GatheredContext } from '../../../src-main/engine/prompt'

const TREES = join(__dirname, '../../fixtures/real/instructions')
const HOME = join(__dirname, 'no-such-home')

async function load(tree: string): Promise<{ g: GatheredContext; frozen: FrozenSession }> {
  const g = await gatherProjectContext(join(TREES, tree), { homeDir: HOME, loupeHome: join(HOME, '.loupe'), now: Date.UTC(2026, 10, 29, 12) })
  return { g, frozen: freezeSession(g, { contextWindowTokens: 200_000, skills: true }) }
}

function golden(tree: string, g: GatheredContext, frozen: FrozenSession): string {
  const s = frozen.session
  return [
    `# ${tree}: resolved session block`,
    '',
    '## Parts (path, allocation, characters)',
    ...s.instructions.parts.map((p) => `- ${p.path}: ${p.allocation}, ${p.end - p.start}`),
    '',
    '## Notes',
    ...g.notes.map((n) => `- gather ${n.reason}: ${n.message}`),
    ...s.notes.map((n) => `- ${n.kind}: ${n.message}`),
    '',
    `## paths: rules (${s.instructions.pathRules.length})`,
    ...s.instructions.pathRules.map((r) => `- ${r.path}: ${r.patterns.join(', ')}`),
    '',
    `## Section text (${s.instructions.text.length} characters)`,
    '',
    s.instructions.text,
    '',
  ].join('\n')
}

describe('real instruction trees', () => {
  for (const tree of ['posthog', 'pydantic-ai', 'ghostty', 'ccusage', 'ruflo', 'diversio-claude-plugins']) {
    it(`resolves ${tree} as in its golden file`, async () => {
      const { g, frozen } = await load(tree)
      await expect(golden(tree, g, frozen)).toMatchFileSnapshot(`./golden/${tree}.md`)
      expect(frozen.session.instructions.text.length).toBeLessThanOrEqual(40_000)
    })
  }

  it('posthog: the 42 kB AGENTS.md is cut within the 40,000 budget and CLAUDE.md goes in once', async () => {
    const { frozen } = await load('posthog')
    const parts = frozen.session.instructions.parts.map((p) => `${p.path}:${p.allocation}`)
    expect(parts).toEqual(['AGENTS.md:truncated', 'CLAUDE.md:pointer'])
    expect(frozen.session.instructions.text).toContain('[Truncated: AGENTS.md did not fit the 40,000-character budget')
    expect(frozen.session.instructions.pathRules).toHaveLength(22)
  })

  it('ruflo: @scope/pkg strings are left alone, code blocks are not imports, CLAUDE.local.md is kept whole', async () => {
    const { g, frozen } = await load('ruflo')
    expect(g.notes).toEqual([])
    expect(Object.keys(g.files).map((id) => g.files[id]!.path).sort()).toEqual(['AGENTS.md', 'CLAUDE.local.md', 'CLAUDE.md'])
    const parts = frozen.session.instructions.parts.map((p) => `${p.path}:${p.allocation}`)
    expect(parts).toEqual(['AGENTS.md:full', 'CLAUDE.md:truncated', 'CLAUDE.local.md:full'])
  })

  it('diversio: the @AGENTS.md import of CLAUDE.md points at the AGENTS.md already included', async () => {
    const { frozen } = await load('diversio-claude-plugins')
    const text = frozen.session.instructions.text
    expect(text).toContain('## AGENTS.md (imported by CLAUDE.md)\n\n[Same text as AGENTS.md; included once.]')
    expect(text.split('# Claude Code Configuration for').length).toBe(2)
  })

  it('ccusage: both CLAUDE.md (a link to AGENTS.md) and .claude/CLAUDE.md are handled', async () => {
    const { frozen } = await load('ccusage')
    expect(frozen.session.instructions.parts.map((p) => `${p.path}:${p.allocation}`)).toEqual([
      'AGENTS.md:full',
      'CLAUDE.md:pointer',
      '.claude/CLAUDE.md:full',
    ])
  })
})

describe('which rules fire for which read path (posthog)', () => {
  const reads = [
    'AGENTS.md',
    'README.md',
    'tach.toml',
    'frontend/src/scenes/insights/insightLogic.tsx',
    'frontend/src/lib/components/Button.stories.tsx',
    'frontend/src/lib/utils.test.ts',
    'posthog/api/person.py',
    'posthog/api/test/test_person.py',
    'posthog/migrations/0500_add_field.py',
    'posthog/clickhouse/migrations/0100_table.py',
    'posthog/tasks/tasks.py',
    'posthog/temporal/batch_exports/activities.py',
    'products/batch_exports/backend/temporal/workflow.py',
    'products/mcp_store/backend/admin.py',
    'proto/personhog/service.proto',
    'ee/billing/quota.py',
    'rust/capture/src/main.rs',
  ]

  it('matches the golden table', async () => {
    const { frozen } = await load('posthog')
    const rules = frozen.session.instructions.pathRules
    const table = reads.map((path) => {
      const names = matchingRules(rules, path).map((r) => r.path.replace('.claude/rules/', '').replace('.md', ''))
      return `${path} → ${names.length === 0 ? '(none)' : names.join(', ')}`
    })
    await expect(['# posthog: rules that fire per read path', '', ...table, ''].join('\n')).toMatchFileSnapshot('./golden/posthog-rules.md')
    expect(table[2]).toBe('tach.toml → tach-boundaries')
    expect(table.at(-1)).toBe('rust/capture/src/main.rs → (none)')
  })

  it('delivers each rule once per session through the reader', async () => {
    const { g, frozen } = await load('posthog')
    const reader = createNestedContextReader(g, frozen.session.instructions, { homeDir: HOME })
    const first = await reader.forFile('posthog/api/person.py')
    expect(first.notes.map((n) => (n.kind === 'path_rule' ? n.path : n.kind))).toEqual([
      '.claude/rules/drf-endpoints.md',
      '.claude/rules/personhog-data-access.md',
    ])
    const second = await reader.forFile(join(g.root, 'posthog/api/cohort.py'))
    expect(second.notes).toEqual([])
    expect(reader.delivered()).toHaveLength(2)
  })
})

describe('nested instruction files', () => {
  it('pydantic-ai: a read deep in the tree brings each governing AGENTS.md once, the CLAUDE.md links not again', async () => {
    const { g, frozen } = await load('pydantic-ai')
    const reader = createNestedContextReader(g, frozen.session.instructions, { homeDir: HOME })
    const first = await reader.forFile('pydantic_ai_slim/pydantic_ai/models/openai.py')
    const summary = first.notes.map((n) => (n.kind === 'nested_instructions' ? `${n.dir} ${n.path}` : n.kind))
    expect(summary).toEqual([
      'pydantic_ai_slim/pydantic_ai/ pydantic_ai_slim/pydantic_ai/AGENTS.md',
      'pydantic_ai_slim/pydantic_ai/models/ pydantic_ai_slim/pydantic_ai/models/AGENTS.md',
    ])
    expect(renderNote(first.notes[1]!)).toMatch(/^\[Instructions for pydantic_ai_slim\/pydantic_ai\/models\/, which apply to pydantic_ai_slim\/pydantic_ai\/models\/openai\.py:\]\n\n## pydantic_ai_slim\/pydantic_ai\/models\/AGENTS\.md\n\n/)
    expect((await reader.forFile('pydantic_ai_slim/pydantic_ai/models/anthropic.py')).notes).toEqual([])
    const providers = await reader.forFile('pydantic_ai_slim/pydantic_ai/providers/x.py')
    expect(providers.notes.map((n) => (n.kind === 'nested_instructions' ? n.path : n.kind))).toEqual(['pydantic_ai_slim/pydantic_ai/providers/AGENTS.md'])
    expect((await reader.forFile('../outside.py')).notes).toEqual([])
  })

  it('ghostty: only folders that have an AGENTS.md contribute', async () => {
    const { g, frozen } = await load('ghostty')
    const reader = createNestedContextReader(g, frozen.session.instructions, { homeDir: HOME })
    const notes = (await reader.forFile('src/terminal/c/main.zig')).notes
    expect(notes.map((n) => (n.kind === 'nested_instructions' ? n.dir : n.kind))).toEqual(['src/terminal/c/'])
  })

  it('ruflo: folders named like packages (@claude-flow) are walked like any other', async () => {
    const { g, frozen } = await load('ruflo')
    const reader = createNestedContextReader(g, frozen.session.instructions, { homeDir: HOME })
    const notes = (await reader.forFile('v3/@claude-flow/codex/src/index.ts')).notes
    expect(notes.map((n) => (n.kind === 'nested_instructions' ? n.path : n.kind))).toEqual(['v3/CLAUDE.md', 'v3/@claude-flow/codex/AGENTS.md'])
  })

  it('resumes a session without delivering again what its notes already carry', async () => {
    const { g, frozen } = await load('ghostty')
    const first = createNestedContextReader(g, frozen.session.instructions, { homeDir: HOME })
    await first.forFile('macos/Sources/App.swift')
    const resumed = createNestedContextReader(g, frozen.session.instructions, { homeDir: HOME, delivered: first.delivered() })
    expect((await resumed.forFile('macos/Sources/Other.swift')).notes).toEqual([])
  })
})
