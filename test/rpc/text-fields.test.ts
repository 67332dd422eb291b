/**
 * Text fields of the contract that name something, audited with decision 0051: an id the answer would echo into an
 * error the chat shows takes only the characters ids are made of, and `transcripts.importAll`'s project is one folder
 * of the projects folder, never a path out of it.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createApp, type App } from '../../src-main/node/app'
import { call } from '../support/app'

describe('text fields that name something', () => {
  let dir: string
  let app: App
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'loupe-text-fields-'))
    app = await createApp({ host: 'browser', dataDir: join(dir, '.home'), loupeHome: join(dir, '.home'), homeDir: dir })
  })
  afterEach(async () => {
    await app.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('refuses an entry or tool call id that is not made of id characters, before any handler echoes it', async () => {
    writeFileSync(join(dir, 'README.md'), '# Ids\n')
    const project = await call<{ id: string }>(app, 'project.open', { path: dir })
    const session = await call<{ id: string }>(app, 'session.create', { projectId: project.id })
    const idRule = expect.stringContaining('ids are letters, digits, _ and -')
    for (const hostile of ['ent_1\u202E', 'toolu_1\nNo approval', 'a b', '\u0000']) {
      expect(await app.dispatch('run.takeBack', { sessionId: session.id, entryId: hostile })).toMatchObject({ ok: false, error: { code: 'invalid_input', message: idRule } })
      expect(await app.dispatch('approval.answer', { sessionId: session.id, toolUseId: hostile, answer: { kind: 'once' } })).toMatchObject({ ok: false, error: { code: 'invalid_input', message: idRule } })
      expect(await app.dispatch('compaction.run', { sessionId: session.id, upto: hostile, dryRun: true })).toMatchObject({ ok: false, error: { code: 'invalid_input', message: idRule } })
    }
    // Ids of the right shape still reach the handler, which says what it did not find.
    expect(await app.dispatch('run.takeBack', { sessionId: session.id, entryId: 'ent_nowhere' })).toMatchObject({ ok: false, error: { code: 'not_found' } })
    expect(await app.dispatch('approval.answer', { sessionId: session.id, toolUseId: 'toolu_nowhere', answer: { kind: 'once' } })).toMatchObject({ ok: false, error: { code: 'not_found' } })
  })

  it("takes transcripts.importAll's project only as one folder of the projects folder", async () => {
    const projects = join(dir, 'claude', 'projects')
    mkdirSync(join(projects, '-home-me-app'), { recursive: true })
    writeFileSync(join(dir, 'claude', 'around.jsonl'), '{}\n')
    for (const project of ['..', '.', '../..', 'a/b', 'a\\b', 'a\u0000b']) {
      expect(await app.dispatch('transcripts.importAll', { folder: projects, project }), JSON.stringify(project)).toEqual({
        ok: false,
        error: { code: 'invalid_input', message: 'transcripts.importAll: project: a project is the name of one folder in the projects folder (no /, \\, NUL, . or ..)' },
      })
    }
    expect(await app.dispatch('transcripts.importAll', { folder: projects, project: '-home-me-app' })).toMatchObject({ ok: true, value: { results: [], failed: [] } })
  })

  it('refuses a message of only spaces and line breaks, which the model service would refuse on this pass and every later one', async () => {
    writeFileSync(join(dir, 'README.md'), '# Blank\n')
    const project = await call<{ id: string }>(app, 'project.open', { path: dir })
    const session = await call<{ id: string }>(app, 'session.create', { projectId: project.id })
    for (const text of [' ', '\n\n', ' \t\r\n']) {
      expect(await app.dispatch('run.start', { sessionId: session.id, text })).toEqual({
        ok: false,
        error: { code: 'invalid_input', message: 'run.start: text: a message needs some text: this one holds only spaces and line breaks, which the model service refuses' },
      })
    }
    // Nothing entered the conversation.
    expect((await call<{ entries: unknown[] }>(app, 'session.entries', { sessionId: session.id, beforeSeq: Number.MAX_SAFE_INTEGER })).entries).toEqual([])
  })
})
