/**
 * The line under the file trees (FileTree.tsx): system[1], the session block, sized on the inspector's basis and
 * named as the inspector names it. With an edit waiting (files.unapplied `sent`), the figures are those of the block
 * the session sends, the ones the inspector shows for its next pass, and a second line gives the size the files on
 * disk make it, which the rows above measure (docs/decisions/0061-the-files-summary-sizes-what-the-session-sends.md).
 */
import type { FilesListingView, SessionBlockFiguresView } from '../../../src-preload/contract'
import { grouped } from '../../ui/format'

type Shares = NonNullable<FilesListingView['sessionBlock']>

export interface BudgetWords {
  /** The session block the next pass sends. */
  readonly block: string
  /** With an edit waiting: what the files on disk make the block, in the parts that differ; else null. */
  readonly disk: string | null
}

const memoryWords = (s: Shares) => `memory ${grouped(s.memory)} (the files ${grouped(s.memoryFiles)}, the section's header ${grouped(s.memory - s.memoryFiles)})`
const instructionWords = (s: Shares) => `instruction files ${grouped(s.instructionFiles)} · their headings ${grouped(s.instructionHeadings)}`

/** `sent`: the block the session sends, when it differs from what the files on disk make (null: it does not). */
export function budgetWords(listing: FilesListingView, sent: SessionBlockFiguresView | null): BudgetWords {
  const shown = sent ?? listing
  const shares = sent ? sent.sessionBlock : listing.sessionBlock
  const parts = shares ? [instructionWords(shares), ...(shares.memory > 0 ? [memoryWords(shares)] : []), ...(shares.skills > 0 ? [`skills ${grouped(shares.skills)}`] : [])].join(' · ') : ''
  const block =
    `system[1] · session block ≈${grouped(shown.sessionBlockTokens)} tokens${parts === '' ? '' : `: ${parts}`}${sent ? ', as this session sends it' : ''}. ` +
    `Not in it: the session context (project, listing, git, date), which opens messages[0]. Instructions use ${grouped(shown.usedChars)} of ${grouped(listing.budgetChars)} characters.`
  if (!sent) return { block, disk: null }
  // The parts the files on disk change, on the same basis: the rows above are their shares.
  const disk = listing.sessionBlock
  const changed = disk
    ? [
        ...(disk.instructionFiles !== sent.sessionBlock.instructionFiles || disk.instructionHeadings !== sent.sessionBlock.instructionHeadings ? [instructionWords(disk)] : []),
        ...(disk.memory !== sent.sessionBlock.memory || disk.memoryFiles !== sent.sessionBlock.memoryFiles ? [memoryWords(disk)] : []),
        ...(disk.skills !== sent.sessionBlock.skills ? [`skills ${grouped(disk.skills)}`] : []),
      ].join(' · ')
    : ''
  return {
    block,
    disk: `The files on disk (the sizes listed above) make it ≈${grouped(listing.sessionBlockTokens)} tokens${changed === '' ? '' : `: ${changed}`}. The session sends that after Apply now or at its next compaction.`,
  }
}
