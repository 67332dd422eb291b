import { describe, expect, it } from 'vitest'
import { resolveInstructions, MAX_IMPORT_DEPTH } from '../../../src-main/engine/prompt'
import { gathered, link } from './fakes'

const paths = (r: ReturnType<typeof resolveInstructions>) => r.parts.map((p) => `${p.path}:${p.allocation}`)

describe('resolveInstructions', () => {
  it('orders global → project → rule → local, whatever order the files were gathered in', () => {
    const g = gathered({
      files: { 'CLAUDE.local.md': { text: 'local' }, 'r.md': { text: 'rule' }, 'AGENTS.md': { text: 'project' }, 'g.md': { text: 'global' } },
      instructions: [['local', 'CLAUDE.local.md'], ['rule', 'r.md'], ['project', 'AGENTS.md'], ['global', 'g.md']],
    })
    expect(paths(resolveInstructions(g))).toEqual(['g.md:full', 'AGENTS.md:full', 'r.md:full', 'CLAUDE.local.md:full'])
  })

  it('gives each file a heading with its path', () => {
    const g = gathered({ files: { 'AGENTS.md': { text: 'Use tabs.' } }, instructions: [['project', 'AGENTS.md']] })
    expect(resolveInstructions(g).text).toContain('## AGENTS.md\n\nUse tabs.')
  })

  it('includes a file with the same text as an earlier one once, as a pointer', () => {
    const g = gathered({
      files: { 'AGENTS.md': { text: 'Same words.' }, 'CLAUDE.md': { text: 'Same words.' } },
      instructions: [['project', 'AGENTS.md'], ['project', 'CLAUDE.md']],
    })
    const r = resolveInstructions(g)
    expect(paths(r)).toEqual(['AGENTS.md:full', 'CLAUDE.md:pointer'])
    expect(r.text.match(/Same words\./g)).toHaveLength(1)
    expect(r.text).toContain('## CLAUDE.md\n\n[Same text as AGENTS.md; included once.]')
  })

  it('skips empty files with a note', () => {
    const g = gathered({ files: { 'LOUPE.md': { text: '  \n' }, 'AGENTS.md': { text: 'x' } }, instructions: [['project', 'LOUPE.md'], ['project', 'AGENTS.md']] })
    const r = resolveInstructions(g)
    expect(paths(r)).toEqual(['AGENTS.md:full'])
    expect(r.notes).toContainEqual(expect.objectContaining({ path: 'LOUPE.md', kind: 'empty' }))
  })

  it('places an imported file right after its importer, with the importer named', () => {
    const g = gathered({
      files: {
        'CLAUDE.md': { text: '@docs/style.md\nMore.', imports: [link('docs/style.md', 'docs/style.md')] },
        'docs/style.md': { text: 'Style rules.' },
        'CLAUDE.local.md': { text: 'Local.' },
      },
      instructions: [['project', 'CLAUDE.md'], ['local', 'CLAUDE.local.md']],
    })
    const r = resolveInstructions(g)
    expect(paths(r)).toEqual(['CLAUDE.md:full', 'docs/style.md:full', 'CLAUDE.local.md:full'])
    expect(r.text).toContain('## docs/style.md (imported by CLAUDE.md)\n\nStyle rules.')
    expect(r.text).toContain('@docs/style.md\nMore.')
  })

  it('stops an import cycle with a note', () => {
    const g = gathered({
      files: {
        'a.md': { text: 'A @b.md', imports: [link('b.md', 'b.md')] },
        'b.md': { text: 'B @a.md', imports: [link('a.md', 'a.md')] },
      },
      instructions: [['project', 'a.md']],
    })
    const r = resolveInstructions(g)
    expect(paths(r)).toEqual(['a.md:full', 'b.md:full'])
    expect(r.notes).toContainEqual(expect.objectContaining({ kind: 'import_cycle', path: 'a.md' }))
  })

  it(`follows imports at most ${MAX_IMPORT_DEPTH} levels deep`, () => {
    const files: Record<string, { text: string; imports: ReturnType<typeof link>[] }> = {}
    for (let i = 0; i <= 6; i++) files[`f${i}.md`] = { text: `level ${i}`, imports: i < 6 ? [link(`f${i + 1}.md`, `f${i + 1}.md`)] : [] }
    const r = resolveInstructions(gathered({ files, instructions: [['project', 'f0.md']] }))
    expect(paths(r)).toEqual(['f0.md:full', 'f1.md:full', 'f2.md:full', 'f3.md:full', 'f4.md:full', 'f5.md:full'])
    expect(r.notes).toContainEqual(expect.objectContaining({ kind: 'import_depth_limit', path: 'f6.md' }))
  })

  it('notes imports the reading side refused, and leaves non-file references alone', () => {
    const g = gathered({
      files: {
        'CLAUDE.md': {
          text: '@/etc/passwd @scope/pkg',
          imports: [
            { ref: '/etc/passwd', status: 'skipped', path: '/etc/passwd', reason: 'outside_allowed_roots' },
            { ref: 'scope/pkg', status: 'not_a_file' },
          ],
        },
      },
      instructions: [['project', 'CLAUDE.md']],
    })
    const r = resolveInstructions(g)
    expect(r.notes).toEqual([expect.objectContaining({ kind: 'import_skipped', path: '/etc/passwd' })])
    expect(r.text).toContain('@/etc/passwd @scope/pkg')
  })

  it('sets paths: rules aside and keeps rules without paths in the section', () => {
    const g = gathered({
      files: {
        'a.md': { text: "---\npaths:\n  - 'src/**'\n---\nOnly for src." },
        'b.md': { text: 'Always.' },
        'c.md': { text: '---\npaths: [oops\n---\nBroken frontmatter.' },
      },
      instructions: [['rule', 'a.md'], ['rule', 'b.md'], ['rule', 'c.md']],
    })
    const r = resolveInstructions(g)
    expect(r.pathRules).toEqual([{ fileId: '/p/a.md', path: 'a.md', patterns: ['src/**'], body: 'Only for src.' }])
    expect(paths(r)).toEqual(['b.md:full', 'c.md:full'])
    expect(r.notes).toContainEqual(expect.objectContaining({ kind: 'bad_frontmatter', path: 'c.md' }))
  })

  it('notes a file the reading side refused, and leaves it out', () => {
    const g = gathered({
      files: { 'CLAUDE.md': { skipped: { ok: false, reason: 'outside_allowed_roots', detail: '' } } },
      instructions: [['project', 'CLAUDE.md']],
    })
    const r = resolveInstructions(g)
    expect(r.text).toBe('')
    expect(r.notes).toEqual([expect.objectContaining({ kind: 'skipped', path: 'CLAUDE.md' })])
  })

  it('still names a file too large to read, in one line, for the model to read itself; a binary one stays out', () => {
    const g = gathered({
      files: {
        'AGENTS.md': { text: 'Use tabs.' },
        'CLAUDE.md': { skipped: { ok: false, reason: 'too_large', detail: 'larger than 1048576 bytes' } },
        '.claude/CLAUDE.md': { skipped: { ok: false, reason: 'binary', detail: 'contains a NUL byte' } },
      },
      instructions: [['project', 'AGENTS.md'], ['project', 'CLAUDE.md'], ['project', '.claude/CLAUDE.md']],
    })
    const r = resolveInstructions(g)
    expect(paths(r)).toEqual(['AGENTS.md:full', 'CLAUDE.md:omitted'])
    expect(r.text).toContain('## AGENTS.md\n\nUse tabs.\n\n[Not read: CLAUDE.md is larger than 1 MB, too large for the prompt; read the file if it matters.]')
    expect(r.text).not.toContain('.claude/CLAUDE.md')
    expect(r.notes.map((n) => `${n.kind}:${n.path}`)).toEqual(['skipped:CLAUDE.md', 'skipped:.claude/CLAUDE.md'])
  })
})
