/**
 * A project root, a home folder with ~/.loupe, a data folder and a folder outside all of them holding a secret the
 * Files view must never read or write.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { FilesContext, FilesError } from '../../../src-main/node/files'

export const SECRET = 'TOP-SECRET-DO-NOT-READ'

export interface FilesSandbox extends FilesContext {
  readonly base: string
  readonly outside: string
  write(path: string, content: string | Uint8Array): void
  link(path: string, target: string): void
  cleanup(): void
}

export function filesSandbox(now = () => Date.UTC(2026, 10, 29, 12, 0)): FilesSandbox {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'loupe-files-')))
  const root = join(base, 'project')
  const homeDir = join(base, 'home')
  const loupeHome = join(homeDir, '.loupe')
  const dataDir = join(base, 'data')
  const outside = join(base, 'outside')
  for (const dir of [root, loupeHome, dataDir, outside]) mkdirSync(dir, { recursive: true })
  writeFileSync(join(outside, 'secret.md'), SECRET)
  const abs = (path: string) => (path.startsWith('/') ? path : join(root, path))
  return {
    base,
    root,
    homeDir,
    loupeHome,
    dataDir,
    outside,
    now,
    write(path, content) {
      mkdirSync(dirname(abs(path)), { recursive: true })
      writeFileSync(abs(path), content)
    },
    link(path, target) {
      mkdirSync(dirname(abs(path)), { recursive: true })
      symlinkSync(target, abs(path))
    },
    cleanup() {
      rmSync(base, { recursive: true, force: true })
    },
  }
}

/** The error a Files request was refused with; fails the test when the request succeeded. */
export async function failure(p: Promise<unknown>): Promise<FilesError> {
  try {
    await p
  } catch (err) {
    return err as FilesError
  }
  throw new Error('expected a refusal')
}
