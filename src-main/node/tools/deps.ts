/** What each node tool receives: the doors, the session's tool state and the call's abort signal. */
import { errorOutcome, type ToolOutcome } from '../../engine/tools/executor'
import type { ToolSessionState } from '../../engine/tools/session-state'
import type { GitignoreRules } from './gitignore'
import type { InsidePath, ProjectFs, Resolution } from './project-fs'
import { describeReadError, FileReadError } from '../fs/regular-file'

export interface ToolDeps {
  readonly fs: ProjectFs
  readonly gitignore: () => Promise<GitignoreRules>
  readonly state: ToolSessionState
  readonly signal: AbortSignal
}

/** The outcome for a path the door refused. */
export function refusal(resolution: Extract<Resolution, { ok: false }>): ToolOutcome {
  return errorOutcome(resolution.code === 'outside_root' ? 'outside_root' : 'invalid_input', resolution.reason)
}

/** The outcome when a path exists but is not a regular file. */
export function notAFile(path: InsidePath): ToolOutcome {
  return path.kind === 'dir'
    ? errorOutcome('not_a_file', `${path.rel} is a folder. Use list_dir to see what it contains.`)
    : errorOutcome('not_a_file', `${path.rel} is not a regular file.`)
}

export function notFound(path: InsidePath, hint: string): ToolOutcome {
  return errorOutcome('not_found', `${path.rel} does not exist. ${hint}`)
}

/**
 * The outcome for a file the door would not read: not a regular file any more (swapped for a FIFO since it was
 * resolved), over the limit, or an I/O error. Anything else is rethrown.
 */
export function readFailure(path: InsidePath, error: unknown): ToolOutcome {
  if (error instanceof FileReadError) return errorOutcome(error.code === 'ENOTREGULAR' ? 'not_a_file' : 'too_large', `${error.message}.`)
  return errorOutcome('io', `${describeReadError(path.rel, error)}.`)
}
