/**
 * Finding Claude Code sessions on disk: `<projects>/<project>/<session-id>.jsonl`, where `<project>` is the working
 * folder with every `/` and `.` turned into `-`, and 2.x subagents sit in `<project>/<session-id>/subagents/`.
 *
 * Listing only stats files; reading what is inside is `describeSession` in load.ts. Symlinks are followed only
 * while they stay inside the projects folder: a link out of it (or a loop) is skipped and counted, never read.
 */
import { lstat, readdir, realpath, stat } from 'node:fs/promises'
import { homedir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { isInside } from './read'

/** `$CLAUDE_CONFIG_DIR/projects` when set (Claude Code's own override of `~/.claude`), else `~/.claude/projects`. */
export function defaultProjectsDir(env: Readonly<Record<string, string | undefined>> = process.env, home = homedir()): string {
  const configDir = env.CLAUDE_CONFIG_DIR
  return configDir !== undefined && configDir !== '' ? join(configDir, 'projects') : join(home, '.claude', 'projects')
}

export interface SessionFileInfo {
  readonly sessionId: string
  /** The project folder's name as Claude Code encodes it, e.g. `-home-me-src-app`. */
  readonly project: string
  readonly path: string
  readonly sizeBytes: number
  readonly modifiedMs: number
  /** 2.x `<session-id>/subagents/agent-*.jsonl`, sorted. 1.x sibling `agent-*.jsonl` files are matched in load.ts. */
  readonly subagentPaths: ReadonlyArray<string>
}

export interface SessionListing {
  readonly sessions: ReadonlyArray<SessionFileInfo>
  /** Entries not listed because they are symlinks leading outside the projects folder, or unreadable. */
  readonly skippedEntries: ReadonlyArray<{ readonly path: string; readonly reason: 'symlink_outside_root' | 'unreadable' }>
}

type Entry = { readonly kind: 'file' | 'dir'; readonly path: string; readonly sizeBytes: number; readonly modifiedMs: number }

interface Walk {
  readonly realRoot: string
  readonly skipped: Array<{ path: string; reason: 'symlink_outside_root' | 'unreadable' }>
}

async function entry(walk: Walk, path: string): Promise<Entry | null> {
  try {
    const link = await lstat(path)
    if (link.isSymbolicLink()) {
      const target = await realpath(path)
      if (!isInside(walk.realRoot, target)) {
        walk.skipped.push({ path, reason: 'symlink_outside_root' })
        return null
      }
    }
    const s = link.isSymbolicLink() ? await stat(path) : link
    if (s.isDirectory()) return { kind: 'dir', path, sizeBytes: 0, modifiedMs: s.mtimeMs }
    if (s.isFile()) return { kind: 'file', path, sizeBytes: s.size, modifiedMs: s.mtimeMs }
    return null
  } catch {
    walk.skipped.push({ path, reason: 'unreadable' })
    return null
  }
}

async function entries(walk: Walk, dir: string): Promise<Entry[]> {
  let names: string[]
  try {
    names = (await readdir(dir)).sort()
  } catch {
    return []
  }
  const out: Entry[] = []
  for (const name of names) {
    const e = await entry(walk, join(dir, name))
    if (e !== null) out.push(e)
  }
  return out
}

const SESSION_FILE = /^(?!agent-).+\.jsonl$/

async function subagentPaths(walk: Walk, projectDir: string, sessionId: string): Promise<string[]> {
  const dir = join(projectDir, sessionId, 'subagents')
  return (await entries(walk, dir)).filter((e) => e.kind === 'file' && /^agent-.+\.jsonl$/.test(basename(e.path))).map((e) => e.path)
}

async function sessionsIn(walk: Walk, projectDir: string): Promise<SessionFileInfo[]> {
  const project = basename(projectDir)
  const out: SessionFileInfo[] = []
  for (const e of await entries(walk, projectDir)) {
    const name = basename(e.path)
    if (e.kind !== 'file' || !SESSION_FILE.test(name)) continue
    const sessionId = name.slice(0, -'.jsonl'.length)
    out.push({
      sessionId,
      project,
      path: e.path,
      sizeBytes: e.sizeBytes,
      modifiedMs: e.modifiedMs,
      subagentPaths: await subagentPaths(walk, projectDir, sessionId),
    })
  }
  return out
}

/** Every session under the projects folder (or under one project of it), newest first. */
export async function listSessionFiles(projectsDir: string, project?: string): Promise<SessionListing> {
  let realRoot: string
  try {
    realRoot = await realpath(projectsDir)
  } catch {
    return { sessions: [], skippedEntries: [] }
  }
  const walk: Walk = { realRoot, skipped: [] }
  const projectDirs =
    project === undefined
      ? (await entries(walk, realRoot)).filter((e) => e.kind === 'dir').map((e) => e.path)
      : // One folder of the projects folder: "." and ".." name the folder itself and the one around it.
        [join(realRoot, basename(project))].filter((dir) => dirname(dir) === realRoot)
  const sessions: SessionFileInfo[] = []
  for (const dir of projectDirs) sessions.push(...(await sessionsIn(walk, dir)))
  sessions.sort((a, b) => b.modifiedMs - a.modifiedMs || a.path.localeCompare(b.path))
  return { sessions, skippedEntries: walk.skipped }
}
