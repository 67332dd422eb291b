import { spawnSync } from 'node:child_process'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { findRipgrep } from '../../../src-main/node/tools/grep-rg'
import { QUOTED_NAMES_NOTE } from '../../../src-main/engine/tools/render'
import { makeFixture, Session, type Fixture } from './fixture'

const rg = await findRipgrep(process.env)

const FILES = {
  '.gitignore': 'dist/\n*.log\n!keep.log\nnode_modules/\n',
  '.env.example': 'NEEDLE=1\n',
  '.git/config': 'NEEDLE in git internals\n',
  'README.md': 'no match here\n',
  'src/a.ts': 'const x = 1 // NEEDLE\nconst y = 2\nexport const NEEDLE_TOO = 3\n',
  'src/b.js': 'NEEDLE in js\n',
  'dist/bundle.js': 'NEEDLE in build output\n',
  'debug.log': 'NEEDLE in a log\n',
  'keep.log': 'NEEDLE kept\n',
  'node_modules/lib/index.js': 'NEEDLE in a dependency\n',
  'pkg/.gitignore': 'generated.ts\n',
  'pkg/generated.ts': 'NEEDLE generated\n',
  'pkg/real.ts': 'NEEDLE real\n',
}

let fx: Fixture
beforeEach(() => {
  fx = makeFixture(FILES)
})
afterEach(() => fx.cleanup())

const engines = rg === null ? (['off'] as const) : (['off', rg] as const)

