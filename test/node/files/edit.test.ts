import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { existsSync, lstatSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { listVersions, openFile, saveFile, sha256 } from '../../../src-main/node/files'
import { createFileMemory } from '../../../src-main/node/compaction/memory-file'
import { failure, filesSandbox, SECRET, type FilesSandbox } from './sandbox'

let box: FilesSandbox
let clock = 0
beforeEach(() => {
  clock = Date.UTC(2026, 10, 29, 12, 0)
  box = filesSandbox(() => (clock += 1000))
})
afterEach(() => box.cleanup())

describe('saving an instruction file', () => {
  it('writes the new text and keeps the version it replaced', async () => {
    box.write('CLAUDE.md', 'old rules\n')
    const opened = await openFile(box, 'CLAUDE.md')
    expect(opened).toMatchObject({ text: 'old rules\n', exists: true, sha256: sha256('old rules\n') })
    const saved = await saveFile(box, { path: 'CLAUDE.md', text: 'new rules\n', baseSha256: opened.sha256 })
    expect(saved).toMatchObject({ status: 'saved', charsBefore: 10, charsAfter: 10 })
    expect(readFileSync(join(box.root, 'CLAUDE.md'), 'utf8')).toBe('new rules\n')
    if (saved.status !== 'saved') throw new Error('not saved')
    expect(readFileSync(saved.backupPath!, 'utf8')).toBe('old rules\n')
    // Nothing but the file itself is left in the project (the temporary file was renamed over it).
    expect(readdirSync(box.root)).toEqual(['CLAUDE.md'])
  })

  it('never overwrites a change made on disk while the file was open: both versions stay recoverable', async () => {
    box.write('CLAUDE.md', 'version A\n')
    const opened = await openFile(box, 'CLAUDE.md')
    box.write('CLAUDE.md', 'version B, edited in another editor\n')

    const refused = await saveFile(box, { path: 'CLAUDE.md', text: 'version A plus my edit\n', baseSha256: opened.sha256 })
    expect(refused.status).toBe('conflict')
    if (refused.status !== 'conflict') throw new Error('no conflict')
    expect(refused.disk.text).toBe('version B, edited in another editor\n')
    expect(readFileSync(join(box.root, 'CLAUDE.md'), 'utf8')).toBe('version B, edited in another editor\n')
    expect(readFileSync(refused.minePath, 'utf8')).toBe('version A plus my edit\n')

    // The merge is saved against the disk's version; the disk's version is kept as a backup.
    const merged = await saveFile(box, { path: 'CLAUDE.md', text: 'version B plus my edit\n', baseSha256: refused.disk.sha256 })
    expect(merged.status).toBe('saved')
    expect(readFileSync(join(box.root, 'CLAUDE.md'), 'utf8')).toBe('version B plus my edit\n')
    const versions = await listVersions(box.dataDir, join(box.root, 'CLAUDE.md'))
    const texts = versions.map((v) => [v.kind, readFileSync(v.path, 'utf8')])
    expect(texts).toContainEqual(['mine', 'version A plus my edit\n'])
    expect(texts).toContainEqual(['backup', 'version B, edited in another editor\n'])
  })

  it('treats a file deleted on disk while open as a change too', async () => {
    box.write('AGENTS.md', 'keep me\n')
    const opened = await openFile(box, 'AGENTS.md')
    box.write('CLAUDE.md', 'another file so the listing still has one\n')
    const { rmSync } = await import('node:fs')
    rmSync(join(box.root, 'AGENTS.md'))
    // AGENTS.md is now offered for creation, so a save is allowed but still compared with the disk (absent).
    const result = await saveFile(box, { path: 'AGENTS.md', text: 'keep me, edited\n', baseSha256: opened.sha256 })
    expect(result).toMatchObject({ status: 'conflict', disk: { exists: false, sha256: null } })
    expect(existsSync(join(box.root, 'AGENTS.md'))).toBe(false)
  })

  it('writes through a link inside the project and leaves the link in place', async () => {
    box.write('AGENTS.md', 'shared\n')
    box.link('CLAUDE.md', 'AGENTS.md')
    const opened = await openFile(box, 'CLAUDE.md')
    await saveFile(box, { path: 'CLAUDE.md', text: 'shared, edited\n', baseSha256: opened.sha256 })
    expect(lstatSync(join(box.root, 'CLAUDE.md')).isSymbolicLink()).toBe(true)
    expect(readFileSync(join(box.root, 'AGENTS.md'), 'utf8')).toBe('shared, edited\n')
  })

  it('takes two saves from the same version one at a time: one is saved, the other meets it as a conflict and its text is kept', async () => {
    box.write('AGENTS.md', '# Rules\n\nBe brief.\n')
    const opened = await openFile(box, 'AGENTS.md')
    const texts = ['# Rules\n\nBe brief.\n- window A: run the tests first\n', '# Rules\n\nBe brief.\n- window B: use pnpm\n']
    // Two windows, one through a link to the same file: the lock is the real path's, so they still wait for each other.
    box.link('CLAUDE.md', 'AGENTS.md')
    const results = await Promise.all([
      saveFile(box, { path: 'AGENTS.md', text: texts[0]!, baseSha256: opened.sha256 }),
      saveFile(box, { path: 'CLAUDE.md', text: texts[1]!, baseSha256: opened.sha256 }),
    ])
    expect(results.map((r) => r.status).sort()).toEqual(['conflict', 'saved'])
    const won = results.findIndex((r) => r.status === 'saved')
    const lost = results[1 - won]!
    if (lost.status !== 'conflict') throw new Error('no conflict')
    expect(readFileSync(join(box.root, 'AGENTS.md'), 'utf8')).toBe(texts[won])
    // The disk's text comes back to be merged, and the text that was not written is kept.
    expect(lost.disk).toEqual({ text: texts[won], sha256: sha256(texts[won]!), exists: true })
    expect(readFileSync(lost.minePath, 'utf8')).toBe(texts[1 - won])
  })

  it('does not replace a change another program makes while the backup is kept: the disk is compared again just before the rename', async () => {
    box.write('CLAUDE.md', 'version A\n')
    const opened = await openFile(box, 'CLAUDE.md')
    // The clock is read once to list the files, then once to name the backup, after the check: the other program's
    // write lands there, between the check and the rename.
    let reads = 0
    const racing = {
      ...box,
      now: () => {
        if (++reads === 2) box.write('CLAUDE.md', 'version B, saved by another editor\n')
        return box.now()
      },
    }
    const result = await saveFile(racing, { path: 'CLAUDE.md', text: 'version A plus my edit\n', baseSha256: opened.sha256 })
    expect(reads).toBeGreaterThanOrEqual(2)
    expect(result).toMatchObject({ status: 'conflict', disk: { text: 'version B, saved by another editor\n', exists: true } })
    if (result.status !== 'conflict') throw new Error('no conflict')
    expect(readFileSync(join(box.root, 'CLAUDE.md'), 'utf8')).toBe('version B, saved by another editor\n')
    expect(readFileSync(result.minePath, 'utf8')).toBe('version A plus my edit\n')
    // Nothing but the file itself is left in the project (the temporary file was removed).
    expect(readdirSync(box.root)).toEqual(['CLAUDE.md'])
  })

  it('waits for a fact the memory extension is saving to the same memory file, so neither the fact nor the text is lost', async () => {
    box.write('.loupe/memory.md', '# Project memory\n\n- uses pnpm\n')
    const opened = await openFile(box, '.loupe/memory.md')
    const memory = createFileMemory(box.root, box.loupeHome)
    const text = '# Project memory\n\n- uses pnpm\n- edited in the Files view\n'
    const [saved] = await Promise.all([
      saveFile(box, { path: '.loupe/memory.md', text, baseSha256: opened.sha256 }),
      memory.save('saved by a session', 'project', { signal: new AbortController().signal, root: box.root }),
    ])
    const disk = readFileSync(join(box.root, '.loupe/memory.md'), 'utf8')
    expect(disk).toContain('- saved by a session\n')
    // Saved first, the fact is appended to the saved text; saved second, the save meets the fact as a conflict.
    if (saved.status === 'saved') expect(disk).toBe(`${text}- saved by a session\n`)
    else if (saved.status === 'conflict') expect(readFileSync(saved.minePath, 'utf8')).toBe(text)
    else throw new Error(`unexpected ${saved.status}`)
  })

  it('keeps a byte-order mark the user did not touch, and the line breaks, byte for byte', async () => {
    const BOM = Buffer.from([0xef, 0xbb, 0xbf])
    box.write('AGENTS.md', Buffer.concat([BOM, Buffer.from('# Rules\r\n\r\nBe brief.\r\n')]))
    const opened = await openFile(box, 'AGENTS.md')
    expect(opened.text).toBe('\uFEFF# Rules\r\n\r\nBe brief.\r\n')
    const saved = await saveFile(box, { path: 'AGENTS.md', text: opened.text.replace('Be brief.', 'Be very brief.'), baseSha256: opened.sha256 })
    expect(saved.status).toBe('saved')
    expect(readFileSync(join(box.root, 'AGENTS.md'))).toEqual(Buffer.concat([BOM, Buffer.from('# Rules\r\n\r\nBe very brief.\r\n')]))
    // The version it replaced is kept with its mark too.
    if (saved.status !== 'saved') throw new Error('not saved')
    expect(readFileSync(saved.backupPath!).subarray(0, 3)).toEqual(BOM)
  })

  it('treats a byte-order mark added or removed on disk as a change', async () => {
    box.write('CLAUDE.md', 'Be brief.\n')
    const plain = await openFile(box, 'CLAUDE.md')
    box.write('CLAUDE.md', '\uFEFFBe brief.\n')
    const marked = await openFile(box, 'CLAUDE.md')
    expect(marked.sha256).not.toBe(plain.sha256)
    expect(await saveFile(box, { path: 'CLAUDE.md', text: 'Be brief, edited.\n', baseSha256: plain.sha256 })).toMatchObject({ status: 'conflict', disk: { text: '\uFEFFBe brief.\n' } })
    box.write('CLAUDE.md', 'Be brief.\n')
    expect(await saveFile(box, { path: 'CLAUDE.md', text: '\uFEFFBe brief, edited.\n', baseSha256: marked.sha256 })).toMatchObject({ status: 'conflict', disk: { text: 'Be brief.\n' } })
    expect(readFileSync(join(box.root, 'CLAUDE.md'), 'utf8')).toBe('Be brief.\n')
  })

  it('answers unchanged when the text is what the disk holds', async () => {
    box.write('CLAUDE.md', 'same\n')
    const opened = await openFile(box, 'CLAUDE.md')
    expect(await saveFile(box, { path: 'CLAUDE.md', text: 'same\n', baseSha256: opened.sha256 })).toMatchObject({ status: 'unchanged' })
    expect(await listVersions(box.dataDir, join(box.root, 'CLAUDE.md'))).toEqual([])
  })
})

describe('the Files door refuses', () => {
  it('a link that leaves the project, without reading or writing the target', async () => {
    box.link('AGENTS.md', join(box.outside, 'secret.md'))
    expect((await failure(openFile(box, 'AGENTS.md'))).code).toBe('permission_denied')
    expect((await failure(saveFile(box, { path: 'AGENTS.md', text: 'pwned', baseSha256: null }))).code).toBe('permission_denied')
    expect(readFileSync(join(box.outside, 'secret.md'), 'utf8')).toBe(SECRET)
  })

  it('a link that leads nowhere (dangling or a loop): it stays a link', async () => {
    box.link('AGENTS.md', join(box.root, 'AGENTS.md'))
    box.link('CLAUDE.md', join(box.root, 'gone.md'))
    for (const path of ['AGENTS.md', 'CLAUDE.md']) {
      const err = await failure(saveFile(box, { path, text: 'replaced', baseSha256: null }))
      expect(err.message, path).toContain('symbolic link that leads nowhere')
      expect(lstatSync(join(box.root, path)).isSymbolicLink(), path).toBe(true)
    }
  })

  it('any path the prompt builder does not list: other files, parent folders, version control', async () => {
    box.write('CLAUDE.md', 'x')
    box.write('src/main.ts', 'code')
    for (const path of ['src/main.ts', '../outside/secret.md', join(box.outside, 'secret.md'), '.git/config', '~/.bashrc']) {
      const err = await failure(saveFile(box, { path, text: 'pwned', baseSha256: null }))
      expect(err.code, path).toBe('permission_denied')
    }
    expect(readFileSync(join(box.root, 'src/main.ts'), 'utf8')).toBe('code')
    expect(readFileSync(join(box.outside, 'secret.md'), 'utf8')).toBe(SECRET)
  })

  it('binary, invalid UTF-8 and over-1-MB files, with a message that says why', async () => {
    box.write('CLAUDE.md', new Uint8Array([0x23, 0x20, 0xff, 0xfe, 0x0a]))
    const invalid = await failure(openFile(box, 'CLAUDE.md'))
    expect(invalid.code).toBe('unsupported')
    expect(invalid.message).toContain('not valid UTF-8')
    box.write('AGENTS.md', new Uint8Array([0x61, 0x00]))
    expect((await failure(openFile(box, 'AGENTS.md'))).message).toContain('binary')
    box.write('LOUPE.md', 'x'.repeat(1024 * 1024 + 1))
    expect((await failure(openFile(box, 'LOUPE.md'))).message).toContain('larger than 1 MB')
    writeFileSync(join(box.root, 'AGENTS.md'), 'fine now\n')
    const opened = await openFile(box, 'AGENTS.md')
    const tooBig = await failure(saveFile(box, { path: 'AGENTS.md', text: 'y'.repeat(1024 * 1024 + 1), baseSha256: opened.sha256 }))
    expect(tooBig.code).toBe('invalid_input')
    expect(readFileSync(join(box.root, 'AGENTS.md'), 'utf8')).toBe('fine now\n')
  })
})

describe('creating a file from the Files view', () => {
  it('opens a file it offers as absent, with the text a new one starts with, and writes nothing until it is saved', async () => {
    const agents = await openFile(box, 'AGENTS.md')
    expect(agents).toMatchObject({ exists: false, text: '', sha256: null, startingText: expect.stringMatching(/^# Instructions for agents\n/) })
    const memory = await openFile(box, '.loupe/memory.md')
    expect(memory.startingText).toBe('# Project memory\n\n')
    expect((await openFile(box, '~/.loupe/memory.md')).startingText).toBe('# User memory\n\n')
    expect(existsSync(join(box.root, 'AGENTS.md'))).toBe(false)
    expect(existsSync(join(box.root, '.loupe'))).toBe(false)
  })

  it('creates the file, with its folder, at the first save against "no file"', async () => {
    const memory = await openFile(box, '.loupe/memory.md')
    const saved = await saveFile(box, { path: '.loupe/memory.md', text: `${memory.startingText}- Prices are integer cents.\n`, baseSha256: memory.sha256 })
    expect(saved).toMatchObject({ status: 'saved', backupPath: null, charsBefore: 0 })
    expect(readFileSync(join(box.root, '.loupe/memory.md'), 'utf8')).toBe('# Project memory\n\n- Prices are integer cents.\n')
    const user = await openFile(box, '~/.loupe/memory.md')
    await saveFile(box, { path: '~/.loupe/memory.md', text: user.startingText!, baseSha256: null })
    expect(readFileSync(join(box.loupeHome, 'memory.md'), 'utf8')).toBe('# User memory\n\n')
  })

  it('says in words what stood in the way when the folder of a new file cannot be made', async () => {
    const memory = await openFile(box, '.loupe/memory.md')
    // A file where the folder would go.
    writeFileSync(join(box.root, '.loupe'), 'not a folder\n')
    const err = await failure(saveFile(box, { path: '.loupe/memory.md', text: `${memory.startingText}- a fact\n`, baseSha256: null }))
    expect(err.code).toBe('io_error')
    expect(err.message).toMatch(/^\.loupe\/memory\.md could not be written: (a file is in the way|a part of the path is a file, not a folder): .*\.loupe/)
    expect(err.message).not.toMatch(/EEXIST|ENOTDIR/)
  })

  it('does not replace a file made meanwhile: the save against "no file" meets it as a conflict, and keeps the text sent', async () => {
    const draft = await openFile(box, 'AGENTS.md')
    box.write('AGENTS.md', 'written by the agent\n')
    const refused = await saveFile(box, { path: 'AGENTS.md', text: `${draft.startingText}mine\n`, baseSha256: null })
    expect(refused).toMatchObject({ status: 'conflict', disk: { text: 'written by the agent\n', exists: true } })
    expect(readFileSync(join(box.root, 'AGENTS.md'), 'utf8')).toBe('written by the agent\n')
    if (refused.status === 'conflict') expect(readFileSync(refused.minePath, 'utf8')).toBe(`${draft.startingText}mine\n`)
  })

  it('offers no starting text for a file it does not offer, and opens no file it does not list', async () => {
    box.write('AGENTS.md', 'x')
    expect((await openFile(box, 'AGENTS.md')).startingText).toBeUndefined()
    expect((await failure(openFile(box, 'notes.md'))).code).toBe('permission_denied')
    expect((await failure(saveFile(box, { path: 'notes.md', text: 'x', baseSha256: null }))).code).toBe('permission_denied')
  })
})
