/** `npm run import -- <file.jsonl> --summary`, run in-process. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openStore } from '../../../src-main/node/store'
import { runImportCli } from '../../../src-main/node/transcripts/cli'
import { FIXTURES } from '../../engine/transcripts/fixtures'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'loupe-import-cli-'))
  dirs.push(d)
  return d
}

async function runCli(argv: string[], env: Record<string, string>) {
  let out = ''
  let err = ''
  const code = await runImportCli(argv, { out: (t) => (out += t), err: (t) => (err += t), env })
  return { code, out, err }
}

async function run(argv: string[]) {
  let out = ''
  let err = ''
  const code = await runImportCli(argv, { out: (t) => (out += t), err: (t) => (err += t), env: {} })
  return { code, out, err }
}

describe('import --summary', () => {
  it('prints the session totals as JSON', async () => {
    const { code, out, err } = await run([join(FIXTURES, 'spotter', '4d5611e5-241a-462a-8d15-5122611a9569.jsonl'), '--summary'])
    expect(err).toBe('')
    expect(code).toBe(0)
    const summary = JSON.parse(out)
    expect(summary).toMatchObject({
      session_id: '4d5611e5-241a-462a-8d15-5122611a9569',
      requests: 139,
      input_tokens: 177,
      cache_read_input_tokens: 11_618_567,
      cache_creation_input_tokens: 479_537,
      output_tokens: 28_755,
      skipped_lines: 0,
    })
    expect(summary.compactions).toEqual([expect.objectContaining({ trigger: 'auto', pre_tokens: 170_251 })])
    expect(summary.subagents.map((s: { id: string }) => s.id)).toEqual(['a2898e3', 'acompact-e1f845'])
    expect(summary.including_subagents.requests).toBe(139 + 12 + 1)
  })

  it('adds cost when given prices', async () => {
    let out = ''
    const code = await runImportCli(
      [join(FIXTURES, 'claude-code-viewer', '1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl'), '--summary'],
      { out: (t) => (out += t), err: () => {} },
      { price: (_model, u) => u.output_tokens / 1e6 },
    )
    expect(code).toBe(0)
    const summary = JSON.parse(out)
    expect(summary.cost_usd).toBeCloseTo(summary.output_tokens / 1e6, 4)
    expect(summary.unpriced_requests).toBe(0)
  })

  it('refuses to import into the store (not available) and unknown options', async () => {
    expect((await run([join(FIXTURES, 'spotter', 'short.jsonl')])).code).toBe(2)
    expect((await run([join(FIXTURES, 'spotter', 'short.jsonl'), '--summary', '--frobnicate'])).code).toBe(2)
    expect((await run(['--summary'])).code).toBe(2)
  })

  it('exits 1 with a message for a file it cannot read', async () => {
    const { code, err } = await run(['/nonexistent/x.jsonl', '--summary'])
    expect(code).toBe(1)
    expect(err).toBe('import: /nonexistent/x.jsonl does not exist\n')
  })

  it('refuses, as --store does, a file with no conversation in it: one line naming it and why, no totals, exit 1', async () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'empty.jsonl'), '')
    writeFileSync(join(dir, 'junk.jsonl'), Buffer.from([0x00, 0xff, 0x0a, 0x5b, 0x31, 0x5d, 0x0a, 0x7b]))
    symlinkSync('/dev/zero', join(dir, 'zero.jsonl'))
    writeFileSync(join(dir, 'titles.jsonl'), `${JSON.stringify({ type: 'summary', summary: 'A title', leafUuid: 'u1' })}\n`)
    // Its one answer's usage is damaged (a negative count), so the line is skipped, and the message says so.
    const answer = JSON.stringify({ type: 'assistant', uuid: 'a1', parentUuid: 'u1', requestId: 'r1', message: { id: 'm1', model: 'claude-opus-4-6', content: [], usage: { input_tokens: -1 } } })
    writeFileSync(join(dir, 'damaged.jsonl'), `${JSON.stringify({ type: 'user', uuid: 'u1', parentUuid: null, message: { content: 'hi' } })}\n${answer}\n`)
    const cases: Array<[string, string]> = [
      ['titles.jsonl', 'records no API request: none of its 1 line is an answer from the model, so there is no conversation to import'],
      ['damaged.jsonl', 'records no API request: none of its 2 lines is an answer from the model (1 skipped: invalid_field ×1), so there is no conversation to import'],
      ['empty.jsonl', 'is empty: there is no conversation to import'],
      ['junk.jsonl', 'is not a Claude Code session: none of its 3 lines is a transcript record (malformed_json ×1, truncated_last_line ×1, not_an_object ×1)'],
      ['zero.jsonl', 'is not a regular file (a device)'],
    ]
    for (const [name, why] of cases) {
      const { code, out, err } = await run([join(dir, name), '--summary'])
      expect(code, name).toBe(1)
      expect(out, name).toBe('')
      expect(err, name).toBe(`import: ${join(dir, name)} ${why}\n`)
    }
  })
})

describe('import --list', () => {
  it('lists sessions under the given projects folder', async () => {
    const { code, out } = await run(['--list', '--projects-dir', FIXTURES])
    expect(code).toBe(0)
    const listing = JSON.parse(out)
    const spotter = listing.sessions.filter((s: { project: string }) => s.project === 'spotter')
    expect(spotter.map((s: { session_id: string }) => s.session_id).sort()).toEqual([
      '4d5611e5-241a-462a-8d15-5122611a9569',
      'ae4a77f8-aedd-4bc1-888f-c94edc91af04',
      'fa812bfe-b295-4cca-9c2f-fdf01028cb46',
      'short',
      'subagent',
      'tool_heavy',
    ])
    expect(spotter.find((s: { session_id: string }) => s.session_id === 'short')).toMatchObject({ requests: 1, models: ['claude-opus-4-6'] })
  })
})

describe('import --list, on what is not a projects folder', () => {
  it('says a given folder is not there or not a folder (exit 1), and refuses --projects-dir without one or beside a file (exit 2)', async () => {
    const dir = tempDir()
    expect(await run(['--list', '--projects-dir', join(dir, 'nope')])).toEqual({ code: 1, out: '', err: `import: no folder at ${join(dir, 'nope')}\n` })
    writeFileSync(join(dir, 'file'), '')
    expect(await run(['--list', '--projects-dir', join(dir, 'file')])).toEqual({ code: 1, out: '', err: `import: ${join(dir, 'file')} is not a folder\n` })
    // The default folder missing is only a machine where Claude Code has not run: nothing to list, as in the app.
    const home = await runCli(['--list'], { CLAUDE_CONFIG_DIR: join(dir, 'claude') })
    expect(home.code).toBe(0)
    expect(JSON.parse(home.out)).toMatchObject({ projects_dir: join(dir, 'claude', 'projects'), sessions: [] })
    expect((await run(['--list', '--projects-dir'])).err).toMatch(/^--projects-dir takes a folder\n/)
    expect((await run(['--list', '--projects-dir', '--summary'])).code).toBe(2)
    expect((await run(['--list', join(FIXTURES, 'spotter', 'short.jsonl')])).code).toBe(2)
    expect((await run([join(FIXTURES, 'spotter', 'short.jsonl'), '--summary', '--projects-dir', dir])).code).toBe(2)
  })
})

describe('import --store', () => {
  it('imports the session into the store of the data folder and prints what it wrote', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs')
    const { tmpdir } = await import('node:os')
    const { openStore } = await import('../../../src-main/node/store')
    const home = mkdtempSync(join(tmpdir(), 'loupe-cli-store-'))
    try {
      let out = ''
      const code = await runImportCli([join(FIXTURES, 'spotter', 'tool_heavy.jsonl'), '--store'], { out: (t) => (out += t), err: () => {}, env: { LOUPE_HOME: home } })
      expect(code).toBe(0)
      const printed = JSON.parse(out) as { status: string; session_id: string; passes: number }
      expect(printed).toMatchObject({ status: 'imported', passes: 4 })
      const store = openStore(join(home, 'loupe.db'))
      expect(store.passes.list(printed.session_id).map((p) => p.source)).toEqual(['transcript', 'transcript', 'transcript', 'transcript'])
      store.close()
    } finally {
      rmSync(home, { recursive: true, force: true })
    }
  })
})

describe('import --store, when it cannot', () => {
  it('names the file in one line without repeating it, and leaves the store without a session', async () => {
    const home = tempDir()
    for (const [file, message] of [
      [join(home, 'gone.jsonl'), `import: ${join(home, 'gone.jsonl')} does not exist\n`],
      [home, `import: ${home} is not a regular file (a folder)\n`],
    ] as const) {
      const { code, out, err } = await runCli([file, '--store'], { LOUPE_HOME: home })
      expect({ code, out, err }).toEqual({ code: 1, out: '', err: message })
    }
    const store = openStore(join(home, 'loupe.db'))
    expect(store.projects.list()).toEqual([])
    store.close()
  })

  it('imports the session without a subagent file it cannot read, and says which', async () => {
    const home = tempDir()
    const folder = tempDir()
    const file = join(folder, 'short.jsonl')
    writeFileSync(file, readFileSync(join(FIXTURES, 'spotter', 'short.jsonl')))
    mkdirSync(join(folder, 'short', 'subagents'), { recursive: true })
    // A link to a device, outside the session's folder: refused before it is opened.
    symlinkSync('/dev/zero', join(folder, 'short', 'subagents', 'agent-a1.jsonl'))
    const { code, out, err } = await runCli([file, '--store'], { LOUPE_HOME: home })
    expect(code).toBe(0)
    expect(JSON.parse(out)).toMatchObject({ status: 'imported', passes: 1, children: [] })
    expect(err).toBe(`warning: subagent file ${join(folder, 'short', 'subagents', 'agent-a1.jsonl')} not read (outside_root)\n`)
  })

  it('says in one line that the store refused the write, exit 1, and leaves no project or session behind', async () => {
    const home = tempDir()
    const prepared = openStore(join(home, 'loupe.db'))
    // The disk filling up at the first pass, as SQLite would refuse it, in the file the command opens.
    prepared.db.exec("CREATE TRIGGER refuse_passes BEFORE INSERT ON passes BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END")
    prepared.close()
    const file = join(FIXTURES, 'spotter', 'short.jsonl')
    const { code, out, err } = await runCli([file, '--store'], { LOUPE_HOME: home })
    expect({ code, out, err }).toEqual({ code: 1, out: '', err: `import: cannot import ${file} into ${join(home, 'loupe.db')}: database or disk is full\n` })
    const store = openStore(join(home, 'loupe.db'))
    expect(store.db.prepare('SELECT (SELECT COUNT(*) FROM projects) AS projects, (SELECT COUNT(*) FROM sessions) AS sessions').get()).toEqual({ projects: 0, sessions: 0 })
    store.close()
  })

  it('says in one line why the store will not open (not a database), exit 1, and leaves that file as it was', async () => {
    const home = tempDir()
    writeFileSync(join(home, 'loupe.db'), 'not a database')
    const { code, out, err } = await runCli([join(FIXTURES, 'spotter', 'short.jsonl'), '--store'], { LOUPE_HOME: home })
    expect(code).toBe(1)
    expect(out).toBe('')
    expect(err).toMatch(new RegExp(`^import: ${join(home, 'loupe.db').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is not a Loupe store \\(not an SQLite database\\)\\. [^\\n]*\\n$`))
    expect(readFileSync(join(home, 'loupe.db'), 'utf8')).toBe('not a database')
  })
})
