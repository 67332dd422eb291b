/**
 * Resolution of instruction files into ordered entries: tier order, `@path` imports expanded as entries of their
 * own right after the file that imports them, files with the same text (a CLAUDE.md symlinked to AGENTS.md) kept
 * once, empty files skipped, `paths:` rules set aside for after-the-breakpoint context.
 *
 * An imported file becomes its own entry (with a heading naming the importer) rather than being pasted over the
 * `@path` text: each file keeps one heading and one provenance, the importer's bytes stay as written, and a file
 * both imported and present in its own right (CLAUDE.md containing `@AGENTS.md`) goes in once.
 * docs/decisions/0004-prompt-builder.md records the choice.
 */
import type { GatheredContext, GatheredFile, InstructionTier, SkipReason } from './gathered'
import { ruleScope } from './frontmatter'

/** Imports are followed at most this many levels deep, as in Claude Code (docs/reference/peers.md §3). */
export const MAX_IMPORT_DEPTH = 5

/** Prompt order: most general first, so the most specific text is read last. */
export const TIER_PROMPT_ORDER: ReadonlyArray<InstructionTier> = ['global', 'project', 'rule', 'local']

export interface InstructionEntry {
  readonly tier: InstructionTier
  readonly fileId: string
  readonly path: string
  /** Display path of the file whose `@path` brought this one in, or null for a file found in its own right. */
  readonly importedBy: string | null
  readonly body: string
  /** Path of an earlier entry with the same text or the same real file: rendered as a one-line pointer. */
  readonly duplicateOf: string | null
  /**
   * Set for a file found in its own right that was not read because it is too large (body ''): it is still listed,
   * one line, so the model knows it exists and can read it with its tools, as a file over the budget is.
   */
  readonly notRead?: 'too_large'
}

/** A rule with `paths:` frontmatter: it enters the conversation when a matching file is read or edited. */
export interface PathRule {
  readonly fileId: string
  readonly path: string
  readonly patterns: ReadonlyArray<string>
  readonly body: string
}

export type ResolveNoteKind =
  | 'skipped'
  | 'empty'
  | 'duplicate'
  | 'bad_frontmatter'
  | 'import_cycle'
  | 'import_depth_limit'
  | 'import_skipped'
  | 'truncated'
  | 'omitted'
  /** A skill folder whose name the `skill` tool refuses: not listed. */
  | 'bad_name'
  /** A skill whose frontmatter `name` is not its folder's: listed under the folder's. */
  | 'skill_name'

export interface ResolveNote {
  readonly path: string
  readonly kind: ResolveNoteKind
  readonly message: string
}

export interface ResolvedEntries {
  readonly entries: ReadonlyArray<InstructionEntry>
  readonly pathRules: ReadonlyArray<PathRule>
  readonly notes: ReadonlyArray<ResolveNote>
}

const SKIP_WORDS: Record<SkipReason, string> = {
  outside_allowed_roots: "its real path is outside the project root and Loupe's own folder",
  binary: 'it is a binary file',
  too_large: 'it is larger than 1 MB',
  not_a_file: 'it is not a regular file',
  unreadable: 'it could not be read',
}

export function skipWords(reason: SkipReason): string {
  return SKIP_WORDS[reason]
}

/**
 * Tracks what is already included so that later files with the same text or real path become pointers. One
 * tracker spans a whole section (and, for after-the-breakpoint notes, the whole session).
 */
export class IncludedSet {
  private readonly byId = new Map<string, string>()
  private readonly byText = new Map<string, string>()
  constructor(entries: ReadonlyArray<InstructionEntry> = []) {
    for (const e of entries) if (e.duplicateOf === null && e.notRead === undefined) this.add(e.fileId, e.body, e.path)
  }
  find(fileId: string, body: string): string | null {
    return this.byId.get(fileId) ?? this.byText.get(body) ?? null
  }
  add(fileId: string, body: string, path: string): void {
    if (!this.byId.has(fileId)) this.byId.set(fileId, path)
    if (!this.byText.has(body)) this.byText.set(body, path)
  }
}

