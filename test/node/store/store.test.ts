import Database from 'better-sqlite3'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openStore, schemaVersion, type Store } from '../../../src-main/node/store'
import { migrations } from '../../../src-main/node/store/migrations'

describe('store', () => {
  let dir: string
  let store: Store
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'loupe-store-'))
    store = openStore(join(dir, 'loupe.db'))
  })
  afterEach(() => {
    store.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('runs in WAL mode at the newest schema version', () => {
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal')
    expect(schemaVersion(store.db)).toBe(migrations.at(-1)!.version)
  })

  it('opens a project once per root and touches it on reopen', () => {
    const a = store.projects.open('/tmp/a', 1000)
    const again = store.projects.open('/tmp/a', 2000)
    store.projects.open('/tmp/b', 1500)
    expect(again.id).toBe(a.id)
    expect(again.lastOpenedAt).toBe(2000)
    expect(store.projects.list().map((p) => p.root)).toEqual(['/tmp/a', '/tmp/b'])
  })

  it('creates and lists sessions newest first, and they survive reopening the file', () => {
    const p = store.projects.open('/tmp/a', 1000)
    const s1 = store.sessions.create(p.id, 'first', 1000)
    const s2 = store.sessions.create(p.id, 'second', 2000)
    expect(store.sessions.listByProject(p.id).map((s) => s.id)).toEqual([s2.id, s1.id])
    store.close()
    store = openStore(join(dir, 'loupe.db'))
    expect(store.sessions.listByProject(p.id).map((s) => s.title)).toEqual(['second', 'first'])
    expect(store.sessions.get(s1.id)?.projectId).toBe(p.id)
  })

  it('refuses a session for an unknown project (foreign keys on)', () => {
    expect(() => store.sessions.create('prj_missing', 'x', 1)).toThrow(/FOREIGN KEY/)
  })

  it('applies migrations only once', () => {
    store.close()
    store = openStore(join(dir, 'loupe.db'))
    expect(schemaVersion(store.db)).toBe(migrations.at(-1)!.version)
  })

  it('refuses a data folder a newer Loupe wrote, and leaves it as it was', () => {
    store.close()
    const raw = new Database(join(dir, 'loupe.db'))
    raw.pragma(`user_version = ${migrations.at(-1)!.version + 1}`)
    raw.close()
    expect(() => openStore(join(dir, 'loupe.db'))).toThrow(/written by a newer Loupe/)
    const after = new Database(join(dir, 'loupe.db'))
    expect(after.pragma('user_version', { simple: true })).toBe(migrations.at(-1)!.version + 1)
    after.close()
    store = openStore(join(dir, 'other.db'))
  })
})
