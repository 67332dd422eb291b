/**
 * The project's instruction and memory files as the prompt builder resolved them (docs/context-engine.md): one
 * gathering of the project, one freeze of the session block, and for every file found its fate — included whole,
 * cut, omitted, kept once as a duplicate, skipped (and why), or waiting for a matching read (`paths:` rules) — with
 * its imports as children. The Files view shows this tree; what it lists is also what it may edit.
 */
import { join } from 'node:path'
import {
  estimateTokens,
  estimateTokensFromChars,
  freezeSessionSection,
  INSTRUCTIONS_BUDGET_CHARS,
  SECTION_SEPARATOR,
  type GatheredContext,
  type GatheredFile,
  type InstructionTier,
  type SessionSection,
  type SkipReason,
} from '../../engine/prompt'
import { skipWords } from '../../engine/prompt/instructions'
import { displayPathFor, gatherProjectContext } from '../instructions'
import { findNestedInstructions, type NestedFound } from './nested'
import { absoluteFor, type FileRoots } from './paths'

/** `nested`: an instruction file in a folder below the root, sent after the breakpoints (node/files/nested.ts). */
export type FileKind = 'instruction' | 'rule' | 'import' | 'memory' | 'nested'

export type FileStatus =
  /** Sent whole in the session block. */
  | 'included'
  /** Sent up to the budget, with a note to read the rest. */
  | 'cut'
  /** Only listed: it did not fit the budget. */
  | 'omitted'
  /** Same text (or the same real file) as an earlier one: a one-line pointer. */
  | 'duplicate'
  | 'empty'
  /** Not read: outside the allowed roots, binary, over 1 MB, not a file, unreadable, an import cycle or too deep. */
  | 'skipped'
  /** A rule with `paths:`: it enters the conversation when a matching file is read or edited. */
  | 'conditional'
  /**
   * A nested instruction file (or its import): not in the session block; sent after the breakpoints, once per session,
   * the first time the agent reads or edits a file under its folder.
   */
  | 'nested'

export interface FileNode {
  /** The display path (relative to the root, `~/…`, or absolute): what the other requests take. */
  readonly path: string
  readonly absPath: string
  readonly kind: FileKind
  readonly tier: InstructionTier | null
  readonly status: FileStatus
  /** Why, in words, for every status but `included`. */
  readonly reason: string | null
  /** For a `skipped` file, why as a code: what the Files view tells the user instead of opening it. */
  readonly skip?: SkipReason
  /** For an `unreadable` one, why in the reader's words (a broken link, an error code). */
  readonly skipDetail?: string
  /** Characters on disk (null when the file was not read). */
  readonly chars: number | null
  /**
   * Estimated tokens this file puts in the session block: its part (heading and text) estimated alone, so a change to
   * another file leaves it as it is; 0 when it puts nothing.
   */
  readonly tokens: number
  readonly patterns: ReadonlyArray<string>
  readonly importedBy: string | null
  readonly editable: boolean
  readonly children: ReadonlyArray<FileNode>
}

export interface Creatable {
  readonly path: string
  readonly kind: 'instructions' | 'project_memory' | 'user_memory' | 'global_instructions'
  readonly label: string
}

export interface FilesListing {
  readonly root: string
  readonly instructions: ReadonlyArray<FileNode>
  readonly memory: ReadonlyArray<FileNode>
  readonly creatable: ReadonlyArray<Creatable>
  /** Everything the builder skipped, cut, deduplicated or refused, in its words. */
  readonly notes: ReadonlyArray<{ readonly path: string; readonly kind: string; readonly message: string }>
  /**
   * system[1], the session block these files make now (instructions, memory, skills list), in estimated tokens
   * (characters / 4): the same figure as the inspector's context map gives for system[1] on the next pass.
   */
  readonly sessionBlockTokens: number
  /**
   * The session block's tokens shared out as the inspector's context map shares them (blockBasis): the instruction
   * files, the instructions section's own headings, the memory section whole (its header with its files: the map's
   * "Memory"), the memory files alone, and the skills list. The rows' figures are on the same basis: each file its
   * own estimate.
   */
  readonly sessionBlock: SessionBlockShares
  readonly budgetChars: number
  readonly usedChars: number
}

export interface SessionBlockShares {
  readonly instructionFiles: number
  readonly instructionHeadings: number
  readonly memory: number
  readonly memoryFiles: number
  readonly skills: number
}

/**
 * A session block's size on the inspector's basis: its tokens whole, shared out over its parts, and the characters
 * its instructions use of their budget. What the listing gives for the files on disk, and what files.unapplied gives
 * for the block a session sends while an edit waits (the Files view shows both when they differ).
 */
