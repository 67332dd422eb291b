/**
 * remember: appends one fact, as a list item, to project memory (`<root>/.loupe/memory.md`, through the project
 * door) or user memory (`<loupeHome>/memory.md`, a fixed path outside any project, the one exception to root
 * confinement). The whole file is rewritten atomically, so a crash never leaves half a line.
 */
import { join } from 'node:path'
import { readFile } from 'node:fs/promises'
import { errorOutcome, okOutcome, type ToolOutcome } from '../../engine/tools/executor'
import type { RememberInput } from '../../engine/tools/schemas'
import { writeFileAtomic } from './atomic-write'
import { refusal, type ToolDeps } from './deps'

export const PROJECT_MEMORY_PATH = '.loupe/memory.md'
export const USER_MEMORY_FILE = 'memory.md'

/** One fact is one line: line breaks and runs of spaces collapse, so a fact cannot forge headings or items. */
export function normaliseFact(fact: string): string {
  return fact.replace(/\s+/g, ' ').trim()
}

function appended(existing: string, fact: string): string {
  const separator = existing === '' || existing.endsWith('\n') ? '' : '\n'
  return `${existing}${separator}- ${fact}\n`
}

export async function rememberTool(input: RememberInput, deps: ToolDeps, loupeHome: string): Promise<ToolOutcome> {
  const fact = normaliseFact(input.fact)
  let file: string
  if (input.scope === 'project') {
    const resolution = await deps.fs.resolve(PROJECT_MEMORY_PATH)
    if (!resolution.ok) return refusal(resolution)
    const path = resolution.path
    if (path.kind !== 'missing' && path.kind !== 'file') return errorOutcome('not_a_file', `${path.rel} is not a regular file.`)
    const existing = path.kind === 'file' ? (await deps.fs.readBytes(path)).toString('utf8') : ''
    await deps.fs.writeText(path, appended(existing, fact))
    file = path.rel
  } else {
    file = join(loupeHome, USER_MEMORY_FILE)
    const existing = await readFile(file, 'utf8').catch(() => '')
    await writeFileAtomic(file, appended(existing, fact))
  }
  return okOutcome(`Saved to ${input.scope} memory (${file}): ${fact}`, [{ type: 'memory_saved', scope: input.scope, fact, file }])
}
