/**
 * gatherProjectContext: reads everything the prompt engine needs from disk, once, and hands it over as plain values
 * (engine/prompt/gathered.ts). Never throws: whatever is skipped comes back as a note.
 *
 * Where each file may live (docs/context-engine.md "Project instructions", its Safety paragraph): project files and
 * their imports inside the real project root; Loupe's global files and user memory inside ~/.loupe;
 * `~/.claude/CLAUDE.md` inside ~/.claude, only when a caller asks for it (`includeClaudeUserFile`; no setting offers
 * it yet, so today it is not read). A project file cannot import from the home folder, so a repository cannot pull a
 * credentials file into the prompt.
 */
import { basename, join } from 'node:path'
import { realpath } from 'node:fs/promises'
import { emptyGatheredContext, type GatheredContext, type GatheredInstruction, type GatheredSkill, type GatherNote, type InstructionTier } from '../../engine/prompt/gathered'
import { LISTING_CAP } from '../../engine/prompt/session-context'
import type { FileAccess } from './safe-read'
import { nodeFileAccess } from './safe-read'
import { FileTable, displayPathFor } from './file-table'
import { listRoot, localDate, readGitFacts, rootFileNames } from './facts'
import { findRuleFiles, findSkillFiles } from './walk'

export interface GatherOptions {
  readonly homeDir: string
  /** Loupe's own folder, normally `~/.loupe`. */
  readonly loupeHome: string
  /** Also read `~/.claude/CLAUDE.md`. Off; no caller turns it on yet. */
  readonly includeClaudeUserFile?: boolean
  /** Epoch milliseconds when the session starts; only its local date is kept. */
  readonly now: number
  /** For tests: the file-system calls of the safe-read door. */
  readonly io?: FileAccess
}

/** Project instruction files, in prompt order (docs/context-engine.md "Project instructions"). */
export const PROJECT_FILES: ReadonlyArray<string> = ['LOUPE.md', 'AGENTS.md', 'CLAUDE.md', '.claude/CLAUDE.md']
export const LOCAL_FILES: ReadonlyArray<string> = ['CLAUDE.local.md']

async function realOrNull(path: string): Promise<string | null> {
  try {
    return await realpath(path)
  } catch {
    return null
  }
}

export async function gatherProjectContext(root: string, options: GatherOptions): Promise<GatheredContext> {
  try {
    return await gather(root, options)
  } catch (err) {
    // Every step below is written not to throw; this is the last line of defence for the promise.
    const message = err instanceof Error ? err.message : String(err)
    return emptyGatheredContext(root, { projectName: basename(root), date: localDate(options.now) }, [{ path: root, reason: 'unreadable', message: `gathering failed: ${message}` }])
  }
}

async function gather(rootArg: string, options: GatherOptions): Promise<GatheredContext> {
  const root = await realOrNull(rootArg)
  if (root === null) {
    return emptyGatheredContext(rootArg, { projectName: basename(rootArg), date: localDate(options.now) }, [{ path: rootArg, reason: 'root_unreadable', message: `${rootArg} could not be opened` }])
  }
  const loupeHome = (await realOrNull(options.loupeHome)) ?? options.loupeHome
  const claudeHome = join(options.homeDir, '.claude')
  const claudeHomeReal = (await realOrNull(claudeHome)) ?? claudeHome
  const table = new FileTable({ root, homeDir: options.homeDir }, options.io ?? nodeFileAccess)
  const projectRoots = [root]
  const instructions: GatheredInstruction[] = []
  const extraNotes: GatherNote[] = []

  const add = async (tier: InstructionTier, absPath: string, allowed: ReadonlyArray<string>): Promise<void> => {
    const id = await table.readTop(absPath, allowed)
    if (id !== null) instructions.push({ tier, fileId: id, path: displayPathFor(absPath, { root, homeDir: options.homeDir }) })
  }

  const rules = await findRuleFiles(join(root, '.claude', 'rules'), '.claude/rules')
  const skillDir = await findSkillFiles(join(root, '.loupe', 'skills'), '.loupe/skills')
  await Promise.all([
    table.prefetch([join(options.loupeHome, 'AGENTS.md'), join(options.loupeHome, 'memory.md')], [loupeHome]),
    table.prefetch(
      [...PROJECT_FILES, ...LOCAL_FILES, '.loupe/memory.md'].map((name) => join(root, name)).concat(rules.paths, skillDir.paths),
      projectRoots,
    ),
  ])

  await add('global', join(options.loupeHome, 'AGENTS.md'), [loupeHome])
  if (options.includeClaudeUserFile === true) await add('global', join(claudeHome, 'CLAUDE.md'), [claudeHomeReal])
  for (const name of PROJECT_FILES) await add('project', join(root, name), projectRoots)
  extraNotes.push(...rules.notes)
  for (const path of rules.paths) await add('rule', path, projectRoots)
  for (const name of LOCAL_FILES) await add('local', join(root, name), projectRoots)

  const projectMemory = await table.readPlain(join(root, '.loupe', 'memory.md'), projectRoots)
  const userMemory = await table.readPlain(join(options.loupeHome, 'memory.md'), [loupeHome])

  extraNotes.push(...skillDir.notes)
  const skills: GatheredSkill[] = []
  for (let i = 0; i < skillDir.paths.length; i++) {
    const id = await table.readPlain(skillDir.paths[i]!, projectRoots)
    if (id !== null) skills.push({ dirName: skillDir.names[i]!, fileId: id })
  }

  const [listing, git, rootFiles] = await Promise.all([listRoot(root, LISTING_CAP), readGitFacts(root), rootFileNames(root)])
  // package.json goes through the same door, in a table of its own: it is a build fact, not an instruction file.
  const packageTable = new FileTable({ root, homeDir: options.homeDir }, options.io ?? nodeFileAccess)
  const packageJson = rootFiles.includes('package.json') ? await readPackageJson(packageTable, root) : null

  return {
    root,
    instructions,
    files: table.files(),
    memory: { project: projectMemory, user: userMemory },
    skills,
    facts: {
      projectName: basename(root),
      root,
      listing: listing.entries,
      listingTotal: listing.total,
      git,
      date: localDate(options.now),
    },
    build: { rootFiles, packageJson },
    notes: [...table.notes, ...extraNotes],
  }
}

async function readPackageJson(table: FileTable, root: string): Promise<GatheredContext['build']['packageJson']> {
  const id = await table.readPlain(join(root, 'package.json'), [root])
  const file = id === null ? undefined : table.get(id)
  if (file === undefined || !file.read.ok) return null
  try {
    const parsed: unknown = JSON.parse(file.read.text)
    if (typeof parsed !== 'object' || parsed === null) return null
    const record = parsed as { scripts?: { test?: unknown }; packageManager?: unknown }
    return {
      testScript: typeof record.scripts?.test === 'string' ? record.scripts.test : null,
      packageManager: typeof record.packageManager === 'string' ? record.packageManager : null,
    }
  } catch {
    return null
  }
}
