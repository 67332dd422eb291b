/**
 * Store import at its edges: hostile lines are skipped with counts and the rest imports; importing again (also twice
 * at once, or by two writers of one store file) does nothing for an unchanged file and replaces the import of a grown
 * one, leaving one session per file; the project is the session's folder when it exists here, else one made for the
 * transcript's folder; files outside the allowed root are refused; continuing an imported conversation gives a
 * history the API accepts.
 */
import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { toHistory, unansweredToolUses } from '../../../src-main/engine/conversation/history'
import { continueImported, UNANSWERED_RESULT } from '../../../src-main/node/transcripts/continue'
import { continuationsOf, sessionOrigin } from '../../../src-main/node/transcripts/origins'
import { importTranscript, TranscriptImportError } from '../../../src-main/node/transcripts/store-import'
import { openStore } from '../../../src-main/node/store'
import { FIXTURES, tempStore, type TempStore } from './store-helpers'

const NOW = Date.UTC(2026, 10, 29, 12)
const stamp = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString()

function user(uuid: string, parent: string | null, text: string, cwd: string): string {
  return JSON.stringify({ type: 'user', uuid, parentUuid: parent, sessionId: 'hostile-1', cwd, version: '2.1.39', timestamp: stamp(Number(uuid.slice(1)) * 10), message: { role: 'user', content: text } })
}
function assistant(uuid: string, parent: string, requestId: string, content: unknown[] = [{ type: 'text', text: 'ok' }]): string {
  return JSON.stringify({
    type: 'assistant', uuid, parentUuid: parent, sessionId: 'hostile-1', requestId, timestamp: stamp(Number(uuid.slice(1)) * 10 + 5),
    message: { id: `msg_${requestId}`, model: 'claude-opus-4-6', role: 'assistant', content, usage: { input_tokens: 3, cache_read_input_tokens: 5000, cache_creation_input_tokens: 200, output_tokens: 40 } },
  })
}

let t: TempStore | null = null
const dirs: string[] = []
afterEach(() => {
  t?.dispose()
  t = null
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})
function projectsDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'loupe-cc-projects-'))
  dirs.push(d)
  return realpathSync(d)
}

function sessionFile(root: string, lines: string[], cwd = '/nowhere/on/this/machine/app'): string {
  const dir = join(root, cwd.replace(/[/.]/g, '-'))
  mkdirSync(dir, { recursive: true })
  const path = join(dir, 'hostile-1.jsonl')
  writeFileSync(path, lines.join('\n'))
  return path
}

