/**
 * Facts for the frozen session context: a one-level listing of the root, git branch and HEAD, the local date. Git is
 * read from the files under `.git` (HEAD, refs, packed-refs) rather than by running git: no process to spawn, and
 * nothing to go wrong when git is not installed. Nothing here throws; an unknown fact is left out. Git's files are read
 * only from the root's own `.git` or from a worktree's or submodule's folder in its repository's `.git` (see
 * `gitAdminFolderOwner`), only as regular files of at most 4 MB, never through a link out of those folders.
 */
import { readdir, realpath, stat } from 'node:fs/promises'
import { isAbsolute, join, relative, resolve, sep } from 'node:path'
import type { GitFacts, RootEntry } from '../../engine/prompt/gathered'
import { readRegularFile } from '../fs/regular-file'

/** Entries never shown in the listing: git's own folder says nothing about the project. */
const HIDDEN_ENTRIES = new Set(['.git'])

export interface Listing {
  readonly entries: ReadonlyArray<RootEntry>
  readonly total: number
}

function byName(a: { name: string }, b: { name: string }): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0
}

/** One level of `root`, sorted by name (code units, not locale), at most `cap` entries. */
export async function listRoot(root: string, cap: number): Promise<Listing> {
  let dirents
  try {
    dirents = await readdir(root, { withFileTypes: true })
  } catch {
    return { entries: [], total: 0 }
  }
  const visible = dirents.filter((d) => !HIDDEN_ENTRIES.has(d.name)).sort(byName)
  const entries: RootEntry[] = []
  for (const d of visible.slice(0, cap)) {
    let isDirectory = d.isDirectory()
    if (d.isSymbolicLink()) {
      // A link to a folder reads as a folder; stat only looks at the target's type.
      isDirectory = await stat(join(root, d.name)).then((s) => s.isDirectory(), () => false)
    }
    entries.push({ name: d.name, isDirectory })
  }
  return { entries, total: visible.length }
}

/** Names of the regular files directly in `root` (for build-profile detection). */
export async function rootFileNames(root: string): Promise<string[]> {
  try {
    const dirents = await readdir(root, { withFileTypes: true })
    return dirents.filter((d) => d.isFile()).map((d) => d.name).sort()
  } catch {
    return []
  }
}

const HEX_SHA = /^[0-9a-f]{40}([0-9a-f]{24})?$/
/** Git metadata files are small; anything bigger is not what it claims to be. */
const MAX_GIT_FILE_BYTES = 4 * 1024 * 1024