export interface SessionBlockFigures {
  readonly sessionBlockTokens: number
  readonly sessionBlock: SessionBlockShares
  readonly usedChars: number
}

/**
 * The inspector's basis (renderer/features/inspector/model/context-map.ts): the block estimated whole (characters / 4,
 * separators included). Each file part is its own estimate, ceil(its characters / 4), whatever else the block holds;
 * the rest of the block (the sections' own text: headings, the memory header, the skills list; the separators between
 * sections; the whole block's round-up) is shared out over the sections' own text by characters. Shared out with the
 * rest, a file's figure moved a token in the rounding when another file changed the block's size; now it moves only
 * with its own text, and the parts still make the block's total.
 */
function blockBasis(section: SessionSection) {
  const sectionTexts = [section.instructions.text, section.memory.text, section.skills.text].filter((t) => t !== '')
  const blockTokens = sectionTexts.length === 0 ? 0 : estimateTokens(sectionTexts.join(SECTION_SEPARATOR))
  const fileParts = [...section.instructions.parts, ...section.memory.parts]
  const ownChars = sectionTexts.reduce((sum, t) => sum + t.length, 0) - spanChars(fileParts)
  // Each part's round-up is under a token, and a section's header alone is some 40 tokens: the rest stays above zero
  // short of a hundred-odd files in one section. Clamped all the same.
  const rest = Math.max(0, blockTokens - partsTokens(fileParts))
  const ownShare = (chars: number) => (ownChars <= 0 ? 0 : (chars * rest) / ownChars)
  return { blockTokens, ownShare }
}

type Span = { readonly start: number; readonly end: number }
const spanChars = (parts: ReadonlyArray<Span>) => parts.reduce((sum, p) => sum + (p.end - p.start), 0)
/** A file part's figure: its own estimate. */
const partTokens = (part: Span) => estimateTokensFromChars(part.end - part.start)
const partsTokens = (parts: ReadonlyArray<Span>) => parts.reduce((sum, p) => sum + partTokens(p), 0)

/** The figures of a session block (frozen or planned): see SessionBlockFigures. */
export function sessionBlockFigures(section: SessionSection): SessionBlockFigures {
  const { blockTokens, ownShare } = blockBasis(section)
  const memoryFiles = partsTokens(section.memory.parts)
  return {
    sessionBlockTokens: blockTokens,
    sessionBlock: {
      instructionFiles: partsTokens(section.instructions.parts),
      instructionHeadings: Math.round(ownShare(section.instructions.text.length - spanChars(section.instructions.parts))),
      memory: memoryFiles + Math.round(ownShare(section.memory.text.length - spanChars(section.memory.parts))),
      memoryFiles,
      skills: Math.round(ownShare(section.skills.text.length)),
    },
    usedChars: section.instructions.text.length,
  }
}

export interface ListOptions extends FileRoots {
  readonly now: number
  readonly contextWindowTokens?: number
  /** False: leave out the nested instruction files, whose walk reads every folder of the project. */
  readonly nested?: boolean
}

export async function listInstructionFiles(options: ListOptions): Promise<FilesListing> {
  const gathered = await gatherProjectContext(options.root, { homeDir: options.homeDir, loupeHome: options.loupeHome, now: options.now })
  // Skills listed as a session lists them, so the total is the whole of system[1] (node/session freezes them too).
  const section = freezeSessionSection(gathered, { origin: { kind: 'session_start' }, contextWindowTokens: options.contextWindowTokens ?? 200_000, skills: true })
  const nested = options.nested === false ? undefined : await findNestedInstructions(gathered.root, { homeDir: options.homeDir })
  return describe(gathered, section, options, nested)
}

