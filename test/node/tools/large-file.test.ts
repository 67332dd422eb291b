/**
 * read_file on a file over READ_MAX_FILE_BYTES (docs/tools.md): a range is read from a file of any size, streamed; a
 * read without a range is refused with how to read a part. The files are sparse (ftruncate), so they cost no disk
 * and little time: their middle is a run of NUL bytes the reader goes through like any other bytes.
 */
import { closeSync, ftruncateSync, openSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { READ_MAX_FILE_BYTES, READ_RANGE_COUNT_MAX_BYTES } from '../../../src-main/engine/tools/limits'
import { makeFixture, Session, type Fixture } from './fixture'

const MiB = 1024 * 1024
const HEAD_LINES = 1000
const head = Array.from({ length: HEAD_LINES }, (_, i) => `line ${i + 1}`).join('\n') + '\n'

let fx: Fixture
let session: Session
beforeEach(() => {
  fx = makeFixture()
  session = new Session(fx)
})
afterEach(async () => {
  await session.executor.dispose()
  fx.cleanup()
})

/** A sparse file of `size` bytes: `start` at its start, `end` at its end, NUL bytes between. */
function sparse(rel: string, size: number, start: string | Buffer, end = ''): void {
  const fd = openSync(join(fx.root, rel), 'w')
  try {
    writeSync(fd, typeof start === 'string' ? Buffer.from(start) : start, 0, undefined, 0)
    ftruncateSync(fd, size)
    if (end !== '') writeSync(fd, end, size - Buffer.byteLength(end))
  } finally {
    closeSync(fd)
  }
}

describe('read_file on a file over the 20 MiB limit', () => {
  it('reads a range of it, and the end of it, with the total line count', async () => {
    const size = READ_MAX_FILE_BYTES + 4 * MiB
    sparse('app.log', size, head, 'tail 1\ntail 2\n')
    const start = await session.call('read_file', { path: 'app.log', offset: 2, limit: 3 })
    // Line 1001 is the run of NUL bytes up to "tail 1"; line 1002 is "tail 2".
    expect(start).toMatchObject({ kind: 'ok', content: '2\tline 2\n3\tline 3\n4\tline 4\n[Lines 2–4 of 1002 shown. Continue with offset=5.]' })
    expect(start.effects).toEqual([
      { type: 'file_read', path: 'app.log', fingerprint: expect.stringMatching(/^stat:/), range: { startLine: 2, endLine: 4 }, totalLines: 1002 },
    ])
    const end = await session.call('read_file', { path: 'app.log', offset: 1001 })
    const longLine = size - head.length - 'tail 2\n'.length - 1
    expect(end.content).toBe(`1001\t${'\0'.repeat(2000)}… [line cut at 2000 characters of ${longLine} bytes]\n1002\ttail 2\n[Lines 1001–1002 of 1002 shown.]`)
    expect(await session.call('read_file', { path: 'app.log', offset: 1003 })).toMatchObject({
      kind: 'error',
      code: 'out_of_range',
      content: 'app.log has 1002 lines; offset 1003 is past the end.',
    })
  })

  it('refuses it without a range, saying its size and how to read a part', async () => {
    const size = READ_MAX_FILE_BYTES + 1
    sparse('dump.sql', size, head)
    const outcome = await session.call('read_file', { path: 'dump.sql' })
    expect(outcome).toMatchObject({ kind: 'error', code: 'too_large' })
    expect(outcome.content).toContain(`dump.sql is ${size} bytes, more than read_file reads whole (${READ_MAX_FILE_BYTES}).`)
    expect(outcome.content).toContain('Read a range of it with offset and limit')
  })

  it('still refuses a binary one, with a range or without', async () => {
    sparse('disk.img', READ_MAX_FILE_BYTES + MiB, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0]))
    for (const input of [{ path: 'disk.img' }, { path: 'disk.img', offset: 1, limit: 10 }]) {
      expect(await session.call('read_file', input)).toMatchObject({ kind: 'error', code: 'binary' })
    }
  })

  it('answers a repeated range with the short note until the file changes', async () => {
    sparse('app.log', READ_MAX_FILE_BYTES + MiB, head, 'last\n')
    await session.call('read_file', { path: 'app.log', offset: 10, limit: 5 })
    expect((await session.call('read_file', { path: 'app.log', offset: 11, limit: 2 })).content).toBe(
      'File unchanged since your last read: app.log (lines 11–12 of 1001). Its content is earlier in this conversation; refer to it there.',
    )
    sparse('app.log', READ_MAX_FILE_BYTES + 2 * MiB, head.replace('line 11\n', 'line eleven\n'), 'last\n')
    expect((await session.call('read_file', { path: 'app.log', offset: 11, limit: 2 })).content).toMatch(/^11\tline eleven\n12\tline 12\n/)
  })

  it('marks bytes that are not UTF-8 in a range', async () => {
    sparse('latin1.log', READ_MAX_FILE_BYTES + MiB, Buffer.concat([Buffer.from('caf'), Buffer.from([0xe9]), Buffer.from('\nok\n'), Buffer.from(head)]))
    const outcome = await session.call('read_file', { path: 'latin1.log', offset: 1, limit: 2 })
    expect(outcome.content).toMatch(/^1\tcaf\uFFFD\n2\tok\n/)
    expect(outcome.content).toContain('latin1.log is not UTF-8 text')
  })

  it('says how far it counted when it stops counting lines, and still reaches lines past that', async () => {
    const size = READ_RANGE_COUNT_MAX_BYTES + 8 * MiB
    sparse('huge.log', size, head, 'the end\n')
    const outcome = await session.call('read_file', { path: 'huge.log', limit: 2 })
    expect(outcome.content).toBe(
      '1\tline 1\n2\tline 2\n[Lines 1–2 shown. Continue with offset=3. huge.log is ' +
        `${size} bytes; read_file counted its lines only through the first ${READ_RANGE_COUNT_MAX_BYTES} bytes ` +
        `(${HEAD_LINES} lines), so its total is not known.]`,
    )
    expect((await session.call('read_file', { path: 'huge.log', offset: 1001 })).content).toMatch(/… \[line cut at 2000 characters of \d+ bytes\]\n\[Lines 1001–1001 of 1001 shown\.\]$/)
  })
})

