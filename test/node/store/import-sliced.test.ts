/**
 * Importing a large export lets the host go on: after the one parse of the file, the rows are checked and staged in
 * slices, so a timer set meanwhile runs before the import is done (the old import checked and wrote everything in
 * one synchronous run after the parse). And it is still all or nothing: a row refused near the end writes nothing.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it, vi } from 'vitest'
import { openStore, type Store } from '../../../src-main/node/store'
import { exportSessionToFile, ImportError, importSession, importSessionFromFile, MAX_IMPORT_ROWS } from '../../../src-main/node/store/export'

const ENTRIES = 20_000

let dir: string
let a: Store
let b: Store
let path: string
let sessionId: string
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'loupe-import-sliced-'))
  a = openStore(join(dir, 'a.db'))
  b = openStore(join(dir, 'b.db'))
  const project = a.projects.open('/tmp/p', 1)
  sessionId = a.sessions.create(project.id, 'long', 1).id
  a.transaction(() => {
    for (let i = 0; i < ENTRIES / 2; i++) {
      a.entries.append(sessionId, [{ kind: 'user_message', content: [{ type: 'text', text: `question ${i}` }] }], 2 + i)
      a.entries.append(sessionId, [{ kind: 'assistant_message', passId: 'pas_x' as never, content: [{ type: 'text', text: `answer ${i}` }], stopReason: 'end_turn', partial: false }], 2 + i)
    }
  })
  path = join(dir, 'long.json')
  await exportSessionToFile(a.db, sessionId, path, join(dir, 'data'))
})
afterEach(() => {
  vi.restoreAllMocks()
  a.close()
  b.close()
  rmSync(dir, { recursive: true, force: true })
})

/** Runs `work` with a timer that re-arms itself; how many times it ran after the export's text was parsed. */
async function ticksAfterParse(work: () => Promise<unknown>): Promise<number> {
  const parse = JSON.parse
  let parsed = false
  vi.spyOn(JSON, 'parse').mockImplementation((text: string, reviver?: (this: unknown, key: string, value: unknown) => unknown) => {
    const value = parse(text, reviver) as unknown
    if (text.length > 1_000_000) parsed = true
    return value
  })
  let ticks = 0
  let running = true
  const tick = () => {
    if (parsed) ticks++
    if (running) setTimeout(tick, 0)
  }
  setTimeout(tick, 0)
  try {
    await work()
  } finally {
    running = false
  }
  return ticks
}

it('lets a timer run while a large export is checked and written, and imports every entry', async () => {
  const target = b.projects.open('/tmp/q', 1)
  const ticks = await ticksAfterParse(() => importSessionFromFile(b.db, path, target.id))
  expect(ticks).toBeGreaterThan(0)
  expect(b.entries.count(sessionId)).toBe(ENTRIES)
})

it('writes nothing when a row near the end is refused, and leaves no staging table behind', async () => {
  const doc = JSON.parse(readFileSync(path, 'utf8')) as { entries: Array<Record<string, unknown>> }
  doc.entries[ENTRIES - 1] = { ...doc.entries[ENTRIES - 1], body: '{"kind":"user_message"}' }
  writeFileSync(path, JSON.stringify(doc))
  const target = b.projects.open('/tmp/q', 1)
  await expect(importSessionFromFile(b.db, path, target.id)).rejects.toThrow(ImportError)
  await expect(importSessionFromFile(b.db, path, target.id)).rejects.toThrow(`entry ${ENTRIES} (user_message): content is missing`)
  expect(b.db.prepare('SELECT COUNT(*) FROM entries').pluck().get()).toBe(0)
  expect(b.db.prepare('SELECT COUNT(*) FROM sessions').pluck().get()).toBe(0)
  expect(b.db.prepare("SELECT name FROM temp.sqlite_master WHERE type = 'table'").pluck().all()).toEqual([])
})

it('refuses an export of more rows than an import takes, before checking any of them', () => {
  const target = b.projects.open('/tmp/q', 1)
  const doc = { format: 'loupe-session', version: 1, project: { name: 'p', root: '/tmp/p' }, session: { id: 'ses_many' }, entries: new Array(MAX_IMPORT_ROWS + 1).fill({}), passes: [], passBlocks: [], blobs: {} }
  expect(() => importSession(b.db, doc, target.id)).toThrow(`the export holds ${MAX_IMPORT_ROWS + 1} rows, more than the ${MAX_IMPORT_ROWS} an import takes`)
})