function isUnder(folder: string, path: string): boolean {
  const rel = relative(folder, path)
  return rel === '' || (!isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`))
}

/**
 * `rel` (`/`-separated, no `..`) inside the git folder `dir`, when its real path stays in `dir` and it is a regular
 * file of at most MAX_GIT_FILE_BYTES; else null. A FIFO or device is never opened (regular-file.ts).
 */
async function readGitFile(dir: string, rel: string): Promise<string | null> {
  try {
    const real = await realpath(join(dir, rel))
    if (!isUnder(dir, real)) return null
    return (await readRegularFile(real, { maxBytes: MAX_GIT_FILE_BYTES })).toString('utf8')
  } catch {
    return null
  }
}

/**
 * Where a `.git` file's `gitdir:` may lead (docs/security.md): a worktree's folder in its main repository,
 * `<repo>/.git/worktrees/<name>`, or a submodule's, `<repo>/.git/modules/<name>` (a submodule's name may have
 * slashes, and nested submodules add `/modules/<name>` again). Those usually lie outside the project root, so this
 * is the one place git facts are read from outside it. Anything else, `gitdir: /home/me/.ssh`, is not followed.
 * Returns the `.git` folder that holds it (where a worktree's `commondir` must lead), or null.
 */
export function gitAdminFolderOwner(realGitDir: string): string | null {
  const parts = realGitDir.split(sep)
  const at = parts.lastIndexOf('.git')
  if (at < 1) return null
  const below = parts.slice(at + 1)
  if (below.some((p) => p === '' || p === '.' || p === '..')) return null
  const owner = parts.slice(0, at + 1).join(sep)
  if (below.length === 2 && below[0] === 'worktrees') return owner
  if (below.length >= 2 && below[0] === 'modules') return owner
  return null
}

/**
 * The git folder of `root`: its own `.git` folder when that lies inside the root (a link out of it is not
 * followed), or the folder a `.git` file (worktree, submodule) points to when that is one `gitAdminFolderOwner`
 * allows. `common` is the folder a worktree's `commondir` may name: its main repository's `.git`.
 */
async function gitDirOf(root: string): Promise<{ dir: string; common: string | null } | null> {
  let realRoot: string
  let dotGit: string
  try {
    realRoot = await realpath(root)
    dotGit = await realpath(join(realRoot, '.git'))
  } catch {
    return null
  }
  if (!isUnder(realRoot, dotGit)) return null
  let info
  try {
    info = await stat(dotGit)
  } catch {
    return null
  }
  if (info.isDirectory()) return { dir: dotGit, common: null }
  let pointer: string
  try {
    pointer = (await readRegularFile(dotGit, { maxBytes: MAX_GIT_FILE_BYTES })).toString('utf8')
  } catch {
    return null
  }
  const match = pointer.match(/^gitdir:\s*(.+)\s*$/m)
  if (!match) return null
  let target: string
  try {
    target = await realpath(resolve(realRoot, match[1]!.trim()))
    if (!(await stat(target)).isDirectory()) return null
  } catch {
    return null
  }
  // A pointer to a folder inside the project is as safe as a `.git` folder there.
  if (isUnder(realRoot, target)) return { dir: target, common: gitAdminFolderOwner(target) }
  const owner = gitAdminFolderOwner(target)
  return owner === null ? null : { dir: target, common: owner }
}

/** A ref name git would accept as a path under the git folder: `refs/…`, no `..`, no empty or dot-led segment. */
function isSafeRef(ref: string): boolean {
  return ref.startsWith('refs/') && !ref.includes('\\') && ref.split('/').every((p) => p !== '' && !p.startsWith('.'))
}

async function resolveRef(gitDir: { dir: string; common: string | null }, ref: string): Promise<string | null> {
  if (!isSafeRef(ref)) return null
  // A worktree keeps its refs in the main repository; `commondir` says where that is, and it may only say the
  // `.git` folder the worktree's folder lies in.
  const dirs = [gitDir.dir]
  const commondir = (await readGitFile(gitDir.dir, 'commondir'))?.trim()
  if (commondir !== undefined && commondir !== '' && gitDir.common !== null) {
    const common = await realpath(resolve(gitDir.dir, commondir)).catch(() => null)
    if (common === gitDir.common) dirs.push(common)
  }
  for (const dir of dirs) {
    const loose = (await readGitFile(dir, ref))?.trim()
    if (loose !== undefined && HEX_SHA.test(loose)) return loose
    const packed = await readGitFile(dir, 'packed-refs')
    if (packed !== null) {
      for (const line of packed.split('\n')) {
        const [sha, name] = line.trim().split(' ')
        if (name === ref && sha !== undefined && HEX_SHA.test(sha)) return sha
      }
    }
  }
  return null
}

/** Branch and HEAD of the repository at `root`, or null when it is not one (or its git folder is not followed). */
export async function readGitFacts(root: string): Promise<GitFacts | null> {
  const gitDir = await gitDirOf(root)
  if (gitDir === null) return null
  const head = (await readGitFile(gitDir.dir, 'HEAD'))?.trim()
  if (head === undefined) return null
  const symbolic = head.match(/^ref:\s*(refs\/\S+)$/)
  if (symbolic) {
    const ref = symbolic[1]!
    const branch = ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : ref
    return { branch, head: await resolveRef(gitDir, ref) }
  }
  return HEX_SHA.test(head) ? { branch: null, head } : null
}

/** The local calendar date of `now`, `YYYY-MM-DD`: the session context says the date, never the time. */
export function localDate(now: number): string {
  const d = new Date(now)
  const pad = (n: number): string => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`
}
