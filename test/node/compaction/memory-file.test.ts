/**
 * The built-in file memory rewrites its files on save and forget, so it must read them exactly: a file that is not
 * UTF-8, a FIFO or over 1 MB fails the call with a message, and no byte of it changes.
 */
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createFileMemory } from '../../../src-main/node/compaction/memory-file'
import { emptyToolSessionState } from '../../../src-main/engine/tools'
import { createProjectFs } from '../../../src-main/node/tools/project-fs'
import { rememberTool } from '../../../src-main/node/tools/remember'
import type { ToolDeps } from '../../../src-main/node/tools/deps'
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

  it.each(['project', 'user'] as const)('keeps every %s fact when the extension and the remember tool save at the same moment, through a link to the file', async (scope) => {
    // Each names the file its own way (a link to the folder for the extension): the lock is the real path's.
    const linked = join(base, 'linked')
    symlinkSync(scope === 'user' ? home : root, linked)
    const memory = scope === 'user' ? createFileMemory(root, linked) : createFileMemory(linked, home)
    const deps: ToolDeps = { fs: createProjectFs(root), gitignore: async () => ({}) as never, state: emptyToolSessionState(), signal: new AbortController().signal }
    const [, told, second] = await Promise.all([
      memory.save('saved by the extension', scope, ctx()),
      rememberTool({ fact: 'saved by the remember tool', scope }, deps, home),
      memory.save('saved by the extension again', scope, ctx()),
    ])
    expect(told.kind).toBe('ok')
    expect(second.text).toBe('saved by the extension again')
    expect(readFileSync(fileOf(scope), 'utf8').split('\n').sort()).toEqual(['', '- saved by the extension', '- saved by the extension again', '- saved by the remember tool'])
  })

  it('keeps both facts when two saves and a forget run at the same moment', async () => {
    writeFileSync(fileOf('project'), '- old fact\n')
    const memory = createFileMemory(root, home)
    const [old] = await memory.search('old fact', 1, ctx())
    const [, forgot] = await Promise.all([memory.save('first', 'project', ctx()), memory.forget(old!.id, ctx()), memory.save('second', 'project', ctx())])
    expect(forgot).toBe(true)
    expect(readFileSync(fileOf('project'), 'utf8').split('\n').sort()).toEqual(['', '- first', '- second'])
  })
})