/** Pure: the tree from a gathering, its frozen section and the nested files found (exported for tests). */
export function describe(gathered: GatheredContext, section: SessionSection, roots: FileRoots, nested: NestedFound = { found: [], files: {}, notes: [] }): FilesListing {
  const { entries, parts, pathRules, text } = section.instructions
  const abs = (file: GatheredFile | undefined, path: string) => (file && file.id.startsWith('/') ? file.id : absoluteFor(path, roots))

  // Each row's figure is its part's own estimate, on the inspector's basis (blockBasis).

  const partOf = (path: string, importedBy: string | null) => {
    const index = entries.findIndex((e) => e.path === path && e.importedBy === importedBy)
    return index < 0 ? null : { entry: entries[index]!, part: parts[index]! }
  }

  const node = (file: GatheredFile, path: string, kind: FileKind, tier: InstructionTier, importedBy: string | null, chain: ReadonlyArray<string>): FileNode => {
    const base = { path, absPath: abs(file, path), kind, tier, importedBy, patterns: [] as string[], editable: true }
    if (!file.read.ok) {
      // A file too large to read is still named in the block (engine/prompt/budget.ts notReadText): its line's share.
      const listed = partOf(path, importedBy)
      return { ...base, ...skipped(file.read, listed !== null), chars: null, tokens: listed ? partTokens(listed.part) : 0, editable: false, children: [] }
    }
    const chars = file.read.text.length
    const rule = kind === 'rule' ? pathRules.find((r) => r.path === path) : undefined
    if (rule) return { ...base, status: 'conditional', reason: `sent after the breakpoints when a read or edit matches ${rule.patterns.join(', ')}`, chars, tokens: 0, patterns: rule.patterns, children: [] }
    const found = partOf(path, importedBy)
    const children = file.imports.flatMap((link): FileNode[] => {
      switch (link.status) {
        case 'not_a_file':
          return []
        case 'skipped':
          return [leaf(link.path, 'skipped', `@${link.ref}: not read, ${skipWords(link.reason)}`, tier, path)]
        case 'depth_limit':
          return [leaf(link.path, 'skipped', `@${link.ref}: past the import depth limit`, tier, path)]
        case 'file': {
          const target = gathered.files[link.targetId]
          if (!target) return []
          if (chain.includes(target.id)) return [leaf(target.path, 'skipped', `@${link.ref} leads back to ${target.path}: the cycle was stopped`, tier, path)]
          return [node(target, target.path, 'import', tier, path, [...chain, target.id])]
        }
      }
    })
    if (!found) {
      const empty = file.read.text.trim() === ''
      return { ...base, status: empty ? 'empty' : 'skipped', reason: empty ? 'empty: nothing to send' : 'not reached (an import cycle or the depth limit)', chars, tokens: 0, children }
    }
    const tokens = partTokens(found.part)
    switch (found.part.allocation) {
      case 'full':
        return { ...base, status: 'included', reason: null, chars, tokens, children }
      case 'truncated':
        return { ...base, status: 'cut', reason: 'cut to fit the instructions budget: the model is told to read the rest', chars, tokens, children }
      case 'omitted':
        return { ...base, status: 'omitted', reason: 'did not fit the instructions budget: only its name is sent', chars, tokens, children }
      case 'pointer':
        return { ...base, status: 'duplicate', reason: `same text as ${found.entry.duplicateOf}: sent once`, chars, tokens, children }
    }
  }

  const leaf = (path: string, status: FileStatus, reason: string, tier: InstructionTier | null, importedBy: string | null): FileNode => ({
    path,
    absPath: absoluteFor(path, roots),
    kind: 'import',
    tier,
    status,
    reason,
    chars: null,
    tokens: 0,
    patterns: [],
    importedBy,
    editable: false,
    children: [],
  })

  const instructions: FileNode[] = []
  for (const item of gathered.instructions) {
    const file = gathered.files[item.fileId]
    if (!file) continue
    instructions.push(node(file, item.path, item.tier === 'rule' ? 'rule' : 'instruction', item.tier, null, [file.id]))
  }

  // Nested instruction files: sent after the breakpoints, so nothing of them is in the session block (tokens 0).
  const inSystem = new Set(gathered.instructions.map((i) => i.fileId))
  const nestedNode = (file: GatheredFile, path: string, kind: 'nested' | 'import', dir: string, importedBy: string | null, chain: ReadonlyArray<string>): FileNode => {
    const base = { path, absPath: abs(file, path), kind, tier: null, importedBy, patterns: [] as string[], editable: true, tokens: 0 }
    if (!file.read.ok) return { ...base, ...skipped(file.read), chars: null, editable: false, children: [] }
    const children = file.imports.flatMap((link): FileNode[] => {
      if (link.status === 'not_a_file') return []
      if (link.status === 'skipped') return [leaf(link.path, 'skipped', `@${link.ref}: not read, ${skipWords(link.reason)}`, null, path)]
      if (link.status === 'depth_limit') return [leaf(link.path, 'skipped', `@${link.ref}: past the import depth limit`, null, path)]
      const target = nested.files[link.targetId]
      if (!target) return []
      if (chain.includes(target.id)) return [leaf(target.path, 'skipped', `@${link.ref} leads back to ${target.path}: the cycle was stopped`, null, path)]
      return [nestedNode(target, target.path, 'import', dir, path, [...chain, target.id])]
    })
    const chars = file.read.text.length
    if (kind === 'nested' && inSystem.has(file.id)) {
      return { ...base, status: 'duplicate', reason: 'the same file as one in the session block: not sent again', chars, children }
    }
    if (file.read.text.trim() === '') return { ...base, status: 'empty', reason: 'empty: nothing to send', chars, children }
    const reason =
      kind === 'nested'
        ? `not in the session block: sent after the breakpoints, once per session, the first time the agent reads or edits a file under ${dir}/`
        : `imported by ${importedBy}: sent with it, after the breakpoints`
    return { ...base, status: 'nested', reason, chars, children }
  }
  for (const { dir, fileId } of nested.found) {
    const file = nested.files[fileId]
    if (file) instructions.push(nestedNode(file, file.path, 'nested', dir, null, [file.id]))
  }

  const memory: FileNode[] = []
  const memoryIds = [gathered.memory.project, gathered.memory.user]
  for (const [i, id] of memoryIds.entries()) {
    if (id === null || (i === 1 && id === memoryIds[0])) continue
    const file = gathered.files[id]
    if (!file) continue
    const part = section.memory.parts.find((p) => p.fileId === id)
    const base = { path: file.path, absPath: abs(file, file.path), kind: 'memory' as const, tier: null, importedBy: null, patterns: [], editable: true, children: [] }
    if (!file.read.ok) memory.push({ ...base, ...skipped(file.read, part !== undefined), chars: null, tokens: part ? partTokens(part) : 0, editable: false })
    else if (!part) memory.push({ ...base, status: 'empty', reason: 'empty: nothing to send', chars: file.read.text.length, tokens: 0 })
    else {
      const tokens = partTokens(part)
      memory.push({ ...base, status: part.allocation === 'truncated' ? 'cut' : 'included', reason: part.allocation === 'truncated' ? 'cut at 8,000 characters: the model is told to read the rest' : null, chars: file.read.text.length, tokens })
    }
  }

  return {
    root: gathered.root,
    instructions,
    memory,
    creatable: creatable(gathered, roots),
    notes: [...notesOnce(gathered, section), ...nested.notes.map((n) => ({ path: n.path, kind: n.reason, message: n.message }))],
    ...sessionBlockFigures(section),
    budgetChars: INSTRUCTIONS_BUDGET_CHARS,
  }
}

