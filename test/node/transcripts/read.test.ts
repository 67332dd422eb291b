/** Reading transcript files safely: streamed, size-limited, confined to a folder. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseTranscript } from '../../../src-main/engine/transcripts/parser'
import { readTranscriptFile } from '../../../src-main/node/transcripts/read'
import { FIXTURES } from '../../engine/transcripts/fixtures'

let tmp: string
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'loupe-read-'))
})
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

const userLine = (uuid: string, text: string) => JSON.stringify({ type: 'user', uuid, parentUuid: null, message: { role: 'user', content: text } })

describe('readTranscriptFile', () => {
  it('streams a real 3.4 MB session to the same records as parsing it in memory', async () => {
    const path = join(FIXTURES, 'spotter', 'fa812bfe-b295-4cca-9c2f-fdf01028cb46.jsonl')
    const read = await readTranscriptFile(path)
    expect(read.ok).toBe(true)
    if (!read.ok) return
    expect(read.bytes).toBe(3_465_426)
    expect(read.parsed).toEqual(parseTranscript(readFileSync(path, 'utf8')))
  })

  it('keeps a multi-byte character that straddles two read chunks', async () => {
    // Reads are 1 MiB; the first line is padded so that "é" (2 bytes in UTF-8) starts on the chunk's last byte.
    const prefix = '{"type":"user","uuid":"u1","parentUuid":null,"message":{"role":"user","content":"'
    const pad = 'a'.repeat(1024 * 1024 - 1 - Buffer.byteLength(prefix))
    const text = `${prefix}${pad}é"}}\n${userLine('u2', 'ü')}\n`
    const path = join(tmp, 'straddle.jsonl')
    writeFileSync(path, text)
    const read = await readTranscriptFile(path)
    expect(read.ok && read.parsed.skippedTotal).toBe(0)
    expect(read.ok && read.parsed.records[0]?.type === 'user' && read.parsed.records[0].content[0]).toEqual({ type: 'text', text: `${pad}é` })
  })

  it('counts a half-written last line of a session still being written', async () => {
    const path = join(tmp, 'live.jsonl')
    writeFileSync(path, `${userLine('u1', 'hi')}\n{"type":"assistant","uuid":"a1","mess`)
    const read = await readTranscriptFile(path)
    expect(read.ok && read.parsed.skipped.truncated_last_line).toBe(1)
  })

  it('refuses a file over the size limit without reading it', async () => {
    const path = join(tmp, 'big.jsonl')
    writeFileSync(path, `${userLine('u1', 'x'.repeat(2000))}\n`)
    const read = await readTranscriptFile(path, { maxFileBytes: 1000 })
    expect(read).toMatchObject({ ok: false, error: { kind: 'too_large' } })
  })

  it('reports a missing file and a folder', async () => {
    expect(await readTranscriptFile(join(tmp, 'nope.jsonl'))).toMatchObject({ ok: false, error: { kind: 'not_found' } })
    mkdirSync(join(tmp, 'dir.jsonl'))
    expect(await readTranscriptFile(join(tmp, 'dir.jsonl'))).toMatchObject({ ok: false, error: { kind: 'not_a_file' } })
  })

  it('reads bytes that are not UTF-8 as U+FFFD: inside a string the line is used, breaking the JSON it is counted', async () => {
    const path = join(tmp, 'latin1.jsonl')
    const inString = Buffer.concat([Buffer.from('{"type":"user","uuid":"u1","parentUuid":null,"message":{"content":"caf'), Buffer.from([0xe9]), Buffer.from('"}}\n')])
    const outside = Buffer.concat([Buffer.from('{"type":"user"'), Buffer.from([0xff]), Buffer.from('}\n')])
    writeFileSync(path, Buffer.concat([inString, outside]))
    const read = await readTranscriptFile(path)
    expect(read.ok && read.parsed.skipped.malformed_json).toBe(1)
    expect(read.ok && read.parsed.records[0]?.type === 'user' && read.parsed.records[0].content[0]).toEqual({ type: 'text', text: 'caf\ufffd' })
  })

  it('says in a sentence naming the path why a file could not be read', async () => {
    const loop = join(tmp, 'loop.jsonl')
    symlinkSync(loop, loop)
    expect(await readTranscriptFile(loop)).toEqual({ ok: false, error: { kind: 'io', message: `${loop} is a symbolic link loop` } })
    // An error without words of its own still starts with the path, not with Node's "Error: ENAMETOOLONG …".
    const long = join(tmp, `${'n'.repeat(300)}.jsonl`)
    const named = await readTranscriptFile(long)
    expect(named).toMatchObject({ ok: false, error: { kind: 'io' } })
    expect(!named.ok && named.error.message.startsWith(`${long} could not be read: `)).toBe(true)
    const under = join(tmp, 'latin1.jsonl', 'x.jsonl')
    expect(await readTranscriptFile(under)).toEqual({ ok: false, error: { kind: 'not_found', message: `${under} does not exist` } })
    symlinkSync('/dev/zero', join(tmp, 'zero.jsonl'))
    expect(await readTranscriptFile(join(tmp, 'zero.jsonl'))).toEqual({ ok: false, error: { kind: 'not_a_file', message: `${join(tmp, 'zero.jsonl')} is not a regular file (a device)` } })
  })

  it('refuses a symlink that leads outside the folder it must stay in, and follows one inside', async () => {
    const root = join(tmp, 'root')
    mkdirSync(root)
    writeFileSync(join(tmp, 'outside.jsonl'), `${userLine('u1', 'secret')}\n`)
    writeFileSync(join(root, 'inside.jsonl'), `${userLine('u1', 'fine')}\n`)
    symlinkSync(join(tmp, 'outside.jsonl'), join(root, 'out-link.jsonl'))
    symlinkSync(join(root, 'inside.jsonl'), join(root, 'in-link.jsonl'))
    expect(await readTranscriptFile(join(root, 'out-link.jsonl'), { root })).toMatchObject({ ok: false, error: { kind: 'outside_root' } })
    expect(await readTranscriptFile(join(root, 'in-link.jsonl'), { root })).toMatchObject({ ok: true })
  })

  it('says the projects folder it must stay in is missing, not that the file is', async () => {
    const file = join(tmp, 'here.jsonl')
    writeFileSync(file, `${userLine('u1', 'fine')}\n`)
    const root = join(tmp, 'no-such-projects')
    const message = `The projects folder ${root} does not exist: ${file} is read only from inside it`
    expect(await readTranscriptFile(file, { root })).toEqual({ ok: false, error: { kind: 'not_found', message } })
    // A file that is not there either: the folder is what is missing first.
    expect(await readTranscriptFile(join(tmp, 'gone.jsonl'), { root })).toMatchObject({ ok: false, error: { kind: 'not_found', message: expect.stringMatching(/^The projects folder /) } })
    // A projects folder that is a file is not a folder to stay in.
    expect(await readTranscriptFile(file, { root: file })).toEqual({ ok: false, error: { kind: 'not_found', message: `The projects folder ${file} is not a folder: ${file} is read only from inside one` } })
  })
})
