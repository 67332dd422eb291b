/**
 * The project's instruction and memory files as the prompt builder would read them if a draft were saved: the same
 * gathering the session runtime does (gatherProjectContext, through the same safe-read door), with the one file
 * the draft is for answering with the draft's text. Nothing is written. Imports the draft adds or drops are
 * followed, because the draft is read like any file.
 */
import type { GatheredContext } from '../../engine/prompt/gathered'
import { gatherProjectContext, nodeFileAccess, type FileAccess } from '../instructions'
import { confine, type FileRoots } from './paths'

export interface DraftOptions extends FileRoots {
  readonly now: number
}

/**
 * The file access of the safe-read door with one file replaced by `text`. `realPath` is where the save would write
 * (the file a link inside the project names); a file that does not exist yet exists here.
 */
export function draftFileAccess(base: FileAccess, target: { readonly absPath: string; readonly realPath: string }, text: string): FileAccess {
  const bytes = new TextEncoder().encode(text)
  const isTarget = (p: string) => p === target.realPath || p === target.absPath
  return {
    async realpath(p) {
      try {
        return await base.realpath(p)
      } catch (err) {
        // Not on disk yet: it would be created there (confine resolved its nearest existing folder).
        if (!isTarget(p)) throw err
        return target.realPath
      }
    },
    async lstat(p) {
      try {
        return await base.lstat(p)
      } catch (err) {
        if (isTarget(p)) return { isSymbolicLink: () => false }
        throw err
      }
    },
    async stat(p) {
      if (p === target.realPath) return { isFile: () => true, size: bytes.length }
      return base.stat(p)
    },
    async readHead(p, maxBytes) {
      if (p === target.realPath) return bytes.subarray(0, maxBytes)
      return base.readHead(p, maxBytes)
    },
  }
}

/**
 * Gathers the project as the session would after the draft of `path` (a display path, as the Files view names it)
 * were saved. A path that leaves the project and ~/.loupe is not substituted: the gathering is then what is on disk.
 */
export async function gatherWithDraft(path: string, text: string, options: DraftOptions): Promise<GatheredContext> {
  const roots: FileRoots = { root: options.root, loupeHome: options.loupeHome, homeDir: options.homeDir }
  const confined = await confine(path, roots)
  const io = confined.ok ? draftFileAccess(nodeFileAccess, confined, text) : nodeFileAccess
  return gatherProjectContext(options.root, { homeDir: options.homeDir, loupeHome: options.loupeHome, now: options.now, io })
}