/** Resolves the gathered instruction files of a project into entries in prompt order. */
export function resolveInstructionEntries(gathered: GatheredContext): ResolvedEntries {
  const entries: InstructionEntry[] = []
  const pathRules: PathRule[] = []
  const notes: ResolveNote[] = []
  const included = new IncludedSet()
  const ordered = [...gathered.instructions].sort(
    (a, b) => TIER_PROMPT_ORDER.indexOf(a.tier) - TIER_PROMPT_ORDER.indexOf(b.tier),
  )
  for (const item of ordered) {
    const file = gathered.files[item.fileId]
    if (file === undefined) continue
    if (!file.read.ok) {
      notes.push({ path: item.path, kind: 'skipped', message: `${item.path} was not read: ${skipWords(file.read.reason)}` })
      // Too large for the prompt is not unreadable: the model can page through it with read_file. Binary files,
      // links out of the root and the rest stay out (no tool of the model's would read them either).
      if (file.read.reason === 'too_large' && !entries.some((e) => e.fileId === file.id)) {
        entries.push({ tier: item.tier, fileId: file.id, path: item.path, importedBy: null, body: '', duplicateOf: null, notRead: 'too_large' })
      }
      continue
    }
    let body = file.read.text
    if (item.tier === 'rule') {
      const scope = ruleScope(body)
      if (scope.kind === 'paths') {
        pathRules.push({ fileId: file.id, path: item.path, patterns: scope.patterns, body: scope.body })
        continue
      }
      if (scope.kind === 'bad') {
        notes.push({
          path: item.path,
          kind: 'bad_frontmatter',
          message: `${item.path} has frontmatter that does not parse (${scope.error}); it applies to every file`,
        })
      }
      body = scope.body
    }
    const visit: Visit = { tier: item.tier, path: item.path, importedBy: null, depth: 0, chain: [file.id] }
    expandFile(gathered.files, file, body, visit, included, entries, notes)
  }
  return { entries, pathRules, notes }
}

export interface Visit {
  readonly tier: InstructionTier
  /** The path shown for this file: where it was found, or its own path when imported. */
  readonly path: string
  readonly importedBy: string | null
  readonly depth: number
  /** Real paths from the top-level file down to this one, to stop cycles. */
  readonly chain: ReadonlyArray<string>
}

/**
 * Adds `file` (with `body` as its text) and, depth first, the files it imports. Exported for after-the-breakpoint
 * notes, which expand nested instruction files and rules the same way.
 */
export function expandFile(
  files: Readonly<Record<string, GatheredFile>>,
  file: GatheredFile,
  body: string,
  visit: Visit,
  included: IncludedSet,
  out: InstructionEntry[],
  notes: ResolveNote[],
): void {
  if (body.trim() === '') {
    notes.push({ path: visit.path, kind: 'empty', message: `${visit.path} is empty and was skipped` })
    return
  }
  const earlier = included.find(file.id, body)
  const base = { tier: visit.tier, fileId: file.id, path: visit.path, importedBy: visit.importedBy, body }
  if (earlier !== null) {
    out.push({ ...base, duplicateOf: earlier })
    const what = visit.importedBy === null ? visit.path : `${visit.path} (imported by ${visit.importedBy})`
    notes.push({ path: visit.path, kind: 'duplicate', message: `${what} has the same text as ${earlier}; included once` })
    return
  }
  out.push({ ...base, duplicateOf: null })
  included.add(file.id, body, visit.path)
  for (const link of file.imports) {
    switch (link.status) {
      case 'not_a_file':
        break
      case 'skipped':
        notes.push({
          path: link.path,
          kind: 'import_skipped',
          message: `@${link.ref} in ${visit.path} was not read: ${skipWords(link.reason)}`,
        })
        break
      case 'depth_limit':
        notes.push(depthNote(visit.path, link.ref, link.path))
        break
      case 'file': {
        const target = files[link.targetId]
        if (target === undefined) break
        if (visit.chain.includes(target.id)) {
          notes.push({
            path: target.path,
            kind: 'import_cycle',
            message: `@${link.ref} in ${visit.path} leads back to ${target.path}; the cycle was stopped`,
          })
          break
        }
        if (visit.depth + 1 > MAX_IMPORT_DEPTH) {
          notes.push(depthNote(visit.path, link.ref, target.path))
          break
        }
        if (!target.read.ok) {
          notes.push({
            path: target.path,
            kind: 'import_skipped',
            message: `@${link.ref} in ${visit.path} was not read: ${skipWords(target.read.reason)}`,
          })
          break
        }
        const next: Visit = {
          tier: visit.tier,
          path: target.path,
          importedBy: visit.path,
          depth: visit.depth + 1,
          chain: [...visit.chain, target.id],
        }
        expandFile(files, target, target.read.text, next, included, out, notes)
        break
      }
    }
  }
}

function depthNote(importer: string, ref: string, path: string): ResolveNote {
  return {
    path,
    kind: 'import_depth_limit',
    message: `@${ref} in ${importer} was not followed: imports go at most ${MAX_IMPORT_DEPTH} levels deep`,
  }
}
