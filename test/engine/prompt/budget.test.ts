import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { renderWithinBudget, cutText } from '../../../src-main/engine/prompt/budget'
import type { InstructionEntry } from '../../../src-main/engine/prompt'
import type { InstructionTier } from '../../../src-main/engine/prompt'

function entry(tier: InstructionTier, path: string, chars: number, duplicateOf: string | null = null): InstructionEntry {
  return { tier, fileId: `/p/${path}`, path, importedBy: null, body: 'x'.repeat(chars), duplicateOf }
}

describe('renderWithinBudget', () => {
  it('spends the budget on the most specific files first but keeps prompt order', () => {
    const entries = [entry('global', 'g.md', 3000), entry('project', 'AGENTS.md', 3000), entry('local', 'CLAUDE.local.md', 3000)]
    const r = renderWithinBudget('# H', entries, 6500)
    expect(r.parts.map((p) => `${p.path}:${p.allocation}`)).toEqual(['g.md:omitted', 'AGENTS.md:full', 'CLAUDE.local.md:full'])
    expect(r.text.indexOf('g.md')).toBeLessThan(r.text.indexOf('AGENTS.md'))
    expect(r.text.length).toBeLessThanOrEqual(6500)
    const tighter = renderWithinBudget('# H', entries, 5000)
    expect(tighter.parts.map((p) => `${p.path}:${p.allocation}`)).toEqual(['g.md:omitted', 'AGENTS.md:truncated', 'CLAUDE.local.md:full'])
  })

  it('ends a cut file with the Truncated note and lists a squeezed-out file as Omitted', () => {
    const r = renderWithinBudget('# H', [entry('project', 'big.md', 50_000), entry('global', 'g.md', 100)], 40_000)
    expect(r.text).toContain('[Truncated: big.md did not fit the 40,000-character budget for instructions; read the file for the rest.]')
    expect(r.text).toContain('[Omitted: g.md did not fit the 40,000-character budget for instructions; read the file if it matters.]')
    expect(r.notes.map((n) => n.kind)).toEqual(['truncated', 'omitted'])
  })

  it('keeps every file listed and the whole section within budget (property)', () => {
    const tier = fc.constantFrom<InstructionTier>('global', 'project', 'rule', 'local')
    fc.assert(
      fc.property(fc.array(fc.tuple(tier, fc.integer({ min: 1, max: 30_000 })), { minLength: 1, maxLength: 12 }), (specs) => {
        const entries = specs.map(([t, n], i) => entry(t, `f${i}.md`, n))
        const r = renderWithinBudget('# Project instructions', entries, 40_000)
        expect(r.text.length).toBeLessThanOrEqual(40_000)
        for (const e of entries) expect(r.text).toContain(e.path)
        expect(r.parts).toHaveLength(entries.length)
      }),
      { numRuns: 200 },
    )
  })

  it('renders nothing for no entries', () => {
    expect(renderWithinBudget('# H', []).text).toBe('')
  })
})

describe('cutText', () => {
  it('cuts at a line break near the limit', () => {
    expect(cutText('aaaa\nbbbb\ncccc', 12)).toBe('aaaa\nbbbb')
  })

  it('never splits a surrogate pair', () => {
    const cut = cutText('ab😀cd', 3)
    expect(cut).toBe('ab')
  })
})
