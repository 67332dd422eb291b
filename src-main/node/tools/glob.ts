/**
 * glob: file paths matching a pattern, relative to the root. tinyglobby does the matching without following
 * symbolic links below where it starts; .gitignore rules are applied to what it finds.
 *
 * Where it starts is the pattern's fixed folders (`vendor/lib/**` starts in vendor/lib), and tinyglobby enters that
 * folder even when it is a link, out of the root as well (a pattern starting with a link to /etc listed /etc). So every folder of every
 * path found is checked not to be a link, and a pattern whose fixed folders pass through one is answered as such.
 */
import { lstat } from 'node:fs/promises'
import { join } from 'node:path'
import { glob } from 'tinyglobby'
import { errorOutcome, okOutcome, type ToolOutcome } from '../../engine/tools/executor'
import { checkGlobPattern } from '../../engine/tools/paths'
import { renderGlobResult } from '../../engine/tools/render'
import type { GlobInput } from '../../engine/tools/schemas'
import type { ToolDeps } from './deps'
import { rulesFileNotes } from './gitignore'

export async function globTool(input: GlobInput, deps: ToolDeps): Promise<ToolOutcome> {
  const checked = checkGlobPattern(input.pattern)
  if (!checked.ok) return errorOutcome('outside_root', checked.reason)
  const root = await deps.fs.root()
  const isLink = linkCheck(root)
  const start = await firstLinkOnTheWay(fixedFolders(input.pattern), isLink)
  if (start !== null) return okOutcome(`No files match ${input.pattern}: ${start} is a symbolic link, and searches do not follow links. Search where it points, if that is inside the project, by its own path.`)
  // node_modules is skipped for speed unless the pattern asks for it by name.
  const ignore = input.pattern.includes('node_modules') ? ['**/.git/**'] : ['**/.git/**', '**/node_modules/**']
  const found = await glob(input.pattern, {
    cwd: root,
    dot: true,
    followSymbolicLinks: false,
    expandDirectories: false,
    ignore,
    signal: deps.signal,
  })
  const rules = await deps.gitignore()
  const kept: string[] = []
  let ignoredCount = 0
  for (const rel of found) {
    // Belt and braces: tinyglobby answers relative to cwd; nothing may climb out of it.
    if (rel.startsWith('../') || rel.startsWith('/')) continue
    if ((await firstLinkOnTheWay(rel.split('/').slice(0, -1), isLink)) !== null) continue
    if (await rules.isIgnored(rel, false)) ignoredCount++
    else kept.push(rel)
  }
  kept.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  return okOutcome(renderGlobResult(input.pattern, kept, ignoredCount) + rulesFileNotes(rules.notes()))
}

/** The pattern's leading folders that hold no glob syntax: where the crawl starts. */
function fixedFolders(pattern: string): string[] {
  const parts = pattern.split('/').slice(0, -1)
  const fixed: string[] = []
  for (const part of parts) {
    if (/[*?[\]{}()!+@\\]/.test(part)) break
    if (part !== '' && part !== '.') fixed.push(part)
  }
  return fixed
}

/** Whether a folder under the root (relative, `/`-separated) is a symbolic link, each asked once per call. */
function linkCheck(root: string): (rel: string) => Promise<boolean> {
  const known = new Map<string, Promise<boolean>>()
  return (rel) => {
    let answer = known.get(rel)
    if (!answer) {
      answer = lstat(join(root, rel)).then((s) => s.isSymbolicLink(), () => false)
      known.set(rel, answer)
    }
    return answer
  }
}

/** The first of the folders `a`, `a/b`, `a/b/c` … that is a link, or null. */
async function firstLinkOnTheWay(folders: ReadonlyArray<string>, isLink: (rel: string) => Promise<boolean>): Promise<string | null> {
  for (let i = 1; i <= folders.length; i++) {
    const rel = folders.slice(0, i).join('/')
    if (await isLink(rel)) return rel
  }
  return null
}
