import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { openStore, type Store } from '../../../src-main/node/store'
import { exportSession, ImportError, importSession } from '../../../src-main/node/store/export'

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
