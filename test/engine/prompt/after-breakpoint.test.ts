import { describe, expect, it } from 'vitest'
import {
  deliveryKey,
  governingDirs,
  matchingRules,
  normalizeRelPath,
  renderNote,
  resolveInstructions,
  selectRelevantContext,
  type PathRule,
} from '../../../src-main/engine/prompt'
import { gathered, link } from './fakes'

const rule = (path: string, patterns: string[], body = `Body of ${path}.`): PathRule => ({ fileId: `/p/${path}`, path, patterns, body })

describe('matchingRules', () => {
  const rules = [
    rule('md.md', ['**/*.md']),
    rule('api.md', ['posthog/api/**', 'products/*/backend/api/**']),
    rule('tach.md', ['tach.toml']),
  ]

  it('matches globs relative to the root, at any depth and in dot-folders', () => {
    expect(matchingRules(rules, 'README.md').map((r) => r.path)).toEqual(['md.md'])
    expect(matchingRules(rules, '.github/workflows/AGENTS.md').map((r) => r.path)).toEqual(['md.md'])
    expect(matchingRules(rules, 'products/x/backend/api/views.py').map((r) => r.path)).toEqual(['api.md'])
    expect(matchingRules(rules, './tach.toml').map((r) => r.path)).toEqual(['tach.md'])
    expect(matchingRules(rules, 'src/tach.toml')).toEqual([])
  })

  it('matches nothing outside the root', () => {
    expect(matchingRules(rules, '../elsewhere/README.md')).toEqual([])
    expect(matchingRules(rules, '/abs/README.md')).toEqual([])
    expect(normalizeRelPath('a/./b//c')).toBe('a/b/c')
  })
})

describe('governingDirs', () => {
  it('lists the folders between a file and the root, outermost first, root excluded', () => {
    expect(governingDirs('a/b/c.py')).toEqual(['a/', 'a/b/'])
    expect(governingDirs('top.py')).toEqual([])
  })
})

describe('selectRelevantContext', () => {
  const g = gathered({
    files: {
      'AGENTS.md': { text: 'Root rules.' },
      'pkg/AGENTS.md': { text: 'Package rules. @pkg/more.md', imports: [link('more.md', 'pkg/more.md')] },
      'pkg/more.md': { text: 'More package rules.' },
      'pkg/sub/AGENTS.md': { text: 'Root rules.' },
    },
    instructions: [['project', 'AGENTS.md']],
  })
  const system = resolveInstructions(g).entries
  const base = {
    pathRules: [rule('.claude/rules/py.md', ['**/*.py'])],
    files: g.files,
    system,
    nested: [
      { dir: 'pkg/', fileId: '/p/pkg/AGENTS.md' },
      { dir: 'pkg/sub/', fileId: '/p/pkg/sub/AGENTS.md' },
    ],
  }

  it('brings nested files (with their imports) outermost first, then matching rules', () => {
    const result = selectRelevantContext({ ...base, relPath: 'pkg/sub/x.py', delivered: new Set() })
    expect(result.notes.map((n) => n.kind)).toEqual(['nested_instructions', 'path_rule'])
    const nested = result.notes[0]!
    expect(nested).toMatchObject({ kind: 'nested_instructions', dir: 'pkg/', path: 'pkg/AGENTS.md', trigger: 'pkg/sub/x.py' })
    expect(renderNote(nested)).toBe(
      '[Instructions for pkg/, which apply to pkg/sub/x.py:]\n\n## pkg/AGENTS.md\n\nPackage rules. @pkg/more.md\n\n## pkg/more.md (imported by pkg/AGENTS.md)\n\nMore package rules.',
    )
    expect(result.keys).toEqual([deliveryKey('nested', '/p/pkg/AGENTS.md'), deliveryKey('nested', '/p/pkg/sub/AGENTS.md'), deliveryKey('rule', '/p/.claude/rules/py.md')])
  })

  it('does not repeat a nested file whose text is already in the session block', () => {
    const result = selectRelevantContext({ ...base, relPath: 'pkg/sub/x.txt', delivered: new Set() })
    expect(result.notes.map((n) => (n.kind === 'nested_instructions' ? n.path : n.kind))).toEqual(['pkg/AGENTS.md'])
  })

  it('delivers each file once per session', () => {
    const first = selectRelevantContext({ ...base, relPath: 'pkg/a.py', delivered: new Set() })
    const again = selectRelevantContext({ ...base, relPath: 'pkg/b.py', delivered: new Set(first.keys) })
    expect(first.notes).toHaveLength(2)
    expect(again.notes).toEqual([])
  })

  it('renders a rule note with the globs that matched', () => {
    const [note] = selectRelevantContext({ ...base, relPath: 'x.py', delivered: new Set() }).notes
    expect(renderNote(note!)).toBe("[Rule .claude/rules/py.md applies to x.py (paths: '**/*.py'):]\n\nBody of .claude/rules/py.md.")
  })
})

describe('selectRelevantContext: rule imports', () => {
  it('brings the files a rule imports along with the rule', () => {
    const g = gathered({
      files: {
        '.claude/rules/api.md': { text: "---\npaths: ['api/**']\n---\nSee @docs/api.md", imports: [link('docs/api.md', 'docs/api.md')] },
        'docs/api.md': { text: 'Validate every body.' },
      },
      instructions: [['rule', '.claude/rules/api.md']],
    })
    const resolved = resolveInstructions(g)
    const result = selectRelevantContext({ relPath: 'api/x.ts', pathRules: resolved.pathRules, nested: [], files: g.files, delivered: new Set(), system: resolved.entries })
    expect(renderNote(result.notes[0]!)).toBe(
      "[Rule .claude/rules/api.md applies to api/x.ts (paths: 'api/**'):]\n\nSee @docs/api.md\n\n## docs/api.md (imported by .claude/rules/api.md)\n\nValidate every body.",
    )
  })
})

describe('renderNote', () => {
  it('renders each kind deterministically', () => {
    expect(renderNote({ kind: 'file_changed', path: 'AGENTS.md', fileKind: 'instructions', change: 'modified', entryId: 'c1' })).toBe(
      "[AGENTS.md was changed on disk after this session's instructions were taken. The text above is the earlier version until the user applies the change.]",
    )
    // A file created since has no earlier version above.
    expect(renderNote({ kind: 'file_changed', path: '.loupe/memory.md', fileKind: 'memory', change: 'added', entryId: 'c2' })).toBe(
      "[.loupe/memory.md was created on disk after this session's instructions were taken. It is not in them until the user applies the change.]",
    )
    expect(renderNote({ kind: 'memory_saved', scope: 'user', text: 'Prefers pnpm.', entryId: 'm1' })).toBe(
      '[Memory saved to user memory (~/.loupe/memory.md). It joins the memory section at the next compaction.]\n\nPrefers pnpm.',
    )
    expect(renderNote({ kind: 'text', label: 'Todo', text: '- [ ] a', entryId: null })).toBe('[Todo]\n\n- [ ] a')
  })
})
