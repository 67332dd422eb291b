/**
 * Reconstruction of what each request carried: the folding of Claude Code's one-line-per-block log back into API
 * messages, checked on a small hand-written log and as invariants over every real fixture.
 */
import { describe, expect, it } from 'vitest'
import type { WireMessage } from '../../../src-main/engine/model/wire'
import { reconstructPass, reconstructPasses } from '../../../src-main/engine/transcripts/reconstruct'
import { importSessionText } from '../../../src-main/engine/transcripts/session'
import { allFixtureSessions } from './fixtures'

const base = { sessionId: 's', timestamp: '2026-01-01T00:00:00.000Z' }
const u = (uuid: string, parentUuid: string | null, content: unknown, extra: object = {}) =>
  JSON.stringify({ ...base, type: 'user', uuid, parentUuid, message: { role: 'user', content }, ...extra })
const a = (uuid: string, parentUuid: string, requestId: string, block: object) =>
  JSON.stringify({
    ...base,
    type: 'assistant',
    uuid,
    parentUuid,
    requestId,
    message: { id: `msg_${requestId}`, model: 'm', role: 'assistant', content: [block], usage: { input_tokens: 1, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 } },
  })
const result = (id: string, text: string) => [{ type: 'tool_result', tool_use_id: id, content: text }]

// One response with three parallel calls, written the way 2.x writes it: each tool_use line continues from the
// previous block, each result hangs off its own tool_use, and only the last result leads to the next request.
const parallel = [
  u('u1', null, 'read three files'),
  a('a1', 'u1', 'r1', { type: 'thinking', thinking: 'plan', signature: 'sig' }),
  a('a2', 'a1', 'r1', { type: 'tool_use', id: 't1', name: 'Read', input: { file: 'x' } }),
  a('a3', 'a2', 'r1', { type: 'tool_use', id: 't2', name: 'Read', input: { file: 'y' } }),
  JSON.stringify({ ...base, type: 'progress', uuid: 'p1', parentUuid: 'a3', data: { type: 'hook_progress' } }),
  a('a4', 'a3', 'r1', { type: 'tool_use', id: 't3', name: 'Read', input: { file: 'z' } }),
  u('u2', 'a4', result('t3', 'Z'), { toolUseResult: { file: { filePath: 'z' } } }),
  u('u3', 'a2', result('t1', 'X')),
  u('u4', 'a3', result('t2', 'Y')),
  a('a5', 'u4', 'r2', { type: 'text', text: 'done' }),
  u('u5', 'a5', 'thanks'),
  a('a6', 'u5', 'r3', { type: 'text', text: 'welcome' }),
]

describe('folding lines into messages', () => {
  const session = importSessionText(parallel.join('\n'))
  const passes = reconstructPasses(session)

  it('dedupes the four lines of the first response into one request', () => {
    expect(session.requests.map((r) => r.key)).toEqual(['r1', 'r2', 'r3'])
    expect(session.requests[0]!.response.map((b) => b.type)).toEqual(['thinking', 'tool_use', 'tool_use', 'tool_use'])
  })

  it('sends the first request with the prompt only', () => {
    expect(passes[0]!.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'read three files' }] }])
    expect(passes[0]!.start).toEqual({ kind: 'root' })
    expect(passes[0]!.reconstructed).toBe(true)
  })

  it('gives the second request the whole response and all three results in call order', () => {
    const expected: WireMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'read three files' }] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'plan', signature: 'sig' },
          { type: 'tool_use', id: 't1', name: 'Read', input: { file: 'x' } },
          { type: 'tool_use', id: 't2', name: 'Read', input: { file: 'y' } },
          { type: 'tool_use', id: 't3', name: 'Read', input: { file: 'z' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't1', content: 'X' },
          { type: 'tool_result', tool_use_id: 't2', content: 'Y' },
          { type: 'tool_result', tool_use_id: 't3', content: 'Z' },
        ],
      },
    ]
    expect(passes[1]!.messages).toEqual(expected)
  })

  it('extends the conversation for the third request', () => {
    expect(passes[2]!.messages.slice(3)).toEqual([
      { role: 'assistant', content: [{ type: 'text', text: 'done' }] },
      { role: 'user', content: [{ type: 'text', text: 'thanks' }] },
    ])
  })
})

