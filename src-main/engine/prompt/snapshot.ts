/**
 * Freezing: turning gathered values into the texts a session keeps. The session block (instructions, memory,
 * skills) is frozen when the session starts, again at each checkpoint, and when the user applies an edit now
 * (docs/context-engine.md "Changes mid-session"); the session context is frozen once for the session's life; the
 * project statics (root, build profiles) once per session too. The builder only ever reads these frozen values, which
 * is why a pass can never pick up a changed file by accident.
 */
import type { GatheredContext } from './gathered'
import type { BudgetedText } from './budget'
import type { InstructionEntry, PathRule, ResolveNote } from './instructions'
import type { MemorySection } from './memory'
import type { SkillsSection } from './skills'
import type { BuildProfile } from './build-profiles'
import type { FrozenSessionContext } from './session-context'
import { renderWithinBudget, INSTRUCTIONS_BUDGET_CHARS } from './budget'
import { resolveInstructionEntries } from './instructions'
import { renderMemory } from './memory'
import { renderSkills } from './skills'
import { detectBuildProfiles } from './build-profiles'
import { freezeSessionContext } from './session-context'

export const INSTRUCTIONS_HEADER =
  '# Project instructions\n\nFrom the instruction files of the user and the project, most general first. Where two disagree, the later, more specific one wins.'

/** Why the session block has the bytes it has: the cache outcome of the first pass after a re-freeze is attributed
 * to this. */
export type SnapshotOrigin =
  | { readonly kind: 'session_start' }
  | { readonly kind: 'checkpoint'; readonly entryId: string }
  /**
   * `editedAt`: when each file applied, or changed on disk and sent with them, last changed there, as far as known
   * (fileEditTimes); absent from session blocks frozen before it was recorded.
   */
  | { readonly kind: 'apply_now'; readonly entryId: string; readonly paths: ReadonlyArray<string>; readonly editedAt?: ReadonlyArray<FileEditTime> }

/** When a file of the session block last changed on disk, by the path the block shows. */
export interface FileEditTime {
  readonly path: string
  readonly at: number
}

export interface ResolvedInstructions extends BudgetedText {
  readonly entries: ReadonlyArray<InstructionEntry>
  readonly pathRules: ReadonlyArray<PathRule>
}

export interface SessionSection {
  readonly origin: SnapshotOrigin
  readonly instructions: ResolvedInstructions
  readonly memory: MemorySection
  readonly skills: SkillsSection
  /** Everything skipped, cut, deduplicated or refused while freezing, for the inspector. */
  readonly notes: ReadonlyArray<ResolveNote>
}

export interface ProjectStatics {
  readonly root: string
  readonly buildProfiles: ReadonlyArray<BuildProfile>
}

export interface FreezeOptions {
  readonly origin: SnapshotOrigin
  /** The model's context window in tokens; the skills list may use 1% of it. */
  readonly contextWindowTokens: number
  /** List skills (the `skills` feature is on). */
  readonly skills: boolean
  /** Characters for the instructions section; 40,000 unless a test says otherwise. */
  readonly instructionsBudgetChars?: number
}

export function resolveInstructions(gathered: GatheredContext, budgetChars = INSTRUCTIONS_BUDGET_CHARS): ResolvedInstructions {
  const resolved = resolveInstructionEntries(gathered)
  const rendered = renderWithinBudget(INSTRUCTIONS_HEADER, resolved.entries, budgetChars)
  return {
    ...rendered,
    entries: resolved.entries,
    pathRules: resolved.pathRules,
    notes: [...resolved.notes, ...rendered.notes],
  }
}

export function freezeSessionSection(gathered: GatheredContext, options: FreezeOptions): SessionSection {
  const instructions = resolveInstructions(gathered, options.instructionsBudgetChars)
  const memory = renderMemory(gathered)
  const skills: SkillsSection = options.skills
    ? renderSkills(gathered, options.contextWindowTokens)
    : { text: '', skills: [], descriptionCap: 0, notes: [] }
  return {
    origin: options.origin,
    instructions,
    memory,
    skills,
    notes: [...instructions.notes, ...memory.notes, ...skills.notes],
  }
}

export function projectStatics(gathered: GatheredContext): ProjectStatics {
  return { root: gathered.root, buildProfiles: detectBuildProfiles(gathered.build) }
}

export interface FrozenSession {
  readonly project: ProjectStatics
  readonly session: SessionSection
  readonly context: FrozenSessionContext
}

/**
 * How a file the session block sends differs between two freezes. `changed`: the file itself — added, removed, or its
 * text on disk. `cut_shorter` / `cut_longer`: its text on disk is the same, but the instructions budget cuts it
 * elsewhere, because another file in the budget grew or shrank (budget.ts): what is sent of it changed, not the file.
 */
export interface SessionFileChange {
  readonly path: string
  readonly kind: 'changed' | 'cut_shorter' | 'cut_longer'
}