describe.each(engines)('grep (ripgrep: %s)', (ripgrep) => {
  let session: Session
  beforeEach(() => {
    session = new Session(fx, { ripgrep })
  })
  afterEach(() => session.executor.dispose())

  it('honours .gitignore at every level, skips .git, includes hidden files, sorted by path', async () => {
    const outcome = await session.call('grep', { pattern: 'NEEDLE' })
    expect(outcome).toMatchObject({ kind: 'ok' })
    expect(outcome.content.split('\n')).toEqual([
      '.env.example:1:NEEDLE=1',
      'keep.log:1:NEEDLE kept',
      'pkg/real.ts:1:NEEDLE real',
      'src/a.ts:1:const x = 1 // NEEDLE',
      'src/a.ts:3:export const NEEDLE_TOO = 3',
      'src/b.js:1:NEEDLE in js',
    ])
  })

  it('narrows by path and by file-name glob', async () => {
    expect((await session.call('grep', { pattern: 'NEEDLE', path: 'src', glob: '*.ts' })).content.split('\n')).toEqual([
      'src/a.ts:1:const x = 1 // NEEDLE',
      'src/a.ts:3:export const NEEDLE_TOO = 3',
    ])
    expect((await session.call('grep', { pattern: 'NEEDLE_T', path: 'src/a.ts' })).content).toBe('src/a.ts:3:export const NEEDLE_TOO = 3')
  })

  it('uses regular expressions and says when nothing matched', async () => {
    expect((await session.call('grep', { pattern: 'const [xy] = \\d', path: 'src' })).content.split('\n')).toHaveLength(2)
    expect(await session.call('grep', { pattern: 'HAYSTACK' })).toMatchObject({ kind: 'ok', content: 'No matches for /HAYSTACK/ in the project.' })
  })

  it('says a search was incomplete when a folder could not be read, and still gives what it found', async () => {
    // A folder deeper than the system's longest path: listed, but neither searcher can enter it.
    const deep = spawnSync('bash', ['-c', 'd=$(printf "d%.0s" {1..200}); for i in $(seq 1 25); do mkdir -p $d && cd $d; done; echo NEEDLE deep > deep.txt'], { cwd: fx.root })
    expect(deep.status).toBe(0)
    try {
      const outcome = await session.call('grep', { pattern: 'NEEDLE real' })
      expect(outcome).toMatchObject({ kind: 'ok' })
      const [first, ...rest] = outcome.content.split('\n')
      expect(first).toBe('pkg/real.ts:1:NEEDLE real')
      expect(rest.join('\n')).toMatch(/^\[Incomplete: .*could not be read \(permissions, names too long, I\/O errors\) and (was|were) not searched\.\]$/)
      // Nothing found is said the same way: not found where it looked, and where it could not look.
      const none = await session.call('grep', { pattern: 'NOT ANYWHERE' })
      expect(none.content).toMatch(/^No matches for \/NOT ANYWHERE\/ in the project\.\n\[Incomplete: /)
    } finally {
      // rm walks it relative to each folder; the fixture's own cleanup cannot name its files.
      spawnSync('rm', ['-rf', 'd'.repeat(200)], { cwd: fx.root })
    }
  })

  it('writes a path holding a newline as a JSON string, so its match line stays one line', async () => {
    fx.write('odd\nname.txt', 'NEEDLE in an odd name\n')
    fx.write('plain.txt', 'NEEDLE plain\n')
    const outcome = await session.call('grep', { pattern: 'NEEDLE (in an odd|plain)' })
    expect(outcome.content.split('\n')).toEqual(['"odd\\nname.txt":1:NEEDLE in an odd name', 'plain.txt:1:NEEDLE plain'])
  })

  it('stops at the match limit with a note', async () => {
    fx.write('many.txt', 'NEEDLE\n'.repeat(400))
    const outcome = await session.call('grep', { pattern: 'NEEDLE', path: 'many.txt' })
    const lines = outcome.content.split('\n')
    expect(lines.filter((line) => line.startsWith('many.txt:'))).toHaveLength(300)
    expect(lines[lines.length - 1]).toMatch(/^\[Stopped after 300 matches\./)
  })

  it('never answers "no matches" for a file over the size limit it did not search', async () => {
    // 6 MB of log lines (named .txt: the fixture's .gitignore leaves out *.log), the match on the last one.
    fx.write('big.txt', 'a line of an ordinary log\n'.repeat(240_000) + 'HAYSTACK_LAST\n')
    for (const path of [undefined, 'big.txt']) {
      const outcome = await session.call('grep', { pattern: 'HAYSTACK_LAST', ...(path ? { path } : {}) })
      expect(outcome).toMatchObject({ kind: 'ok' })
      if (ripgrep === 'off') {
        expect(outcome.content).toMatch(/^No matches for \/HAYSTACK_LAST\/ in (the project|big\.txt)\.\n\[Incomplete: big\.txt \(6,240,014 bytes\) is larger than the 5,242,880 bytes \(5 MiB\) grep reads in one file and was not searched; search it with a command such as grep -n\.\]$/)
      } else {
        expect(outcome.content).toBe('big.txt:240001:HAYSTACK_LAST')
      }
    }
  })
})

describe('glob', () => {
  let session: Session
  beforeEach(() => {
    session = new Session(fx)
  })
  afterEach(() => session.executor.dispose())

  it('finds files, leaving out .gitignored ones (and saying so), .git and node_modules', async () => {
    expect((await session.call('glob', { pattern: '**/*.ts' })).content).toBe('pkg/real.ts\nsrc/a.ts\n[1 more matched but are ignored by .gitignore.]')
    expect((await session.call('glob', { pattern: '**/*.js' })).content).toBe('src/b.js\n[1 more matched but are ignored by .gitignore.]')
    expect((await session.call('glob', { pattern: '**/config' })).content).toBe('No files match **/config.')
    expect((await session.call('glob', { pattern: '*.log' })).content).toBe('keep.log\n[1 more matched but are ignored by .gitignore.]')
  })

  it('writes a name holding a newline or a tab as a JSON string, and says why once', async () => {
    fx.write('names/new\nline.txt', '')
    fx.write('names/tab\there.txt', '')
    fx.write('names/with space.txt', '')
    expect((await session.call('glob', { pattern: 'names/*' })).content.split('\n')).toEqual([
      '"names/new\\nline.txt"',
      '"names/tab\\there.txt"',
      'names/with space.txt',
      QUOTED_NAMES_NOTE,
    ])
    expect((await session.call('list_dir', { path: 'names' })).content.split('\n')).toEqual(['"new\\nline.txt"', '"tab\\there.txt"', 'with space.txt', QUOTED_NAMES_NOTE])
    // The name as written, parsed as JSON, is the path the tools take.
    expect((await session.call('read_file', { path: JSON.parse('"names/new\\nline.txt"') as string })).kind).toBe('ok')
  })
})

describe('list_dir', () => {
  let session: Session
  beforeEach(() => {
    session = new Session(fx)
  })
  afterEach(() => session.executor.dispose())

  it('lists a folder sorted, marking folders and links', async () => {
    expect((await session.call('list_dir', { path: 'pkg' })).content).toBe('.gitignore\ngenerated.ts\nreal.ts')
    const root = (await session.call('list_dir', { path: '.' })).content.split('\n')
    expect(root).toContain('src/')
    expect(root).toContain('link-out@')
    expect(await session.call('list_dir', { path: 'README.md' })).toMatchObject({ kind: 'error', code: 'not_a_directory' })
  })
})
