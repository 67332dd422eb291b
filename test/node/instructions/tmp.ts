/**
 * Temporary project folders for tests of the reading side: a root, a home folder with ~/.loupe, and a folder
 * outside both that holds a secret no gathering may ever read.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { FileAccess } from '../../../src-main/node/instructions'
import { nodeFileAccess } from '../../../src-main/node/instructions'

export const SECRET = 'TOP-SECRET-DO-NOT-READ'

export interface Sandbox {
  readonly base: string
  readonly root: string
  readonly home: string
  readonly loupeHome: string
  readonly outside: string
  write(path: string, content: string | Uint8Array): void
  link(path: string, target: string): void
  cleanup(): void
}

export function sandbox(): Sandbox {
  const base = mkdtempSync(join(tmpdir(), 'loupe-instructions-'))
  const root = join(base, 'project')
  const home = join(base, 'home')
  const loupeHome = join(home, '.loupe')
  const outside = join(base, 'outside')
  for (const dir of [root, loupeHome, outside]) mkdirSync(dir, { recursive: true })
  writeFileSync(join(outside, 'secret.md'), SECRET)
  writeFileSync(join(home, 'secret.md'), SECRET)
  return {
    base,
    root,
    home,
    loupeHome,
    outside,
    write(path, content) {
      const abs = path.startsWith('/') ? path : join(root, path)
      mkdirSync(dirname(abs), { recursive: true })
      writeFileSync(abs, content)
    },
    link(path, target) {
      const abs = path.startsWith('/') ? path : join(root, path)
      mkdirSync(dirname(abs), { recursive: true })
      symlinkSync(target, abs)
    },
    cleanup() {
      rmSync(base, { recursive: true, force: true })
    },
  }
}

/** The node file access, recording every path whose bytes were read. */
export function recordingAccess(): FileAccess & { readonly opened: string[] } {
  const opened: string[] = []
  return {
    opened,
    realpath: nodeFileAccess.realpath,
    lstat: nodeFileAccess.lstat,
    stat: nodeFileAccess.stat,
    async readHead(path, maxBytes) {
      opened.push(path)
      return nodeFileAccess.readHead(path, maxBytes)
    },
  }
}
