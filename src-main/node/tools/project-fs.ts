/**
 * The project file-system door: the only way the tools read or write project files. Every path the model gives
 * is resolved here to a real path (symbolic links followed) and refused unless it lies inside the project root's
 * real path. For a path that does not exist yet, the nearest existing ancestor is resolved instead, so a new file
 * under a symlink that leads out of the root is refused as well. A dangling symbolic link is refused outright:
 * writing through it would create a file wherever it points.
 *
 * Between resolving and opening, a path could be swapped for a symbolic link by another process; reads open the
 * resolved path with O_NOFOLLOW and writes rename into the resolved folder, which closes the simple forms of that
 * race. The door does not defend against a hostile process racing on the same disk.
 */
import { createHash } from 'node:crypto'
import { lstat, readdir, realpath, stat, type FileHandle } from 'node:fs/promises'
import { realpathSync, type BigIntStats } from 'node:fs'
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path'
import { READ_MAX_FILE_BYTES } from '../../engine/tools/limits'
import type { ListingEntry } from '../../engine/tools/render'
import { writeFileAtomic } from '../fs/atomic-write'
import { openRegularFile, readRegularFile } from '../fs/regular-file'

declare const insideRoot: unique symbol

/** A path the door resolved and found inside the root. Only the door creates these. */
export interface InsidePath {
  readonly [insideRoot]: true
  /** Real absolute path (the existing part resolved through symbolic links). */
  readonly abs: string
  /** Relative to the root's real path, `/`-separated; `.` for the root. */
  readonly rel: string
  readonly kind: 'file' | 'dir' | 'other' | 'missing'
  /** Bytes, for files. */
  readonly size: number
  /**
   * For a missing path: its nearest existing ancestor when that is not a folder (`a.txt` for `a.txt/new.ts`), so
   * nothing can be created there; otherwise null.
   */
  readonly blockedBy: string | null
}

export type Resolution =
  | { readonly ok: true; readonly path: InsidePath }
  | { readonly ok: false; readonly code: 'outside_root' | 'invalid_path'; readonly reason: string }

export interface ProjectFs {
  /** The root's real path. */
  root(): Promise<string>
  resolve(input: string): Promise<Resolution>
  /**
   * The bytes of a regular file, at most `maxBytes` (default READ_MAX_FILE_BYTES). A FIFO, device or socket is
   * refused before it is opened, and again on the open descriptor (regular-file.ts), so a read never blocks.
   */
  readBytes(path: InsidePath, maxBytes?: number): Promise<Buffer>
  /**
   * A regular file open for reading a part of it, whatever its size (read_file's range of a large file), with the
   * same checks as readBytes; the caller closes the handle.
   */
  openRead(path: InsidePath): Promise<{ readonly handle: FileHandle; readonly info: BigIntStats }>
  /** Why no tool may write `path` (it lies in Loupe's data folder), or null. */
  writeRefusal(path: InsidePath): Promise<string | null>
  /** Writes atomically, creating missing folders (which are inside the root, since the path was resolved). */
  writeText(path: InsidePath, content: string): Promise<void>
  list(path: InsidePath): Promise<ReadonlyArray<ListingEntry>>
}

export function fingerprintOf(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex')
}