describe('hostile input through the store', () => {
  it('skips a truncated last line, a 5 MB line, binary garbage, an unknown type and a missing message, with counts', async () => {
    t = tempStore()
    const cwd = '/nowhere/on/this/machine/app'
    let garbage = ''
    for (let i = 0; i < 2048; i++) garbage += String.fromCharCode((i * 7919) % 256)
    const last = assistant('a5', 'u4', 'r3')
    const path = sessionFile(projectsDir(), [
      user('u1', null, 'first question', cwd),
      assistant('a2', 'u1', 'r1'),
      JSON.stringify({ type: 'user', uuid: 'big', parentUuid: 'a2', message: { role: 'user', content: 'x'.repeat(5 * 1024 * 1024) } }),
      garbage.replace(/\n/g, ' '),
      JSON.stringify({ type: 'hologram', uuid: 'h1', parentUuid: 'a2' }),
      JSON.stringify({ type: 'assistant', uuid: 'a9', parentUuid: 'a2', requestId: 'r9' }),
      user('u3', 'a2', 'second question', cwd),
      assistant('a4', 'u3', 'r2'),
      last.slice(0, last.length / 2),
    ])
    const r = await importTranscript(t.store, path, { now: NOW })
    expect(r.status).toBe('imported')
    expect(r.summary.skipped_by_reason).toEqual({ too_long: 1, malformed_json: 1, unknown_type: 1, missing_message: 1, truncated_last_line: 1 })
    const passes = t.store.passes.list(r.sessionId)
    expect(passes.map((p) => p.usage?.cache_read_input_tokens)).toEqual([5000, 5000])
    expect(toHistory(t.store.entries.list(r.sessionId)).map((h) => h.message.role)).toEqual(['user', 'assistant', 'user', 'assistant'])
    // The session says it is not the whole file, with the same counts, as every read of it gives it.
    const skippedLines = { total: 5, by: { too_long: 1, malformed_json: 1, unknown_type: 1, missing_message: 1, truncated_last_line: 1 } }
    expect(t.store.sessions.get(r.sessionId)?.skippedLines).toEqual(skippedLines)
    expect(t.store.sessions.listByProject(r.projectId).find((s) => s.id === r.sessionId)?.skippedLines).toEqual(skippedLines)
  })

  it('gives an imported session read whole no skipped lines', async () => {
    t = tempStore()
    const path = sessionFile(projectsDir(), [user('u1', null, 'q', '/x'), assistant('a2', 'u1', 'r1')])
    const r = await importTranscript(t.store, path, { now: NOW })
    expect(t.store.sessions.get(r.sessionId)).not.toHaveProperty('skippedLines')
  })

  it('records the skipped lines of an earlier import of an unchanged file, without importing it again', async () => {
    t = tempStore()
    const path = sessionFile(projectsDir(), [user('u1', null, 'q', '/x'), 'not json', assistant('a2', 'u1', 'r1')])
    const first = await importTranscript(t.store, path, { now: NOW })
    // As an import made before the count was recorded left it.
    t.store.db.prepare("UPDATE sessions SET origin_ref = json_remove(origin_ref, '$.skippedLines') WHERE id = ?").run(first.sessionId)
    expect(t.store.sessions.get(first.sessionId)).not.toHaveProperty('skippedLines')
    const again = await importTranscript(t.store, path, { now: NOW })
    expect(again).toMatchObject({ status: 'unchanged', sessionId: first.sessionId })
    expect(t.store.sessions.get(first.sessionId)?.skippedLines).toEqual({ total: 1, by: { malformed_json: 1 } })
  })

  it('gives a subagent the skipped lines of its own file, and not the main file’s', async () => {
    t = tempStore()
    const name = 'ae4a77f8-aedd-4bc1-888f-c94edc91af04'
    const folder = join(projectsDir(), '-home-marco-projects-spotter')
    mkdirSync(join(folder, name, 'subagents'), { recursive: true })
    copyFileSync(join(FIXTURES, 'spotter', `${name}.jsonl`), join(folder, `${name}.jsonl`))
    for (const agent of ['agent-aac57f5.jsonl', 'agent-acompact-946d2b.jsonl']) copyFileSync(join(FIXTURES, 'spotter', name, 'subagents', agent), join(folder, name, 'subagents', agent))
    // The task's file gets a line that is not JSON after its first.
    const task = join(folder, name, 'subagents', 'agent-aac57f5.jsonl')
    const [head, ...rest] = readFileSync(task, 'utf8').split('\n')
    writeFileSync(task, [head, '{"type":"user", oops', ...rest].join('\n'))
    const r = await importTranscript(t.store, join(folder, `${name}.jsonl`), { now: NOW })
    expect(t.store.sessions.get(r.sessionId)).not.toHaveProperty('skippedLines')
    const children = r.children.map((c) => ({ kind: c.kind, skippedLines: t!.store.sessions.get(c.sessionId)?.skippedLines }))
    expect(children).toEqual(expect.arrayContaining([{ kind: 'task', skippedLines: { total: 1, by: { malformed_json: 1 } } }, { kind: 'compaction', skippedLines: undefined }]))
    expect(children).toHaveLength(2)
  })

  it('refuses a file outside the allowed root, and a file that is not there', async () => {
    t = tempStore()
    const path = sessionFile(projectsDir(), [user('u1', null, 'q', '/x'), assistant('a2', 'u1', 'r1')])
    await expect(importTranscript(t.store, path, { now: NOW, root: projectsDir() })).rejects.toMatchObject({ kind: 'outside_root' })
    await expect(importTranscript(t.store, join(projectsDir(), 'missing.jsonl'), { now: NOW })).rejects.toBeInstanceOf(TranscriptImportError)
  })

  it('refuses a file of records without one API request (decision 0050), writing nothing, then imports it once an answer is there', async () => {
    t = tempStore()
    const cwd = '/nowhere/on/this/machine/app'
    const prompts = Array.from({ length: 500 }, (_, i) => user(`u${i + 1}`, i === 0 ? null : `u${i}`, `prompt ${i}`, cwd))
    const path = sessionFile(projectsDir(), [JSON.stringify({ type: 'summary', summary: 'A title', leafUuid: 'u1' }), ...prompts])
    const refused = importTranscript(t.store, path, { now: NOW })
    await expect(refused).rejects.toBeInstanceOf(TranscriptImportError)
    await expect(refused).rejects.toMatchObject({ kind: 'not_a_file', message: `${path} records no API request: none of its 501 lines is an answer from the model, so there is no conversation to import` })
    expect(t.store.projects.list()).toEqual([])
    appendFileSync(path, `\n${assistant('a501', 'u500', 'r1')}\n`)
    expect(await importTranscript(t.store, path, { now: NOW })).toMatchObject({ status: 'imported', passes: 1 })
  })
})

