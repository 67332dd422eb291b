/**
 * Every copied real transcript imports, and its figures agree with an independent count written here without the
 * importer: one JSON.parse per line, assistant lines grouped by `message.id` (the importer keys on `requestId`),
 * the last line of each group taken as the final usage (the importer takes the largest).
 */
import { describe, expect, it } from 'vitest'
import { importSessionText } from '../../../src-main/engine/transcripts/session'
import { summarizeSession } from '../../../src-main/engine/transcripts/summary'
import { allFixtureSessions, readFixture } from './fixtures'

interface Count {
  requests: number
  input: number
  read: number
  write: number
  output: number
}

function independentCount(text: string): Count {
  const last = new Map<string, { input_tokens: number; cache_read_input_tokens: number; cache_creation_input_tokens: number; output_tokens: number }>()
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue
    const o = JSON.parse(line)
    if (o.type === 'assistant' && o.message?.model !== '<synthetic>') last.set(o.message.id, o.message.usage)
  }
  const c: Count = { requests: 0, input: 0, read: 0, write: 0, output: 0 }
  for (const u of last.values()) {
    c.requests++
    c.input += u.input_tokens
    c.read += u.cache_read_input_tokens
    c.write += u.cache_creation_input_tokens
    c.output += u.output_tokens
  }
  return c
}

const sessions = allFixtureSessions()

describe('every copied fixture', () => {
  it('finds the fixtures', () => {
    expect(sessions.length).toBe(9)
  })

  for (const fixture of sessions) {
    describe(fixture.name, () => {
      const session = importSessionText(fixture.text, fixture.subagents)
      const summary = summarizeSession(session)

      it('imports with no skipped line', () => {
        expect(session.file.skippedTotal).toBe(0)
        expect(session.file.lineCount).toBe(fixture.text.split('\n').filter((l) => l.trim() !== '').length)
        for (const child of session.children) expect(child.file?.skippedTotal ?? 0).toBe(0)
      })

      it('counts requests and usage like an independent dedupe of the file', () => {
        const c = independentCount(fixture.text)
        expect(c.requests).toBeGreaterThan(0)
        expect({
          requests: summary.requests,
          input: summary.input_tokens,
          read: summary.cache_read_input_tokens,
          write: summary.cache_creation_input_tokens,
          output: summary.output_tokens,
        }).toEqual(c)
      })

      it('counts each subagent file like an independent dedupe of that file', () => {
        for (const sub of fixture.subagents) {
          const child = summary.subagents.find((s) => s.file === sub.name)
          expect(child?.requests).toBe(independentCount(sub.text).requests)
          expect(child?.cache_read_input_tokens).toBe(independentCount(sub.text).read)
        }
      })
    })
  }
})

describe('compactions of the three spotter sessions', () => {
  const cases = [
    { file: 'fa812bfe-b295-4cca-9c2f-fdf01028cb46.jsonl', trigger: 'auto', preTokens: 167_117, compactor: 'acompact-70d8e7' },
    { file: 'ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl', trigger: 'manual', preTokens: 142_431, compactor: 'acompact-946d2b' },
    { file: '4d5611e5-241a-462a-8d15-5122611a9569.jsonl', trigger: 'auto', preTokens: 170_251, compactor: 'acompact-e1f845' },
  ] as const

  for (const c of cases) {
    it(`${c.file}: one ${c.trigger} compaction at ${c.preTokens} tokens, with its summary and its request`, () => {
      const fixture = readFixture('spotter', c.file)
      const session = importSessionText(fixture.text, fixture.subagents)
      expect(session.checkpoints).toHaveLength(1)
      const checkpoint = session.checkpoints[0]!
      expect(checkpoint).toMatchObject({ kind: 'compact', trigger: c.trigger, preTokens: c.preTokens })
      expect(checkpoint.summary).toMatch(/^This session is being continued from a previous conversation/)
      // The request just before the boundary measured about what Claude Code reported as preTokens.
      expect(checkpoint.contextTokensBefore).toBeGreaterThan(c.preTokens * 0.95)
      expect(checkpoint.contextTokensBefore).toBeLessThanOrEqual(c.preTokens)
      expect(checkpoint.contextTokensAfter).toBeLessThan(c.preTokens / 2)
      const compactor = session.children.find((ch) => ch.kind === 'compaction')
      expect(compactor?.id).toBe(c.compactor)
      expect(compactor?.checkpointIndex).toBe(0)
      expect(compactor?.requests).toHaveLength(1)
    })
  }
})

describe('older format (Claude Code 1.0.x)', () => {
  it('reads the summary line as a title and splits inline sidechains into linked child sessions', () => {
    const fixture = readFixture('claude-code-viewer', 'fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl')
    const session = importSessionText(fixture.text)
    expect(session.title).toBe('Empty Repo Setup: CLAUDE.md Foundation Created')
    expect(session.versions).toEqual(['1.0.98'])
    expect(session.requests.every((r) => !r.isSidechain)).toBe(true)
    const children = session.children
    expect(children.length).toBe(5)
    expect(children.every((c) => c.source === 'inline' && c.kind === 'sidechain' && c.parentToolUseId !== null)).toBe(true)
    expect(session.requests.length + children.reduce((n, c) => n + c.requests.length, 0)).toBe(session.file.requests.length)
    // Every Task call in the main thread is linked to exactly one child.
    const linked = new Set(children.map((c) => c.parentToolUseId))
    expect(linked.size).toBe(children.length)
  })

  it('imports a 1.0.108 file', () => {
    const session = importSessionText(readFixture('claude-code-viewer', '5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl').text)
    expect(session.versions).toEqual(['1.0.108'])
    expect(session.file.requests.length).toBe(20)
    expect(session.children.map((c) => c.requests.length)).toEqual([3, 7])
  })
})

describe('2.x subagents', () => {
  it('links each task subagent file to the Task call that started it', () => {
    const fixture = readFixture('spotter', 'fa812bfe-b295-4cca-9c2f-fdf01028cb46.jsonl')
    const session = importSessionText(fixture.text, fixture.subagents)
    const tasks = session.children.filter((c) => c.kind === 'task')
    expect(tasks.map((t) => [t.id, t.parentToolUseId])).toEqual([
      ['a93ccab', 'toolu_01Y64XEaRvUYinzv9rW9qZXd'],
      ['aa84377', 'toolu_013mmyY3eDBg4Ji6oAszYt6p'],
    ])
    const calls = session.requests.flatMap((r) => r.response).filter((b) => b.type === 'tool_use' && b.name === 'Task')
    expect(calls.map((b) => (b.type === 'tool_use' ? b.id : ''))).toEqual(tasks.map((t) => t.parentToolUseId))
  })
})
