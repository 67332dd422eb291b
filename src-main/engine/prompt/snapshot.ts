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
  | { readonly kind: 'apply_now'; readonly entryId: string; readonly paths: ReadonlyArray<string> }

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
 * The files whose text differs between two freezes of the session block (changed, added or removed), by the path the
 * block shows, but for `applied`: what reading the block again from disk sends besides the files the user meant to
 * apply.
 */
export function changedSessionFiles(before: SessionSection, after: SessionSection, applied: ReadonlyArray<string> = []): string[] {
  const textsByPath = (section: SessionSection): Map<string, string[]> => {
    const out = new Map<string, string[]>()
    for (const block of [section.instructions, section.memory]) {
      for (const part of block.parts) out.set(part.path, [...(out.get(part.path) ?? []), block.text.slice(part.start, part.end)])
    }
    return out
  }
  const was = textsByPath(before)
  const now = textsByPath(after)
  return [...new Set([...was.keys(), ...now.keys()])].filter((path) => !applied.includes(path) && JSON.stringify(was.get(path) ?? []) !== JSON.stringify(now.get(path) ?? []))
}

/** Everything a new session freezes, from one gathering of the project. */
export function freezeSession(gathered: GatheredContext, options: Omit<FreezeOptions, 'origin'>): FrozenSession {
  return {
    project: projectStatics(gathered),
    session: freezeSessionSection(gathered, { ...options, origin: { kind: 'session_start' } }),
    context: freezeSessionContext(gathered.facts),
  }
}
