/**
 * The places a project plugs in (docs/compaction.md "Context edits and extension points"): `.loupe/config.toml`,
 * modules that run only when the user trusted them, a failing or slow extension replaced by the default with a
 * visible note, per-pass context edits on what no pass has sent yet, context sections after the breakpoints, and the
 * built-in file memory.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { realpathSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { loadProjectConfig, parseProjectConfig } from '../../../src-main/node/compaction/config'
import { loadExtensions, withDeadline } from '../../../src-main/node/compaction/extensions'
import { createFileMemory } from '../../../src-main/node/compaction/memory-file'
import { isTrusted, sha256OfBytes, trustExtension } from '../../../src-main/node/compaction/trust'
import { openHarness, type Harness } from './harness'

const ctx = { signal: new AbortController().signal, root: '/' }

describe('project config', () => {
  it('reads settings and extensions, and reports what it could not use', () => {
    const config = parseProjectConfig('[compaction]\nthreshold = 0.7\ntarget = 0.5\nkeep_steps = 2\nspeed = "fast"\n\n[extensions]\ncontext = "./ext/ctx.mjs"\nsections = ["./ext/a.mjs"]\n')
    expect(config.settings).toMatchObject({ threshold: 0.7, target: 0.5, keepSteps: 2 })
    expect(config.extensions).toEqual({ context: './ext/ctx.mjs', compactor: null, memory: null, sections: ['./ext/a.mjs'] })
    expect(config.problems).toEqual(['[compaction] unknown setting speed'])
    expect(parseProjectConfig('[compaction\nthreshold=').problems[0]).toMatch(/does not parse/)
    expect(parseProjectConfig('compaction = 3').problems).toContain('[compaction] must be a table')
  })

  let dir: string
  beforeEach(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'loupe-config-')))
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('is read only from inside the project', async () => {
    mkdirSync(join(dir, 'p', '.loupe'), { recursive: true })
    writeFileSync(join(dir, 'outside.toml'), '[compaction]\nthreshold = 0.5\ntarget = 0.4\n')
    symlinkSync(join(dir, 'outside.toml'), join(dir, 'p', '.loupe', 'config.toml'))
    const config = await loadProjectConfig(join(dir, 'p'))
    expect(config.settings.threshold).toBe(0.8)
    expect(config.problems[0]).toContain('was not read (outside)')
    expect((await loadProjectConfig(join(dir, 'none'))).problems).toEqual([])
  })

  it('loads a module only once the user trusted these exact bytes for this project', async () => {
    const root = join(dir, 'p')
    mkdirSync(join(root, 'ext'), { recursive: true })
    const home = join(dir, 'home')
    const file = join(root, 'ext', 'ctx.mjs')
    writeFileSync(file, "export default { context: { name: 'mine', edits() { return [] } } }\n")
    const specs = { context: './ext/ctx.mjs', compactor: 'default', memory: 'file', sections: [] }
    const untrusted = await loadExtensions(root, specs, { loupeHome: home })
    expect(untrusted.contextBuilder.name).toBe('trim-old-tools')
    expect(untrusted.notes[0]).toContain('is not trusted for this project')

    await trustExtension(home, root, './ext/ctx.mjs', sha256OfBytes(readFileSync(file)))
    const trusted = await loadExtensions(root, specs, { loupeHome: home })
    expect(trusted.contextBuilder.name).toBe('mine')
    expect(trusted.notes).toEqual([])

    writeFileSync(file, "export default { context: { name: 'changed', edits() { return [] } } }\n")
    expect(await isTrusted(home, root, './ext/ctx.mjs', sha256OfBytes(readFileSync(file)))).toBe(false)
    expect((await loadExtensions(root, specs, { loupeHome: home })).contextBuilder.name).toBe('trim-old-tools')

    writeFileSync(file, 'export default { context: { edits: 3 } }\n')
    await trustExtension(home, root, './ext/ctx.mjs', sha256OfBytes(readFileSync(file)))
    expect((await loadExtensions(root, specs, { loupeHome: home })).notes[0]).toContain('does not implement the context interface')
    expect((await loadExtensions(root, { ...specs, context: 'nonsense' }, { loupeHome: home })).notes[0]).toContain('no built-in context extension named nonsense')
    expect((await loadExtensions(root, { ...specs, context: '../../etc/passwd' }, { loupeHome: home })).notes[0]).toMatch(/outside the project|no such file/)
  })

  it('gives every call a deadline', async () => {
    await expect(withDeadline(new Promise(() => {}), 5, 'the thing')).rejects.toThrow('the thing took longer than 5 ms')
    await expect(withDeadline(Promise.resolve(7), 5, 'x')).resolves.toBe(7)
  })
})

describe('the built-in file memory', () => {
  let dir: string
  beforeEach(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'loupe-memory-')))
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('saves, searches and forgets facts in the files the session block shows', async () => {
    const root = join(dir, 'p')
    mkdirSync(root)
    const memory = createFileMemory(root, join(dir, 'home'))
    const a = await memory.save('The API uses\nsnake_case', 'project', ctx)
    await memory.save('I prefer tabs', 'user', ctx)
    expect(readFileSync(join(root, '.loupe', 'memory.md'), 'utf8')).toBe('- The API uses snake_case\n')
    expect(readFileSync(join(dir, 'home', 'memory.md'), 'utf8')).toBe('- I prefer tabs\n')
    expect((await memory.search('snake case api', 5, ctx)).map((m) => m.text)).toEqual(['The API uses snake_case'])
    expect(await memory.forget(a.id, ctx)).toBe(true)
    expect(await memory.forget(a.id, ctx)).toBe(false)
    expect(readFileSync(join(root, '.loupe', 'memory.md'), 'utf8')).toBe('')
  })

  it('refuses a project memory that leads outside the project', async () => {
    const root = join(dir, 'p')
    mkdirSync(root)
    mkdirSync(join(dir, 'elsewhere'))
    symlinkSync(join(dir, 'elsewhere'), join(root, '.loupe'))
    await expect(createFileMemory(root, join(dir, 'home')).save('x', 'project', ctx)).rejects.toThrow('outside the project')
  })
})

describe('extensions in a session', () => {
  let h: Harness
  afterEach(async () => h?.close())

  async function trustAll(paths: string[]): Promise<void> {
    const root = realpathSync(h.dir)
    for (const p of paths) await trustExtension(join(h.dir, '..', 'home'), root, p, sha256OfBytes(readFileSync(join(root, p))))
  }

  it('uses a trusted context module at compaction and before passes, adds its section after the breakpoints, and replaces a failing compactor by the default', async () => {
    const files = {
      'README.md': '# Demo\n\nSECRET token in here.\n',
      'src/api.ts': Array.from({ length: 100 }, (_, i) => `export const route${i} = '/v2/items/${i}'`).join('\n'),
      'ext/ctx.mjs': `export default { context: { name: 'redact', edits(input) {
  return input.entries.filter((e) => e.editable && e.kind === 'tool_result' && (input.phase === 'pass' ? e.text.includes('SECRET') : e.text.length > 500))
    .map((e) => ({ entryId: e.entryId, action: 'replace', content: input.phase === 'pass' ? e.text.replace('SECRET', '[redacted]') : '[dropped by redact]', reason: 'test' }))
} } }\n`,
      'ext/compactor.mjs': "export default { compactor: { name: 'broken', async summarise() { throw new Error('no summary today') } } }\n",
      'ext/section.mjs': "let n = 0\nexport default { section: { name: 'counter', kind: 'state', section: () => `Pass counter: ${++n}` } }\n",
      'ext/slow.mjs': "export default { section: { name: 'slow', kind: 'render', section: () => new Promise(() => {}) } }\n",
      '.loupe/config.toml': '[extensions]\ncontext = "./ext/ctx.mjs"\ncompactor = "./ext/compactor.mjs"\nsections = ["./ext/section.mjs", "./ext/slow.mjs"]\n',
    }
    h = await openHarness({ files })
    // Trust is keyed by the path as the config writes it.
    await trustAll(['./ext/ctx.mjs', './ext/compactor.mjs', './ext/section.mjs', './ext/slow.mjs'])

    expect(await h.send('read README.md')).toBe('end_turn')
    // Before the second pass, the new tool result (no pass had sent it) was edited by the module.
    const edit = h.entries().find((e) => e.kind === 'context_edit') as Record<string, any>
    expect(edit.source).toBe('redact')
    const passes = await h.call<Array<{ id: string; kind: string }>>('pass.list', { sessionId: h.sessionId })
    const second = JSON.parse((await h.call<{ requestBody: string }>('pass.get', { passId: passes[1]!.id })).requestBody)
    const sent = JSON.stringify(second.messages)
    expect(sent).toContain('[redacted] token')
    expect(sent).not.toContain('SECRET')
    // The section rides after every breakpoint, on the newest message only.
    const last = second.messages.at(-1).content
    expect(last.at(-1).text).toBe('<context-section name="counter">\nPass counter: 2\n</context-section>')
    expect(last.at(-1).cache_control).toBeUndefined()
    expect(last.slice(0, -1).some((b: { cache_control?: unknown }) => b.cache_control)).toBe(true)
    const notices = h.entries().filter((e) => e.kind === 'notice').map((e) => String(e.text))
    expect(notices.filter((t) => t.includes('The context section slow was left out'))).toHaveLength(1)

    for (const text of ['find "route"', 'find "export"', 'read src/api.ts', 'find "items"']) expect(await h.send(text)).toBe('end_turn')
    expect(await h.send('/compact')).toBe('compacted')
    const checkpoint = h.entries().find((e) => e.kind === 'checkpoint') as Record<string, any>
    expect(checkpoint.notes.join(' ')).toContain('The compactor broken failed (no summary today); the built-in compactor ran instead.')
    expect(checkpoint.summaryForm).toBe('cut')
    expect(checkpoint.trimmed.length).toBeGreaterThan(0)
    expect(checkpoint.trimmed.every((t: { keptChars: number }) => t.keptChars === '[dropped by redact]'.length)).toBe(true)
  })
})
