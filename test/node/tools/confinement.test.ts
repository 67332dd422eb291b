import { existsSync, readdirSync, readFileSync, renameSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { findRipgrep } from '../../../src-main/node/tools/grep-rg'
import { makeFixture, Session, type Fixture } from './fixture'

const rg = await findRipgrep(process.env)

let fx: Fixture
let session: Session
beforeEach(() => {
  fx = makeFixture({ 'src/app.ts': 'export const a = 1\n', 'inside.txt': 'hello\n' })
  session = new Session(fx)
})
afterEach(async () => {
  await session.executor.dispose()
  fx.cleanup()
})

/** Every way out of the root, as the model might spell it. `dangling.txt` is a link to a missing file outside. */
const escapes = (fx: Fixture) => [
  '../outside/secret.txt',
  'src/../../outside/secret.txt',
  join(fx.outside, 'secret.txt'),
  '/etc/hostname',
  '~/.bashrc',
  'link-out/secret.txt',
  'secret-link.txt',
  'link-out',
  'link-out/new-file.txt',
  'link-out/new-folder/new-file.txt',
  'dangling.txt',
]

const fileCalls = (path: string): ReadonlyArray<readonly [string, Record<string, unknown>]> => [
  ['read_file', { path }],
  ['list_dir', { path }],
  ['grep', { pattern: 'SECRET', path }],
  ['edit_file', { path, old_string: 'TOP', new_string: 'NOT' }],
  ['write_file', { path, content: 'pwned\n' }],
]

describe('no file tool reaches outside the root', () => {
  it('refuses every escape for every file tool, and leaves the outside untouched', async () => {
    const before = readdirSync(fx.outside).sort()
    for (const path of escapes(fx)) {
      for (const [name, input] of fileCalls(path)) {
        const outcome = await session.call(name, input)
        expect(outcome, `${name} ${path}`).toMatchObject({ kind: 'error' })
        if (outcome.kind === 'error') expect(['outside_root', 'invalid_input'], `${name} ${path}: ${outcome.content}`).toContain(outcome.code)
        expect(outcome.content).not.toContain('TOP SECRET')
      }
    }
    expect(readdirSync(fx.outside).sort()).toEqual(before)
    expect(readFileSync(join(fx.outside, 'secret.txt'), 'utf8')).toBe('TOP SECRET\n')
    expect(existsSync(join(fx.outside, 'does-not-exist.txt'))).toBe(false)
  })

  it('stops every tool when the project folder is moved away, replaced by a link elsewhere, or by a file', async () => {
    expect(await session.call('read_file', { path: 'inside.txt' })).toMatchObject({ kind: 'ok' })
    const away = `${fx.root}.away`
    renameSync(fx.root, away)
    for (const [name, input] of [['write_file', { path: 'new.txt', content: 'x\n' }], ['read_file', { path: 'inside.txt' }], ['list_dir', { path: '.' }], ['glob', { pattern: '*' }], ['bash', { command: 'pwd' }]] as const) {
      const outcome = await session.call(name, input)
      expect(outcome, name).toMatchObject({ kind: 'error' })
      expect(outcome.content, name).toContain(`The project folder ${fx.root} no longer exists (moved or deleted): nothing was read or written.`)
    }
    // The write did not make the folder again.
    expect(existsSync(fx.root)).toBe(false)
    // A link in its place, to another folder: refused, and nothing lands there.
    symlinkSync(fx.outside, fx.root)
    const swapped = await session.call('write_file', { path: 'planted.txt', content: 'x\n' })
    expect(swapped.content).toContain(`now leads to ${fx.outside}`)
    expect(existsSync(join(fx.outside, 'planted.txt'))).toBe(false)
    unlinkSync(fx.root)
    writeFileSync(fx.root, 'a file now\n')
    expect((await session.call('list_dir', { path: '.' })).content).toContain('is no longer a folder')
    unlinkSync(fx.root)
    renameSync(away, fx.root)
    // Back where it was: the tools work again.
    expect(await session.call('read_file', { path: 'inside.txt' })).toMatchObject({ kind: 'ok' })
  })

  it('takes the project folder as it was when the session opened, so a swap before the first tool call is one too', async () => {
    const fresh = new Session(fx)
    const away = `${fx.root}.away`
    renameSync(fx.root, away)
    symlinkSync(fx.outside, fx.root)
    try {
      expect((await fresh.call('write_file', { path: 'planted.txt', content: 'x\n' })).content).toContain(`now leads to ${fx.outside}`)
      expect(existsSync(join(fx.outside, 'planted.txt'))).toBe(false)
    } finally {
      unlinkSync(fx.root)
      renameSync(away, fx.root)
      await fresh.executor.dispose()
    }
  })

  it('says plainly what a system error was, without echoing a huge path', async () => {
    const outcome = await session.call('read_file', { path: 'a'.repeat(5000) })
    expect(outcome).toMatchObject({ kind: 'error' })
    expect(outcome.content).toBe('read_file failed: the path, or a name in it, is too long for the file system')
  })

  it('refuses globs that climb, and never lists through a link out', async () => {
    for (const pattern of ['../**', '../outside/*', join(fx.outside, '*'), '{..,src}/*']) {
      expect(await session.call('glob', { pattern })).toMatchObject({ kind: 'error', code: 'outside_root' })
    }
    const all = await session.call('glob', { pattern: '**/*' })
    expect(all.content).not.toContain('secret.txt\n')
    expect(all.content).not.toMatch(/link-out\//)
    // A link as the pattern's first folders is where the crawl would start: it is not entered, and says so.
    for (const pattern of ['link-out/*', 'link-out/**/*.txt', './link-out/**', '{link-out,src}/**/*']) {
      const through = await session.call('glob', { pattern })
      expect(through, pattern).toMatchObject({ kind: 'ok' })
      expect(through.content, pattern).not.toContain('secret.txt')
    }
    expect((await session.call('glob', { pattern: 'link-out/**/*.txt' })).content).toBe('No files match link-out/**/*.txt: link-out is a symbolic link, and searches do not follow links. Search where it points, if that is inside the project, by its own path.')
  })

  it.each(rg === null ? ['off'] : ['off', rg])('does not search through links out of the root (ripgrep: %s)', async (ripgrep) => {
    const searcher = new Session(fx, { ripgrep })
    const outcome = await searcher.call('grep', { pattern: 'SECRET' })
    expect(outcome).toMatchObject({ kind: 'ok' })
    expect(outcome.content).toMatch(/^No matches/)
    await searcher.executor.dispose()
  })

  it('refuses memory and skills when .loupe leads out of the root', async () => {
    symlinkSync(fx.outside, join(fx.root, '.loupe'))
    expect(await session.call('remember', { fact: 'x', scope: 'project' })).toMatchObject({ kind: 'error', code: 'outside_root' })
    expect(existsSync(join(fx.outside, 'memory.md'))).toBe(false)
    const skill = await session.call('skill', { name: 'evil' })
    expect(skill).toMatchObject({ kind: 'error', code: 'outside_root' })
    expect(skill.content).not.toContain('evil body')
  })

  it('still follows links that stay inside the root', async () => {
    symlinkSync(join(fx.root, 'src'), join(fx.root, 'src-link'))
    expect(await session.call('read_file', { path: 'src-link/app.ts' })).toMatchObject({ kind: 'ok', content: '1\texport const a = 1\n' })
    // Recorded under its real path, so an edit through either spelling sees the same read.
    expect(Object.keys(session.state.files)).toEqual(['src/app.ts'])
  })

  it('accepts an absolute path inside the root', async () => {
    expect(await session.call('read_file', { path: join(fx.root, 'inside.txt') })).toMatchObject({ kind: 'ok', content: '1\thello\n' })
  })
})

describe("Loupe's data folder inside the project", () => {
  it('is never written by a file tool, though the project holds it; the rest of the project is', async () => {
    const data = join(fx.root, '.loupe-data')
    fx.write('.loupe-data/loupe.db', 'the store\n')
    const guarded = new Session(fx, { dataDir: data })
    try {
      const write = await guarded.call('write_file', { path: '.loupe-data/loupe.db', content: 'pwned\n' })
      expect(write).toMatchObject({ kind: 'error' })
      if (write.kind === 'error') expect(write.content).toContain("is inside Loupe's data folder")
      expect(await guarded.call('write_file', { path: '.loupe-data/new/notes.md', content: 'x\n' })).toMatchObject({ kind: 'error' })
      await guarded.call('read_file', { path: '.loupe-data/loupe.db' })
      expect(await guarded.call('edit_file', { path: '.loupe-data/loupe.db', old_string: 'the store', new_string: 'gone' })).toMatchObject({ kind: 'error' })
      expect(fx.read('.loupe-data/loupe.db')).toBe('the store\n')
      expect(existsSync(join(data, 'new'))).toBe(false)
      // Elsewhere in the project the tools write as before.
      expect(await guarded.call('write_file', { path: 'notes.md', content: 'fine\n' })).toMatchObject({ kind: 'ok' })
    } finally {
      await guarded.executor.dispose()
    }
  })
})
