/** Finding sessions under a projects folder laid out the way Claude Code lays it out, in a temporary directory. */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defaultProjectsDir, listSessionFiles } from '../../../src-main/node/transcripts/locate'

let tmp: string
let projects: string

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'loupe-locate-'))
  projects = join(tmp, 'projects')
  const app = join(projects, '-home-me-src-app')
  mkdirSync(join(app, 'sess-new', 'subagents'), { recursive: true })
  writeFileSync(join(app, 'sess-old.jsonl'), '{}\n')
  writeFileSync(join(app, 'sess-new.jsonl'), '{}\n{}\n')
  writeFileSync(join(app, 'sess-new', 'subagents', 'agent-b.jsonl'), '{}\n')
  writeFileSync(join(app, 'sess-new', 'subagents', 'agent-a.jsonl'), '{}\n')
  writeFileSync(join(app, 'sess-new', 'subagents', 'notes.txt'), 'x')
  writeFileSync(join(app, 'agent-1x.jsonl'), '{}\n')
  writeFileSync(join(app, 'README.md'), 'x')
  utimesSync(join(app, 'sess-old.jsonl'), new Date('2026-01-01'), new Date('2026-01-01'))
  utimesSync(join(app, 'sess-new.jsonl'), new Date('2026-02-01'), new Date('2026-02-01'))
  const other = join(projects, '-home-me-other')
  mkdirSync(other)
  writeFileSync(join(other, 'sess-x.jsonl'), '{}\n')
  utimesSync(join(other, 'sess-x.jsonl'), new Date('2025-06-01'), new Date('2025-06-01'))
  // A link that stays inside the projects folder is followed; one that leads out of it is not.
  symlinkSync(join(app, 'sess-old.jsonl'), join(other, 'linked-inside.jsonl'))
  writeFileSync(join(tmp, 'secret.jsonl'), '{}\n')
  symlinkSync(join(tmp, 'secret.jsonl'), join(other, 'linked-outside.jsonl'))
  symlinkSync(tmp, join(projects, '-escape'))
})

afterAll(() => rmSync(tmp, { recursive: true, force: true }))

describe('defaultProjectsDir', () => {
  it('is ~/.claude/projects, or $CLAUDE_CONFIG_DIR/projects when set', () => {
    expect(defaultProjectsDir({}, '/home/me')).toBe('/home/me/.claude/projects')
    expect(defaultProjectsDir({ CLAUDE_CONFIG_DIR: '/cfg' }, '/home/me')).toBe('/cfg/projects')
    expect(defaultProjectsDir({ CLAUDE_CONFIG_DIR: '' }, '/home/me')).toBe('/home/me/.claude/projects')
  })
})

describe('listSessionFiles', () => {
  it('lists session files of every project, newest first, with size and subagent files', async () => {
    const listing = await listSessionFiles(projects)
    // linked-inside shares sess-old's time (the link is followed); ties are ordered by path.
    expect(listing.sessions.map((s) => `${s.project}/${s.sessionId}`)).toEqual([
      '-home-me-src-app/sess-new',
      '-home-me-other/linked-inside',
      '-home-me-src-app/sess-old',
      '-home-me-other/sess-x',
    ])
    const newest = listing.sessions[0]!
    expect(newest.sizeBytes).toBe(6)
    expect(newest.subagentPaths.map((p) => p.split('/').pop())).toEqual(['agent-a.jsonl', 'agent-b.jsonl'])
  })

  it('skips and reports symlinks that lead outside the projects folder', async () => {
    const listing = await listSessionFiles(projects)
    expect(listing.sessions.some((s) => s.sessionId === 'linked-outside' || s.sessionId === 'secret')).toBe(false)
    expect(listing.skippedEntries.map((e) => [e.path.split('/').pop(), e.reason]).sort()).toEqual([
      ['-escape', 'symlink_outside_root'],
      ['linked-outside.jsonl', 'symlink_outside_root'],
    ])
  })

  it('lists one project', async () => {
    const listing = await listSessionFiles(projects, '-home-me-other')
    expect(listing.sessions.map((s) => s.sessionId).sort()).toEqual(['linked-inside', 'sess-x'])
  })

  it('takes a project only as one folder of the projects folder: never the folder itself or the one around it', async () => {
    writeFileSync(join(projects, '..', 'around.jsonl'), '{}\n')
    writeFileSync(join(projects, 'loose.jsonl'), '{}\n')
    for (const project of ['..', '.', '', '../..', 'a\u0000b']) {
      expect(await listSessionFiles(projects, project), JSON.stringify(project)).toEqual({ sessions: [], skippedEntries: [] })
    }
  })

  it('gives an empty listing for a folder that does not exist', async () => {
    expect(await listSessionFiles(join(tmp, 'nope'))).toEqual({ sessions: [], skippedEntries: [] })
  })
})
