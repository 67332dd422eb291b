/**
 * One writer at a time per file, within this process: what reads a file, changes its text and writes it back (the
 * Files view's save, the `remember` tool, the file memory extension, the settings store) holds the file's lock from
 * the read to the rename, so two of them at once (two windows, two sessions) run one after the other and the second
 * reads what the first wrote, instead of both reading the same text and the last rename erasing the other's change.
 *
 * The lock is keyed by the file's real path (every symbolic link resolved; for a file not made yet, its nearest
 * existing folder's real path and the rest of the name), so a link and its target share one lock. It orders writers
 * of this process only: another program writing the file is not held back (callers that must notice one compare the
 * disk again just before the rename, as the Files view's save does).
 *
 * A lock is taken in the order `withLock` is called (the queue is joined before anything is awaited), and a holder
 * that throws still lets the next one in.
 */
import { realpath } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'

/** The last holder queued for each key, done when it lets go; removed once nobody is waiting. */
const tails = new Map<string, Promise<void>>()

/**
 * The key a file's lock goes by: its real path, or, for a path that does not exist (yet), the real path of its nearest
 * existing folder joined with the names below it. A dangling link or a path that cannot be resolved for another reason
 * keys by the resolved folder and its own name, which is where a write to it would land.
 */
export async function lockKey(absPath: string): Promise<string> {
  let rest: string[] = []
  let at = absPath
  for (;;) {
    try {
      return join(await realpath(at), ...rest)
    } catch {
      const up = dirname(at)
      if (up === at) return absPath
      rest = [basename(at), ...rest]
      at = up
    }
  }
}

/** Runs `work` once every holder of `key` queued before it has finished, and holds the key until `work` settles. */
export function withLock<T>(key: string, work: () => Promise<T>): Promise<T> {
  const before = tails.get(key) ?? Promise.resolve()
  let release!: () => void
  const mine = new Promise<void>((resolve) => (release = resolve))
  tails.set(key, mine)
  return before.then(work).finally(() => {
    release()
    if (tails.get(key) === mine) tails.delete(key)
  })
}

/** `withLock` on the file at `absPath`, keyed by its real path (lockKey). */
export async function withFileLock<T>(absPath: string, work: () => Promise<T>): Promise<T> {
  return withLock(await lockKey(absPath), work)
}

/** How many keys are held or waited on: for tests, which check that a finished lock leaves nothing behind. */
export function heldLocks(): number {
  return tails.size
}
