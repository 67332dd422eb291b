/** Which sections and files of the system prompt changed between two passes, as a miss's cause names them. */
import { describe, expect, it } from 'vitest'
import { changedSections, type SectionPrint } from '../../../src-main/engine/cache/context'

const print = (section: string, part: string | null, sha256: string): SectionPrint => ({ section, part, sha256 })

describe('changedSections', () => {
  it('names the sections and files whose bytes changed, and those one pass lacks', () => {
    const before = [print('tools', null, 't'), print('project_instructions', null, 'p'), print('project_instructions', 'AGENTS.md', 'a')]
    const after = [print('tools', null, 't'), print('project_instructions', null, 'p2'), print('project_instructions', 'AGENTS.md', 'a2'), print('memory', null, 'm')]
    expect(changedSections(before, after)).toEqual([after[1], after[2], after[3]])
    expect(changedSections(after, before)).toEqual([before[1], before[2], after[3]])
  })

  it('does not name a file that is in a section twice and unchanged (AGENTS.md as itself and imported by CLAUDE.md)', () => {
    // The two places hold different bytes (the import is framed as such), so each has its own fingerprint.
    const instructions = [print('project_instructions', null, 'p'), print('project_instructions', 'CLAUDE.md', 'c'), print('project_instructions', 'AGENTS.md', 'a'), print('project_instructions', 'AGENTS.md', 'a imported')]
    const withMemory = [...instructions, print('memory', null, 'm'), print('memory', '.loupe/memory.md', 'm')]
    expect(changedSections(instructions, withMemory)).toEqual([withMemory[4], withMemory[5]])
  })

  it('names a file in a section twice once per place it changed', () => {
    const before = [print('project_instructions', 'AGENTS.md', 'a'), print('project_instructions', 'AGENTS.md', 'b')]
    const after = [print('project_instructions', 'AGENTS.md', 'a'), print('project_instructions', 'AGENTS.md', 'b2')]
    expect(changedSections(before, after)).toEqual([after[1]])
  })
})
