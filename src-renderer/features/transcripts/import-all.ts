/** How many files the Claude Code panel's Import all brings in, and how many it leaves out (docs/claude-code-import.md "In the app"). */
import type { TranscriptFileView } from '../../../src-preload/contract'

/** Files Import all brings in (new, or changed since imported), and the files left out as holding no conversation. */
export function importAllCounts(projects: ReadonlyArray<{ readonly sessions: ReadonlyArray<TranscriptFileView> }>): { count: number; unimportable: number } {
  let count = 0
  let unimportable = 0
  for (const p of projects) {
    for (const s of p.sessions) {
      if (s.imported !== null && !s.imported.changed) continue
      if (s.unimportable) unimportable += 1
      else count += 1
    }
  }
  return { count, unimportable }
}
