/**
 * One app per data folder. Two hosts on one store would each run their own session runtimes: a turn sent to both
 * would interleave two conversations in one session for good, and each would keep its own idea of what is running
 * and what waits for an approval. SQLite keeps the file consistent, not the sessions, so the folder is locked.
 *
 * The lock is a file, `loupe.lock`, created exclusively and holding the owner's process id. A lock whose process is
 * gone (the app was killed) is taken over; one whose process is alive refuses the start with a message that names it.
 */
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { makeFoldersSync } from '../fs/make-folders'

export const LOCK_FILE = 'loupe.lock'

export class DataDirInUseError extends Error {}

export interface DataDirLock {
  /** Removes the lock file if it is still this process's. */
  release(): void
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    // EPERM: the process exists but belongs to another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function ownerOf(path: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(path, 'utf8').trim(), 10)
    return Number.isSafeInteger(pid) && pid > 0 ? pid : null
  } catch {
    return null
  }
}

export function lockDataDir(dataDir: string, pid: number = process.pid): DataDirLock {
  makeFoldersSync(dataDir)
  const path = join(dataDir, LOCK_FILE)
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600)
      writeSync(fd, `${pid}\n`)
      closeSync(fd)
      return {
        release() {
          if (ownerOf(path) === pid) rmSync(path, { force: true })
        },
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      const owner = ownerOf(path)
      if (owner !== null && owner !== pid && alive(owner)) {
        throw new DataDirInUseError(`${dataDir} is in use by another Loupe (process ${owner}). Close it, or choose another data folder (LOUPE_HOME); if no Loupe is running, delete ${path}.`)
      }
      // Left by a process that is gone (or by this one, or unreadable): taken over.
      rmSync(path, { force: true })
    }
  }
  throw new DataDirInUseError(`${path} could not be taken: another Loupe is starting on ${dataDir} at the same time`)
}
