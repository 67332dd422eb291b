import { statSync } from 'node:fs'

/**
 * Whether a project's folder is gone from where it was opened: nothing there any more (deleted, renamed or moved on
 * disk), or a file in its place. A folder that is there but unreadable is not gone: opening it says why
 * (resolve-folder.ts), and the tools' own errors say it in a turn.
 */
export function folderGone(root: string): boolean {
  try {
    return !statSync(root).isDirectory()
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    return code === 'ENOENT' || code === 'ENOTDIR'
  }
}
