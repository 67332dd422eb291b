/**
 * A session export doctored by hand is refused by session.import with a message that names what is wrong, and the
 * store is left as it was: an accepted file would otherwise leave a session that every later read fails on (a pass's
 * usage that is not JSON) or that every turn fails on (an entry body of the wrong shape). An imported session brings
 * no permissions of its own (decision 0033), and the real export still round-trips.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createApp, type App } from '../../src-main/node/app'
import { call, turnEnded } from '../support/app'

type Row = Record<string, unknown>
interface Doc {
  session: Row
  entries: Row[]
  passes: Row[]
  passBlocks: Row[]
  blobs: Record<string, string>
}

describe('session.import of a doctored export', () => {
  let dir: string
  let app: App
  let projectId: string
  let exported: Doc
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'loupe-import-hostile-'))
    writeFileSync(join(dir, 'README.md'), '# Hostile\n\nA test project.\n')
    process.env.LOUPE_SIM_PACE = 'instant'
    app = await createApp({ host: 'browser', dataDir: join(dir, '.home'), loupeHome: join(dir, '.home'), homeDir: dir })
    projectId = (await call<{ id: string }>(app, 'project.open', { path: dir })).id
    const session = await call<{ id: string }>(app, 'session.create', { projectId })
    const ended = turnEnded(app, session.id)
    await call(app, 'run.start', { sessionId: session.id, text: 'read README.md' })
    expect(await ended).toBe('end_turn')
    const { path } = await call<{ path: string }>(app, 'session.export', { sessionId: session.id, path: join(dir, 'real.json') })
    exported = JSON.parse(readFileSync(path, 'utf8')) as Doc
    await call(app, 'session.delete', { sessionId: session.id })
  })
  afterEach(async () => {
    await app.close()
    rmSync(dir, { recursive: true, force: true })
  })

  const counts = () => {
    const db = app.services.store.db
    return ['sessions', 'entries', 'passes', 'pass_blocks', 'blobs'].map((table) => db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get())
  }
  const importDoc = async (doc: unknown, name: string) => {
    const path = join(dir, name)
    writeFileSync(path, JSON.stringify(doc))
    return app.dispatch('session.import', { projectId, path })
  }
  /** The export with the entry of `kind` (its first) given `body`. */
  const withBody = (kind: string, body: unknown): Doc => ({
    ...exported,
    entries: exported.entries.map((e, i) => (i === exported.entries.findIndex((x) => x.kind === kind) ? { ...e, body: JSON.stringify(body) } : e)),
  })
  const entryNumber = (kind: string) => exported.entries.findIndex((x) => x.kind === kind) + 1
  const toolResult = () => JSON.parse(String(exported.entries.find((e) => e.kind === 'tool_result')!.body)) as Row
  const stateOf = () => JSON.parse(String(exported.session.state)) as Row
  const frozen = () => stateOf().frozen as Row
  /** The export with its session state's fields replaced. */
  const withState = (fields: Row): Doc => ({ ...exported, session: { ...exported.session, state: JSON.stringify({ ...stateOf(), ...fields }) } })

  it('puts bookkeeping of the wrong shape back to a new session\'s, and the session then runs', async () => {
    const odd = withState({ carriedNotes: 'x', deliveredNotes: 5, fileBaseline: 'x', compaction: null, toolState: [], previousHistoryLength: -3 })
    expect(await importDoc(odd, 'odd.json')).toMatchObject({ ok: true })
    const stored = JSON.parse(app.services.store.sessions.state(String(exported.session.id))) as Row
    expect(stored).toMatchObject({ carriedNotes: [], deliveredNotes: [], fileBaseline: null, compaction: { auto: { failures: 0, disabled: false, attemptedAfterPass: null }, pending: null }, toolState: { files: {} }, previousHistoryLength: 0 })
    const ended = turnEnded(app, String(exported.session.id))
    await call(app, 'run.start', { sessionId: String(exported.session.id), text: 'and again' })
    expect(await ended).toBe('end_turn')
    expect(await app.dispatch('files.unapplied', { sessionId: String(exported.session.id) })).toMatchObject({ ok: true })
  })

  it('refuses each hostile variant with a clear invalid_input, and writes nothing', async () => {
    const before = counts()
    const assistant = JSON.parse(String(exported.entries.find((e) => e.kind === 'assistant_message')!.body)) as Row
    const variants: Array<[string, Doc, string | RegExp]> = [
      ['usage that is not JSON', { ...exported, passes: exported.passes.map((p) => ({ ...p, usage: 'garbage' })) }, 'pass 1: usage is not JSON'],
      ['usage of the wrong shape', { ...exported, passes: exported.passes.map((p) => ({ ...p, usage: '{"input_tokens":"many"}' })) }, /^pass 1: usage is not a usage/],
      ['attempts that are not a list', { ...exported, passes: exported.passes.map((p) => ({ ...p, attempts: '{}' })) }, /^pass 1: attempts: /],
      ['an error that is not JSON', { ...exported, passes: exported.passes.map((p) => ({ ...p, error: 'oops' })) }, 'pass 1: error is not JSON'],
      ['a pass kind the app does not have', { ...exported, passes: exported.passes.map((p) => ({ ...p, kind: 'weird' })) }, /^pass 1: kind: /],
      ['a user message without content', withBody('user_message', { kind: 'user_message' }), `entry ${entryNumber('user_message')} (user_message): content is missing`],
      ['an assistant message whose content is a string', withBody('assistant_message', { ...assistant, content: 'hello' }), new RegExp(`^entry ${entryNumber('assistant_message')} \\(assistant_message\\): content: `)],
      ['an assistant block the wire does not have', withBody('assistant_message', { ...assistant, content: [{ type: 'video', data: 'x' }] }), new RegExp(`^entry ${entryNumber('assistant_message')} \\(assistant_message\\): content\\.0`)],
      ['a kind the app does not have', withBody('user_message', { kind: 'weird' }), `entry ${entryNumber('user_message')} (weird): kind "weird" is not an entry kind`],
      ['a mode switch to a mode the app does not have', withBody('user_message', { kind: 'mode_switched', mode: 'root' }), /\(mode_switched\): mode: /],
      [
        'a conversation that starts with the model',
        { ...exported, entries: exported.entries.filter((e) => e.kind !== 'user_message').map((e, i) => ({ ...e, seq: i + 1 })) },
        'the conversation does not start with a user message',
      ],
      ['a title that is not text', { ...exported, session: { ...exported.session, title: 42 } }, 'session.title is not text'],
      ['an origin the app does not have', { ...exported, session: { ...exported.session, origin: 'root' } }, /^session\.origin "root" is not one of loupe, transcript, captured$/],
      ['a base pass that is not an earlier pass of the export', { ...exported, passes: exported.passes.map((p) => ({ ...p, base_pass_id: 'pas_elsewhere' })) }, /^pass 1: its base is not an earlier pass/],
      // Positions past 2^53 stop counting by one: the next entry or pass would collide with the last.
      ['an entry position past 2^53', { ...exported, entries: exported.entries.map((e, i, all) => (i === all.length - 1 ? { ...e, seq: 9007199254740993 } : e)) }, /^entry \d+: seq must be a whole number above the previous entry's, at most 2147483647$/],
      ['a pass position of 1e300', { ...exported, passes: exported.passes.map((p, i) => (i === 0 ? { ...p, seq: 1e300 } : p)) }, /^pass 1: seq is not a whole number from 1 to 2147483647$/],
      ['a model the app does not know', withState({ model: 'gpt-9' }), 'session.state.model "gpt-9" is not a model this app knows'],
      ['a model that is not text', withState({ model: 42 }), 'session.state.model 42 is not a model this app knows'],
      ['a frozen prompt without its session block', withState({ frozen: { ...frozen(), session: null } }), 'session.state.frozen is not a frozen prompt (project, session and context)'],
      ['a frozen prompt that is a string', withState({ frozen: 'frozen' }), 'session.state.frozen is not a frozen prompt (project, session and context)'],
      ['a frozen session block whose text is a number', withState({ frozen: { ...frozen(), session: { ...(frozen().session as Row), instructions: { text: 5 } } } }), /^session\.state\.frozen does not render as a prompt: /],
      // What the user sent only in a file: the model service refuses a message of only spaces and line breaks.
      ['a user message of only line breaks', withBody('user_message', { kind: 'user_message', content: [{ type: 'text', text: '\n\n' }] }), /^the conversation would be refused by the model service: messages\[\d+\] has a text block that is empty or only spaces and line breaks$/],
      ['a tool result naming no call', withBody('tool_result', { ...toolResult(), toolUseId: 'toolu_nowhere' }), /^the conversation would be refused by the model service: messages\[\d+\] (calls a tool|holds a result for a tool call)/],
      [
        'a conversation far larger than any window',
        { ...exported, entries: exported.entries.map((e, i) => (i === 0 ? { ...e, body: JSON.stringify({ kind: 'user_message', content: [{ type: 'text', text: 'x'.repeat(9_000_000) }] }) } : e)) },
        /^the conversation since its last compaction is ≈[\d,]+ tokens, more than twice the largest context window \([\d,]+\): no model could be sent it$/,
      ],
    ]
    for (const [what, doc, message] of variants) {
      const answer = await importDoc(doc, 'hostile.json')
      expect(answer, what).toMatchObject({ ok: false, error: { code: 'invalid_input', message: typeof message === 'string' ? message : expect.stringMatching(message) } })
      expect(counts(), what).toEqual(before)
    }
    // The real export imports, and reads back through everything that failed on a doctored one.
    const imported = await call<{ id: string }>(app, 'session.import', { projectId, path: join(dir, 'real.json') })
    expect(imported.id).toBe(exported.session.id)
    for (const [name, input] of [['session.get', { sessionId: imported.id }], ['pass.list', { sessionId: imported.id }], ['session.cacheSummary', { sessionId: imported.id }], ['compaction.list', { sessionId: imported.id }], ['files.unapplied', { sessionId: imported.id }]] as const) {
      expect(await app.dispatch(name, input), name).toMatchObject({ ok: true })
    }
    const again = await call<{ path: string }>(app, 'session.export', { sessionId: imported.id, path: join(dir, 'again.json') })
    expect(readFileSync(again.path, 'utf8')).toBe(readFileSync(join(dir, 'real.json'), 'utf8'))
    const ended = turnEnded(app, imported.id)
    await call(app, 'run.start', { sessionId: imported.id, text: 'and again' })
    expect(await ended).toBe('end_turn')
  })

  it('brings no permission rules or mode of its own: the session starts with a new session\'s', async () => {
    const state = JSON.parse(String(exported.session.state)) as Row
    const granting = { ...state, mode: 'auto', rules: { allow: [{ tool: 'bash', pattern: '*' }, { tool: 'write_file', pattern: '**' }], deny: [] } }
    const answer = await importDoc({ ...exported, session: { ...exported.session, state: JSON.stringify(granting) } }, 'granting.json')
    expect(answer).toMatchObject({ ok: true })
    const stored = JSON.parse(app.services.store.sessions.state(String(exported.session.id))) as Row
    expect(stored.rules).toEqual({ allow: [], deny: [] })
    expect(stored.mode).toBe('build')
    expect(await call<{ mode: string }>(app, 'session.get', { sessionId: String(exported.session.id) })).toMatchObject({ mode: 'build' })
  })

  it('says in the chat that the mode its conversation last switched to no longer holds', async () => {
    const session = await call<{ id: string }>(app, 'session.create', { projectId })
    await call(app, 'session.setMode', { sessionId: session.id, mode: 'auto' })
    const ended = turnEnded(app, session.id)
    await call(app, 'run.start', { sessionId: session.id, text: 'read README.md' })
    expect(await ended).toBe('end_turn')
    const { path } = await call<{ path: string }>(app, 'session.export', { sessionId: session.id, path: join(dir, 'auto.json') })
    await call(app, 'session.delete', { sessionId: session.id })
    expect(await app.dispatch('session.import', { projectId, path })).toMatchObject({ ok: true })
    const opened = await call<{ mode: string; entries: Array<{ kind: string; text?: string }> }>(app, 'session.get', { sessionId: session.id })
    expect(opened.mode).toBe('build')
    expect(opened.entries.at(-1)).toMatchObject({ kind: 'notice', text: expect.stringContaining("The file's permission mode (auto) and its \"always allow\" rules were not brought in.") })
    // A session whose conversation never left the default mode gets no such notice.
    expect((await importDoc(exported, 'plain.json'))).toMatchObject({ ok: true })
    const plain = await call<{ entries: Array<{ kind: string }> }>(app, 'session.get', { sessionId: String(exported.session.id) })
    expect(plain.entries.some((e) => e.kind === 'notice')).toBe(false)
  })

  it('keeps a title from the file as every name is kept: on one line, without hidden characters, cut, or the date when nothing shows', async () => {
    const titled = (title: string): Doc => ({ ...exported, session: { ...exported.session, title } })
    const id = String(exported.session.id)
    expect(await importDoc(titled('Fix\nthe \u202Egnp.exe\u0000 parser\u200B'), 'hostile-title.json')).toMatchObject({ ok: true, value: { title: 'Fix the gnp.exe parser' } })
    expect(app.services.store.db.prepare('SELECT title FROM sessions WHERE id = ?').pluck().get(id)).toBe('Fix the gnp.exe parser')
    await call(app, 'session.delete', { sessionId: id })
    expect(await importDoc(titled('x'.repeat(1_000_000)), 'long-title.json')).toMatchObject({ ok: true, value: { title: `${'x'.repeat(199)}…` } })
    await call(app, 'session.delete', { sessionId: id })
    expect(await importDoc(titled('\u200B\n\t'), 'blank-title.json')).toMatchObject({ ok: true, value: { title: expect.stringMatching(/^Session \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/) } })
  })

  it('drops a parent that is a session of another project', async () => {
    mkdirSync(join(dir, 'other'))
    const elsewhere = await call<{ id: string }>(app, 'project.open', { path: join(dir, 'other') })
    const stranger = app.services.store.sessions.create(elsewhere.id, 'elsewhere', 1)
    expect(await importDoc({ ...exported, session: { ...exported.session, parent_session_id: stranger.id } }, 'parented.json')).toMatchObject({ ok: true })
    expect(app.services.store.sessions.get(String(exported.session.id))?.parentSessionId).toBeUndefined()
  })
})
