/**
 * Files the search tools read on their own (.gitignore, .git/info/exclude) and paths the model gives that are not
 * what they seem: FIFOs, links to devices or out of the root, loops, huge rules files. Each gets a clear answer or
 * note, and nothing blocks.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { findRipgrep } from '../../../src-main/node/tools/grep-rg'
import { FIFOS, mkfifo, releaseFifo, within } from './fifo'
import { makeFixture, Session, type Fixture } from './fixture'

const rg = await findRipgrep(process.env)
const engines = rg === null ? (['off'] as const) : (['off', rg] as const)

let fx: Fixture
let session: Session
const fifos: string[] = []
beforeEach(() => {
  fx = makeFixture({ 'src/app.ts': 'export const a = 1\n' })
  session = new Session(fx)
})
afterEach(async () => {
  for (const fifo of fifos.splice(0)) releaseFifo(fifo)
  await session.executor.dispose()
  fx.cleanup()
})

function fifoAt(path: string): string {
  mkdirSync(join(path, '..'), { recursive: true })
  mkfifo(path)
  fifos.push(path)
  return path
}

describe('rules files that are not plain files inside the root', () => {
  it.runIf(FIFOS)('glob answers when .gitignore is a FIFO, and says its rules were not applied', async () => {
    fifoAt(join(fx.root, '.gitignore'))
    const outcome = await within(3_000, session.call('glob', { pattern: 'src/**' }), 'glob')
    expect(outcome.kind).toBe('ok')
    expect(outcome.content).toContain('src/app.ts')
    expect(outcome.content).toContain('[.gitignore is a named pipe (FIFO), not a regular file; its rules were not applied.]')
  })

  it.runIf(FIFOS).each(engines)('grep answers when .gitignore is a FIFO (ripgrep: %s)', async (ripgrep) => {
    fifoAt(join(fx.root, '.gitignore'))
    const searcher = new Session(fx, { ripgrep })
    try {
      const outcome = await within(5_000, searcher.call('grep', { pattern: 'export' }), 'grep')
      expect(outcome.kind).toBe('ok')
      expect(outcome.content).toContain('src/app.ts:1:export const a = 1')
      expect(outcome.content).toContain('.gitignore is a named pipe (FIFO)')
    } finally {
      await searcher.executor.dispose()
    }
  })

  it.runIf(FIFOS)('grep answers when a nested .gitignore is a FIFO', async () => {
    fifoAt(join(fx.root, 'src', '.gitignore'))
    const outcome = await within(3_000, session.call('grep', { pattern: 'export' }), 'grep')
    expect(outcome.content).toContain('src/app.ts:1:export const a = 1')
    expect(outcome.content).toContain('[src/.gitignore is a named pipe (FIFO), not a regular file; its rules were not applied.]')
  })

  it.runIf(FIFOS)('glob answers when .git/info/exclude is a FIFO', async () => {
    fifoAt(join(fx.root, '.git', 'info', 'exclude'))
    const outcome = await within(3_000, session.call('glob', { pattern: 'src/**' }), 'glob')
    expect(outcome.content).toContain('src/app.ts')
    expect(outcome.content).toContain('[.git/info/exclude is a named pipe (FIFO), not a regular file; its rules were not applied.]')
  })

  it.runIf(FIFOS)('does not read a .gitignore that links to a device', async () => {
    symlinkSync('/dev/zero', join(fx.root, '.gitignore'))
    const outcome = await within(3_000, session.call('glob', { pattern: 'src/**' }), 'glob')
    expect(outcome.content).toContain('src/app.ts')
    expect(outcome.content).toContain('[.gitignore is a symbolic link out of the project; its rules were not applied.]')
  })

  it('does not follow a .gitignore link out of the root, but follows one inside it', async () => {
    writeFileSync(join(fx.outside, 'rules'), 'src/\n')
    symlinkSync(join(fx.outside, 'rules'), join(fx.root, '.gitignore'))
    const out = await session.call('glob', { pattern: 'src/**' })
    expect(out.content).toContain('src/app.ts')
    expect(out.content).toContain('.gitignore is a symbolic link out of the project')

    const other = makeFixture({ 'src/app.ts': 'x\n', 'shared/rules': 'src/\n' })
    symlinkSync('shared/rules', join(other.root, '.gitignore'))
    const inside = new Session(other)
    try {
      const outcome = await inside.call('glob', { pattern: 'src/**' })
      expect(outcome.content).not.toContain('src/app.ts')
      expect(outcome.content).not.toContain('its rules were not applied')
    } finally {
      await inside.executor.dispose()
      other.cleanup()
    }
  })

  it('leaves out a .gitignore over 1 MB with a note', async () => {
    fx.write('.gitignore', `${'#'.repeat(1024 * 1024)}\nsrc/\n`)
    const outcome = await session.call('glob', { pattern: 'src/**' })
    expect(outcome.content).toContain('src/app.ts')
    expect(outcome.content).toMatch(/\[\.gitignore is 1,048,\d{3} bytes, over the 1,048,576-byte limit; its rules were not applied\.\]/)
  })

  it('says a .gitignore loop is a loop', async () => {
    symlinkSync('.gitignore', join(fx.root, '.gitignore'))
    const outcome = await session.call('glob', { pattern: 'src/**' })
    expect(outcome.content).toContain('src/app.ts')
    expect(outcome.content).toContain('[.gitignore is a symbolic link loop; its rules were not applied.]')
  })
})

describe('symbolic link loops', () => {
  it('are named as loops, not as a raw ELOOP', async () => {
    symlinkSync('loop-b', join(fx.root, 'loop-a'))
    symlinkSync('loop-a', join(fx.root, 'loop-b'))
    for (const [name, input] of [
      ['read_file', { path: 'loop-a' }],
      ['edit_file', { path: 'loop-a/x.ts', old_string: 'a', new_string: 'b' }],
      ['write_file', { path: 'loop-a', content: 'x' }],
      ['list_dir', { path: 'loop-b' }],
    ] as const) {
      const outcome = await session.call(name, input)
      expect(outcome, name).toMatchObject({ kind: 'error', code: 'invalid_input' })
      expect(outcome.content, name).toContain('is a symbolic link loop')
      expect(outcome.content, name).not.toContain('ELOOP')
    }
  })
})