describe('an import that fails while writing', () => {
  it('leaves the store as it was: no session, no project, a hidden project still hidden', async () => {
    t = tempStore()
    const cwd = mkdtempSync(join(tmpdir(), 'loupe-cc-cwd-'))
    dirs.push(cwd)
    const hidden = t.store.projects.open(realpathSync(cwd), NOW)
    t.store.db.prepare('UPDATE projects SET hidden_at = ? WHERE id = ?').run(NOW, hidden.id)
    const path = sessionFile(projectsDir(), [user('u1', null, 'q', cwd), assistant('a2', 'u1', 'r1')], cwd)
    // The disk filling up at the first pass, as SQLite would refuse it.
    t.store.db.exec("CREATE TEMP TRIGGER refuse_passes BEFORE INSERT ON passes BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END")
    await expect(importTranscript(t.store, path, { now: NOW + 1 })).rejects.toThrow('database or disk is full')
    expect(t.store.projects.list()).toEqual([])
    expect(t.store.sessions.listByProject(hidden.id)).toEqual([])
    const other = sessionFile(projectsDir(), [user('u1', null, 'q', '/nowhere/on/this/machine/app'), assistant('a2', 'u1', 'r1')])
    await expect(importTranscript(t.store, other, { now: NOW + 1 })).rejects.toThrow('database or disk is full')
    expect(t.store.db.prepare('SELECT COUNT(*) AS n FROM projects').get()).toEqual({ n: 1 })
  })
})

describe('importing again', () => {
  it('does nothing for an unchanged file, and replaces the import of a grown one', async () => {
    t = tempStore()
    const cwd = '/nowhere/app'
    const path = sessionFile(projectsDir(), [user('u1', null, 'q', cwd), assistant('a2', 'u1', 'r1')], cwd)
    const first = await importTranscript(t.store, path, { now: NOW })
    const again = await importTranscript(t.store, path, { now: NOW })
    expect(again).toMatchObject({ status: 'unchanged', sessionId: first.sessionId, passes: 1 })
    appendFileSync(path, '\n' + [user('u3', 'a2', 'more', cwd), assistant('a4', 'u3', 'r2')].join('\n') + '\n')
    const replaced: string[] = []
    const grown = await importTranscript(t.store, path, { now: NOW, beforeReplace: async (id) => void replaced.push(id) })
    expect(grown.status).toBe('replaced')
    expect(replaced).toEqual([first.sessionId])
    // Said in the answer too, so the windows can take the earlier session's row away.
    expect(grown.replaced).toEqual({ sessionId: first.sessionId, projectId: first.projectId })
    expect(t.store.sessions.get(first.sessionId)).toBeNull()
    expect(t.store.passes.list(grown.sessionId)).toHaveLength(2)
  })

  it('run twice at once on one file (new, then grown), leaves one session for it', async () => {
    t = tempStore()
    const store = t.store
    const cwd = '/nowhere/app'
    const path = sessionFile(projectsDir(), [user('u1', null, 'q', cwd), assistant('a2', 'u1', 'r1')], cwd)
    const sessionsOf = () => store.db.prepare('SELECT id FROM sessions WHERE parent_session_id IS NULL').all() as Array<{ id: string }>
    const [a, b] = await Promise.all([importTranscript(store, path, { now: NOW }), importTranscript(store, path, { now: NOW })])
    expect([a.status, b.status].sort()).toEqual(['imported', 'unchanged'])
    expect(b.sessionId).toBe(a.sessionId)
    expect(sessionsOf().map((s) => s.id)).toEqual([a.sessionId])

    appendFileSync(path, '\n' + [user('u3', 'a2', 'more', cwd), assistant('a4', 'u3', 'r2')].join('\n') + '\n')
    const replaced: string[] = []
    const beforeReplace = async (id: string) => void replaced.push(id)
    const [c, d] = await Promise.all([importTranscript(store, path, { now: NOW, beforeReplace }), importTranscript(store, path, { now: NOW, beforeReplace })])
    expect([c.status, d.status].sort()).toEqual(['replaced', 'unchanged'])
    expect(d.sessionId).toBe(c.sessionId)
    expect(replaced).toEqual([a.sessionId])
    expect(sessionsOf().map((s) => s.id)).toEqual([c.sessionId])
    expect(store.passes.list(c.sessionId)).toHaveLength(2)
  })

  it('by two writers of one store file at once (the app and the command line), leaves one session for the file', async () => {
    t = tempStore()
    const other = openStore(join(t.dir, 'loupe.db'))
    try {
      const cwd = '/nowhere/app'
      const path = sessionFile(projectsDir(), [user('u1', null, 'q', cwd), assistant('a2', 'u1', 'r1')], cwd)
      const [a, b] = await Promise.all([importTranscript(t.store, path, { now: NOW }), importTranscript(other, path, { now: NOW })])
      expect([a.status, b.status].sort()).toEqual(['imported', 'unchanged'])
      expect(b.sessionId).toBe(a.sessionId)
      appendFileSync(path, '\n' + [user('u3', 'a2', 'more', cwd), assistant('a4', 'u3', 'r2')].join('\n') + '\n')
      const [c, d] = await Promise.all([importTranscript(t.store, path, { now: NOW }), importTranscript(other, path, { now: NOW })])
      expect([c.status, d.status].sort()).toEqual(['replaced', 'unchanged'])
      expect(t.store.db.prepare('SELECT id FROM sessions WHERE parent_session_id IS NULL').all()).toEqual([{ id: c.sessionId }])
    } finally {
      other.close()
    }
  })
})

