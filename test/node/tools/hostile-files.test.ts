/**
 * Files the search tools read on their own (.gitignore, .git/info/exclude) and paths the model gives that are not
 * what they seem: FIFOs, links to devices or out of the root, loops, huge rules files. Each gets a clear answer or
 * note, and nothing blocks.
 */
import { symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { findRipgrep } from '../../../src-main/node/tools/grep-rg'
import { FIFOS, fixtureWithFifos, within } from './fifo'
import { makeFixture, Session } from './fixture'

const rg = await findRipgrep(process.env)
const engines = rg === null ? (['off'] as const) : (['off', rg] as const)

const rig = fixtureWithFifos()
const fifoAt = rig.fifoAt

describe('rules files that are not plain files inside the root', () => {
  it.runIf(FIFOS)('glob answers when .gitignore is a FIFO, and says its rules were not applied', async () => {
    fifoAt(join(rig.fx.root, '.gitignore'))
    const outcome = await within(3_000, rig.session.call('glob', { pattern: 'src/**' }), 'glob')
    expect(outcome.kind).toBe('ok')
    expect(outcome.content).toContain('src/app.ts')
    expect(outcome.content).toContain('[.gitignore is a named pipe (FIFO), not a regular file; its rules were not applied.]')
  })

  it.runIf(FIFOS).each(engines)('grep answers when .gitignore is a FIFO (ripgrep: %s)', async (ripgrep) => {
    fifoAt(join(rig.fx.root, '.gitignore'))
    const searcher = new Session(rig.fx, { ripgrep })
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
    fifoAt(join(rig.fx.root, 'src', '.gitignore'))
    const outcome = await within(3_000, rig.session.call('grep', { pattern: 'export' }), 'grep')
    expect(outcome.content).toContain('src/app.ts:1:export const a = 1')
    expect(outcome.content).toContain('[src/.gitignore is a named pipe (FIFO), not a regular file; its rules were not applied.]')
  })

  it.runIf(FIFOS)('glob answers when .git/info/exclude is a FIFO', async () => {
    fifoAt(join(rig.fx.root, '.git', 'info', 'exclude'))
    const outcome = await within(3_000, rig.session.call('glob', { pattern: 'src/**' }), 'glob')
    expect(outcome.content).toContain('src/app.ts')
    expect(outcome.content).toContain('[.git/info/exclude is a named pipe (FIFO), not a regular file; its rules were not applied.]')
  })

  it.runIf(FIFOS)('does not read a .gitignore that links to a device', async () => {
    symlinkSync('/dev/zero', join(rig.fx.root, '.gitignore'))
    const outcome = await within(3_000, rig.session.call('glob', { pattern: 'src/**' }), 'glob')
    expect(outcome.content).toContain('src/app.ts')
    expect(outcome.content).toContain('[.gitignore is a symbolic link out of the project; its rules were not applied.]')
  })

  it('does not follow a .gitignore link out of the root, but follows one inside it', async () => {
    writeFileSync(join(rig.fx.outside, 'rules'), 'src/\n')
    symlinkSync(join(rig.fx.outside, 'rules'), join(rig.fx.root, '.gitignore'))
    const out = await rig.session.call('glob', { pattern: 'src/**' })
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
    rig.fx.write('.gitignore', `${'#'.repeat(1024 * 1024)}\nsrc/\n`)
    const outcome = await rig.session.call('glob', { pattern: 'src/**' })
    expect(outcome.content).toContain('src/app.ts')
    expect(outcome.content).toMatch(/\[\.gitignore is 1,048,\d{3} bytes, over the 1,048,576-byte limit; its rules were not applied\.\]/)
  })

  it('says a .gitignore loop is a loop', async () => {
    symlinkSync('.gitignore', join(rig.fx.root, '.gitignore'))
    const outcome = await rig.session.call('glob', { pattern: 'src/**' })
    expect(outcome.content).toContain('src/app.ts')
    expect(outcome.content).toContain('[.gitignore is a symbolic link loop; its rules were not applied.]')
  })
})

describe('symbolic link loops', () => {
  it('are named as loops, not as a raw ELOOP', async () => {
    symlinkSync('loop-b', join(rig.fx.root, 'loop-a'))
    symlinkSync('loop-a', join(rig.fx.root, 'loop-b'))
    for (const [name, input] of [
      ['read_file', { path: 'loop-a' }],
      ['edit_file', { path: 'loop-a/x.ts', old_string: 'a', new_string: 'b' }],
      ['write_file', { path: 'loop-a', content: 'x' }],
      ['list_dir', { path: 'loop-b' }],
    ] as const) {
      const outcome = await rig.session.call(name, input)
      expect(outcome, name).toMatchObject({ kind: 'error', code: 'invalid_input' })
      expect(outcome.content, name).toContain('is a symbolic link loop')
      expect(outcome.content, name).not.toContain('ELOOP')
    }
  })
})
