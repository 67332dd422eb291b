/**
 * remember: appends one fact, as a list item, to project memory (`<root>/.loupe/memory.md`, through the project
 * door) or user memory (`<loupeHome>/memory.md`, a fixed path outside any project, the one exception to root
 * confinement). The whole file is rewritten atomically, so a crash never leaves half a line, and under the file's
 * lock (fs/path-lock.ts, keyed by its real path and shared with the file memory extension and the Files view), so two
 * sessions saving at once both keep their fact: the second reads what the first wrote.
 *
 * Rewriting means what was read is what is kept, so the read must be exact: only a missing file counts as empty.
 * A file that cannot be read (permissions, I/O, a FIFO or device, over 1 MB) or is not valid UTF-8 fails the call
 * and nothing is written; treating it as empty, or decoding it with replacement characters, would erase or
 * corrupt the facts already there.
 */
import { join } from 'node:path'
import { MAX_INSTRUCTION_FILE_BYTES } from '../../engine/prompt/gathered'
import { errorOutcome, okOutcome, type ToolOutcome } from '../../engine/tools/executor'
import type { RememberInput } from '../../engine/tools/schemas'
import { writeFileAtomic } from '../fs/atomic-write'
import { withFileLock } from '../fs/path-lock'
import { refusal, type ToolDeps } from './deps'
import { decodeUtf8Exact, describeReadError, errorCode, FileReadError, readRegularFile } from '../fs/regular-file'

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

/** Largest memory file a fact is appended to: the prompt builder skips a larger one anyway. */
export const MEMORY_MAX_BYTES = MAX_INSTRUCTION_FILE_BYTES

/**
 * Why a memory file cannot be changed: it could not be read exactly, so rewriting it could lose what it holds.
 * The message says what is wrong with the file ("… is not UTF-8 text"), without a full stop.
 */
export class MemoryFileError extends Error {
  constructor(
    readonly code: 'not_a_file' | 'too_large' | 'binary' | 'io',
    message: string,
  ) {
    super(message)
  }
}

/**
 * The exact text of a memory file, '' when it does not exist. Throws MemoryFileError for anything else: a read
 * error, a file that is not regular, over MEMORY_MAX_BYTES, or not valid UTF-8.
 */
export async function readMemoryText(read: () => Promise<Uint8Array>, shownAs: string): Promise<string> {
  let bytes: Uint8Array
  try {
    bytes = await read()
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return ''
    const code = error instanceof FileReadError ? (error.code === 'ENOTREGULAR' ? 'not_a_file' : 'too_large') : 'io'
    throw new MemoryFileError(code, describeReadError(shownAs, error))
  }
  const text = decodeUtf8Exact(bytes)
  if (text === null) throw new MemoryFileError('binary', `${shownAs} is not UTF-8 text, and rewriting it would replace its invalid bytes`)
  return text
}

/** The user memory file's exact text ('' when missing); throws MemoryFileError when it cannot be read exactly. */
export function readUserMemory(file: string): Promise<string> {
  return readMemoryText(() => readRegularFile(file, { maxBytes: MEMORY_MAX_BYTES }), file)
}

function notSaved(error: MemoryFileError): ToolOutcome {
  return errorOutcome(error.code, `Nothing was saved: ${error.message}. The memory file was left as it is.`)
}

export async function rememberTool(input: RememberInput, deps: ToolDeps, loupeHome: string): Promise<ToolOutcome> {
  const fact = normaliseFact(input.fact)
  const saved = input.scope === 'project' ? await saveToProject(fact, deps) : await saveToUser(fact, join(loupeHome, USER_MEMORY_FILE))
  if ('outcome' in saved) return saved.outcome
  const file = saved.file
  return okOutcome(`Saved to ${input.scope} memory (${file}): ${fact}`, [{ type: 'memory_saved', scope: input.scope, fact, file }])
}

type Saved = { readonly file: string } | { readonly outcome: ToolOutcome }

/**
 * Appends to project memory under the file's lock (fs/path-lock.ts, shared with the file memory extension and the
 * Files view): two sessions saving at once each read what the other wrote, so neither fact is lost. The path is
 * resolved again under the lock, since a save queued before this one may have made the file.
 */
async function saveToProject(fact: string, deps: ToolDeps): Promise<Saved> {
  const first = await deps.fs.resolve(PROJECT_MEMORY_PATH)
  if (!first.ok) return { outcome: refusal(first) }
  return withFileLock(first.path.abs, async (): Promise<Saved> => {
    const resolution = await deps.fs.resolve(PROJECT_MEMORY_PATH)
    if (!resolution.ok) return { outcome: refusal(resolution) }
    const path = resolution.path
    if (path.kind !== 'missing' && path.kind !== 'file') return { outcome: errorOutcome('not_a_file', `${path.rel} is not a regular file; nothing was saved.`) }
    let existing: string
    try {
      existing = path.kind === 'file' ? await readMemoryText(() => deps.fs.readBytes(path, MEMORY_MAX_BYTES), path.rel) : ''
    } catch (error) {
      if (error instanceof MemoryFileError) return { outcome: notSaved(error) }
      throw error
    }
    await deps.fs.writeText(path, appended(existing, fact))
    return { file: path.rel }
  })
}

/** Appends to user memory, under the same lock as project memory. */
async function saveToUser(fact: string, file: string): Promise<Saved> {
  return withFileLock(file, async (): Promise<Saved> => {
    let existing: string
    try {
      existing = await readUserMemory(file)
    } catch (error) {
      if (error instanceof MemoryFileError) return { outcome: notSaved(error) }
      throw error
    }
    await writeFileAtomic(file, appended(existing, fact))
    return { file }
  })
}
