/**
 * Where the Files view may read and write: the project root and Loupe's own folder (~/.loupe, or LOUPE_HOME), and
 * nowhere else. A path is checked by its real path — every symlink resolved — so `CLAUDE.md -> ~/.ssh/config`
 * is refused before a byte is read, and a link inside the root is written through to the file it names.
 *
 * Paths arrive as the Files view shows them (the prompt builder's display paths): relative to the root, `~/…` for
 * the home folder, or absolute.
 */
import { lstat, realpath } from 'node:fs/promises'
import { dirname, isAbsolute, join, resolve, sep } from 'node:path'
import { isInside } from '../instructions/safe-read'

export interface FileRoots {
  /** The project root as stored (the real path of the folder the user opened). */
  readonly root: string
  /** Loupe's own folder (global AGENTS.md, user memory). */
  readonly loupeHome: string
  readonly homeDir: string
  /**
   * Why nothing in the project folder is written, when it is not a working folder (Claude Code's logs, the proxy's
   * captures): the Files view then offers nothing to create there and refuses a save there. Absent: writable.
   */
  readonly projectReadOnly?: string | null
}

export type Confined =
  | { readonly ok: true; readonly absPath: string; readonly realPath: string; readonly exists: boolean; readonly scope: 'project' | 'loupe' }
  | { readonly ok: false; readonly code: 'permission_denied' | 'invalid_input' | 'not_found'; readonly message: string }

/** The absolute path a display path names. */
export function absoluteFor(path: string, roots: FileRoots): string {
  if (path === '~' || path.startsWith('~/')) return join(roots.homeDir, path.slice(2))
  return isAbsolute(path) ? resolve(path) : resolve(roots.root, path)
}

async function realOrNull(path: string): Promise<string | null> {
  try {
    return await realpath(path)
  } catch {
    return null
  }
}

/**
 * The nearest ancestor of `absPath` that exists, and its real path: where a file created at `absPath` (with the folders
 * missing on the way) would really land, every symbolic link on the way resolved. Null when none resolves.
 */
export async function nearestExistingFolder(absPath: string): Promise<{ readonly folder: string; readonly real: string } | null> {
  let folder = dirname(absPath)
  let real = await realOrNull(folder)
  while (real === null && dirname(folder) !== folder) {
    folder = dirname(folder)
    real = await realOrNull(folder)
  }
  return real === null ? null : { folder, real }
}

/** Segments never written to even inside the root: a version-control folder is not an instruction file. */
const FORBIDDEN_SEGMENTS = new Set(['.git', '.hg', '.svn'])

/**
 * Resolves a display path and checks that it stays inside the root or ~/.loupe. For a file that does not exist
 * yet, its nearest existing folder is checked instead (the file would be created there).
 */
export async function confine(path: string, roots: FileRoots): Promise<Confined> {
  if (path.includes('\0')) return { ok: false, code: 'invalid_input', message: 'The path contains a NUL character' }
  const absPath = absoluteFor(path, roots)
  if (absPath.split(sep).some((s) => FORBIDDEN_SEGMENTS.has(s))) {
    return { ok: false, code: 'permission_denied', message: `${path} is inside a version-control folder; the Files view does not write there` }
  }
  const realRoot = (await realOrNull(roots.root)) ?? resolve(roots.root)
  const realHome = (await realOrNull(roots.loupeHome)) ?? resolve(roots.loupeHome)
  const scopeOf = (real: string): 'project' | 'loupe' | null => (isInside(real, realRoot) ? 'project' : isInside(real, realHome) ? 'loupe' : null)

  const real = await realOrNull(absPath)
  if (real !== null) {
    const scope = scopeOf(real)
    if (scope === null) return { ok: false, code: 'permission_denied', message: `${path} resolves to ${real}, outside the project root and Loupe's own folder (${roots.loupeHome})` }
    return { ok: true, absPath, realPath: real, exists: true, scope }
  }
  // A link that leads nowhere (dangling, or a loop) is there, though it does not resolve: writing would replace it.
  if (await lstat(absPath).then(() => true, () => false)) {
    return { ok: false, code: 'invalid_input', message: `${path} is a symbolic link that leads nowhere (its target is missing, or it loops); the Files view does not replace it` }
  }
  // Not there yet: the first folder up the chain that exists decides where it would land.
  const existing = await nearestExistingFolder(absPath)
  if (existing === null) return { ok: false, code: 'not_found', message: `No folder of ${path} exists` }
  const { folder, real: realFolder } = existing
  const scope = scopeOf(realFolder)
  if (scope === null) return { ok: false, code: 'permission_denied', message: `${path} would be created outside the project root and Loupe's own folder (${roots.loupeHome})` }
  // The part below the existing folder is plain names (no links can exist there yet).
  const rest = absPath.slice(folder.length)
  return { ok: true, absPath, realPath: realFolder + rest, exists: false, scope }
}
