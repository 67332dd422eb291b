/**
 * Names in the store (decision 0051): every way a session title or a project name comes in (a new session, a rename,
 * a folder opened, an imported Claude Code transcript, an export imported) keeps it as every name is kept, and a row
 * written before that rule reads back clean. On a real temporary SQLite file.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openStore, type Store } from '../../../src-main/node/store'
import { exportSessionToFile, importSessionFromFile } from '../../../src-main/node/store/export'
import { importTranscript } from '../../../src-main/node/transcripts/store-import'
import { listTranscripts, DescriptionCache } from '../../../src-main/node/transcripts/listing'

const NOW = Date.UTC(2026, 10, 29, 12)
const HOSTILE = 'Fix\r\nthe \u202Egnp.exe\u0000 parser\u200B\t\u2066now\u2069 \uDFFF'
const CLEAN = 'Fix the gnp.exe parser now'
const stamp = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString()

let dir: string
let store: Store
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'loupe-names-')))
  store = openStore(join(dir, 'loupe.db'))
})
afterEach(() => {
  store.close()
  rmSync(dir, { recursive: true, force: true })
})

const rawTitle = (id: string) => store.db.prepare('SELECT title FROM sessions WHERE id = ?').pluck().get(id)
const rawName = (id: string) => store.db.prepare('SELECT name FROM projects WHERE id = ?').pluck().get(id)

describe('a session title', () => {
  it('is kept clean when a session is made and renamed, and a rename to nothing visible is refused, the name kept', () => {
    const project = store.projects.open(join(dir, 'app'), NOW)
    const session = store.sessions.create(project.id, HOSTILE, NOW)
    expect(session.title).toBe(CLEAN)
    expect(rawTitle(session.id)).toBe(CLEAN)
    expect(store.sessions.create(project.id, '\u200B\n\u0000', NOW).title).toBe(store.sessions.create(project.id, '', NOW).title)
    expect(store.sessions.rename(session.id, `${'long '.repeat(100)}\n`, NOW + 1)!.title).toBe(`${'long '.repeat(39)}long…`)
    expect(() => store.sessions.rename(session.id, '\u202E\u200B \u0000', NOW + 2)).toThrow(/at least one character that shows/)
    expect(store.sessions.get(session.id)!.title).toBe(`${'long '.repeat(39)}long…`)
  })

  it('written before the rule (an older version, a hand-edited store) reads back clean, and is exported clean', async () => {
    const project = store.projects.open(join(dir, 'app'), NOW)
    const dirty = store.sessions.create(project.id, 'placeholder', NOW)
    const blank = store.sessions.create(project.id, 'placeholder', NOW)
    // (Without its half surrogate: SQLite would keep it as U+FFFD, a character that shows.)
    store.db.prepare('UPDATE sessions SET title = ? WHERE id = ?').run(`${HOSTILE.replace('\uDFFF', '')}${'x'.repeat(10_000_000)}`, dirty.id)
    store.db.prepare('UPDATE sessions SET title = ? WHERE id = ?').run('\u202E\u0000\u200B', blank.id)
    expect(store.sessions.get(dirty.id)!.title).toBe(`${CLEAN} ${'x'.repeat(198 - CLEAN.length)}…`)
    expect(store.sessions.get(blank.id)!.title).toBe(store.sessions.create(project.id, '', NOW).title)
    expect(store.sessions.listByProject(project.id).map((s) => s.title)).not.toContainEqual(expect.stringMatching(/[\u0000\u202E\u200B]/))
    const written = await exportSessionToFile(store.db, dirty.id, join(dir, 'dirty.json'), join(dir, '.home'))
    const doc = JSON.parse(readFileSync(written!.path, 'utf8')) as { session: { title: string } }
    expect(doc.session.title).toBe(store.sessions.get(dirty.id)!.title)
  })

  it('from an export file is kept clean, not refused: a long, multi-line or empty one imports', async () => {
    const project = store.projects.open(join(dir, 'app'), NOW)
    const session = store.sessions.create(project.id, 'to export', NOW)
    store.entries.append(session.id, [{ kind: 'user_message', content: [{ type: 'text', text: 'hello' }] }], NOW)
    const { path } = (await exportSessionToFile(store.db, session.id, join(dir, 'one.json'), join(dir, '.home')))!
    store.sessions.delete(session.id)
    const doc = JSON.parse(readFileSync(path, 'utf8')) as { session: { title: string } }
    for (const [title, shown] of [[HOSTILE, CLEAN], ['y'.repeat(5_000), `${'y'.repeat(199)}…`], ['\u2060\n', store.sessions.create(project.id, '', NOW).title]] as const) {
      writeFileSync(path, JSON.stringify({ ...doc, session: { ...doc.session, title } }))
      const id = await importSessionFromFile(store.db, path, project.id)
      expect(rawTitle(id)).toBe(shown)
      store.sessions.delete(id)
    }
  })
})

describe('a project name', () => {
  it("is its folder's name kept clean, else the path when the folder's name shows nothing, for new and old rows", () => {
    const root = join(dir, `evil\u202Egnp.exe\nname\u0007`)
    const project = store.projects.open(root, NOW)
    expect(project.name).toBe('evilgnp.exe name')
    expect(rawName(project.id)).toBe('evilgnp.exe name')
    const invisible = store.projects.open(join(dir, '\u200B\u200B'), NOW)
    expect(invisible.name).toBe(`${dir}/`)
    // A row an older version wrote from the raw folder name reads back clean; a blank one, as its folder.
    const old = store.projects.open(join(dir, 'old'), NOW)
    store.db.prepare('UPDATE projects SET name = ? WHERE id = ?').run(`a\u0000b\n${'c'.repeat(1_000)}`, old.id)
    expect(store.projects.get(old.id)!.name).toBe(`ab ${'c'.repeat(196)}…`)
    store.db.prepare('UPDATE projects SET name = ? WHERE id = ?').run('\u202E', old.id)
    expect(store.projects.list().find((p) => p.id === old.id)!.name).toBe('old')
  })
})

describe('a Claude Code transcript imported', () => {
  function user(uuid: string, parent: string | null, text: string, cwd: string): string {
    return JSON.stringify({ type: 'user', uuid, parentUuid: parent, sessionId: 'names-1', cwd, version: '2.1.39', timestamp: stamp(Number(uuid.slice(1)) * 10), message: { role: 'user', content: text } })
  }
  function assistant(uuid: string, parent: string, requestId: string, content: unknown[] = [{ type: 'text', text: 'ok' }]): string {
    return JSON.stringify({
      type: 'assistant', uuid, parentUuid: parent, sessionId: 'names-1', requestId, timestamp: stamp(Number(uuid.slice(1)) * 10 + 5),
      message: { id: `msg_${requestId}`, model: 'claude-opus-4-6', role: 'assistant', content, usage: { input_tokens: 3, cache_read_input_tokens: 5000, cache_creation_input_tokens: 200, output_tokens: 40 } },
    })
  }
  function transcript(lines: string[], cwd: string): { projectsDir: string; path: string } {
    const projectsDir = join(dir, 'projects')
    const folder = join(projectsDir, '-gone-away-shop')
    mkdirSync(folder, { recursive: true })
    const path = join(folder, 'names-1.jsonl')
    writeFileSync(path, lines.join('\n'))
    return { projectsDir, path }
  }

  it('lists and names its session clean from a summary line, and its project from a gone working folder', async () => {
    const cwd = `/gone/away/sh\u202Eop\u0000\n`
    const task = { type: 'tool_use', id: 'toolu_1', name: 'Task', input: { description: `look\u0000 \u202Earound\n\u200B`, prompt: 'go' } }
    const { projectsDir, path } = transcript([JSON.stringify({ type: 'summary', summary: HOSTILE, leafUuid: 'u1' }), user('u1', null, 'q', cwd), assistant('a2', 'u1', 'r1', [task])], cwd)
    const listed = await listTranscripts(store, projectsDir, new DescriptionCache())
    expect(listed.projects[0]!.sessions[0]!.title).toBe(CLEAN)
    const r = await importTranscript(store, path, { now: NOW })
    expect(r.title).toBe(`Claude Code: ${CLEAN}`)
    expect(rawTitle(r.sessionId)).toBe(`Claude Code: ${CLEAN}`)
    expect(store.projects.get(r.projectId)!.name).toBe('shop (Claude Code)')
    expect(rawName(r.projectId)).toBe('shop (Claude Code)')
  })

  it('falls back to the first prompt, then the session id, when a summary line shows nothing', async () => {
    const cwd = '/gone/away/shop'
    const first = transcript([JSON.stringify({ type: 'summary', summary: '\u200B\u202E\n', leafUuid: 'u1' }), user('u1', null, `\u001b[1mfix\u001b[0m the\u0000 build\nplease`, cwd), assistant('a2', 'u1', 'r1')], cwd)
    expect((await importTranscript(store, first.path, { now: NOW })).title).toBe('Claude Code: fix the build please')
  })
})
