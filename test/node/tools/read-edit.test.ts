import { readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { makeFixture, Session, type Fixture } from './fixture'

let fx: Fixture
let session: Session
const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n') + '\n'
beforeEach(() => {
  fx = makeFixture({ 'src/app.ts': 'const a = 1\nconst b = 2\n', 'long.txt': numbered(50), 'empty.txt': '', 'bin.dat': 'ab\0cd' })
  session = new Session(fx)
})
afterEach(async () => {
  await session.executor.dispose()
  fx.cleanup()
})

describe('read_file', () => {
  it('returns numbered lines and records what it showed', async () => {
    expect(await session.call('read_file', { path: 'src/app.ts' })).toMatchObject({ kind: 'ok', content: '1\tconst a = 1\n2\tconst b = 2\n' })
    expect(session.state.files['src/app.ts']?.shownRanges).toEqual([{ startLine: 1, endLine: 2 }])
  })

  it('reads a range and says where to continue', async () => {
    const outcome = await session.call('read_file', { path: 'long.txt', offset: 10, limit: 3 })
    expect(outcome.content).toBe('10\tline 10\n11\tline 11\n12\tline 12\n[Lines 10–12 of 50 shown. Continue with offset=13.]')
    expect(await session.call('read_file', { path: 'long.txt', offset: 51 })).toMatchObject({ kind: 'error', code: 'out_of_range' })
  })

  it('answers a repeated read of unchanged content with a short note', async () => {
    await session.call('read_file', { path: 'long.txt' })
    const again = await session.call('read_file', { path: 'long.txt', offset: 5, limit: 5 })
    expect(again).toEqual({
      kind: 'ok',
      content: 'File unchanged since your last read: long.txt (lines 5–9 of 50). Its content is earlier in this conversation; refer to it there.',
      effects: [],
    })
  })

  it('sends the content again once the file changed, and after a compaction', async () => {
    await session.call('read_file', { path: 'src/app.ts' })
    fx.write('src/app.ts', 'const a = 3\n')
    expect((await session.call('read_file', { path: 'src/app.ts' })).content).toBe('1\tconst a = 3\n')
    expect((await session.call('read_file', { path: 'src/app.ts' })).content).toMatch(/^File unchanged/)
    session.compact()
    expect((await session.call('read_file', { path: 'src/app.ts' })).content).toBe('1\tconst a = 3\n')
  })

  it('reports empty, binary, missing files and folders plainly', async () => {
    expect(await session.call('read_file', { path: 'empty.txt' })).toMatchObject({ kind: 'ok', content: 'empty.txt is empty.' })
    expect(await session.call('read_file', { path: 'bin.dat' })).toMatchObject({ kind: 'error', code: 'binary' })
    expect(await session.call('read_file', { path: 'nope.ts' })).toMatchObject({ kind: 'error', code: 'not_found' })
    expect(await session.call('read_file', { path: 'src' })).toMatchObject({ kind: 'error', code: 'not_a_file' })
  })

  it('caps a huge file with a note instead of sending all of it', async () => {
    fx.write('huge.txt', `${'x'.repeat(100)}\n`.repeat(2_000))
    const outcome = await session.call('read_file', { path: 'huge.txt' })
    expect(outcome.content.length).toBeLessThanOrEqual(30_000)
    expect(outcome.content).toMatch(/\[Lines 1–\d+ of 2000 shown\. Continue with offset=\d+\.\]$/)
  })
})

describe('edit_file', () => {
  it('is refused for a file never read', async () => {
    const outcome = await session.call('edit_file', { path: 'src/app.ts', old_string: 'a = 1', new_string: 'a = 9' })
    expect(outcome).toMatchObject({ kind: 'error', code: 'not_read' })
    expect(fx.read('src/app.ts')).toBe('const a = 1\nconst b = 2\n')
  })

  it('replaces the unique match after a read, shows the result, and allows a follow-up edit', async () => {
    await session.call('read_file', { path: 'src/app.ts' })
    const outcome = await session.call('edit_file', { path: 'src/app.ts', old_string: 'a = 1', new_string: 'a = 9' })
    expect(outcome).toMatchObject({ kind: 'ok', content: 'Edited src/app.ts at line 1.\n1\tconst a = 9\n2\tconst b = 2' })
    expect(fx.read('src/app.ts')).toBe('const a = 9\nconst b = 2\n')
    expect(await session.call('edit_file', { path: 'src/app.ts', old_string: 'b = 2', new_string: 'b = 8' })).toMatchObject({ kind: 'ok' })
    expect(fx.read('src/app.ts')).toBe('const a = 9\nconst b = 8\n')
    // The new content has not been shown as a whole, so a read returns it rather than "unchanged".
    expect((await session.call('read_file', { path: 'src/app.ts' })).content).toBe('1\tconst a = 9\n2\tconst b = 8\n')
  })

  it('is refused after the file changed outside the conversation', async () => {
    await session.call('read_file', { path: 'src/app.ts' })
    fx.write('src/app.ts', 'const a = 1\nconst b = 2\n// edited by the user\n')
    const outcome = await session.call('edit_file', { path: 'src/app.ts', old_string: 'a = 1', new_string: 'a = 9' })
    expect(outcome).toMatchObject({ kind: 'error', code: 'changed_since_read' })
    expect(fx.read('src/app.ts')).toContain('// edited by the user')
  })

  it('requires exactly one match', async () => {
    await session.call('read_file', { path: 'src/app.ts' })
    expect(await session.call('edit_file', { path: 'src/app.ts', old_string: 'const', new_string: 'let' })).toMatchObject({
      kind: 'error',
      code: 'ambiguous_match',
    })
    expect(await session.call('edit_file', { path: 'src/app.ts', old_string: 'nothing', new_string: 'x' })).toMatchObject({
      kind: 'error',
      code: 'no_match',
    })
  })

  it('points to write_file for a missing file', async () => {
    const outcome = await session.call('edit_file', { path: 'new.ts', old_string: 'a', new_string: 'b' })
    expect(outcome).toMatchObject({ kind: 'error', code: 'not_found' })
    expect(outcome.content).toContain('write_file')
  })
})

describe('write_file', () => {
  it('creates a file and its folders, atomically, leaving no temporary files', async () => {
    const outcome = await session.call('write_file', { path: 'deep/er/new.ts', content: 'one\ntwo\n' })
    expect(outcome).toMatchObject({ kind: 'ok', content: 'Created deep/er/new.ts (2 lines).' })
    expect(outcome.effects).toEqual([{ type: 'file_written', path: 'deep/er/new.ts', fingerprint: expect.any(String), created: true }])
    expect(fx.read('deep/er/new.ts')).toBe('one\ntwo\n')
    expect(readdirSync(join(fx.root, 'deep/er'))).toEqual(['new.ts'])
  })

  it('overwrites an existing file only after reading it', async () => {
    expect(await session.call('write_file', { path: 'src/app.ts', content: 'x\n' })).toMatchObject({ kind: 'error', code: 'not_read' })
    await session.call('read_file', { path: 'src/app.ts' })
    writeFileSync(join(fx.root, 'src/app.ts'), 'changed\n')
    expect(await session.call('write_file', { path: 'src/app.ts', content: 'x\n' })).toMatchObject({ kind: 'error', code: 'changed_since_read' })
    await session.call('read_file', { path: 'src/app.ts' })
    expect(await session.call('write_file', { path: 'src/app.ts', content: 'x\n' })).toMatchObject({ kind: 'ok', content: 'Overwrote src/app.ts (1 line).' })
    expect(fx.read('src/app.ts')).toBe('x\n')
  })

  it('keeps an executable file executable', async () => {
    fx.write('run.sh', 'echo 1\n')
    const { chmodSync, statSync } = await import('node:fs')
    chmodSync(join(fx.root, 'run.sh'), 0o755)
    await session.call('read_file', { path: 'run.sh' })
    await session.call('write_file', { path: 'run.sh', content: 'echo 2\n' })
    expect(statSync(join(fx.root, 'run.sh')).mode & 0o777).toBe(0o755)
  })
})
