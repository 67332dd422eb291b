/**
 * The frozen session context (docs/context-engine.md "What a pass sends, in cache order"): the first block of the
 * first user message. It tells the model where it is — project, root, a one-level listing, git branch and HEAD, the
 * date — not what is there (docs/design.md §1, rule 1). It is taken once when the session starts and kept
 * byte-identical for the session's life: a new file, a new commit or midnight passing do not change it.
 */
import type { SessionFacts } from './gathered'
import { displayPath, sanitizeIdentity } from './sanitize'

/** The listing shows at most this many entries; the reading side also caps what it collects. */
export const LISTING_CAP = 100

/** Hex digits of HEAD shown: enough to name a commit in any repository this app will meet. */
const HEAD_DIGITS = 12

export interface FrozenSessionContext {
  readonly text: string
  readonly facts: SessionFacts
}

export function freezeSessionContext(facts: SessionFacts): FrozenSessionContext {
  return { text: renderSessionContext(facts), facts }
}

export function renderSessionContext(facts: SessionFacts): string {
  const lines = [
    '# Session context',
    '',
    'Taken when this session started; files and commits may have changed since.',
    '',
    `Project: ${displayPath(facts.projectName)}`,
    `Root: ${displayPath(facts.root)}`,
    `Date: ${facts.date}`,
  ]
  if (facts.git !== null) {
    const branch = facts.git.branch === null ? 'detached HEAD' : `branch ${sanitizeIdentity(facts.git.branch)}`
    const head = facts.git.head === null ? 'no commits yet' : `HEAD ${sanitizeIdentity(facts.git.head).slice(0, HEAD_DIGITS)}`
    lines.push(`Git: ${branch}, ${head}`)
  } else {
    lines.push('Git: not a repository')
  }
  const shown = facts.listing.slice(0, LISTING_CAP)
  lines.push('', `Top level of the root (${facts.listingTotal} entries; folders end with /):`)
  for (const entry of shown) lines.push(`${displayPath(entry.name)}${entry.isDirectory ? '/' : ''}`)
  const hidden = facts.listingTotal - shown.length
  if (hidden > 0) lines.push(`… and ${hidden} more`)
  return lines.join('\n')
}