describe('readLineRange', () => {
  it('splits lines as splitLines does, across chunk boundaries, with CRLF and no final line break', async () => {
    const { open } = await import('node:fs/promises')
    const { readLineRange } = await import('../../../src-main/node/fs/line-range')
    const { splitLines } = await import('../../../src-main/engine/tools/render')
    // Lines of varied lengths (one longer than a chunk is not needed here), CRLF ends, a multibyte character.
    const parts: string[] = []
    for (let i = 0, length = 0; length < 3 * MiB; i++) {
      const part = `${'é'.repeat(i % 97)}row ${i}${i % 3 === 0 ? '\r\n' : '\n'}`
      parts.push(part)
      length += part.length
    }
    const text = `${parts.join('')}no break at the end`
    fx.write('rows.txt', text)
    const all = splitLines(text)
    const handle = await open(join(fx.root, 'rows.txt'), 'r')
    try {
      const size = Buffer.byteLength(text)
      for (const startLine of [1, 2, 12_345, all.length - 1]) {
        const read = await readLineRange(handle, size, { startLine, maxLines: 3, maxChars: 1e9, countMaxBytes: size })
        expect(read.lines.map((l) => l.text)).toEqual(all.slice(startLine - 1, startLine + 2))
        expect(read.totalLines).toBe(all.length)
      }
    } finally {
      await handle.close()
    }
  })
})

