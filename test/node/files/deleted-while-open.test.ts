/**
 * A file deleted on disk while the Files view has it open, through the contract: read again, it is absent (not "not
 * a file of this project"), and saved, the user's text writes it back. Only a file the view opened may be written
 * back this way, and still only inside the project root or ~/.loupe.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createApp, type App } from '../../../src-main/node/app'
import { call } from '../../support/app'

interface Opened {
  path: string
  text: string
  exists: boolean
  sha256: string | null
}

describe('a file deleted on disk while open in the Files view', () => {
  let dir: string
  let root: string
  let app: App
  let projectId: string
  beforeEach(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'loupe-files-deleted-')))
    root = join(dir, 'shop')
    mkdirSync(join(root, 'docs'), { recursive: true })
    writeFileSync(join(root, 'AGENTS.md'), '# Agents\n\nSee @docs/extra.md for the details.\n')
    writeFileSync(join(root, 'docs', 'extra.md'), '# Extra\n\nPrices are integer cents.\n')
    app = await createApp({ host: 'browser', dataDir: join(dir, '.home'), loupeHome: join(dir, '.home'), homeDir: dir })
    projectId = (await call<{ id: string }>(app, 'project.open', { path: root })).id
  })
  afterEach(async () => {
    await app.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('reads as absent, and a save writes the text back', async () => {
    const opened = await call<Opened>(app, 'files.read', { projectId, path: 'docs/extra.md' })
    expect(opened.exists).toBe(true)
    rmSync(join(root, 'docs', 'extra.md'))

    expect(await call<Opened>(app, 'files.read', { projectId, path: 'docs/extra.md' })).toMatchObject({ exists: false, sha256: null, text: '' })
    // Saved against the version it was opened from, it is a conflict with an absent file (nothing written) …
    expect(await call(app, 'files.save', { projectId, path: 'docs/extra.md', text: 'kept\n', baseSha256: opened.sha256 })).toMatchObject({ status: 'conflict', disk: { exists: false } })
    expect(existsSync(join(root, 'docs', 'extra.md'))).toBe(false)
    // … and saved as "no file", the text is written back.
    expect(await call(app, 'files.save', { projectId, path: 'docs/extra.md', text: 'kept\n', baseSha256: null })).toMatchObject({ status: 'saved' })
    expect(readFileSync(join(root, 'docs', 'extra.md'), 'utf8')).toBe('kept\n')
  })

  it('writes back only a file it opened, and never outside the project', async () => {
    // Never opened: not a file of the project's instructions.
    expect(await app.dispatch('files.save', { projectId, path: 'docs/other.md', text: 'x\n', baseSha256: null })).toMatchObject({ ok: false, error: { code: 'permission_denied' } })
    expect(existsSync(join(root, 'docs', 'other.md'))).toBe(false)

    await call<Opened>(app, 'files.read', { projectId, path: 'docs/extra.md' })
    // The folder replaced by a link out of the project: the file would land outside it, so nothing is written.
    const outside = join(dir, 'outside')
    mkdirSync(outside)
    rmSync(join(root, 'docs'), { recursive: true })
    symlinkSync(outside, join(root, 'docs'))
    expect(await app.dispatch('files.save', { projectId, path: 'docs/extra.md', text: 'x\n', baseSha256: null })).toMatchObject({ ok: false, error: { code: 'permission_denied' } })
    expect(existsSync(join(outside, 'extra.md'))).toBe(false)
  })
})
