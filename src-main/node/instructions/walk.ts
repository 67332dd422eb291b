/**
 * Finding rule and skill files: `.claude/rules/**\/*.md` and `.loupe/skills/<name>/SKILL.md`. Symlinked folders are
 * not followed (a link can loop or lead anywhere); symlinked files are, through the safe-read door. A FIFO, socket or
 * device named `*.md` is left out with a note. Bounded in depth and count, sorted by path, never throws.
 */
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { GatherNote } from '../../engine/prompt/gathered'
import { skipWords } from '../../engine/prompt/instructions'

/** More rule files than this is not a rule set but a mistake; the rest are left out with a note. */
export const MAX_RULE_FILES = 500
export const MAX_RULE_DEPTH = 8
export const MAX_SKILLS = 100

export interface Found {
  /** Absolute paths, sorted by their path relative to the folder walked. */
  readonly paths: ReadonlyArray<string>
  readonly notes: ReadonlyArray<GatherNote>
}

function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/** Every `*.md` under `dir` (absolute), relative display paths built from `displayDir`. */
export async function findRuleFiles(dir: string, displayDir: string): Promise<Found> {
  const found: Array<{ rel: string; abs: string }> = []
  const notes: GatherNote[] = []
  let capped = false
  const walk = async (abs: string, rel: string, depth: number): Promise<void> => {
    if (depth > MAX_RULE_DEPTH || capped) return
    let dirents
    try {
      dirents = await readdir(abs, { withFileTypes: true })
    } catch {
      return
    }
    dirents.sort((a, b) => byCodeUnits(a.name, b.name))
    for (const d of dirents) {
      const childAbs = join(abs, d.name)
      const childRel = rel === '' ? d.name : `${rel}/${d.name}`
      if (d.isDirectory()) {
        await walk(childAbs, childRel, depth + 1)
      } else if (d.name.endsWith('.md') && (d.isFile() || d.isSymbolicLink())) {
        if (found.length >= MAX_RULE_FILES) {
          capped = true
          notes.push({ path: displayDir, reason: 'too_many_files', message: `${displayDir} has more than ${MAX_RULE_FILES} rule files; the rest were not read` })
          return
        }
        found.push({ rel: childRel, abs: childAbs })
      } else if (d.isSymbolicLink()) {
        notes.push({ path: `${displayDir}/${childRel}`, reason: 'symlinked_folder_not_followed', message: `${displayDir}/${childRel} is a symlink and was not followed` })
      } else if (d.name.endsWith('.md')) {
        // A FIFO, socket or device named like a rule: never opened (a FIFO would block the read), but said.
        notes.push({ path: `${displayDir}/${childRel}`, reason: 'not_a_file', message: `${displayDir}/${childRel} was not read: ${skipWords('not_a_file')}` })
      }
    }
  }
  await walk(dir, '', 0)
  found.sort((a, b) => byCodeUnits(a.rel, b.rel))
  return { paths: found.map((f) => f.abs), notes }
}

/** `<dir>/<name>/SKILL.md` for each skill folder, sorted by folder name. */
export async function findSkillFiles(dir: string, displayDir: string): Promise<Found & { readonly names: ReadonlyArray<string> }> {
  let dirents
  try {
    dirents = await readdir(dir, { withFileTypes: true })
  } catch {
    return { paths: [], names: [], notes: [] }
  }
  const notes: GatherNote[] = []
  // A symlinked skill folder is allowed: the SKILL.md inside still goes through the safe-read door.
  const names = dirents.filter((d) => d.isDirectory() || d.isSymbolicLink()).map((d) => d.name).sort(byCodeUnits)
  if (names.length > MAX_SKILLS) {
    notes.push({ path: displayDir, reason: 'too_many_files', message: `${displayDir} has ${names.length} skills; only the first ${MAX_SKILLS} were read` })
  }
  const kept = names.slice(0, MAX_SKILLS)
  return { paths: kept.map((n) => join(dir, n, 'SKILL.md')), names: kept, notes }
}
