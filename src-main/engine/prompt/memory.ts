/**
 * The memory section (docs/context-engine.md "Memory and skills"): project memory `.loupe/memory.md` and user memory
 * `~/.loupe/memory.md`, each cut at 8,000 characters with a note, under a line saying memory may be out of date. It
 * is frozen with the rest of the session block; a fact saved mid-session travels as a note in the next user message
 * instead (notes.ts) and joins this section at the next checkpoint.
 */
import type { GatheredContext } from './gathered'
import type { RenderedPart } from './budget'
import type { ResolveNote } from './instructions'
import { cutText, notReadText } from './budget'
import { skipWords } from './instructions'
import { groupDigits } from './format'

/** Per file. Claude Code loads the first 25 KB of MEMORY.md (docs/reference/peers.md §3); memory here is a list
 * of short facts, and 8,000 characters (≈2,000 tokens) keeps two files under 1% of a 200k window each. */
export const MEMORY_FILE_BUDGET_CHARS = 8_000

export const MEMORY_HEADER =
  '# Memory\n\nFacts saved with `remember` in earlier sessions. Memory may be out of date: check anything that matters against the project before relying on it.'

export interface MemorySection {
  readonly text: string
  readonly parts: ReadonlyArray<RenderedPart>
  readonly notes: ReadonlyArray<ResolveNote>
}

export function renderMemory(gathered: GatheredContext): MemorySection {
  const notes: ResolveNote[] = []
  const parts: RenderedPart[] = []
  let text = ''
  const sources: Array<{ id: string | null; label: string }> = [
    { id: gathered.memory.project, label: 'Project memory' },
    { id: gathered.memory.user, label: 'User memory' },
  ]
  for (const [i, source] of sources.entries()) {
    // The same file twice (a project rooted at the home folder) is shown once, as project memory.
    if (source.id === null || (i === 1 && source.id === sources[0]!.id)) continue
    const file = gathered.files[source.id]
    if (file === undefined) continue
    if (!file.read.ok) {
      notes.push({ path: file.path, kind: 'skipped', message: `${file.path} was not read: ${skipWords(file.read.reason)}` })
      // A memory file too large to read is still named, as a long one is cut with a note: the model can read it.
      if (file.read.reason !== 'too_large') continue
    }
    const body = file.read.ok ? file.read.text.trim() : ''
    if (file.read.ok && body === '') continue
    let rendered = `## ${source.label} (${file.path})\n\n`
    if (!file.read.ok) {
      rendered += notReadText(file.path)
    } else if (body.length > MEMORY_FILE_BUDGET_CHARS) {
      const cut = cutText(body, MEMORY_FILE_BUDGET_CHARS)
      rendered += `${cut}\n\n[Truncated: ${file.path} is longer than ${groupDigits(MEMORY_FILE_BUDGET_CHARS)} characters; read the file for the rest.]`
      notes.push({
        path: file.path,
        kind: 'truncated',
        message: `${file.path} was cut to ${groupDigits(cut.length)} of ${groupDigits(body.length)} characters`,
      })
    } else {
      rendered += body
    }
    text = text === '' ? MEMORY_HEADER : text
    text += '\n\n'
    parts.push({
      path: file.path,
      fileId: file.id,
      allocation: !file.read.ok ? 'omitted' : body.length > MEMORY_FILE_BUDGET_CHARS ? 'truncated' : 'full',
      start: text.length,
      end: text.length + rendered.length,
    })
    text += rendered
  }
  return { text, parts, notes }
}