/**
 * The files whose text differs between two freezes of the session block (changed, added or removed), by the path the
 * block shows, but for `applied`, each with how it differs: what reading the block again from disk sends besides the
 * files the user meant to apply.
 */
export function sessionFileChanges(before: SessionSection, after: SessionSection, applied: ReadonlyArray<string> = []): SessionFileChange[] {
  const was = sentByPath(before)
  const now = sentByPath(after)
  const changes: SessionFileChange[] = []
  for (const path of new Set([...was.keys(), ...now.keys()])) {
    const sentBefore = was.get(path) ?? []
    const sentAfter = now.get(path) ?? []
    if (applied.includes(path) || JSON.stringify(sentBefore) === JSON.stringify(sentAfter)) continue
    const length = (texts: ReadonlyArray<string>) => texts.reduce((n, t) => n + t.length, 0)
    const cutMoved = sameFileText(before, after, path) && (cutByBudget(before, path) || cutByBudget(after, path))
    changes.push({ path, kind: !cutMoved ? 'changed' : length(sentAfter) < length(sentBefore) ? 'cut_shorter' : 'cut_longer' })
  }
  return changes
}

/**
 * When each of `paths` (as the session block shows them) last changed on disk, from `gathered`: the file an
 * instruction path names (a CLAUDE.md linked to AGENTS.md shows AGENTS.md's text), else the file shown at that path.
 * A path whose time is not known is left out: the apply time is then all a cause can say of it.
 */
export function fileEditTimes(gathered: GatheredContext, paths: ReadonlyArray<string>): FileEditTime[] {
  const files = Object.values(gathered.files)
  return paths.flatMap((path) => {
    const fileId = gathered.instructions.find((i) => i.path === path)?.fileId
    const file = (fileId !== undefined ? gathered.files[fileId] : undefined) ?? files.find((f) => f.path === path)
    return file?.read.ok && file.read.modifiedMs !== undefined ? [{ path, at: file.read.modifiedMs }] : []
  })
}

/** The paths of `sessionFileChanges`, however each differs. */
export function changedSessionFiles(before: SessionSection, after: SessionSection, applied: ReadonlyArray<string> = []): string[] {
  return sessionFileChanges(before, after, applied).map((c) => c.path)
}

/**
 * The other files reading the block again sends, in words for the notice and the price ("AGENTS.md, changed on disk
 * since the session block was read, and CLAUDE.md, cut shorter by the instructions budget"): a file whose text on
 * disk is as it was is not said to have changed there, only that less (or more) of it is sent.
 */
export function sessionChangeWords(changes: ReadonlyArray<SessionFileChange>): string {
  const why: ReadonlyArray<[SessionFileChange['kind'], string]> = [
    ['changed', 'changed on disk since the session block was read'],
    ['cut_shorter', 'cut shorter by the instructions budget'],
    ['cut_longer', 'cut longer by the instructions budget'],
  ]
  return why
    .flatMap(([kind, words]) => {
      const paths = changes.filter((c) => c.kind === kind).map((c) => c.path)
      return paths.length === 0 ? [] : [`${paths.join(', ')}, ${words}`]
    })
    .join(', and ')
}

/** The text each file shows in the session block, by path (a file imported twice shows twice). */
function sentByPath(section: SessionSection): Map<string, string[]> {
  const out = new Map<string, string[]>()
  for (const block of [section.instructions, section.memory]) {
    for (const part of block.parts) out.set(part.path, [...(out.get(part.path) ?? []), block.text.slice(part.start, part.end)])
  }
  return out
}

/**
 * Whether `path` is the same instruction file in both freezes — the same text, brought in the same way, not a memory
 * file — so that what differs in what is sent of it is where the budget cuts it.
 */
function sameFileText(before: SessionSection, after: SessionSection, path: string): boolean {
  const entries = (section: SessionSection) =>
    section.instructions.entries.filter((e) => e.path === path).map((e) => [e.body, e.importedBy, e.duplicateOf, e.notRead ?? null])
  const was = entries(before)
  const inMemory = (section: SessionSection) => section.memory.parts.some((p) => p.path === path)
  return was.length > 0 && !inMemory(before) && !inMemory(after) && JSON.stringify(was) === JSON.stringify(entries(after))
}

/** Whether the instructions budget cuts `path` short (or leaves only its name) in this freeze. */
function cutByBudget(section: SessionSection, path: string): boolean {
  return section.instructions.parts.some((p) => p.path === path && (p.allocation === 'truncated' || p.allocation === 'omitted'))
}

/** Everything a new session freezes, from one gathering of the project. */
export function freezeSession(gathered: GatheredContext, options: Omit<FreezeOptions, 'origin'>): FrozenSession {
  return {
    project: projectStatics(gathered),
    session: freezeSessionSection(gathered, { ...options, origin: { kind: 'session_start' } }),
    context: freezeSessionContext(gathered.facts),
  }
}
