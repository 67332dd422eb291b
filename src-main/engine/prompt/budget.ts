/**
 * The one character budget of the project instructions section (docs/context-engine.md "Project instructions"):
 * 40,000 characters for the whole section, spent on the most specific files first (project local, project, rules,
 * global) while the prompt keeps its global → project order. A file that only partly fits is cut and says so; a file
 * that does not fit at all is still listed, so the model knows it exists and can read it.
 *
 * 40,000 characters is about 10,000 tokens (estimate.ts): a few percent of a 200k window, and above Codex's
 * 32 KiB cap for AGENTS.md (docs/reference/peers.md §3), so a typical large root file fits whole.
 */
import type { InstructionTier } from './gathered'
import type { InstructionEntry, ResolveNote } from './instructions'
import { groupDigits } from './format'

export const INSTRUCTIONS_BUDGET_CHARS = 40_000

/** A cut shorter than this is not worth its heading: the file is listed as omitted instead. */
const MIN_CUT_CHARS = 500

const SEPARATOR = '\n\n'

/** Budget order: most specific first. */
const TIER_BUDGET_ORDER: ReadonlyArray<InstructionTier> = ['local', 'project', 'rule', 'global']

export type Allocation = 'full' | 'truncated' | 'omitted' | 'pointer'

export interface RenderedPart {
  /** Display path of the file this part shows. */
  readonly path: string
  readonly fileId: string
  readonly allocation: Allocation
  /** Character offsets of the part within the rendered text. */
  readonly start: number
  readonly end: number
}

export interface BudgetedText {
  /** The rendered text: header, then one part per entry in prompt order. Empty when there are no entries. */
  readonly text: string
  readonly parts: ReadonlyArray<RenderedPart>
  readonly notes: ReadonlyArray<ResolveNote>
}

export function heading(entry: InstructionEntry): string {
  return entry.importedBy === null ? `## ${entry.path}` : `## ${entry.path} (imported by ${entry.importedBy})`
}

function fullText(entry: InstructionEntry): string {
  return `${heading(entry)}${SEPARATOR}${entry.body.trimEnd()}`
}

function pointerText(entry: InstructionEntry): string {
  return `${heading(entry)}${SEPARATOR}[Same text as ${entry.duplicateOf}; included once.]`
}

function truncatedNote(path: string, budget: number): string {
  return `[Truncated: ${path} did not fit the ${groupDigits(budget)}-character budget for instructions; read the file for the rest.]`
}

function omittedText(path: string, budget: number): string {
  return `[Omitted: ${path} did not fit the ${groupDigits(budget)}-character budget for instructions; read the file if it matters.]`
}

/** The line for an instruction or memory file too large to read: where it is, and that the model may read it. */
export function notReadText(path: string): string {
  return `[Not read: ${path} is larger than 1 MB, too large for the prompt; read the file if it matters.]`
}

/** The smallest form an entry can take: its pointer, the not-read line, or the omission line. */
function minimalText(entry: InstructionEntry, budget: number): string {
  if (entry.notRead !== undefined) return notReadText(entry.path)
  return entry.duplicateOf !== null ? pointerText(entry) : omittedText(entry.path, budget)
}

/**
 * Cuts `text` to at most `max` characters, at the last line break in the final stretch when there is one, and
 * never between the two halves of a surrogate pair.
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text
  let end = max
  const lineBreak = text.lastIndexOf('\n', end)
  if (lineBreak > max - 400 && lineBreak > 0) end = lineBreak
  const code = text.charCodeAt(end - 1)
  if (code >= 0xd800 && code <= 0xdbff) end -= 1
  return text.slice(0, end).trimEnd()
}

/**
 * Renders `entries` (prompt order) under `header` within `budget` characters. The total stays within the budget
 * as long as every entry's minimal form fits; when even those do not (thousands of files), the omission lines
 * are still written, because an instruction file must never disappear without a trace.
 */
export function renderWithinBudget(
  header: string,
  entries: ReadonlyArray<InstructionEntry>,
  budget: number = INSTRUCTIONS_BUDGET_CHARS,
): BudgetedText {
  if (entries.length === 0) return { text: '', parts: [], notes: [] }
  const order = entries
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => {
      const tier = TIER_BUDGET_ORDER.indexOf(a.entry.tier) - TIER_BUDGET_ORDER.indexOf(b.entry.tier)
      return tier !== 0 ? tier : a.index - b.index
    })
  const rendered: Array<{ text: string; allocation: Allocation }> = new Array(entries.length)
  const notes: ResolveNote[] = []
  let reserve = 0
  for (const { entry } of order) reserve += SEPARATOR.length + minimalText(entry, budget).length
  let remaining = budget - header.length
  for (const { entry, index } of order) {
    const minimal = minimalText(entry, budget)
    reserve -= SEPARATOR.length + minimal.length
    const available = remaining - reserve - SEPARATOR.length
    let part: { text: string; allocation: Allocation }
    if (entry.duplicateOf !== null) {
      part = { text: minimal, allocation: 'pointer' }
    } else if (entry.notRead !== undefined) {
      // Its note ('skipped') was made when it was resolved.
      part = { text: minimal, allocation: 'omitted' }
    } else {
      const full = fullText(entry)
      if (full.length <= available) {
        part = { text: full, allocation: 'full' }
      } else {
        const note = truncatedNote(entry.path, budget)
        const overhead = heading(entry).length + SEPARATOR.length * 2 + note.length
        const room = available - overhead
        if (room >= MIN_CUT_CHARS) {
          const cut = cutText(entry.body, room)
          part = { text: `${heading(entry)}${SEPARATOR}${cut}${SEPARATOR}${note}`, allocation: 'truncated' }
          notes.push({
            path: entry.path,
            kind: 'truncated',
            message: `${entry.path} was cut to ${groupDigits(cut.length)} of ${groupDigits(entry.body.length)} characters`,
          })
        } else {
          part = { text: minimal, allocation: 'omitted' }
          notes.push({ path: entry.path, kind: 'omitted', message: `${entry.path} did not fit and is only listed` })
        }
      }
    }
    rendered[index] = part
    remaining -= SEPARATOR.length + part.text.length
  }
  let text = header
  const parts: RenderedPart[] = []
  entries.forEach((entry, i) => {
    const part = rendered[i]!
    if (text !== '') text += SEPARATOR
    parts.push({
      path: entry.path,
      fileId: entry.fileId,
      allocation: part.allocation,
      start: text.length,
      end: text.length + part.text.length,
    })
    text += part.text
  })
  return { text, parts, notes }
}
