import { copyFileSync, mkdirSync, mkdtempSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createApp, type App } from '../../src-main/node/app'

describe('dispatch', () => {
  let dir: string
  let app: App
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'loupe-rpc-'))
    app = await createApp({ host: 'browser', dataDir: join(dir, 'home'), clock: { now: () => 1_700_000_000_000 }, homeDir: dir })
  })
  afterEach(async () => {
    await app.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('answers a known request with ok:true', async () => {
    const result = await app.dispatch('app.info', {})
    expect(result).toMatchObject({ ok: true, value: { name: 'Loupe', host: 'browser' } })
  })

  it('refuses every request, saying why, once its store file was deleted or replaced under it', async () => {
    expect(await app.dispatch('project.open', { path: dir })).toMatchObject({ ok: true })
    const file = join(dir, 'home', 'loupe.db')
    // Replaced: another file at the path (the open one lives on, unlinked, and would take writes nobody sees again).
    renameSync(file, `${file}.moved`)
    copyFileSync(`${file}.moved`, file)
    const refused = await app.dispatch('session.list', { projectId: 'prj_any' })
    expect(refused).toEqual({ ok: false, error: { code: 'store_lost', message: `Loupe's store, ${file}, was replaced by another file while Loupe was running; nothing more can be saved to it. Quit Loupe and put the file back, or start Loupe again to begin with an empty store.` } })
    expect(await app.dispatch('app.info', {})).toMatchObject({ ok: false, error: { code: 'store_lost' } })
  })

  it('refuses requests once its store file was deleted', async () => {
    unlinkSync(join(dir, 'home', 'loupe.db'))
    expect(await app.dispatch('app.info', {})).toMatchObject({ ok: false, error: { code: 'store_lost', message: expect.stringMatching(/was deleted while Loupe was running/) } })
  })

  it('names unknown requests and bad inputs with typed errors', async () => {
    expect(await app.dispatch('nope.never', {})).toMatchObject({ ok: false, error: { code: 'unknown_request' } })
    expect(await app.dispatch(42, {})).toMatchObject({ ok: false, error: { code: 'unknown_request' } })
    expect(await app.dispatch('project.open', { path: 7 })).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    expect(await app.dispatch('project.open', { path: '/tmp', extra: 1 })).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    expect(await app.dispatch('project.open', { path: 'x'.repeat(10_000) })).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    expect(await app.dispatch('session.list', { projectId: '../../etc' })).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
  })

  it('opens a folder, refuses files and missing paths with clear messages', async () => {
    writeFileSync(join(dir, 'file.txt'), 'x')
    expect(await app.dispatch('project.open', { path: join(dir, 'missing') })).toMatchObject({ ok: false, error: { code: 'not_found' } })
    expect(await app.dispatch('project.open', { path: join(dir, 'file.txt') })).toMatchObject({ ok: false, error: { code: 'not_a_directory' } })
    expect(await app.dispatch('project.open', { path: 'relative' })).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    const opened = await app.dispatch('project.open', { path: dir })
    expect(opened).toMatchObject({ ok: true })
    // Loupe's own data folder, or a folder in it, is not a project's folder.
    for (const path of [join(dir, 'home'), join(dir, 'home', 'backups')]) {
      mkdirSync(path, { recursive: true })
      const refused = await app.dispatch('project.open', { path })
      expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringContaining("inside Loupe's data folder") } })
    }
  })

  it('refuses a path with a NUL character in every request that takes one, before any handler runs', async () => {
    const nul = join(dir, 'x\u0000.jsonl')
    for (const [name, input] of [
      ['transcripts.import', { path: nul }],
      ['transcripts.list', { folder: nul }],
      ['session.export', { sessionId: 'ses_any', path: nul }],
      ['session.import', { projectId: 'prj_any', path: nul }],
      ['project.open', { path: nul }],
      ['files.read', { projectId: 'prj_any', path: nul }],
    ] as const) {
      expect(await app.dispatch(name, input)).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringContaining('a path cannot contain a NUL character') } })
    }
  })

  it('creates a session in a known project and emits an event', async () => {
    const seen: string[] = []
    app.events.subscribe((name) => seen.push(name))
    const project = await app.dispatch('project.open', { path: dir })
    if (!project.ok) throw new Error('open failed')
    const projectId = (project.value as { id: string }).id
    const session = await app.dispatch('session.create', { projectId })
    expect(session).toMatchObject({ ok: true, value: { projectId } })
    // Named by when it was made, its date written as every view writes dates.
    expect((session as { value: { title: string } }).value.title).toMatch(/^Session \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/)
    expect(await app.dispatch('session.list', { projectId })).toMatchObject({ ok: true, value: [{ projectId }] })
    expect(await app.dispatch('session.create', { projectId: 'prj_unknown' })).toMatchObject({ ok: false, error: { code: 'not_found' } })
    expect(seen).toEqual(['project.opened', 'session.created'])
  })

  it('says the folder and file dialogs are unsupported in browser mode, and offers neither', async () => {
    expect(await app.dispatch('project.pickFolder', {})).toMatchObject({ ok: false, error: { code: 'unsupported' } })
    expect(await app.dispatch('session.pickFile', { purpose: 'import' })).toMatchObject({ ok: false, error: { code: 'unsupported', message: expect.stringMatching(/type the path/) } })
    expect(await app.dispatch('app.info', {})).toMatchObject({ ok: true, value: { capabilities: { folderDialog: false, fileDialog: false } } })
  })
})

describe('a host with native dialogs', () => {
  it("offers the file dialog, passes it what a session export needs, and answers the user's choice or a cancel", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loupe-rpc-dialog-'))
    const asked: unknown[] = []
    const answers: Array<string | null> = ['/home/me/exports/s.json', null]
    const app = await createApp({
      host: 'electron',
      dataDir: join(dir, 'home'),
      homeDir: dir,
      pickFolder: async () => null,
      pickFile: async (request) => {
        asked.push(request)
        return answers.shift() ?? null
      },
    })
    try {
      expect(await app.dispatch('app.info', {})).toMatchObject({ ok: true, value: { capabilities: { folderDialog: true, fileDialog: true } } })
      expect(await app.dispatch('session.pickFile', { purpose: 'export', defaultPath: '/home/me/exports/s.json' })).toEqual({ ok: true, value: { path: '/home/me/exports/s.json' } })
      expect(await app.dispatch('session.pickFile', { purpose: 'import' })).toEqual({ ok: true, value: { path: null } })
      expect(asked).toEqual([{ purpose: 'export', defaultPath: '/home/me/exports/s.json' }, { purpose: 'import' }])
      // The dialog is not shown for a request the contract refuses.
      expect(await app.dispatch('session.pickFile', { purpose: 'delete' })).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
      expect(await app.dispatch('session.pickFile', { purpose: 'import', defaultPath: '' })).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
      expect(asked).toHaveLength(2)
    } finally {
      await app.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
