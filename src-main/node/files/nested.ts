/**
 * The nested instruction files the Files view lists: the `LOUPE.md` / `AGENTS.md` / `CLAUDE.md` of a folder below the
 * root, which the loop sends after the breakpoints the first time the agent reads or edits a file under that folder
 * (node/instructions/nested.ts, docs/context-engine.md "After-the-breakpoint context"). The loop looks them up
 * lazily, folder by folder from a file to the root; the listing has no file to start from, so it walks the project's
 * folders instead, bounded, and reads each candidate through the same safe-read door with the same limits (the root
 * as the only allowed folder, 1 MB, binary, links out of the root refused). Never throws.
 *
 * The walk (docs/decisions/0025-nested-instructions-in-the-files-view.md): symlinked folders are not followed (a link
 * can loop or lead out of the root; the loop's reader would refuse what it finds there anyway), version-control
 * folders and `node_modules` are not entered, at most MAX_NESTED_DEPTH levels and MAX_NESTED_FOLDERS folders are
 * looked at; past that a note says the list may be incomplete.
 */
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { GatheredFile, GatherNote } from '../../engine/prompt/gathered'
import { FileTable } from '../instructions/file-table'
import { PROJECT_FILES, nodeFileAccess, type FileAccess } from '../instructions'

/** In a subfolder only these names govern it (`.claude/CLAUDE.md` lives at the root only), as in the loop's reader. */
export const NESTED_FILE_NAMES: ReadonlyArray<string> = PROJECT_FILES.filter((name) => !name.includes('/'))
export const MAX_NESTED_DEPTH = 12
export const MAX_NESTED_FOLDERS = 5000
/** Never entered: their files are not the project's instructions, and node_modules alone can hold 100,000 folders. */
const NOT_ENTERED = new Set(['.git', '.hg', '.svn', 'node_modules'])

export interface NestedFound {
  /** The folder (root-relative, `/`-separated) and the file's id in `files`, in folder order then name order. */
  readonly found: ReadonlyArray<{ readonly dir: string; readonly fileId: string }>
  /** Every file read (the nested ones and their imports), by id. */
  readonly files: Readonly<Record<string, GatheredFile>>
  readonly notes: ReadonlyArray<GatherNote>
}

function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/** The session block's own files at the root, some of them in a folder. */
const ROOT_FILES = new Set(PROJECT_FILES)

/** Lower-case file name → the name the loop's reader asks for (a case-insensitive disk finds either). */
const CANDIDATES = new Map(NESTED_FILE_NAMES.map((name) => [name.toLowerCase(), name]))

/** Whether a file name is one of the nested instruction files' names, in any case. */
export const isNestedFileName = (name: string): boolean => CANDIDATES.has(name.toLowerCase())

/**
 * The folders below `root` (not the root itself), sorted by path, bounded as above, each with the nested file names
 * its listing holds: read from the same `readdir` the walk does, so a folder without one costs no further call.
 */
export async function nestedFolders(root: string): Promise<{ dirs: Array<{ dir: string; names: string[] }>; capped: boolean }> {
  const dirs: Array<{ dir: string; names: string[] }> = []
  let counted = 0
  let capped = false
  let level: string[] = ['']
  for (let depth = 0; level.length > 0; depth++) {
    const next: string[] = []
    for (const rel of level) {
      let dirents
      try {
        dirents = await readdir(join(root, rel), { withFileTypes: true })
      } catch {
        continue
      }
      // A file or a link to one (the reader decides what a link may reach); names in the reader's order.
      const present = new Set(dirents.filter((d) => !d.isDirectory()).map((d) => CANDIDATES.get(d.name.toLowerCase())))
      // A root file of the session block that sits in a folder (`.claude/CLAUDE.md`) is the block's, not that folder's.
      if (rel !== '') dirs.push({ dir: rel, names: NESTED_FILE_NAMES.filter((name) => present.has(name) && !ROOT_FILES.has(`${rel}/${name}`)) })
      // isDirectory() is false for a symlink: a linked folder is not followed.
      for (const d of dirents) {
        if (!d.isDirectory() || NOT_ENTERED.has(d.name)) continue
        if (capped || depth === MAX_NESTED_DEPTH || counted >= MAX_NESTED_FOLDERS) {
          capped = true
          break
        }
        counted++
        next.push(rel === '' ? d.name : `${rel}/${d.name}`)
      }
    }
    level = next
  }
  return { dirs: dirs.sort((a, b) => byCodeUnits(a.dir, b.dir)), capped }
}

export async function findNestedInstructions(root: string, options: { readonly homeDir: string; readonly io?: FileAccess }): Promise<NestedFound> {
  try {
    const { dirs, capped } = await nestedFolders(root)
    const table = new FileTable({ root, homeDir: options.homeDir }, options.io ?? nodeFileAccess)
    const found: Array<{ dir: string; fileId: string }> = []
    for (const { dir, names } of dirs) {
      const ids: string[] = []
      for (const name of names) {
        const id = await table.readTop(join(root, dir, name), [root])
        if (id !== null && !ids.includes(id)) ids.push(id)
      }
      for (const fileId of ids) found.push({ dir, fileId })
    }
    const notes: GatherNote[] = [...table.notes]
    if (capped) {
      notes.push({
        path: '.',
        reason: 'too_many_files',
        message: `The project has more than ${MAX_NESTED_FOLDERS.toLocaleString('en-US')} folders or is deeper than ${MAX_NESTED_DEPTH} levels: nested instruction files past that are not listed here, though the agent is still sent them when it reads a file under their folder`,
      })
    }
    return { found, files: table.files(), notes }
  } catch (err) {
    return { found: [], files: {}, notes: [{ path: '.', reason: 'unreadable', message: `nested instruction files could not be listed: ${err instanceof Error ? err.message : String(err)}` }] }
  }
}
