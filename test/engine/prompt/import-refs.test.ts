import { describe, expect, it } from 'vitest'
import { findImportRefs, MAX_IMPORT_REFS_PER_FILE } from '../../../src-main/engine/prompt'

describe('findImportRefs', () => {
  it('finds @path at the start of a line and after whitespace, in order, once each', () => {
    expect(findImportRefs('@AGENTS.md\nSee @docs/style.md and @~/notes.md, then @docs/style.md again.')).toEqual([
      'AGENTS.md',
      'docs/style.md',
      '~/notes.md',
    ])
  })

  it('drops sentence punctuation after the path', () => {
    expect(findImportRefs('Read @AGENTS.md. Also @b.md, and (see @c.md).')).toEqual(['AGENTS.md', 'b.md', 'c.md'])
  })

  it('ignores fenced code blocks, including ~~~ fences and longer closing fences', () => {
    const text = ['```bash', 'curl -d @/tmp/registry.json', '```', '~~~~', '@inside.md', '~~~~~', '@after.md'].join('\n')
    expect(findImportRefs(text)).toEqual(['after.md'])
  })

  it('ignores inline code spans, single and double backtick', () => {
    expect(findImportRefs('Use `-d @/tmp/registry.json` or ``x @y.md`` but @z.md')).toEqual(['z.md'])
  })

  it('treats an unmatched backtick as text', () => {
    expect(findImportRefs('a ` b @real.md')).toEqual(['real.md'])
  })

  it('ignores HTML comments, on one line and across lines', () => {
    expect(findImportRefs('<!-- @one.md --> @two.md\n<!--\n@three.md\n--> @four.md')).toEqual(['two.md', 'four.md'])
  })

  it('does not take e-mail addresses, @@ or a lone @', () => {
    expect(findImportRefs('mail me@example.com, @@handle, or @ alone')).toEqual([])
  })

  it('keeps @scope/pkg strings as candidates: the reading side decides whether they are files', () => {
    expect(findImportRefs('### @claude-flow/security Module')).toEqual(['claude-flow/security'])
  })

  it('stops after the per-file limit', () => {
    const text = Array.from({ length: 100 }, (_, i) => `@f${i}.md`).join('\n')
    expect(findImportRefs(text)).toHaveLength(MAX_IMPORT_REFS_PER_FILE)
  })
})
