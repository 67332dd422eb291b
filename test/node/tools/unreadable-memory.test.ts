/**
 * A memory file that exists but cannot be read (EACCES here; EIO and EMFILE take the same path) must not count as
 * empty: remember would then rewrite it with one fact and the others would be gone. The tests run as any user
 * (root reads a mode-000 file), so opening the file is made to fail with EACCES, as it does for a mode-000 file.
 */
import { chmodSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createFileMemory } from '../../../src-main/node/compaction/memory-file'
import { makeFixture, Session, type Fixture } from './fixture'

const denied = vi.hoisted(() => new Set<string>())

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>()
  const refuse = (path: unknown) => {
    if (typeof path === 'string' && denied.has(path)) {
      return Promise.reject(Object.assign(new Error(`EACCES: permission denied, open '${path}'`), { code: 'EACCES', errno: -13, syscall: 'open', path }))
    }
    return null
  }
  const open = ((path: unknown, ...rest: unknown[]) => refuse(path) ?? (real.open as (...a: unknown[]) => unknown)(path, ...rest)) as typeof real.open
  const readFile = ((path: unknown, ...rest: unknown[]) => refuse(path) ?? (real.readFile as (...a: unknown[]) => unknown)(path, ...rest)) as typeof real.readFile
  return { ...real, open, readFile, default: { ...real, open, readFile } }
})

const FACTS = '# Memory\n\n- first fact\n- second fact\n'

let fx: Fixture
let session: Session
beforeEach(() => {
  fx = makeFixture({ '.loupe/memory.md': FACTS })
  session = new Session(fx)
})
afterEach(async () => {
  denied.clear()
  await session.executor.dispose()
  fx.cleanup()
})

describe('remember with a memory file it cannot read', () => {
  it('fails and keeps every fact of the user memory file', async () => {
    const file = join(fx.home, 'memory.md')
    writeFileSync(file, FACTS)
    denied.add(file)
    const outcome = await session.call('remember', { fact: 'third fact', scope: 'user' })
    expect(outcome).toMatchObject({ kind: 'error', code: 'io', effects: [] })
    expect(outcome.content).toBe(`Nothing was saved: ${file} could not be read: permission denied. The memory file was left as it is.`)
    denied.clear()
    expect(readFileSync(file, 'utf8')).toBe(FACTS)
  })

  it('fails and keeps every fact of the project memory file', async () => {
    denied.add(join(fx.root, '.loupe/memory.md'))
    const outcome = await session.call('remember', { fact: 'third fact', scope: 'project' })
    expect(outcome).toMatchObject({ kind: 'error', code: 'io' })
    expect(outcome.content).toContain('.loupe/memory.md could not be read: permission denied')
    denied.clear()
    expect(fx.read('.loupe/memory.md')).toBe(FACTS)
  })

  it('still creates a user memory file that does not exist', async () => {
    expect(await session.call('remember', { fact: 'first', scope: 'user' })).toMatchObject({ kind: 'ok' })
    expect(readFileSync(join(fx.home, 'memory.md'), 'utf8')).toBe('- first\n')
  })

  it.skipIf(process.getuid?.() === 0 || process.platform === 'win32')('fails on a real mode-000 file (when not run as root)', async () => {
    const file = join(fx.home, 'memory.md')
    writeFileSync(file, FACTS)
    chmodSync(file, 0o000)
    try {
      expect(await session.call('remember', { fact: 'third fact', scope: 'user' })).toMatchObject({ kind: 'error' })
    } finally {
      chmodSync(file, 0o644)
    }
    expect(readFileSync(file, 'utf8')).toBe(FACTS)
  })
})

describe('the file memory extension with a memory file it cannot read', () => {
  it.each(['project', 'user'] as const)('save and forget fail and keep every %s fact', async (scope) => {
    const file = scope === 'user' ? join(fx.home, 'memory.md') : join(fx.root, '.loupe/memory.md')
    writeFileSync(file, FACTS)
    const memory = createFileMemory(fx.root, fx.home)
    const ctx = { signal: new AbortController().signal, root: fx.root }
    const [first] = (await memory.search('first', 5, ctx)).filter((item) => item.scope === scope)
    expect(first?.text).toBe('first fact')
    denied.add(file)
    await expect(memory.save('third fact', scope, ctx)).rejects.toThrow(`Nothing was saved: ${file} could not be read: permission denied`)
    await expect(memory.forget(first!.id, ctx)).rejects.toThrow(`Nothing was forgotten: ${file} could not be read: permission denied`)
    denied.clear()
    expect(readFileSync(file, 'utf8')).toBe(FACTS)
  })
})
