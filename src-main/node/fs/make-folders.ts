/**
 * Creates a folder and the folders above it that are missing, like `mkdir -p`, one level at a time.
 *
 * Not `mkdir(path, { recursive: true })`: on Node 20 that never returns where a level cannot be created and the
 * parent exists but refuses it as missing (anywhere under /proc, e.g. `/proc/nonexistent/x` answers ENOENT for ever),
 * and it would hold the event loop (sync) or a thread-pool thread (async) for good. Here each level is made once,
 * and the first that fails throws its own error.
 */
import { mkdirSync, statSync } from 'node:fs'
import { mkdir, stat } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'

/** The folder and those above it, the top one first, down to `path`. */
function levels(path: string): string[] {
  const chain: string[] = []
  for (let at = resolve(path); ; at = dirname(at)) {
    chain.unshift(at)
    if (dirname(at) === at) return chain
  }
}

function isFolderError(path: string): NodeJS.ErrnoException {
  const err: NodeJS.ErrnoException = new Error(`ENOTDIR: not a directory, mkdir '${path}'`)
  err.code = 'ENOTDIR'
  err.path = path
  return err
}

export function makeFoldersSync(path: string): void {
  // The usual case, the folder is there already: one call.
  if (statSync(path, { throwIfNoEntry: false })?.isDirectory()) return
  for (const level of levels(path)) {
    try {
      mkdirSync(level)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      if (!statSync(level).isDirectory()) throw isFolderError(level)
    }
  }
}

export async function makeFolders(path: string): Promise<void> {
  if (await stat(path).then((s) => s.isDirectory(), () => false)) return
  for (const level of levels(path)) {
    try {
      await mkdir(level)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      if (!(await stat(level)).isDirectory()) throw isFolderError(level)
    }
  }
}
