/**
 * Named pipes for tests. A read that does not check the file type blocks on a FIFO forever; `releaseFifo` opens the
 * write end and closes it, which wakes a blocked reader with end-of-file, so a test of unfixed code fails on its
 * deadline instead of hanging the worker.
 */
import { execFileSync } from 'node:child_process'
import { closeSync, constants, mkdirSync, openSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach } from 'vitest'
import { makeFixture, Session, type Fixture } from './fixture'

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

/**
 * A tool session on a fresh fixture for each test (`rig.fx`, `rig.session`, set before each), and FIFOs made in it
 * that are released after the test, so a blocked reader of unfixed code wakes up rather than holding the worker.
 * Call at a test file's top level.
 */
export function fixtureWithFifos(files: Record<string, string> = { 'src/app.ts': 'export const a = 1\n' }): { fx: Fixture; session: Session; fifoAt(path: string): string } {
  const fifos: string[] = []
  const rig = {
    fx: null as unknown as Fixture,
    session: null as unknown as Session,
    fifoAt(path: string): string {
      mkdirSync(join(path, '..'), { recursive: true })
      mkfifo(path)
      fifos.push(path)
      return path
    },
  }
  beforeEach(() => {
    rig.fx = makeFixture(files)
    rig.session = new Session(rig.fx)
  })
  afterEach(async () => {
    for (const fifo of fifos.splice(0)) releaseFifo(fifo)
    await rig.session.executor.dispose()
    rig.fx.cleanup()
  })
  return rig
}
