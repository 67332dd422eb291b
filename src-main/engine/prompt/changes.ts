/**
 * Which instruction, rule, memory and skill files changed between two gatherings of the same project. The loop
 * gathers again before a user turn, compares with what the session block was frozen from, and for each change
 * records a "changed" note (notes.ts) and offers to apply it now — it never rewrites an earlier block silently
 * (docs/context-engine.md "Changes mid-session").
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

/**
 * What each instruction, rule, memory and skill file looked like, by path: enough to tell later what changed, and
 * small enough to keep in the session's state (so changes made while the app was closed are noticed too). `digest`
 * shortens the content (the runtime passes a sha256); by default the content itself is kept.
 */
export type FileSignatures = Readonly<Record<string, { readonly kind: ChangedFileKind; readonly signature: string }>>

export function fileSignatures(gathered: GatheredContext, digest: (content: string) => string = (c) => c): FileSignatures {
  const out: Record<string, { kind: ChangedFileKind; signature: string }> = {}
  for (const [path, seen] of collect(gathered)) out[path] = { kind: seen.kind, signature: digest(seen.content) }
  return out
}

/** Changes from `before` to `after`, sorted by path. */
export function diffSignatures(before: FileSignatures, after: FileSignatures): FileChange[] {
  const changes: FileChange[] = []
  for (const [path, was] of Object.entries(before)) {
    const now = after[path]
    if (now === undefined) changes.push({ path, fileKind: was.kind, change: 'removed' })
    else if (now.signature !== was.signature) changes.push({ path, fileKind: now.kind, change: 'modified' })
  }
  for (const [path, now] of Object.entries(after)) if (!(path in before)) changes.push({ path, fileKind: now.kind, change: 'added' })
  return changes.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0))
}

/** Changes from `before` to `after`, sorted by path. Files that only moved in the listing order are not changes. */
export function diffGathered(before: GatheredContext, after: GatheredContext): FileChange[] {
  return diffSignatures(fileSignatures(before), fileSignatures(after))
}
