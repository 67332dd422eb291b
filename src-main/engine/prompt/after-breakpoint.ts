/**
 * After-the-breakpoint context (docs/context-engine.md "After-the-breakpoint context"): nested instruction files (an
 * AGENTS.md or CLAUDE.md in a subfolder) and `paths:` rules enter the conversation when the agent first reads or
 * edits a file under or matching them — once per session, as a note on that tool result or the next user message.
 * Pure: the reading side (src-main/node/instructions/nested.ts) finds and reads the nested files and keeps the
 * delivered set.
 */
import picomatch from 'picomatch/posix'
import type { GatheredFile } from './gathered'
import type { InstructionEntry, PathRule, ResolveNote } from './instructions'
import type { ContextNote } from './notes'
import { expandFile, IncludedSet } from './instructions'
import { renderWithinBudget, INSTRUCTIONS_BUDGET_CHARS } from './budget'

/** A nested instruction file found between a file and the root. */
export interface NestedInstructionFile {
  /** The folder it governs, relative to the root, ending in `/`. */
  readonly dir: string
  readonly fileId: string
}

export interface RelevanceInput {
  /** The file read or edited, relative to the root with `/` separators. */
  readonly relPath: string
  readonly pathRules: ReadonlyArray<PathRule>
  /** Outermost folder first. */
  readonly nested: ReadonlyArray<NestedInstructionFile>
  readonly files: Readonly<Record<string, GatheredFile>>
  /** Keys (`deliveryKey`) of context already delivered this session. */
  readonly delivered: ReadonlySet<string>
  /** Entries of the frozen session block: a nested file with the same text as one of them is not repeated. */
  readonly system: ReadonlyArray<InstructionEntry>
}

export interface RelevantContext {
  readonly notes: ReadonlyArray<ContextNote>
  /** Keys to add to the delivered set once the notes are recorded. */
  readonly keys: ReadonlyArray<string>
  readonly resolveNotes: ReadonlyArray<ResolveNote>
}

export function deliveryKey(kind: 'nested' | 'rule', fileId: string): string {
  return `${kind}:${fileId}`
}

const matchers = new WeakMap<PathRule, (path: string) => boolean>()

function matcherFor(rule: PathRule): (path: string) => boolean {
  let match = matchers.get(rule)
  if (match === undefined) {
    // dot: true so `**/*.md` also matches files in dot-folders such as .github/; globs are relative to the root.
    const compiled = picomatch([...rule.patterns], { dot: true })
    match = (path) => compiled(path)
    matchers.set(rule, match)
  }
  return match
}

/** `a/./b`, `./a` → `a/b`, `a`; null for a path that leaves the root (`../x`) or is absolute. */
export function normalizeRelPath(relPath: string): string | null {
  if (relPath.startsWith('/')) return null
  const parts: string[] = []
  for (const part of relPath.split('/')) {
    if (part === '' || part === '.') continue
    if (part === '..') return null
    parts.push(part)
  }
  return parts.length === 0 ? null : parts.join('/')
}

/** The rules whose `paths:` globs match `relPath`, in rule order. */
export function matchingRules(rules: ReadonlyArray<PathRule>, relPath: string): PathRule[] {
  const path = normalizeRelPath(relPath)
  if (path === null) return []
  return rules.filter((rule) => matcherFor(rule)(path))
}

/** The folders between a file and the root whose instruction files govern it, outermost first (root excluded). */
export function governingDirs(relPath: string): string[] {
  const path = normalizeRelPath(relPath)
  if (path === null) return []
  const segments = path.split('/').slice(0, -1)
  return segments.map((_, i) => `${segments.slice(0, i + 1).join('/')}/`)
}

/** The notes a read or edit of `relPath` brings in, leaving out anything delivered before. */
export function selectRelevantContext(input: RelevanceInput): RelevantContext {
  const path = normalizeRelPath(input.relPath)
  if (path === null) return { notes: [], keys: [], resolveNotes: [] }
  const notes: ContextNote[] = []
  const keys: string[] = []
  const resolveNotes: ResolveNote[] = []
  const included = new IncludedSet(input.system)
  const governing = new Set(governingDirs(path))
  for (const nested of input.nested) {
    if (!governing.has(nested.dir)) continue
    const key = deliveryKey('nested', nested.fileId)
    if (input.delivered.has(key) || keys.includes(key)) continue
    const file = input.files[nested.fileId]
    if (file === undefined || !file.read.ok) continue
    keys.push(key)
    const entries: InstructionEntry[] = []
    expandFile(input.files, file, file.read.text, { tier: 'project', path: file.path, importedBy: null, depth: 0, chain: [file.id] }, included, entries, resolveNotes)
    const fresh = entries.filter((e) => e.duplicateOf === null)
    if (fresh.length === 0) continue
    const rendered = renderWithinBudget('', fresh, INSTRUCTIONS_BUDGET_CHARS)
    resolveNotes.push(...rendered.notes)
    notes.push({ kind: 'nested_instructions', dir: nested.dir, path: file.path, trigger: path, text: rendered.text })
  }
  for (const rule of matchingRules(input.pathRules, path)) {
    const key = deliveryKey('rule', rule.fileId)
    if (input.delivered.has(key) || keys.includes(key)) continue
    keys.push(key)
    if (rule.body.trim() === '') continue
    notes.push({ kind: 'path_rule', path: rule.path, patterns: rule.patterns, trigger: path, text: ruleText(input, rule, included, resolveNotes) })
  }
  return { notes, keys, resolveNotes }
}

/** A rule's body, followed by the files it imports (as in the session block, each under its own heading). */
function ruleText(input: RelevanceInput, rule: PathRule, included: IncludedSet, notes: ResolveNote[]): string {
  const file = input.files[rule.fileId]
  if (file === undefined || !file.imports.some((l) => l.status !== 'not_a_file')) return rule.body
  const entries: InstructionEntry[] = []
  const visit = { tier: 'rule' as const, path: rule.path, importedBy: null, depth: 0, chain: [file.id] }
  expandFile(input.files, file, rule.body, visit, included, entries, notes)
  const imported = entries.slice(1).filter((e) => e.duplicateOf === null)
  if (imported.length === 0) return rule.body
  const rendered = renderWithinBudget('', imported, INSTRUCTIONS_BUDGET_CHARS)
  notes.push(...rendered.notes)
  return `${rule.body.trim()}\n\n${rendered.text}`
}
