/**
 * glob: file paths matching a pattern, relative to the root. tinyglobby does the matching without following
 * symbolic links (so it never walks out of the root); .gitignore rules are applied to what it finds.
 */
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
    if (await rules.isIgnored(rel, false)) ignoredCount++
    else kept.push(rel)
  }
  kept.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  return okOutcome(renderGlobResult(input.pattern, kept, ignoredCount) + rulesFileNotes(rules.notes()))
}
