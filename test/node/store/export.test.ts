import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { openStore, type Store } from '../../../src-main/node/store'
import { exportSession, exportSessionText, ImportError, importSession, importSessionFromFile } from '../../../src-main/node/store/export'
import { importTranscript } from '../../../src-main/node/transcripts/store-import'

let dir: string
let a: Store
let b: Store
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loupe-export-'))
  a = openStore(join(dir, 'a.db'))
  b = openStore(join(dir, 'b.db'))
})
afterEach(() => {
  a.close()
  b.close()
  rmSync(dir, { recursive: true, force: true })
})

it('imports a subagent session exported on its own: its parent is not in the store, so it comes in without one', () => {
  const project = a.projects.open('/tmp/p', 1)
  const parent = a.sessions.create(project.id, 'main thread', 1)
  const child = a.sessions.create(project.id, 'subagent', 2)
  a.db.prepare("UPDATE sessions SET parent_session_id = ?, origin = 'transcript', origin_ref = ? WHERE id = ?").run(parent.id, '{"file":"agent-1.jsonl"}', child.id)
  a.entries.append(child.id, [{ kind: 'user_message', content: [{ type: 'text', text: 'look around' }] }], 3)

  const doc = exportSession(a.db, child.id)!
  const target = b.projects.open('/tmp/q', 1)
  importSession(b.db, doc, target.id)
  const row = b.db.prepare('SELECT parent_session_id, origin, origin_ref FROM sessions WHERE id = ?').get(child.id)
  expect(row).toEqual({ parent_session_id: null, origin: 'transcript', origin_ref: '{"file":"agent-1.jsonl"}' })
  expect(b.entries.list(child.id).map((e) => ({ kind: e.kind, seq: e.seq }))).toEqual([{ kind: 'user_message', seq: 1 }])

  // Where the parent is present, the link is kept.
  const parentDoc = exportSession(a.db, parent.id)!
  const c = openStore(join(dir, 'c.db'))
  try {
    const there = c.projects.open('/tmp/r', 1)
    importSession(c.db, parentDoc, there.id)
    importSession(c.db, doc, there.id)
    expect(c.db.prepare('SELECT parent_session_id FROM sessions WHERE id = ?').pluck().get(child.id)).toBe(parent.id)
  } finally {
    c.close()
  }
})

it('refuses an export whose hashes are not sha256s, and writes nothing', () => {
  const project = a.projects.open('/tmp/p', 1)
  const s = a.sessions.create(project.id, 'x', 1)
  const doc = exportSession(a.db, s.id)!
  const bad = { ...doc, passes: [{ id: 'pas_1', session_id: s.id, seq: 1, skeleton_hash: 'zz' }] }
  const target = b.projects.open('/tmp/q', 1)
  expect(() => importSession(b.db, bad, target.id)).toThrow(ImportError)
  expect(b.sessions.get(s.id)).toBeNull()
})

it('refuses an export whose attempts name a response that is not a sha256', () => {
  const project = a.projects.open('/tmp/p', 1)
  const s = a.sessions.create(project.id, 'x', 1)
  const doc = exportSession(a.db, s.id)!
  const pass = { id: 'pas_1', session_id: s.id, seq: 1, attempts: JSON.stringify([{ responseHash: 'not-a-hash' }]) }
  const target = b.projects.open('/tmp/q', 1)
  expect(() => importSession(b.db, { ...doc, passes: [pass] }, target.id)).toThrow(/not a sha256/)
  expect(b.sessions.get(s.id)).toBeNull()
})

it('collects garbage even when an attempt names a response that is not hex', () => {
  const project = a.projects.open('/tmp/p', 1)
  const s = a.sessions.create(project.id, 'x', 1)
  a.blobs.put('nobody names this text')
  // A damaged row (written by hand, or by a bug): it must not stop every other blob from being collected.
  a.db.prepare("INSERT INTO passes (id, session_id, seq, kind, model, status, queued_at, request_sha256, request_bytes, skeleton_hash, segment_count, attempts) VALUES ('pas_x', ?, 1, 'main', 'm', 'done', 1, zeroblob(32), 0, ?, 0, ?)")
    .run(s.id, Buffer.from(a.blobs.put('{}'), 'hex'), JSON.stringify([{ responseHash: 'zz' }]))
  expect(a.blobs.collectGarbage()).toBe(1)
})

