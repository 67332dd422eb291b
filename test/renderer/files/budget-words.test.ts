/** The line under the file trees: the session block the session sends, and while an edit waits, the disk's size beside it. */
import { describe, expect, it } from 'vitest'
import type { FilesListingView } from '../../../src-preload/contract'
import { budgetWords } from '../../../src-renderer/features/files/budget-words'

// The review's case: .loupe/memory.md saved for the next compaction, one line longer on disk than the session sends.
const listing: FilesListingView = {
  root: '/tmp/review-proj',
  instructions: [],
  memory: [{ path: '.loupe/memory.md', absPath: '/tmp/review-proj/.loupe/memory.md', kind: 'memory', tier: null, status: 'included', reason: null, chars: 116, tokens: 29, patterns: [], importedBy: null, editable: true, children: [] }],
  creatable: [],
  notes: [],
  sessionBlockTokens: 154,
  sessionBlock: { instructionFiles: 46, instructionHeadings: 39, memory: 69, memoryFiles: 29, skills: 0 },
  budgetChars: 40_000,
  usedChars: 338,
}
const sent = { sessionBlockTokens: 147, sessionBlock: { instructionFiles: 46, instructionHeadings: 39, memory: 62, memoryFiles: 22, skills: 0 }, usedChars: 338 }
const waiting = { paths: ['.loupe/memory.md'], sent }

describe('the Files list summary', () => {
  it('with nothing waiting, sizes the block the files on disk make, which the session sends', () => {
    expect(budgetWords(listing, null)).toEqual({
      block:
        "system[1] · session block ≈154 tokens: instruction files 46 · their headings 39 · memory 69 (the files 29, the section's header 40). " +
        'Not in it: the session context (project, listing, git, date), which opens messages[0]. Instructions use 338 of 40,000 characters.',
      disk: null,
    })
  })

  it('with an edit waiting, gives the figures the session sends (the inspector’s), and the disk’s beside them, said as such', () => {
    const words = budgetWords(listing, waiting)
    expect(words.block).toBe(
      "system[1] · session block ≈147 tokens: instruction files 46 · their headings 39 · memory 62 (the files 22, the section's header 40), as this session sends it. " +
        'Not in it: the session context (project, listing, git, date), which opens messages[0]. Instructions use 338 of 40,000 characters.',
    )
    // Only the parts the files on disk change are repeated.
    expect(words.disk).toBe("The files on disk (the sizes listed above) make it ≈154 tokens: memory 69 (the files 29, the section's header 40). The session sends that after Apply now or at its next compaction.")
  })

  it('repeats a part for the files waiting in it, not for a share the rounding moved', () => {
    // Memory written mid-session: the session sends none; an instruction file's share moved a token with the total.
    const none = { ...sent, sessionBlockTokens: 126, sessionBlock: { ...sent.sessionBlock, instructionFiles: 45, memory: 0, memoryFiles: 0 } }
    const words = budgetWords(listing, { paths: ['.loupe/memory.md'], sent: none })
    expect(words.block).toMatch(/^system\[1\] · session block ≈126 tokens: instruction files 45 · their headings 39, as this session sends it\./)
    expect(words.disk).toBe("The files on disk (the sizes listed above) make it ≈154 tokens: memory 69 (the files 29, the section's header 40). The session sends that after Apply now or at its next compaction.")
  })

  it('names the skills, and an instructions edit waiting, on the same basis', () => {
    const words = budgetWords({ ...listing, sessionBlock: { ...listing.sessionBlock!, instructionFiles: 60, skills: 12 }, sessionBlockTokens: 180, usedChars: 400 }, { paths: ['AGENTS.md'], sent: { ...sent, sessionBlock: { ...sent.sessionBlock, skills: 12 } } })
    expect(words.block).toContain('· skills 12, as this session sends it.')
    expect(words.block).toContain('Instructions use 338 of 40,000 characters.')
    expect(words.disk).toBe("The files on disk (the sizes listed above) make it ≈180 tokens: instruction files 60 · their headings 39. The session sends that after Apply now or at its next compaction.")
  })

  it('from an older host without the shares, gives the total alone', () => {
    expect(budgetWords({ ...listing, sessionBlock: undefined }, null).block).toMatch(/^system\[1\] · session block ≈154 tokens\. Not in it/)
  })
})
