/**
 * Hostile and damaged input: every case is skipped with a counted reason, never thrown, and the good lines around
 * it still import.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseTranscript, TranscriptParser } from '../../../src-main/engine/transcripts/parser'
import { importSessionText } from '../../../src-main/engine/transcripts/session'
import { summarizeSession } from '../../../src-main/engine/transcripts/summary'

const user = (uuid: string, parent: string | null, text: string) =>
  JSON.stringify({ type: 'user', uuid, parentUuid: parent, sessionId: 's1', timestamp: '2026-01-01T00:00:00.000Z', message: { role: 'user', content: text } })

const assistant = (uuid: string, parent: string, requestId: string, usage = { input_tokens: 1, cache_read_input_tokens: 100, cache_creation_input_tokens: 10, output_tokens: 5 }) =>
  JSON.stringify({
    type: 'assistant',
    uuid,
    parentUuid: parent,
    requestId,
    timestamp: '2026-01-01T00:00:01.000Z',
    message: { id: `msg_${requestId}`, model: 'claude-opus-4-6', role: 'assistant', content: [{ type: 'text', text: 'ok' }], usage },
  })

const good = [user('u1', null, 'hi'), assistant('a1', 'u1', 'r1'), user('u2', 'a1', 'more'), assistant('a2', 'u2', 'r2')]

function summary(text: string) {
  return summarizeSession(importSessionText(text))
}

describe('hostile input is skipped with counts', () => {
  it('a truncated last line', () => {
    const last = assistant('a3', 'a2', 'r3')
    const s = summary([...good, last.slice(0, last.length / 2)].join('\n'))
    expect(s.requests).toBe(2)
    expect(s.skipped_by_reason).toEqual({ truncated_last_line: 1 })
  })

  it('a line of 5 MB', () => {
    const huge = JSON.stringify({ type: 'user', uuid: 'big', parentUuid: 'a2', message: { role: 'user', content: 'x'.repeat(5 * 1024 * 1024) } })
    const s = summary([good[0], good[1], huge, good[2], good[3]].join('\n'))
    expect(s.requests).toBe(2)
    expect(s.skipped_by_reason).toEqual({ too_long: 1 })
  })

  it('a 5 MB line arriving in small chunks is dropped while it arrives', () => {
    const parser = new TranscriptParser({ maxLineChars: 1000 })
    parser.push(good[0]! + '\n')
    for (let i = 0; i < 5000; i++) parser.push('y'.repeat(1024))
    parser.push('\n' + good[1]! + '\n')
    const parsed = parser.end()
    expect(parsed.records.map((r) => r.type)).toEqual(['user', 'assistant'])
    expect(parsed.skipped.too_long).toBe(1)
    expect(parsed.skippedLines).toEqual([{ line: 2, reason: 'too_long' }])
  })

  it('binary garbage', () => {
    let garbage = ''
    for (let i = 0; i < 4096; i++) garbage += String.fromCharCode((i * 7919) % 256)
    const lines = garbage.split('\n').filter((l) => l.trim() !== '').length
    const s = summary([good[0], good[1], garbage, good[2], good[3]].join('\n'))
    expect(s.requests).toBe(2)
    expect(s.skipped_by_reason.malformed_json).toBe(lines)
    expect(s.skipped_lines).toBe(lines)
  })

  it('an unknown type', () => {
    const s = summary([...good, JSON.stringify({ type: 'hologram', uuid: 'h1', parentUuid: 'a2' })].join('\n'))
    expect(s.skipped_by_reason).toEqual({ unknown_type: 1 })
    expect(s.requests).toBe(2)
  })

  it('a missing message', () => {
    const s = summary([...good, JSON.stringify({ type: 'assistant', uuid: 'a9', parentUuid: 'a2', requestId: 'r9' }), JSON.stringify({ type: 'user', uuid: 'u9', parentUuid: 'a2' })].join('\n'))
    expect(s.skipped_by_reason).toEqual({ missing_message: 2 })
    expect(s.requests).toBe(2)
  })

  it('JSON that is not an object, and fields of the wrong type', () => {
    const s = summary([...good, '[1,2,3]', '"text"', 'null', JSON.stringify({ type: 'assistant', uuid: 'a8', message: { model: 42 } })].join('\n'))
    expect(s.skipped_by_reason).toEqual({ not_an_object: 3, invalid_field: 1 })
  })

  it('token counts that are not counts (negative, fractional, a string, beyond 2^53, 1e308) skip their line, and the totals stay those of the good lines', () => {
    const usage = (input_tokens: unknown) => ({ input_tokens, cache_read_input_tokens: 100, cache_creation_input_tokens: 10, output_tokens: 5 })
    const bad = [-5000, 1.5, '12', 1e308, Number.MAX_SAFE_INTEGER + 2].map((n, i) => assistant(`b${i}`, 'u2', `rb${i}`, usage(n) as never))
    // A count nested in cache_creation is held to the same rule; a missing or null count is an absent one, 0.
    const nested = JSON.stringify({ type: 'assistant', uuid: 'b9', parentUuid: 'u2', requestId: 'rb9', message: { id: 'msg_rb9', model: 'claude-opus-4-6', content: [], usage: { ...usage(1), cache_creation: { ephemeral_5m_input_tokens: -1 } } } })
    const absent = JSON.stringify({ type: 'assistant', uuid: 'c1', parentUuid: 'u2', requestId: 'rc1', message: { id: 'msg_rc1', model: 'claude-opus-4-6', content: [], usage: { input_tokens: null, output_tokens: 2 } } })
    const s = summary([...good, ...bad, nested, absent].join('\n'))
    expect(s.skipped_by_reason).toEqual({ invalid_field: 6 })
    expect(s.requests).toBe(3)
    expect(s.input_tokens).toBe(2)
    expect(s.cache_read_input_tokens).toBe(200)
  })

  it('known types not used by import are not counted as skipped', () => {
    const extra = [
      JSON.stringify({ type: 'queue-operation', operation: 'enqueue' }),
      JSON.stringify({ type: 'file-history-snapshot', messageId: 'x', snapshot: {} }),
      JSON.stringify({ type: 'progress', uuid: 'p1', parentUuid: 'a2', data: { type: 'hook_progress' } }),
      JSON.stringify({ type: 'system', subtype: 'turn_duration', uuid: 's1', parentUuid: 'a2', durationMs: 5 }),
    ]
    const s = summary([...good, ...extra].join('\n'))
    expect(s.skipped_lines).toBe(0)
    expect(s.lines).toBe(8)
  })

  it('future fields on known lines are ignored', () => {
    const withFuture = JSON.parse(assistant('a3', 'u2', 'r3')) as Record<string, unknown>
    withFuture.brandNewField = { nested: [1, 2] }
    ;(withFuture.message as Record<string, unknown>).content = [{ type: 'text', text: 'x' }, { type: 'server_widget', id: 1 }]
    const session = importSessionText([...good, JSON.stringify(withFuture)].join('\n'))
    expect(session.file.skippedTotal).toBe(0)
    expect(session.requests).toHaveLength(3)
    expect(session.requests[2]!.response).toEqual([{ type: 'text', text: 'x' }])
  })

  it('CRLF line ends, a byte-order mark, blank lines and no final newline', () => {
    const s = summary('\uFEFF' + good.join('\r\n') + '\r\n\r\n   \n')
    expect(s.requests).toBe(2)
    expect(s.skipped_lines).toBe(0)
    expect(s.lines).toBe(4)
  })

  it("a compaction's token figures that are not counts are unknown, and the compaction still counts", () => {
    const boundary = (preTokens: unknown, postTokens: unknown) =>
      JSON.stringify({ type: 'system', subtype: 'compact_boundary', uuid: 'c1', parentUuid: null, logicalParentUuid: 'a2', timestamp: '2026-01-01T00:00:02.000Z', compactMetadata: { trigger: 'auto', preTokens, postTokens } })
    for (const [pre, post] of [[-5, 'x'], [1.5, -1], [1e308, null]] as const) {
      const s = summary([...good, boundary(pre, post), user('u3', 'c1', 'after'), assistant('a3', 'u3', 'r3')].join('\n'))
      expect(s.skipped_lines).toBe(0)
      expect(s.compactions).toEqual([expect.objectContaining({ trigger: 'auto', pre_tokens: null, post_tokens: null })])
    }
    const fine = summary([...good, boundary(170_251, 36_081), user('u3', 'c1', 'after'), assistant('a3', 'u3', 'r3')].join('\n'))
    expect(fine.compactions).toEqual([expect.objectContaining({ pre_tokens: 170_251, post_tokens: 36_081 })])
  })

  it('a time that is not ISO 8601 with a four-digit year is unknown, not a year ±270,000 or a guess from free text', () => {
    const at = (timestamp: unknown) => {
      const [u1, a1] = good.slice(0, 2).map((l) => ({ ...JSON.parse(l), timestamp }))
      return importSessionText([u1, a1].map((o) => JSON.stringify(o)).join('\n')).requests[0]!
    }
    for (const odd of ['+275760-09-13T00:00:00.000Z', '-271821-04-20T00:00:00.000Z', 'Tuesday 1 May 2025', '2025', 'garbage', 1_770_000_000_000, null]) {
      const request = at(odd)
      expect(request.firstLineAtMs, String(odd)).toBeNull()
      expect(request.lastLineAtMs, String(odd)).toBeNull()
    }
    expect(at('2026-02-10T21:54:55.364Z').firstLineAtMs).toBe(Date.parse('2026-02-10T21:54:55.364Z'))
  })

  it('an empty file', () => {
    const s = summary('')
    expect(s).toMatchObject({ requests: 0, lines: 0, skipped_lines: 0, session_id: null })
  })

  it('a parentUuid cycle and a missing parent end the chain instead of looping', () => {
    const cyclic = [
      JSON.stringify({ type: 'user', uuid: 'c1', parentUuid: 'c2', message: { role: 'user', content: 'one' } }),
      JSON.stringify({ type: 'user', uuid: 'c2', parentUuid: 'c1', message: { role: 'user', content: 'two' } }),
      assistant('a1', 'c2', 'r1'),
      assistant('a2', 'nowhere', 'r2'),
    ]
    const session = importSessionText(cyclic.join('\n'))
    expect(session.requests).toHaveLength(2)
  })

  it('duplicate uuids keep the first line and are counted', () => {
    const session = importSessionText([...good, user('u1', null, 'again')].join('\n'))
    expect(session.file.duplicateUuids).toBe(1)
  })
})

describe('incremental parsing', () => {
  it('gives the same records however the text is cut into chunks', () => {
    const text = [...good, 'garbage{', JSON.stringify({ type: 'user', uuid: 'é', parentUuid: 'a2', message: { role: 'user', content: 'naïve — ünïcode 🎉' } })].join('\n')
    const whole = parseTranscript(text)
    fc.assert(
      fc.property(fc.array(fc.nat({ max: text.length }), { maxLength: 20 }), (cuts) => {
        const points = [...new Set(cuts)].sort((a, b) => a - b)
        const parser = new TranscriptParser()
        let from = 0
        for (const p of [...points, text.length]) {
          parser.push(text.slice(from, p))
          from = p
        }
        expect(parser.end()).toEqual(whole)
      }),
    )
  })
})

describe('byte-order mark', () => {
  it('is dropped even when an empty chunk comes first', () => {
    const parser = new TranscriptParser()
    parser.push('')
    parser.push('\uFEFF' + good[0]! + '\n')
    expect(parser.end().skippedTotal).toBe(0)
  })
})
