/**
 * "Which nested instruction files and `paths:` rules apply to this file?" — asked by the loop each time the agent
 * reads or edits a file (docs/context-engine.md "After-the-breakpoint context"). Nested AGENTS.md / CLAUDE.md /
 * LOUPE.md files are looked up lazily, folder by folder between the file and the root, through the safe-read door;
 * each is delivered at most once per session. The pure choice of what to deliver is
 * engine/prompt/after-breakpoint.ts.
 */
import { isAbsolute, join, relative, resolve, sep } from 'node:path'
import type { GatheredContext, GatheredFile, GatherNote } from '../../engine/prompt/gathered'
import type { InstructionEntry, PathRule } from '../../engine/prompt/instructions'
import type { NestedInstructionFile, RelevantContext } from '../../engine/prompt/after-breakpoint'
import { governingDirs, selectRelevantContext } from '../../engine/prompt/after-breakpoint'
import type { FileAccess } from './safe-read'
import { nodeFileAccess } from './safe-read'
import { FileTable } from './file-table'
import { PROJECT_FILES } from './gather'

/** In a subfolder, only these names govern it (`.claude/CLAUDE.md` and rules live at the root only). */
const NESTED_FILE_NAMES = PROJECT_FILES.filter((name) => !name.includes('/'))

export interface NestedContextOptions {
  readonly homeDir: string
  /** Delivery keys recorded earlier in this session (after a restart, from the session's note entries). */
  readonly delivered?: Iterable<string>
  readonly io?: FileAccess
}

/** The frozen session block's part this reader compares against (SessionSection.instructions fits). */
export interface FrozenInstructions {
  readonly entries: ReadonlyArray<InstructionEntry>
  readonly pathRules: ReadonlyArray<PathRule>
}

/** What one read or edit brings in, plus what the reading side skipped on the way (a nested link out of the root…). */
export interface NestedContext extends RelevantContext {
  readonly gatherNotes: ReadonlyArray<GatherNote>
}

export interface NestedContextReader {
  /**
   * Notes for the instruction files and rules that apply to `filePath` (absolute, or relative to the root) and were
   * not delivered yet this session; they are marked delivered. Never throws; a file outside the root gets none.
   */
  forFile(filePath: string): Promise<NestedContext>
  /** Every key delivered so far, for the loop to persist with its note entries. */
  delivered(): ReadonlyArray<string>
}

export function createNestedContextReader(
  gathered: GatheredContext,
  frozen: FrozenInstructions,
  options: NestedContextOptions,
): NestedContextReader {
  const root = gathered.root
  const table = new FileTable({ root, homeDir: options.homeDir }, options.io ?? nodeFileAccess)
  const dirFiles = new Map<string, ReadonlyArray<string>>()
  const delivered = new Set<string>(options.delivered ?? [])
  // Calls are chained so two parallel tool results cannot both deliver the same file.
  let queue: Promise<unknown> = Promise.resolve()

  const filesIn = async (dir: string): Promise<ReadonlyArray<string>> => {
    const cached = dirFiles.get(dir)
    if (cached !== undefined) return cached
    const ids: string[] = []
    for (const name of NESTED_FILE_NAMES) {
      const id = await table.readTop(join(root, dir, name), [root])
      if (id !== null && !ids.includes(id)) ids.push(id)
    }
    dirFiles.set(dir, ids)
    return ids
  }

  let notesSeen = 0
  const none: NestedContext = { notes: [], keys: [], resolveNotes: [], gatherNotes: [] }

  const run = async (filePath: string): Promise<NestedContext> => {
    const abs = isAbsolute(filePath) ? filePath : resolve(root, filePath)
    const rel = relative(root, abs)
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return none
    const relPath = rel.split(sep).join('/')
    const nested: NestedInstructionFile[] = []
    for (const dir of governingDirs(relPath)) {
      for (const fileId of await filesIn(dir)) nested.push({ dir, fileId })
    }
    const files: Record<string, GatheredFile> = { ...gathered.files, ...table.files() }
    const result = selectRelevantContext({
      relPath,
      pathRules: frozen.pathRules,
      nested,
      files,
      delivered,
      system: frozen.entries,
    })
    for (const key of result.keys) delivered.add(key)
    const gatherNotes = table.notes.slice(notesSeen)
    notesSeen = table.notes.length
    return { ...result, gatherNotes }
  }

  return {
    forFile(filePath) {
      const next = queue.then(
        () => run(filePath),
        () => run(filePath),
      )
      queue = next.catch(() => undefined)
      return next.catch(() => none)
    },
    delivered: () => [...delivered],
  }
}