export function isInside(rootReal: string, candidate: string): boolean {
  const rel = relative(rootReal, candidate)
  return rel === '' || (!isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`))
}

function toRel(rootReal: string, abs: string): string {
  const rel = relative(rootReal, abs)
  return rel === '' ? '.' : rel.split(sep).join('/')
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : undefined
}

function outside(input: string): Resolution {
  return {
    ok: false,
    code: 'outside_root',
    reason: `${input} is outside the project root (symbolic links included). Tools can only reach files inside the project.`,
  }
}

/**
 * The project folder as it stands now. It is looked up at every call, against what it was at the first: a folder
 * deleted, replaced by a file, or swapped for a link elsewhere while a session is open must stop the tools (a write
 * would otherwise create the folder again, or land in the folder the link leads to).
 */
function rootChecker(root: string): () => Promise<string> {
  const wanted = resolve(root)
  // Looked up when the session's tools are made (one call, once), so a swap before the first tool call is one too.
  let first: string | null = null
  try {
    first = realpathSync(wanted)
  } catch {
    // Not there yet: the first lookup that finds it is the baseline.
  }
  return async () => {
    let real: string
    try {
      real = await realpath(wanted)
    } catch (error) {
      const code = errorCode(error)
      if (code === 'ENOENT' || code === 'ENOTDIR') throw new Error(`The project folder ${wanted} no longer exists (moved or deleted): nothing was read or written.`)
      if (code === 'EACCES' || code === 'EPERM') throw new Error(`The project folder ${wanted} cannot be reached: permission denied. Nothing was read or written.`)
      throw error
    }
    if (first === null) first = real
    else if (real !== first) throw new Error(`The project folder ${wanted} now leads to ${real}, not ${first} as when the session opened it: nothing was read or written.`)
    if (!(await stat(real)).isDirectory()) throw new Error(`The project folder ${wanted} is no longer a folder: nothing was read or written.`)
    return real
  }
}

export interface ProjectFsOptions {
  /**
   * Folders no tool writes into even when they lie inside the project: Loupe's data folder (its store, backups and
   * recordings) when the project is a folder holding it, such as a home folder holding `~/.loupe`.
   */
  readonly noWrite?: ReadonlyArray<string>
}

export function createProjectFs(root: string, options: ProjectFsOptions = {}): ProjectFs {
  const getRoot = rootChecker(root)

  async function resolvePath(input: string): Promise<Resolution> {
    if (input.includes('\0')) return { ok: false, code: 'invalid_path', reason: 'The path contains a NUL character.' }
    if (input === '~' || input.startsWith('~/') || input.startsWith('~\\')) return outside(input)
    const base = await getRoot()
    const wanted = resolve(base, input)
    // Walk up to the nearest existing ancestor; the missing tail cannot contain links, since it does not exist.
    const missing: string[] = []
    let current = wanted
    let real: string
    for (;;) {
      try {
        real = await realpath(current)
        break
      } catch (error) {
        const code = errorCode(error)
        if (code === 'ELOOP') {
          return { ok: false, code: 'invalid_path', reason: `${input} is a symbolic link loop (or passes through one); it is not followed.` }
        }
        if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error
        const link = await lstat(current).then((s) => s.isSymbolicLink(), () => false)
        if (link) {
          return {
            ok: false,
            code: 'invalid_path',
            reason: `${input} is a symbolic link whose target does not exist; it is not followed.`,
          }
        }
        const parent = dirname(current)
        if (parent === current) return outside(input)
        missing.unshift(basename(current))
        current = parent
      }
    }
    const abs = missing.length === 0 ? real : join(real, ...missing)
    if (!isInside(base, abs)) return outside(input)
    let kind: InsidePath['kind'] = 'missing'
    let size = 0
    let blockedBy: string | null = null
    if (missing.length === 0) {
      const info = await stat(abs)
      kind = info.isFile() ? 'file' : info.isDirectory() ? 'dir' : 'other'
      size = info.size
    } else if (!(await stat(real)).isDirectory()) blockedBy = toRel(base, real)
    return { ok: true, path: { abs, rel: toRel(base, abs), kind, size, blockedBy } as InsidePath }
  }

  async function writeRefusal(path: InsidePath): Promise<string | null> {
    for (const folder of options.noWrite ?? []) {
      const real = await realpath(folder).catch(() => folder)
      if (isInside(real, path.abs)) return `${path.rel} is inside Loupe's data folder (${folder}: its store, backups and recordings): tools do not write there.`
    }
    return null
  }

  return {
    root: getRoot,
    resolve: resolvePath,
    writeRefusal,
    async readBytes(path, maxBytes = READ_MAX_FILE_BYTES) {
      return readRegularFile(path.abs, { maxBytes, noFollow: true, shownAs: path.rel })
    },
    async openRead(path) {
      return openRegularFile(path.abs, { noFollow: true, shownAs: path.rel })
    },
    async writeText(path, content) {
      const base = await getRoot()
      if (!isInside(base, path.abs) || path.abs === base) throw new Error(`refusing to write ${path.abs}`)
      const refusal = await writeRefusal(path)
      if (refusal !== null) throw new Error(refusal)
      await writeFileAtomic(path.abs, content)
    },
    async list(path) {
      const entries = await readdir(path.abs, { withFileTypes: true })
      return entries
        .map((entry): ListingEntry => ({
          name: entry.name,
          kind: entry.isSymbolicLink() ? 'symlink' : entry.isDirectory() ? 'dir' : entry.isFile() ? 'file' : 'other',
        }))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    },
  }
}
