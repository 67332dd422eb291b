/**
 * A database written by the store at schema version 3 (hex hashes; test/fixtures/store/schema-v3.db, made by
 * make-schema-v3.mts beside it) opens at the newest version with nothing lost: every pass re-assembles to the bytes
 * it captured, attributions and blobs read back, and the export document still spells hashes in hex.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { openStore, schemaVersion, type Store } from '../../../src-main/node/store'
import { sha256Hex } from '../../../src-main/node/store/blobs'
import { exportSession, importSession } from '../../../src-main/node/store/export'
import { migrations } from '../../../src-main/node/store/migrations'

const FIXTURE = join(__dirname, '../../fixtures/store/schema-v3.db')

let dir: string
let store: Store
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loupe-migrate-'))
  copyFileSync(FIXTURE, join(dir, 'loupe.db'))
})
afterEach(() => {
  store?.close()
  rmSync(dir, { recursive: true, force: true })
})

it('migrates a version-3 store to 32-byte hashes with every pass intact', () => {
  store = openStore(join(dir, 'loupe.db'))
  expect(schemaVersion(store.db)).toBe(migrations.at(-1)!.version)
  expect(store.db.pragma('foreign_keys', { simple: true })).toBe(1)
  expect(store.db.pragma('foreign_key_check')).toEqual([])
  expect(store.db.prepare('SELECT DISTINCT length(hash) FROM blobs').pluck().all()).toEqual([32])
  expect(store.db.prepare('SELECT DISTINCT typeof(blob_hash) FROM pass_blocks').pluck().all()).toEqual(['blob'])

  const [project] = store.projects.list()
  const [session] = store.sessions.listByProject(project!.id)
  const passes = store.passes.list(session!.id)
  expect(passes).toHaveLength(6)
  for (const [i, p] of passes.entries()) {
    const detail = store.passes.get(p.id)!
    expect(sha256Hex(detail.requestBody)).toBe(p.requestSha256)
    expect(detail.responseRaw).toBe(`event: message_stop\ndata: {"i":${i}}\n\n`)
    expect(p.attribution).toEqual({ outcome: i === 0 ? 'cold' : 'hit', pass: i })
    expect(detail.plan).toEqual({ breakpoints: ['static'] })
    expect(detail.segments.find((s) => s.path === 'system[0]')?.breakpoint).toBe('static')
    expect(JSON.parse(detail.requestBody).messages).toHaveLength(2 * i + 1)
  }

  // Rows written before the migration and after it live side by side: a new pass deltas against a migrated one.
  const last = store.passes.get(passes.at(-1)!.id)!
  const grown = JSON.parse(last.requestBody) as { messages: unknown[] }
  grown.messages.push({ role: 'assistant', content: [{ type: 'text', text: 'answer 5' }] }, { role: 'user', content: [{ type: 'text', text: 'one more' }] })
  const body = JSON.stringify(grown)
  const added = store.transaction(() =>
    store.passes.insert({
      ...last,
      sessionId: session!.id,
      queuedAt: last.queuedAt + 5000,
      doneAt: last.queuedAt + 5100,
      requestBody: body,
      segmentMeta: () => ({ provenance: null, breakpoint: null }),
      attempts: [],
      plan: {},
    }),
  )
  expect(store.passes.get(added.id)!.requestBody).toBe(body)
  expect(store.db.prepare('SELECT base_count FROM passes WHERE id = ?').pluck().get(added.id)).toBeGreaterThan(0)

  // The export speaks hex, as it did at version 3, and imports back to the same document.
  const doc = exportSession(store.db, session!.id)!
  expect(doc.passes.every((p) => /^[0-9a-f]{64}$/.test(String(p.skeleton_hash)))).toBe(true)
  expect(doc.passBlocks.every((b) => /^[0-9a-f]{64}$/.test(String(b.blob_hash)))).toBe(true)
  const other = openStore(join(dir, 'other.db'))
  try {
    const target = other.projects.open('/tmp/elsewhere', 1)
    importSession(other.db, doc, target.id)
    expect(exportSession(other.db, session!.id)).toEqual({ ...doc, project: { name: 'elsewhere', root: '/tmp/elsewhere' }, session: { ...doc.session, project_id: target.id } })
  } finally {
    other.close()
  }
})
