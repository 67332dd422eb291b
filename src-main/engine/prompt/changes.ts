/**
 * Which instruction, rule, memory and skill files changed between two gatherings of the same project. The loop
 * gathers again before a user turn, compares with what the session block was frozen from, and for each change
 * records a "changed" note (notes.ts) and offers to apply it now — it never rewrites an earlier block silently
 * (issue 3, items 6 and 8).
 */
import type { GatheredContext, GatheredFile } from './gathered'
import type { ChangedFileKind } from './notes'

export interface FileChange {
  readonly path: string
  readonly fileKind: ChangedFileKind
  readonly change: 'modified' | 'added' | 'removed'
}

interface Seen {
  readonly kind: ChangedFileKind
  readonly content: string
}

function signature(file: GatheredFile): string {
  return file.read.ok ? `text:${file.read.text}` : `skipped:${file.read.reason}`
}

function collect(gathered: GatheredContext): Map<string, Seen> {
  const seen = new Map<string, Seen>()
  const add = (id: string | null, kind: ChangedFileKind, depth: number): void => {
    if (id === null || depth > 6) return
    const file = gathered.files[id]
    if (file === undefined || seen.has(file.path)) return
    seen.set(file.path, { kind, content: signature(file) })
    for (const link of file.imports) if (link.status === 'file') add(link.targetId, kind, depth + 1)
  }
  for (const item of gathered.instructions) add(item.fileId, item.tier === 'rule' ? 'rule' : 'instructions', 0)
  add(gathered.memory.project, 'memory', 0)
  add(gathered.memory.user, 'memory', 0)
  for (const skill of gathered.skills) add(skill.fileId, 'skill', 0)
  return seen
}

/** Changes from `before` to `after`, sorted by path. Files that only moved in the listing order are not changes. */
export function diffGathered(before: GatheredContext, after: GatheredContext): FileChange[] {
  const a = collect(before)
  const b = collect(after)
  const changes: FileChange[] = []
  for (const [path, was] of a) {
    const now = b.get(path)
    if (now === undefined) changes.push({ path, fileKind: was.kind, change: 'removed' })
    else if (now.content !== was.content) changes.push({ path, fileKind: now.kind, change: 'modified' })
  }
  for (const [path, now] of b) if (!a.has(path)) changes.push({ path, fileKind: now.kind, change: 'added' })
  return changes.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0))
}