describe('compaction boundary', () => {
  const lines = [
    u('u1', null, 'old work'),
    a('a1', 'u1', 'r1', { type: 'text', text: 'old answer' }),
    JSON.stringify({ ...base, type: 'system', subtype: 'compact_boundary', uuid: 'b1', parentUuid: null, logicalParentUuid: 'a1', content: 'Conversation compacted', compactMetadata: { trigger: 'manual', preTokens: 1234 } }),
    u('s1', 'b1', 'This session is being continued from a previous conversation. Summary: old work.', { isCompactSummary: true, isVisibleInTranscriptOnly: true }),
    u('u2', 's1', 'new work'),
    a('a2', 'u2', 'r2', { type: 'text', text: 'new answer' }),
  ]
  const session = importSessionText(lines.join('\n'))

  it('starts the conversation after it at the summary', () => {
    const pass = reconstructPass(session, session.requests[1]!)
    expect(pass.start).toEqual({ kind: 'compaction', boundaryUuid: 'b1' })
    expect(pass.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'This session is being continued from a previous conversation. Summary: old work.' },
          { type: 'text', text: 'new work' },
        ],
      },
    ])
  })

  it('becomes a checkpoint between the two requests', () => {
    expect(session.checkpoints).toEqual([
      expect.objectContaining({ kind: 'compact', trigger: 'manual', preTokens: 1234, requestBefore: 0, requestAfter: 1, logicalParentUuid: 'a1', summary: expect.stringMatching(/^This session/) }),
    ])
  })
})

describe('a chain with a missing parent', () => {
  it('reconstructs what is there and says where it broke', () => {
    const session = importSessionText([u('u2', 'gone', 'orphan'), a('a1', 'u2', 'r1', { type: 'text', text: 'x' })].join('\n'))
    const pass = reconstructPass(session, session.requests[0]!)
    expect(pass.start).toEqual({ kind: 'broken', missingUuid: 'gone' })
    expect(pass.messages).toHaveLength(1)
  })
})

function apiShapeProblems(messages: ReadonlyArray<WireMessage>): string[] {
  const problems: string[] = []
  if (messages[0]?.role !== 'user') problems.push('does not start with a user message')
  if (messages.at(-1)?.role !== 'user') problems.push('does not end with a user message')
  for (const [i, m] of messages.entries()) {
    if (i > 0 && messages[i - 1]!.role === m.role) problems.push(`two ${m.role} messages in a row at ${i}`)
    if (m.role !== 'assistant') continue
    const calls = m.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : []))
    const next = messages[i + 1]
    const results = next?.role === 'user' ? next.content.flatMap((b) => (b.type === 'tool_result' ? [b.tool_use_id] : [])) : []
    if (calls.join() !== results.slice(0, calls.length).join()) problems.push(`calls ${calls.join()} answered by ${results.join()} at ${i}`)
  }
  return problems
}

describe('every real fixture', () => {
  for (const fixture of allFixtureSessions()) {
    it(`${fixture.name}: every reconstructed request is a valid API conversation that carries the previous response`, () => {
      const session = importSessionText(fixture.text, fixture.subagents)
      for (const thread of [session, ...session.children]) {
        const passes = reconstructPasses(thread)
        for (const pass of passes) expect(apiShapeProblems(pass.messages), `${thread.id} ${pass.request.key}`).toEqual([])
        for (let i = 1; i < passes.length; i++) {
          if (passes[i]!.start.kind === 'compaction' && passes[i - 1]!.start.kind !== 'compaction') continue
          const lastAssistant = [...passes[i]!.messages].reverse().find((m) => m.role === 'assistant')
          expect(lastAssistant?.content, `${thread.id} ${passes[i]!.request.key}`).toEqual(passes[i - 1]!.request.response)
        }
      }
    })
  }
})

describe('bulk reconstruction', () => {
  it('gives, for every request of every fixture, what walking and folding that request alone gives', () => {
    for (const fixture of allFixtureSessions()) {
      const session = importSessionText(fixture.text, fixture.subagents)
      for (const thread of [session, ...session.children]) {
        const bulk = reconstructPasses(thread)
        thread.requests.forEach((request, i) => expect(bulk[i], `${fixture.name} ${request.key}`).toEqual(reconstructPass(thread, request)))
      }
    }
  })

  it('handles branches (a rewind) and a cycle like the single walk', () => {
    const lines = [
      u('u1', null, 'start'),
      a('a1', 'u1', 'r1', { type: 'text', text: 'first' }),
      u('u2', 'a1', 'branch one'),
      a('a2', 'u2', 'r2', { type: 'text', text: 'one' }),
      u('u3', 'a1', 'branch two (after a rewind)'),
      a('a3', 'u3', 'r3', { type: 'text', text: 'two' }),
      u('u4', 'a2', 'continue one'),
      a('a4', 'u4', 'r4', { type: 'text', text: 'one again' }),
      u('c1', 'c2', 'loop'),
      u('c2', 'c1', 'loop'),
      a('a5', 'c2', 'r5', { type: 'text', text: 'looped' }),
    ]
    const session = importSessionText(lines.join('\n'))
    const bulk = reconstructPasses(session)
    session.requests.forEach((r, i) => expect(bulk[i]).toEqual(reconstructPass(session, r)))
    expect(bulk[2]!.messages.map((m) => m.content[0]?.type === 'text' && m.content[0].text)).toEqual(['start', 'first', 'branch two (after a rewind)'])
    expect(bulk[3]!.messages).toHaveLength(5)
    expect(bulk[4]!.start.kind).toBe('broken')
  })
})
