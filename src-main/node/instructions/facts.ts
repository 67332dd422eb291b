/**
 * Facts for the frozen session context: a one-level listing of the root, git branch and HEAD, the local date. Git is
 * read from the files under `.git` (HEAD, refs, packed-refs) rather than by running git: no process to spawn, and
 * nothing to go wrong when git is not installed. Nothing here throws; an unknown fact is left out.
 */
import { readdir, readFile, stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { GitFacts, RootEntry } from '../../engine/prompt/gathered'

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

async function readSmall(path: string): Promise<string | null> {
  try {
    const info = await stat(path)
    if (!info.isFile() || info.size > MAX_GIT_FILE_BYTES) return null
    return await readFile(path, 'utf8')
  } catch {
    return null
  }
}

/** The git folder of `root`: `.git` itself, or the folder a `.git` file (worktree, submodule) points to. */
async function gitDirOf(root: string): Promise<string | null> {
  const dotGit = join(root, '.git')
  try {
    const info = await stat(dotGit)
    if (info.isDirectory()) return dotGit
  } catch {
    return null
  }
  const pointer = await readSmall(dotGit)
  const match = pointer?.match(/^gitdir:\s*(.+)\s*$/m)
  return match ? resolve(root, match[1]!.trim()) : null
}

async function resolveRef(gitDir: string, ref: string): Promise<string | null> {
  // A worktree keeps its refs in the main repository; `commondir` says where that is.
  const common = await readSmall(join(gitDir, 'commondir'))
  const dirs = common === null ? [gitDir] : [gitDir, resolve(gitDir, common.trim())]
  for (const dir of dirs) {
    const loose = (await readSmall(join(dir, ref)))?.trim()
    if (loose !== undefined && HEX_SHA.test(loose)) return loose
    const packed = await readSmall(join(dir, 'packed-refs'))
    if (packed !== null) {
      for (const line of packed.split('\n')) {
        const [sha, name] = line.trim().split(' ')
        if (name === ref && sha !== undefined && HEX_SHA.test(sha)) return sha
      }
    }
  }
  return null
}

/** Branch and HEAD of the repository at `root`, or null when it is not one. */
export async function readGitFacts(root: string): Promise<GitFacts | null> {
  const gitDir = await gitDirOf(root)
  if (gitDir === null) return null
  const head = (await readSmall(join(gitDir, 'HEAD')))?.trim()
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
