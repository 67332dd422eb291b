/**
 * Transcript files that are not files: a FIFO named `*.jsonl` (to import, or beside a session as `agent-*.jsonl`)
 * must be refused without opening it, since opening a FIFO for reading waits for a writer forever.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { loadSession } from '../../../src-main/node/transcripts/load'
import { readTranscriptFile } from '../../../src-main/node/transcripts/read'
import { importTranscript, TranscriptImportError } from '../../../src-main/node/transcripts/store-import'
import { FIFOS, mkfifo, releaseFifo, within } from '../tools/fifo'
import { tempStore } from './store-helpers'

const line = (o: object) => JSON.stringify(o)
const base = { sessionId: 's-1', timestamp: '2025-09-01T00:00:00.000Z' }
const SESSION = [
  line({ ...base, type: 'user', uuid: 'u1', parentUuid: null, message: { role: 'user', content: 'go' } }),
  line({ ...base, type: 'assistant', uuid: 'a1', parentUuid: 'u1', requestId: 'r1', message: { id: 'm1', model: 'claude-sonnet-4-20250514', content: [], usage: { input_tokens: 1, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 } } }),
].join('\n') + '\n'

let dir: string
const fifos: string[] = []
const fifoAt = (path: string) => {
  mkfifo(path)
  fifos.push(path)
  return path
}
beforeEach(() => {
  dir = join(realpathSync(mkdtempSync(join(tmpdir(), 'loupe-fifo-'))), 'projects', '-p')
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 's-1.jsonl'), SESSION)
})
afterEach(() => {
  for (const fifo of fifos.splice(0)) releaseFifo(fifo)
  rmSync(join(dir, '..', '..'), { recursive: true, force: true })
})

describe.runIf(FIFOS)('FIFOs among transcripts', () => {
  it('refuses to read a FIFO named *.jsonl, at once', async () => {
    const fifo = fifoAt(join(dir, 'pipe.jsonl'))
    const read = await within(3_000, readTranscriptFile(fifo), 'readTranscriptFile')
    expect(read).toEqual({ ok: false, error: { kind: 'not_a_file', message: `${fifo} is not a regular file (a named pipe (FIFO))` } })
  })

  it('refuses to import a FIFO, with a not_a_file error', async () => {
    const fifo = fifoAt(join(dir, 'pipe.jsonl'))
    const temp = tempStore()
    try {
      const attempt = within(3_000, importTranscript(temp.store, fifo, { now: 0, root: join(dir, '..') }), 'import')
      await expect(attempt).rejects.toBeInstanceOf(TranscriptImportError)
      await expect(attempt).rejects.toMatchObject({ kind: 'not_a_file' })
    } finally {
      temp.dispose()
    }
  })

  it('loads a session beside a FIFO named agent-*.jsonl, leaving the FIFO alone', async () => {
    fifoAt(join(dir, 'agent-0001.jsonl'))
    const loaded = await within(3_000, loadSession(join(dir, 's-1.jsonl')), 'loadSession')
    expect(loaded).toMatchObject({ ok: true, unreadableSubagents: [] })
  })

  it('loads a session whose subagents folder holds a FIFO, listing it as not read', async () => {
    mkdirSync(join(dir, 's-1', 'subagents'), { recursive: true })
    const fifo = fifoAt(join(dir, 's-1', 'subagents', 'agent-x.jsonl'))
    const loaded = await within(3_000, loadSession(join(dir, 's-1.jsonl')), 'loadSession')
    expect(loaded).toMatchObject({ ok: true, unreadableSubagents: [{ path: fifo, kind: 'not_a_file' }] })
  })
})

describe('symbolic link loops among transcripts', () => {
  it('are named as loops', async () => {
    symlinkSync('loop.jsonl', join(dir, 'loop.jsonl'))
    expect(await readTranscriptFile(join(dir, 'loop.jsonl'))).toEqual({ ok: false, error: { kind: 'io', message: `${join(dir, 'loop.jsonl')} is a symbolic link loop` } })
  })
})
