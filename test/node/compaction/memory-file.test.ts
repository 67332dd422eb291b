/**
 * The built-in file memory rewrites its files on save and forget, so it must read them exactly: a file that is not
 * UTF-8, a FIFO or over 1 MB fails the call with a message, and no byte of it changes.
 */
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createFileMemory } from '../../../src-main/node/compaction/memory-file'
import { FIFOS, mkfifo, releaseFifo, within } from '../tools/fifo'

const LATIN1 = Buffer.concat([Buffer.from('- caf'), Buffer.from([0xe9]), Buffer.from('\n- second fact\n')])

let base: string
let root: string
let home: string
const ctx = () => ({ signal: new AbortController().signal, root })
const fileOf = (scope: 'project' | 'user') => (scope === 'user' ? join(home, 'memory.md') : join(root, '.loupe', 'memory.md'))

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'loupe-memory-')))
  root = join(base, 'project')
  home = join(base, 'home')
  mkdirSync(join(root, '.loupe'), { recursive: true })
  mkdirSync(home)
})
afterEach(() => {
  for (const scope of ['project', 'user'] as const) releaseFifo(fileOf(scope))
  rmSync(base, { recursive: true, force: true })
})

describe('file memory', () => {
  it.each(['project', 'user'] as const)('refuses to save to or forget from a %s memory file that is not UTF-8', async (scope) => {
    const file = fileOf(scope)
    writeFileSync(file, LATIN1)
    const memory = createFileMemory(root, home)
    await expect(memory.save('third fact', scope, ctx())).rejects.toThrow(`Nothing was saved: ${file} is not UTF-8 text`)
    await expect(memory.forget(`${scope}:0000000000000000`, ctx())).rejects.toThrow(`Nothing was forgotten: ${file} is not UTF-8 text`)
    expect(readFileSync(file)).toEqual(LATIN1)
  })

  it.runIf(FIFOS).each(['project', 'user'] as const)('answers at once when the %s memory file is a FIFO', async (scope) => {
    const file = fileOf(scope)
    mkfifo(file)
    const memory = createFileMemory(root, home)
    await expect(within(3_000, memory.save('a fact', scope, ctx()), 'save')).rejects.toThrow(`Nothing was saved: ${file} is a named pipe (FIFO), not a regular file`)
    expect(lstatSync(file).isFIFO()).toBe(true)
  })

  it('still saves, finds and forgets facts in ordinary files', async () => {
    writeFileSync(fileOf('project'), '# Project memory\n\n- uses pnpm')
    const memory = createFileMemory(root, home)
    const saved = await memory.save('tests run with vitest', 'project', ctx())
    expect(readFileSync(fileOf('project'), 'utf8')).toBe('# Project memory\n\n- uses pnpm\n- tests run with vitest\n')
    await memory.save('prefers tabs', 'user', ctx())
    expect((await memory.search('vitest tabs', 5, ctx())).map((i) => i.text)).toEqual(['tests run with vitest', 'prefers tabs'])
    expect(await memory.forget(saved.id, ctx())).toBe(true)
    expect(readFileSync(fileOf('project'), 'utf8')).toBe('# Project memory\n\n- uses pnpm\n')
  })
})
