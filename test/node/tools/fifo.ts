/**
 * Named pipes for tests. A read that does not check the file type blocks on a FIFO forever; `releaseFifo` opens the
 * write end and closes it, which wakes a blocked reader with end-of-file, so a test of unfixed code fails on its
 * deadline instead of hanging the worker.
 */
import { execFileSync } from 'node:child_process'
import { closeSync, constants, openSync } from 'node:fs'

/** FIFOs exist where mkfifo does; Windows has none. */
export const FIFOS = process.platform !== 'win32'

export function mkfifo(path: string): void {
  execFileSync('mkfifo', [path])
}

export function releaseFifo(path: string): void {
  try {
    closeSync(openSync(path, constants.O_WRONLY | constants.O_NONBLOCK))
  } catch {
    // No reader waiting (ENXIO), or gone: nothing to release.
  }
}

/** `work`, or a rejection after `ms` saying it did not finish (it is blocked, not slow). */
export async function within<T>(ms: number, work: Promise<T>, what = 'the call'): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms (blocked)`)), ms)
  })
  try {
    return await Promise.race([work, deadline])
  } finally {
    clearTimeout(timer)
  }
}
