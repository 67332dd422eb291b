import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { heldLocks, lockKey, withFileLock, withLock } from '../../../src-main/node/fs/path-lock'

let dir: string
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'loupe-lock-')))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const tick = () => new Promise((resolve) => setTimeout(resolve, 5))

describe('the per-file lock', () => {
  it('runs holders of one key one after another, in the order they asked, and lets go after one that throws', async () => {
    const seen: string[] = []
    const holder = (name: string, fail = false) =>
      withLock('k', async () => {
        seen.push(`${name} in`)
        await tick()
        seen.push(`${name} out`)
        if (fail) throw new Error(`${name} failed`)
        return name
      })
    const results = await Promise.allSettled([holder('a'), holder('b', true), holder('c')])
    expect(seen).toEqual(['a in', 'a out', 'b in', 'b out', 'c in', 'c out'])
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect(heldLocks()).toBe(0)
  })

  it('does not hold back another key', async () => {
    const seen: string[] = []
    let letGo!: () => void
    const first = withLock('one', () => new Promise<void>((resolve) => (letGo = resolve)))
    await withLock('two', async () => void seen.push('two ran'))
    expect(seen).toEqual(['two ran'])
    letGo()
    await first
  })

  it('keys a file by its real path: a link and its target share one lock, and so does a file not made yet under a linked folder', async () => {
    mkdirSync(join(dir, 'real'))
    writeFileSync(join(dir, 'real', 'AGENTS.md'), 'x')
    symlinkSync('AGENTS.md', join(dir, 'real', 'CLAUDE.md'))
    symlinkSync(join(dir, 'real'), join(dir, 'linked'))
    const target = join(dir, 'real', 'AGENTS.md')
    expect(await lockKey(join(dir, 'real', 'CLAUDE.md'))).toBe(target)
    expect(await lockKey(join(dir, 'linked', 'AGENTS.md'))).toBe(target)
    expect(await lockKey(join(dir, 'linked', 'new', 'memory.md'))).toBe(join(dir, 'real', 'new', 'memory.md'))

    const seen: string[] = []
    const holder = (path: string, name: string) =>
      withFileLock(path, async () => {
        seen.push(`${name} in`)
        await tick()
        seen.push(`${name} out`)
      })
    await Promise.all([holder(join(dir, 'real', 'CLAUDE.md'), 'link'), holder(target, 'target')])
    expect(seen.join(' ')).toMatch(/^(\w+) in \1 out (\w+) in \2 out$/)
  })
})
