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

/**
 * The files on disk that the session does not send yet (files.unapplied), and the block it sends meanwhile (its
 * `sent`). Null when nothing waits.
 */
export interface Waiting {
  readonly paths: ReadonlyArray<string>
  readonly sent: SessionBlockFiguresView
}

export function budgetWords(listing: FilesListingView, waiting: Waiting | null): BudgetWords {
  const sent = waiting?.sent ?? null
  const shown = sent ?? listing
  const shares = sent ? sent.sessionBlock : listing.sessionBlock
  const parts = shares ? [instructionWords(shares), ...(shares.memory > 0 ? [memoryWords(shares)] : []), ...(shares.skills > 0 ? [`skills ${grouped(shares.skills)}`] : [])].join(' · ') : ''
  const block =
    `system[1] · session block ≈${grouped(shown.sessionBlockTokens)} tokens${parts === '' ? '' : `: ${parts}`}${sent ? ', as this session sends it' : ''}. ` +
    `Not in it: the session context (project, listing, git, date), which opens messages[0]. Instructions use ${grouped(shown.usedChars)} of ${grouped(listing.budgetChars)} characters.`
  if (!waiting || !sent) return { block, disk: null }
  // The parts the waiting files are in, on the same basis (the rows above are their shares). Told by the files, not
  // by the figures: a part that did not change can still move a token, as the total it is a share of moves.
  const disk = listing.sessionBlock
  const memoryPaths = new Set(listing.memory.map((m) => m.path))
  const inMemory = waiting.paths.some((p) => memoryPaths.has(p))
  const inInstructions = waiting.paths.some((p) => !memoryPaths.has(p))
  const changed = disk
    ? [
        ...(inInstructions ? [instructionWords(disk)] : []),
        ...(inMemory ? [memoryWords(disk)] : []),
        // A skill's folder is not a file listed here: its share is given when it moved more than the rounding can.
        ...(Math.abs(disk.skills - sent.sessionBlock.skills) > 1 ? [`skills ${grouped(disk.skills)}`] : []),
      ].join(' · ')
    : ''
  return {
    block,
    disk: `The files on disk (the sizes listed above) make it ≈${grouped(listing.sessionBlockTokens)} tokens${changed === '' ? '' : `: ${changed}`}. The session sends that after Apply now or at its next compaction.`,
  }
}
