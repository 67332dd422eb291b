import { describe, expect, it } from 'vitest'
import { diffGathered } from '../../../src-main/engine/prompt'
import { gathered, link } from './fakes'

const base = {
  files: {
    'AGENTS.md': { text: 'A @docs/x.md', imports: [link('docs/x.md', 'docs/x.md')] },
    'docs/x.md': { text: 'x' },
    'r.md': { text: 'rule' },
    '.loupe/memory.md': { text: '- fact' },
  },
  instructions: [['project', 'AGENTS.md'], ['rule', 'r.md']] as Array<['project' | 'rule', string]>,
  memory: { project: '.loupe/memory.md' },
}

describe('diffGathered', () => {
  it('finds nothing when nothing changed', () => {
    expect(diffGathered(gathered(base), gathered(base))).toEqual([])
  })

  it('reports modified, added and removed files with their kind, sorted by path', () => {
    const after = gathered({
      ...base,
      files: { ...base.files, 'docs/x.md': { text: 'x2' }, '.loupe/memory.md': { text: '- fact\n- new' }, 'CLAUDE.local.md': { text: 'new' } },
      instructions: [['project', 'AGENTS.md'], ['local' as 'project', 'CLAUDE.local.md']],
    })
    expect(diffGathered(gathered(base), after)).toEqual([
      { path: '.loupe/memory.md', fileKind: 'memory', change: 'modified' },
      { path: 'CLAUDE.local.md', fileKind: 'instructions', change: 'added' },
      { path: 'docs/x.md', fileKind: 'instructions', change: 'modified' },
      { path: 'r.md', fileKind: 'rule', change: 'removed' },
    ])
  })
})
