/**
 * Files the tools rewrite from what they read (remember, edit_file): the read must be exact, or the call fails and
 * no byte changes. Not UTF-8, over the size limit, a FIFO: each gets a clear answer.
 */
import { lstatSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FIFOS, fixtureWithFifos, within } from './fifo'

/** "café\n" in Latin-1, then a valid line: é is the lone byte 0xE9, invalid in UTF-8. */
const LATIN1 = Buffer.concat([Buffer.from('caf'), Buffer.from([0xe9]), Buffer.from('\nnext line\n')])

const rig = fixtureWithFifos()
const fifoAt = rig.fifoAt

describe('remember never rewrites a memory file it could not read exactly', () => {
  it('refuses a user memory file that is not UTF-8, and leaves its bytes as they were', async () => {
    const file = join(rig.fx.home, 'memory.md')
    writeFileSync(file, LATIN1)
    const outcome = await rig.session.call('remember', { fact: 'Prefers tabs', scope: 'user' })
    expect(outcome).toMatchObject({ kind: 'error', code: 'binary', effects: [] })
    expect(outcome.content).toContain(`${file} is not UTF-8 text`)
    expect(outcome.content).toMatch(/^Nothing was saved/)
    expect(readFileSync(file)).toEqual(LATIN1)
  })

  it('refuses a project memory file that is not UTF-8, and leaves its bytes as they were', async () => {
    rig.fx.write('.loupe/memory.md', '')
    writeFileSync(join(rig.fx.root, '.loupe/memory.md'), LATIN1)
    const outcome = await rig.session.call('remember', { fact: 'Use pnpm', scope: 'project' })
    expect(outcome).toMatchObject({ kind: 'error', code: 'binary' })
    expect(outcome.content).toContain('.loupe/memory.md is not UTF-8 text')
    expect(readFileSync(join(rig.fx.root, '.loupe/memory.md'))).toEqual(LATIN1)
  })

  it('refuses a user memory file over 1 MB instead of reading it whole', async () => {
    const file = join(rig.fx.home, 'memory.md')
    const big = `- fact\n`.repeat(200_000)
    writeFileSync(file, big)
    const outcome = await rig.session.call('remember', { fact: 'one more', scope: 'user' })
    expect(outcome).toMatchObject({ kind: 'error', code: 'too_large' })
    expect(readFileSync(file, 'utf8')).toBe(big)
  })

  it('keeps a byte-order mark and the text around it exactly', async () => {
    const file = join(rig.fx.home, 'memory.md')
    writeFileSync(file, '\uFEFF# Mine\n- first')
    expect(await rig.session.call('remember', { fact: 'second', scope: 'user' })).toMatchObject({ kind: 'ok' })
    expect(readFileSync(file, 'utf8')).toBe('\uFEFF# Mine\n- first\n- second\n')
  })

  it.runIf(FIFOS)('answers at once when the user memory file is a FIFO, and leaves it alone', async () => {
    const file = fifoAt(join(rig.fx.home, 'memory.md'))
    const outcome = await within(3_000, rig.session.call('remember', { fact: 'Prefers tabs', scope: 'user' }), 'remember')
    expect(outcome).toMatchObject({ kind: 'error', code: 'not_a_file' })
    expect(outcome.content).toContain(`${file} is a named pipe (FIFO), not a regular file`)
    expect(lstatSync(file).isFIFO()).toBe(true)
  })
})

describe('edit_file and write_file on a file that is not UTF-8', () => {
  it('read_file says the text is not exact; edit_file refuses and changes no byte; write_file may replace it whole', async () => {
    writeFileSync(join(rig.fx.root, 'latin1.txt'), LATIN1)
    const read = await rig.session.call('read_file', { path: 'latin1.txt' })
    expect(read.kind).toBe('ok')
    expect(read.content).toContain('1\tcaf\uFFFD\n2\tnext line\n')
    expect(read.content).toContain('[latin1.txt is not UTF-8 text')
    const edit = await rig.session.call('edit_file', { path: 'latin1.txt', old_string: 'next line', new_string: 'changed line' })
    expect(edit).toMatchObject({ kind: 'error', code: 'binary' })
    expect(edit.content).toContain('latin1.txt is not UTF-8 text, so edit_file cannot change it')
    expect(readFileSync(join(rig.fx.root, 'latin1.txt'))).toEqual(LATIN1)
    expect(await rig.session.call('write_file', { path: 'latin1.txt', content: 'café\n' })).toMatchObject({ kind: 'ok' })
    expect(readFileSync(join(rig.fx.root, 'latin1.txt'), 'utf8')).toBe('café\n')
  })

  it('still edits valid UTF-8 with a byte-order mark, keeping the mark', async () => {
    rig.fx.write('bom.txt', '\uFEFFhello\n')
    await rig.session.call('read_file', { path: 'bom.txt' })
    expect(await rig.session.call('edit_file', { path: 'bom.txt', old_string: 'hello', new_string: 'world' })).toMatchObject({ kind: 'ok' })
    expect(readFileSync(join(rig.fx.root, 'bom.txt'), 'utf8')).toBe('\uFEFFworld\n')
  })
})
