/** Loading a session with its subagent files, and describing it for a listing. */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { describeSession, loadSession } from '../../../src-main/node/transcripts/load'
import { listSessionFiles } from '../../../src-main/node/transcripts/locate'
import { FIXTURES } from '../../engine/transcripts/fixtures'

const SESSION = 'fa812bfe-b295-4cca-9c2f-fdf01028cb46'
let tmp: string
let project: string

const line = (o: object) => JSON.stringify(o)

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'loupe-load-'))
  project = join(tmp, 'projects', '-home-USER-projects-spotter')
  mkdirSync(project, { recursive: true })
  cpSync(join(FIXTURES, 'spotter', `${SESSION}.jsonl`), join(project, `${SESSION}.jsonl`))
  cpSync(join(FIXTURES, 'spotter', SESSION), join(project, SESSION), { recursive: true })
  // A 1.x-style session whose subagent sits next to it as agent-<id>.jsonl, and another agent file of a different session.
  const old = join(tmp, 'projects', '-old')
  mkdirSync(old)
  const base = { sessionId: 'old-1', timestamp: '2025-09-01T00:00:00.000Z' }
  writeFileSync(
    join(old, 'old-1.jsonl'),
    [
      line({ type: 'summary', summary: 'Old title', leafUuid: 'u1' }),
      line({ ...base, type: 'user', uuid: 'u1', parentUuid: null, message: { role: 'user', content: 'go' } }),
      line({ ...base, type: 'assistant', uuid: 'a1', parentUuid: 'u1', requestId: 'r1', message: { id: 'm1', model: 'claude-sonnet-4-20250514', content: [], usage: { input_tokens: 1, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 } } }),
    ].join('\n') + '\n',
  )
  const agentLine = (sessionId: string) =>
    line({ sessionId, isSidechain: true, type: 'assistant', uuid: `x-${sessionId}`, parentUuid: null, requestId: `rq-${sessionId}`, message: { id: `mx-${sessionId}`, model: 'claude-sonnet-4-20250514', content: [], usage: { input_tokens: 5, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 } } })
  writeFileSync(join(old, 'agent-0001.jsonl'), agentLine('old-1') + '\n')
  writeFileSync(join(old, 'agent-0002.jsonl'), agentLine('someone-else') + '\n')
})

afterAll(() => rmSync(tmp, { recursive: true, force: true }))

describe('loadSession', () => {
  it('reads a 2.x session with the files in its subagents folder', async () => {
    const loaded = await loadSession(join(project, `${SESSION}.jsonl`))
    expect(loaded.ok).toBe(true)
    if (!loaded.ok) return
    expect(loaded.session.requests).toHaveLength(157)
    expect(loaded.session.children.map((c) => [c.id, c.kind])).toEqual([
      ['a93ccab', 'task'],
      ['aa84377', 'task'],
      ['acompact-70d8e7', 'compaction'],
    ])
    expect(loaded.bytes).toBe(3_465_426 + 171_567 + 188_792 + 42_315)
  })

  it('can leave subagents out', async () => {
    const loaded = await loadSession(join(project, `${SESSION}.jsonl`), { subagents: false })
    expect(loaded.ok && loaded.session.children).toEqual([])
  })

  it('matches 1.x sibling agent files by their sessionId', async () => {
    const loaded = await loadSession(join(tmp, 'projects', '-old', 'old-1.jsonl'))
    expect(loaded.ok && loaded.session.children.map((c) => c.fileName)).toEqual(['agent-0001.jsonl'])
  })

  it('fails cleanly on a missing file', async () => {
    expect(await loadSession(join(tmp, 'missing.jsonl'))).toMatchObject({ ok: false, error: { kind: 'not_found' } })
  })
})

describe('describeSession', () => {
  it('gives date range, models, request count and title for a listing', async () => {
    const listing = await listSessionFiles(join(tmp, 'projects'))
    const described = await Promise.all(listing.sessions.map((s) => describeSession(s)))
    const spotter = described.find((d) => d?.sessionId === SESSION)
    expect(spotter).toMatchObject({ requests: 157, models: ['claude-opus-4-6'], title: null, skippedLines: 0, sizeBytes: 3_465_426 })
    expect(new Date(spotter!.firstAtMs!).toISOString()).toBe('2026-02-12T15:36:08.028Z')
    expect(spotter!.lastAtMs! > spotter!.firstAtMs!).toBe(true)
    const old = described.find((d) => d?.sessionId === 'old-1')
    expect(old).toMatchObject({ requests: 1, models: ['claude-sonnet-4-20250514'], title: 'Old title' })
    // agent-*.jsonl files are subagents, not sessions.
    expect(described.some((d) => d?.sessionId.startsWith('agent-'))).toBe(false)
  })
})
