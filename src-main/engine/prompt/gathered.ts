/**
 * What the file-reading side (src-main/node/instructions/) hands to the pure prompt engine: plain values read from
 * disk once, with every refusal already decided and written down. The engine never reads a file; it only resolves,
 * orders, budgets and renders these values.
 */

/** Why a file was not read. Each one is also written down as a `GatherNote`. */
export type SkipReason =
  /** Its real path (all symlinks resolved) leaves the project root and ~/.loupe (docs/context-engine.md, "Safety"). */
  | 'outside_allowed_roots'
  /** A NUL byte in the first 8 KiB: not text. */
  | 'binary'
  /** Larger than MAX_INSTRUCTION_FILE_BYTES. */
  | 'too_large'
  /** A directory, socket or other non-regular file where a file was expected. */
  | 'not_a_file'
  /** Any other I/O failure (permissions, a broken link, a race with a delete). */
  | 'unreadable'

/** Instruction, rule, memory, skill and imported files larger than this are never read (shared with the renderer). */
export { MAX_INSTRUCTION_FILE_BYTES } from '../../../src-preload/limits'

export type FileRead =
  | {
      readonly ok: true
      /** UTF-8 text with a leading byte-order mark removed. */
      readonly text: string
      readonly bytes: number
      /** True when invalid UTF-8 sequences were replaced with U+FFFD (a note says so). */
      readonly replacedInvalidUtf8: boolean
      /**
       * When the file last changed on disk (its mtime), when known: an apply-now records it as the file's edit time.
       * A draft not saved yet has none.
       */
      readonly modifiedMs?: number
    }
  | { readonly ok: false; readonly reason: SkipReason; readonly detail: string }

/** One `@path` reference found in a file, and what the reading side made of it. */
export type ImportLink =
  /** A regular file inside the allowed roots: `targetId` keys `GatheredContext.files`. */
  | { readonly ref: string; readonly status: 'file'; readonly targetId: string }
  /** Nothing readable by that name (often an `@scope/pkg` string): the text is left alone, no note. */
  | { readonly ref: string; readonly status: 'not_a_file' }
  /** Refused for safety or unreadable; `path` is what the reference resolved to, for display. */
  | { readonly ref: string; readonly status: 'skipped'; readonly path: string; readonly reason: SkipReason }
  /** Past the import depth limit: not read at all. */
  | { readonly ref: string; readonly status: 'depth_limit'; readonly path: string }

export interface GatheredFile {
  /** The real path (absolute, symlinks resolved) when it could be resolved, else the absolute path asked for. */
  readonly id: string
  /** The path shown to the model and the user: relative to the root, or `~/…` for files in the home folder. */
  readonly path: string
  readonly read: FileRead
  readonly imports: ReadonlyArray<ImportLink>
}

/**
 * Where an instruction file sits in the precedence order. Prompt order is global → project → rule → local (most
 * general first); the character budget is spent in the opposite order (most specific first).
 */
export type InstructionTier = 'global' | 'project' | 'rule' | 'local'

export interface GatheredInstruction {
  readonly tier: InstructionTier
  readonly fileId: string
  /** The path it was found at (CLAUDE.md), which may differ from its file's path when a link leads to a file
   * already read (AGENTS.md). */
  readonly path: string
}

export interface GatheredSkill {
  /** The skill's folder name under .loupe/skills/. */
  readonly dirName: string
  readonly fileId: string
}

export interface RootEntry {
  readonly name: string
  readonly isDirectory: boolean
}

export interface GitFacts {
  /** The branch name, or null when HEAD is detached. */
  readonly branch: string | null
  /** The commit HEAD points at (full hex), or null for a branch with no commit yet. */
  readonly head: string | null
}

/** Facts for the frozen session context. Taken once when the session starts. */
export interface SessionFacts {
  readonly projectName: string
  readonly root: string
  /** One level of the root, sorted by name, at most `LISTING_CAP` entries (session-context.ts). */
  readonly listing: ReadonlyArray<RootEntry>
  /** How many entries the root had in all (more than `listing.length` when the listing was capped). */
  readonly listingTotal: number
  readonly git: GitFacts | null
  /** The local date when the session started, `YYYY-MM-DD`. Never the time. */
  readonly date: string
}

/** What the build-and-test notes are detected from (static-sections.ts). */
export interface BuildFacts {
  /** Names of the regular files at the root. */
  readonly rootFiles: ReadonlyArray<string>
  /** From package.json when there is one that parses. */
  readonly packageJson: { readonly testScript: string | null; readonly packageManager: string | null } | null
}

export type GatherNoteReason =
  | SkipReason
  | 'invalid_utf8_replaced'
  | 'import_depth_limit'
  | 'symlinked_folder_not_followed'
  | 'too_many_files'
  | 'root_unreadable'

/** Something the reading side skipped or changed, for the inspector. Nothing is skipped silently. */
export interface GatherNote {
  readonly path: string
  readonly reason: GatherNoteReason
  readonly message: string
}

export interface GatheredContext {
  /** The real path of the project root. */
  readonly root: string
  /** Instruction files in prompt order within each tier (missing files are simply absent). */
  readonly instructions: ReadonlyArray<GatheredInstruction>
  /** Every file read or refused, instruction files and their imports alike, by id. */
  readonly files: Readonly<Record<string, GatheredFile>>
  readonly memory: { readonly project: string | null; readonly user: string | null }
  readonly skills: ReadonlyArray<GatheredSkill>
  readonly facts: SessionFacts
  readonly build: BuildFacts
  readonly notes: ReadonlyArray<GatherNote>
}

/**
 * A project with nothing gathered: no instruction, memory or skill files, an empty listing. What the prompt builder
 * gets when the root cannot be read, or when the project is known only by its name and day (a replayed transcript).
 */
export function emptyGatheredContext(root: string, facts: { readonly projectName: string; readonly date: string }, notes: ReadonlyArray<GatherNote> = []): GatheredContext {
  return {
    root,
    instructions: [],
    files: {},
    memory: { project: null, user: null },
    skills: [],
    facts: { projectName: facts.projectName, root, listing: [], listingTotal: 0, git: null, date: facts.date },
    build: { rootFiles: [], packageJson: null },
    notes,
  }
}