/**
 * Every note once. A file that was not read is noted twice: by the reading, in its own words and with the reason as
 * its kind (`too_large`, `outside_allowed_roots`, `unreadable: a broken link` …), and again by the prompt builder
 * resolving it (`skipped` for an instruction or memory file, `import_skipped` for an import), in general words. The
 * reading's note says more, so the builder's note for a file the reading already noted is left out. What the builder
 * sends the model is not touched: this is only what the Files view lists.
 */
function notesOnce(gathered: GatheredContext, section: SessionSection) {
  const read = gathered.notes.map((n) => ({ path: n.path, kind: n.reason, message: n.message }))
  const notedPaths = new Set(read.map((n) => n.path))
  const restatesReading = (n: { path: string; kind: string }) => (n.kind === 'skipped' || n.kind === 'import_skipped') && notedPaths.has(n.path)
  return [...read, ...section.notes.filter((n) => !restatesReading(n))]
}

/**
 * A file the builder did not read: its status, its reason in the builder's words, and the reason's code and detail.
 * `named`: the session block still names it (a file too large to read).
 */
function skipped(read: Extract<GatheredFile['read'], { ok: false }>, named = false) {
  const why = `not read: ${skipWords(read.reason)}${named ? '; only its name is sent, for the model to read if it matters' : ''}`
  return { status: 'skipped' as const, reason: why, skip: read.reason, ...(read.reason === 'unreadable' ? { skipDetail: read.detail } : {}) }
}

/** The files the view offers to create: the ones a project usually has and this one lacks. */
function creatable(gathered: GatheredContext, roots: FileRoots): Creatable[] {
  const found = new Set(Object.values(gathered.files).map((f) => f.path))
  for (const i of gathered.instructions) found.add(i.path)
  const display = (abs: string) => displayPathFor(abs, { root: gathered.root, homeDir: roots.homeDir })
  const out: Creatable[] = []
  const want = (abs: string, kind: Creatable['kind'], label: string) => {
    const path = display(abs)
    if (!found.has(path)) out.push({ path, kind, label })
  }
  // A folder that is not a working folder (Claude Code's logs, the proxy's captures) gets nothing new.
  if (!roots.projectReadOnly) want(join(gathered.root, 'AGENTS.md'), 'instructions', 'Project instructions (AGENTS.md)')
  if (gathered.memory.project === null && !roots.projectReadOnly) want(join(gathered.root, '.loupe', 'memory.md'), 'project_memory', 'Project memory (.loupe/memory.md)')
  if (gathered.memory.user === null) want(join(roots.loupeHome, 'memory.md'), 'user_memory', 'User memory (every project)')
  want(join(roots.loupeHome, 'AGENTS.md'), 'global_instructions', 'Global instructions (every project)')
  return out
}