it('refuses rows that belong to another session, a session id the app cannot name, bodies that are not entries, and columns the store lacks, writing nothing', () => {
  const project = a.projects.open('/tmp/p', 1)
  const s = a.sessions.create(project.id, 'x', 1)
  a.entries.append(s.id, [{ kind: 'user_message', content: [{ type: 'text', text: 'hello' }] }], 2)
  const doc = exportSession(a.db, s.id)!
  const target = b.projects.open('/tmp/q', 1)
  const victim = b.sessions.create(target.id, 'victim', 1)
  b.entries.append(victim.id, [{ kind: 'user_message', content: [{ type: 'text', text: 'mine' }] }], 2)
  const entry = doc.entries[0]!
  const cases: Array<[unknown, RegExp]> = [
    [{ ...doc, session: { ...doc.session, id: 'ses_new' }, entries: [{ ...entry, session_id: victim.id, seq: 999 }] }, /^entry 1 belongs to another session/],
    [{ ...doc, session: { ...doc.session, id: 'bad id/../x' } }, /^session\.id is not a session id/],
    [{ ...doc, entries: [{ ...entry, body: '{not json' }] }, /^entry 1: its body is not JSON$/],
    [{ ...doc, entries: [{ ...entry, body: '[1]' }] }, /^entry 1: the body is not an object$/],
    [{ ...doc, session: { ...doc.session, zzz: 1 } }, /^the export does not fit this store: .*zzz/],
    [{ ...doc, session: { ...doc.session, title: true } }, /^session\.title is not text$/],
    [{ ...doc, session: { ...doc.session, title: { nested: 1 } } }, /^session\.title is not text$/],
    [{ ...doc, session: { ...doc.session, created_at: { nested: 1 } } }, /^session\.created_at and session\.updated_at must be times$/],
    [{ ...doc, passBlocks: [{ pass_id: 'pas_elsewhere', ordinal: 0 }] }, /^passBlocks\[0\] belongs to a pass this export does not hold/],
    // An entry id the store already has (another session's): the file copies a session that is here, said so.
    [{ ...doc, entries: [{ ...entry, id: b.entries.list(victim.id)[0]!.id }] }, /^its entries are already in this store, under another session: an export keeps its ids, so this file copies a session that is here already, with its session id changed$/],
  ]
  for (const [bad, message] of cases) {
    expect(() => importSession(b.db, bad, target.id)).toThrow(message)
    expect(() => importSession(b.db, bad, target.id)).toThrow(ImportError)
  }
  // Nothing was written: the victim has its one entry, and no session came in.
  expect(b.entries.list(victim.id).map((e) => e.kind)).toEqual(['user_message'])
  expect(b.db.prepare('SELECT id FROM sessions').pluck().all()).toEqual([victim.id])
  // The untouched document still imports.
  expect(importSession(b.db, doc, target.id)).toBe(s.id)
})

it('writes, in slices, exactly the text of the document, and refuses a session deleted while it was exported', async () => {
  // A real recorded session: passes with segments, blobs, compressed entry bodies, text that needs escaping.
  const imported = await importTranscript(a, join(__dirname, '../../fixtures/real/spotter/4d5611e5-241a-462a-8d15-5122611a9569.jsonl'), { now: 1 })
  const text = await exportSessionText(a.db, imported.sessionId)
  expect(text).toBe(JSON.stringify(exportSession(a.db, imported.sessionId)))
  expect(await exportSessionText(a.db, 'no-such-session')).toBeNull()

  // Deleted between two slices (of no time at all: a pause after every step) by a callback run in the pause.
  const exporting = exportSessionText(a.db, imported.sessionId, 0)
  setImmediate(() => a.transaction(() => a.sessions.delete(imported.sessionId)))
  await expect(exporting).rejects.toThrow(/was deleted while it was being exported/)
})

it('says a path that is not a regular file is not one, rather than that there is no file there', async () => {
  const target = b.projects.open('/tmp/q', 1)
  const fifo = join(dir, 'pipe.json')
  execFileSync('mkfifo', [fifo])
  await expect(importSessionFromFile(b.db, fifo, target.id)).rejects.toThrow(new ImportError(`${fifo} is a named pipe (FIFO), not a regular file: give the export file`))
  await expect(importSessionFromFile(b.db, '/dev/null', target.id)).rejects.toThrow(new ImportError('/dev/null is a device, not a regular file: give the export file'))
  // /dev/stdin is a link to whatever the process reads from: a pipe, a terminal or /dev/null here, never an export.
  const stdin = statSync('/dev/stdin', { throwIfNoEntry: false })
  if (stdin !== undefined && !stdin.isFile()) await expect(importSessionFromFile(b.db, '/dev/stdin', target.id)).rejects.toThrow(/^\/dev\/stdin is a .*, not a regular file: give the export file$/)
  await expect(importSessionFromFile(b.db, dir, target.id)).rejects.toThrow(new ImportError(`${dir} is a folder: give the export file in it`))
  await expect(importSessionFromFile(b.db, join(dir, 'missing.json'), target.id)).rejects.toThrow(new ImportError(`No file at ${join(dir, 'missing.json')}`))
  await expect(importSessionFromFile(b.db, join(dir, 'missing', 'x.json'), target.id)).rejects.toThrow(new ImportError(`No file at ${join(dir, 'missing', 'x.json')}`))
  expect(b.db.prepare('SELECT COUNT(*) FROM sessions').pluck().get()).toBe(0)
})
