/** grep: searches contents, with ripgrep when present and the built-in searcher otherwise. */
import { errorOutcome, okOutcome, type ToolOutcome } from '../../engine/tools/executor'
import { renderGrepResult } from '../../engine/tools/render'
import type { GrepInput } from '../../engine/tools/schemas'
import { notFound, refusal, type ToolDeps } from './deps'
import { rulesFileNotes } from './gitignore'
import { grepWithJs, type GrepMatches } from './grep-js'
import { grepWithRipgrep } from './grep-rg'

export interface GrepEngine {
  /** The rg executable, or null for the built-in searcher. */
  readonly ripgrep: () => Promise<string | null>
  readonly env: NodeJS.ProcessEnv
}

export async function grepTool(input: GrepInput, deps: ToolDeps, engine: GrepEngine): Promise<ToolOutcome> {
  const resolution = await deps.fs.resolve(input.path ?? '.')
  if (!resolution.ok) return refusal(resolution)
  const path = resolution.path
  if (path.kind === 'missing') return notFound(path, 'Use glob or list_dir to find the right path.')
  if (path.kind === 'other') return errorOutcome('not_a_file', `${path.rel} is neither a file nor a folder.`)
  const request = {
    rootReal: await deps.fs.root(),
    start: path.rel,
    startIsFile: path.kind === 'file',
    pattern: input.pattern,
    glob: input.glob,
    signal: deps.signal,
  }
  // ripgrep reads the rules files itself, and would wait on a FIFO .gitignore until its timeout: when the root's
  // rules or those above the searched folder are not plain files, the built-in searcher (which skips them) is used.
  const rules = await deps.gitignore()
  const troubled = await rules.troubledAbove(path.rel, path.kind === 'dir')
  const rg = troubled ? null : await engine.ripgrep()
  let matches: GrepMatches
  if (rg !== null) {
    const result = await grepWithRipgrep(rg, request, engine.env)
    if (!result.ok) return errorOutcome('invalid_input', `The search failed: ${result.message}`)
    matches = result.matches
  } else {
    matches = await grepWithJs(request, rules)
  }
  if (deps.signal.aborted) return errorOutcome('aborted', 'The search was interrupted by the user.')
  return okOutcome(renderGrepResult(input.pattern, path.rel, matches.lines, matches.stoppedEarly, matches.incomplete ?? null) + rulesFileNotes(rg === null ? rules.notes() : []))
}