describe('line marks (a later read of the same file starts near its lines)', () => {
  it('reads the same lines from a mark as from the start, reading about a chunk before them, and knows the total once counted', async () => {
    const { open } = await import('node:fs/promises')
    const { CHUNK_BYTES, LineMarks, readLineRange } = await import('../../../src-main/node/fs/line-range')
    const { splitLines } = await import('../../../src-main/engine/tools/render')
    const parts: string[] = []
    for (let i = 0, length = 0; length < 9 * MiB; i++) {
      const part = `${'é'.repeat(i % 89)}row ${i}${i % 5 === 0 ? '\r\n' : '\n'}`
      parts.push(part)
      length += part.length
    }
    const text = parts.join('')
    fx.write('rows.txt', text)
    const all = splitLines(text)
    const size = Buffer.byteLength(text)
    const handle = await open(join(fx.root, 'rows.txt'), 'r')
    try {
      const marks = new LineMarks()
      const read = (startLine: number, countMaxBytes = size) => readLineRange(handle, size, { startLine, maxLines: 4, maxChars: 1e9, countMaxBytes, marks })
      // A first read near the start counts only part of the file: its total is not known, and the marks go as far as it read.
      const first = await read(3, 2 * MiB)
      expect(first.totalLines).toBeNull()
      expect(first.lines.map((l) => l.text)).toEqual(all.slice(2, 6))
      // A read far in goes from the last mark on, to the end, and notes marks all the way.
      const far = await read(all.length - 2)
      expect(far.lines.map((l) => l.text)).toEqual(all.slice(-3))
      expect(far.totalLines).toBe(all.length)
      expect(far.readBytes).toBeLessThan(size - MiB)
      expect(marks.size).toBeGreaterThan(8)
      expect(marks.totalLines).toBe(all.length)
      // Every later read, anywhere, gives splitLines's lines, reads less than two chunks, and names the total without counting to the end.
      for (const startLine of [1, 2, 777, 40_001, Math.floor(all.length / 2), all.length - 1, all.length]) {
        const again = await read(startLine, 0)
        expect(again.lines.map((l) => l.text)).toEqual(all.slice(startLine - 1, startLine + 3))
        expect(again.totalLines).toBe(all.length)
        expect(again.readBytes).toBeLessThan(2 * CHUNK_BYTES)
      }
      // Past the end: no lines, the total, and no read of the file.
      const past = await read(all.length + 5)
      expect(past.lines).toEqual([])
      expect(past.countedLines).toBe(all.length)
    } finally {
      await handle.close()
    }
  })

  it('keeps marks per version of a file: a file rewritten in place is read from its start again', async () => {
    const { LineIndex, fileVersion } = await import('../../../src-main/node/fs/line-range')
    const { statSync, writeFileSync } = await import('node:fs')
    const path = join(fx.root, 'log.txt')
    writeFileSync(path, 'a\nb\n')
    const before = fileVersion(statSync(path, { bigint: true }))
    const index = new LineIndex(2)
    const marks = index.marksOf(before)
    marks.totalLines = 2
    writeFileSync(path, 'c\nd\n')
    const after = fileVersion(statSync(path, { bigint: true }))
    expect(after).not.toBe(before)
    expect(index.marksOf(after).totalLines).toBeNull()
    expect(index.marksOf(before)).toBe(marks)
    // Two files kept: the least recently read is dropped for a third.
    index.marksOf('third')
    expect(index.marksOf(after).totalLines).toBeNull()
    expect(index.marksOf(before)).not.toBe(marks)
  })

  it('read_file pages far into a file over the limit as it reads its start: the same lines, the same total', async () => {
    const lines = Array.from({ length: 400_000 }, (_, i) => `entry ${i + 1} ${'x'.repeat(i % 101)}`)
    const text = lines.join('\n') + '\n'
    expect(Buffer.byteLength(text)).toBeGreaterThan(READ_MAX_FILE_BYTES)
    fx.write('big.log', text)
    const last = await session.call('read_file', { path: 'big.log', offset: 399_998, limit: 3 })
    expect(last.content).toBe(`399998\t${lines[399_997]}\n399999\t${lines[399_998]}\n400000\t${lines[399_999]}\n[Lines 399998–400000 of 400000 shown.]`)
    const middle = await session.call('read_file', { path: 'big.log', offset: 250_000, limit: 2 })
    expect(middle.content).toBe(`250000\t${lines[249_999]}\n250001\t${lines[250_000]}\n[Lines 250000–250001 of 400000 shown. Continue with offset=250002.]`)
  })
})