describe('the project an import lands in', () => {
  it("is the session's working folder when it exists here", async () => {
    t = tempStore()
    const work = projectsDir()
    const path = sessionFile(projectsDir(), [user('u1', null, 'q', work), assistant('a2', 'u1', 'r1')], work)
    const r = await importTranscript(t.store, path, { now: NOW })
    expect(t.store.projects.get(r.projectId)!.root).toBe(work)
  })

  it("else one made for the transcript's folder, named after the working folder", async () => {
    t = tempStore()
    const path = sessionFile(projectsDir(), [user('u1', null, 'q', '/gone/away/shop'), assistant('a2', 'u1', 'r1')], '/gone/away/shop')
    const r = await importTranscript(t.store, path, { now: NOW })
    const project = t.store.projects.get(r.projectId)!
    expect(project.name).toBe('shop (Claude Code)')
    expect(project.root.endsWith('-gone-away-shop')).toBe(true)
    expect(sessionOrigin(t.store, r.sessionId)).toMatchObject({ origin: 'transcript', parentSessionId: null, ref: { kind: 'claude-code', transcriptId: 'hostile-1', threadKind: 'main' } })
  })
})

describe('continuing an imported conversation', () => {
  it('keeps a continuation linked to its conversation when the file grows and is imported again', async () => {
    t = tempStore()
    const dir = projectsDir()
    const path = join(dir, 'tool_heavy.jsonl')
    copyFileSync(join(FIXTURES, 'spotter', 'tool_heavy.jsonl'), path)
    const imported = await importTranscript(t.store, path, { now: NOW })
    const here = t.store.projects.open(mkdtempSync(join(tmpdir(), 'loupe-continue-')), NOW)
    const continued = continueImported(t.store, imported.sessionId, { now: NOW, projectId: here.id })
    appendFileSync(path, '\nnot json\n')
    const again = await importTranscript(t.store, path, { now: NOW })
    expect(again.status).toBe('replaced')
    // The continuation names the import that took the old one's place, and is found as its continuation.
    expect(t.store.sessions.get(continued.id)?.continued?.fromSessionId).toBe(again.sessionId)
    expect(continuationsOf(t.store, again.sessionId).map((c) => c.sessionId)).toEqual([continued.id])
    expect(continueImported(t.store, again.sessionId, { now: NOW, projectId: here.id }).title).toBe('Continued (2): start phoenix in background')
  })

  it('starts a Loupe session with the conversation as entries: no thinking, every tool call answered', async () => {
    t = tempStore()
    const dir = projectsDir()
    copyFileSync(join(FIXTURES, 'spotter', 'tool_heavy.jsonl'), join(dir, 'tool_heavy.jsonl'))
    const imported = await importTranscript(t.store, join(dir, 'tool_heavy.jsonl'), { now: NOW })
    // Its working folder is not on this machine: it is continued into a project the user opened.
    expect(() => continueImported(t!.store, imported.sessionId, { now: NOW })).toThrow(/working folder is not on this machine/)
    const here = t.store.projects.open(mkdtempSync(join(tmpdir(), 'loupe-continue-')), NOW)
    const session = continueImported(t.store, imported.sessionId, { now: NOW, projectId: here.id })
    expect(session.projectId).toBe(here.id)
    // The session says which entries it carried over, so the chat can name who wrote them, and the model they used.
    expect(session.continued).toEqual({ fromSessionId: imported.sessionId, inherited: t.store.entries.list(session.id).length, fromModel: 'claude-opus-4-6' })
    expect(session.title).toBe('Continued: start phoenix in background')
    expect(sessionOrigin(t.store, session.id)).toMatchObject({ origin: 'loupe', ref: { kind: 'continued', fromSessionId: imported.sessionId } })
    const entries = t.store.entries.list(session.id)
    const history = toHistory(entries).map((h) => h.message)
    const original = toHistory(t.store.entries.list(imported.sessionId)).map((h) => h.message)
    // The same turns: the transcript recorded the results of the last answer's calls, and the interruption after them.
    expect(history.map((m) => m.role)).toEqual(original.map((m) => m.role))
    expect(JSON.stringify(original)).toContain('"thinking"')
    expect(JSON.stringify(history)).not.toContain('"thinking"')
    expect(unansweredToolUses(entries)).toEqual([])
    expect(entries.filter((e) => e.kind === 'tool_result' && e.outcome === 'interrupted')).toEqual([])
    expect(JSON.stringify(history.at(-1))).toContain('[Request interrupted by user]')
  })

  it('answers a call the transcript never answered with a result that says so', async () => {
    t = tempStore()
    const dir = projectsDir()
    // The session cut off before the results of its last answer's calls were written.
    const lines = readFileSync(join(FIXTURES, 'spotter', 'tool_heavy.jsonl'), 'utf8').trimEnd().split('\n')
    const lastAnswer = lines.findLastIndex((l) => l.includes('"type":"assistant"'))
    writeFileSync(join(dir, 'tool_heavy.jsonl'), `${lines.slice(0, lastAnswer + 1).join('\n')}\n`)
    const imported = await importTranscript(t.store, join(dir, 'tool_heavy.jsonl'), { now: NOW })
    const here = t.store.projects.open(mkdtempSync(join(tmpdir(), 'loupe-continue-')), NOW)
    const session = continueImported(t.store, imported.sessionId, { now: NOW, projectId: here.id })
    const entries = t.store.entries.list(session.id)
    expect(unansweredToolUses(entries)).toEqual([])
    const closing = entries.filter((e) => e.kind === 'tool_result' && e.outcome === 'interrupted')
    expect(closing.length).toBeGreaterThan(0)
    expect(closing.every((e) => e.kind === 'tool_result' && e.content === UNANSWERED_RESULT)).toBe(true)
  })

  it('continued again, the new session is numbered, and both record where they came from', async () => {
    t = tempStore()
    const dir = projectsDir()
    copyFileSync(join(FIXTURES, 'spotter', 'tool_heavy.jsonl'), join(dir, 'tool_heavy.jsonl'))
    const imported = await importTranscript(t.store, join(dir, 'tool_heavy.jsonl'), { now: NOW })
    const here = t.store.projects.open(mkdtempSync(join(tmpdir(), 'loupe-continue-')), NOW)
    expect(continuationsOf(t.store, imported.sessionId)).toEqual([])
    const first = continueImported(t.store, imported.sessionId, { now: NOW, projectId: here.id })
    const second = continueImported(t.store, imported.sessionId, { now: NOW + 1000, projectId: here.id })
    expect(first.title).toBe('Continued: start phoenix in background')
    // The sidebar tells the two apart.
    expect(second.title).toBe('Continued (2): start phoenix in background')
    expect(continuationsOf(t.store, imported.sessionId).map((c) => c.sessionId)).toEqual([first.id, second.id])
    expect(second.continued).toMatchObject({ fromSessionId: imported.sessionId })
    // A session of its own, not continued from anything, is nobody's continuation.
    t.store.sessions.create(here.id, 'mine', NOW)
    expect(continuationsOf(t.store, imported.sessionId)).toHaveLength(2)
  })

  it('refuses a session that was not imported', async () => {
    t = tempStore()
    const project = t.store.projects.open(projectsDir(), NOW)
    const own = t.store.sessions.create(project.id, 'mine', NOW)
    expect(() => continueImported(t!.store, own.id, { now: NOW })).toThrow(/not imported/)
  })
})
