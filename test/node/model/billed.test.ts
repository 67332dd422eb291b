/**
 * What each attempt of a pass was billed, read from the response it recorded, and the pass's cost as their sum: a
 * stream that broke after its 200 was billed for its prompt and for the output that had streamed.
 */
import { describe, expect, it } from 'vitest'
import { passBilling, streamedUsage } from '../../../src-main/node/model/billed'
import { costUsd } from '../../../src-main/node/model/models'

const MODEL = 'claude-sonnet-4-6'
const sse = (...events: unknown[]) => events.map((e) => `event: ${(e as { type: string }).type}\ndata: ${JSON.stringify(e)}\n\n`).join('')
const start = {
  type: 'message_start',
  message: { id: 'msg_1', type: 'message', role: 'assistant', model: MODEL, content: [], usage: { input_tokens: 12, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 150_000, cache_creation: { ephemeral_5m_input_tokens: 150_000, ephemeral_1h_input_tokens: 0 } } },
}
const text = (s: string) => ({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: s } })
const EVENT_STREAM = { 'content-type': 'text/event-stream; charset=utf-8' }

describe('streamedUsage', () => {
  it("takes a finished stream's usage from message_start and the last message_delta", () => {
    const body = sse(start, { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, text('Hello'), { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 3 } }, { type: 'message_delta', delta: {}, usage: { output_tokens: 42 } }, { type: 'message_stop' })
    expect(streamedUsage(body, EVENT_STREAM['content-type'])).toEqual({ ...start.message.usage, output_tokens: 42 })
  })

  it('counts the output of a stream cut before its message_delta as it arrived, every block of it, at characters / 4', () => {
    const body =
      sse(
        start,
        { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'x'.repeat(4000) } },
        { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
        text('y'.repeat(3000)),
        { type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'tu_1', name: 'read_file', input: {} } },
        { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"path":"' } },
      ) + 'event: content_block_delta\ndata: {"type":"content_block_delta","ind'
    expect(streamedUsage(body)).toEqual({ ...start.message.usage, output_tokens: Math.ceil((4000 + 3000 + 'read_file'.length + '{"path":"'.length) / 4) })
  })

  it('reads a JSON body (a pre-warm), and nothing from an error body, an empty one or a stream cut before message_start', () => {
    expect(streamedUsage(JSON.stringify({ id: 'msg_2', type: 'message', usage: { input_tokens: 3, output_tokens: 0, cache_read_input_tokens: 900 } }), 'application/json')).toEqual({
      input_tokens: 3,
      output_tokens: 0,
      cache_read_input_tokens: 900,
      cache_creation_input_tokens: 0,
    })
    expect(streamedUsage(JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }), 'application/json')).toBeNull()
    expect(streamedUsage('')).toBeNull()
    expect(streamedUsage('event: message_start\ndata: {"type":"mess', EVENT_STREAM['content-type'])).toBeNull()
  })
})

describe('passBilling', () => {
  const broken = { status: 200, responseHeaders: EVENT_STREAM, responseBody: sse(start, { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, text('z'.repeat(8000))) }
  const refused = { status: 529, responseHeaders: { 'content-type': 'application/json' }, responseBody: JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }) }
  const answer = { input_tokens: 12, output_tokens: 500, cache_read_input_tokens: 150_000, cache_creation_input_tokens: 0 }
  const answered = { status: 200, responseHeaders: EVENT_STREAM, responseBody: '(the answer: its usage is the message the pass kept)' }

  it("sums a stream broken after its 200 with the answer; an attempt refused with an error status was not billed", () => {
    const bill = passBilling(MODEL, [broken, refused, answered], answer)
    const first = { ...start.message.usage, output_tokens: 2000 }
    expect(bill.attempts).toEqual([{ usage: first, costUsd: costUsd(MODEL, first) }, null, { usage: answer, costUsd: costUsd(MODEL, answer) }])
    expect(bill.costUsd).toBeCloseTo(costUsd(MODEL, first)! + costUsd(MODEL, answer)!, 12)
  })

  it('bills a failed pass with no answer for the broken attempts it made', () => {
    const bill = passBilling(MODEL, [broken, refused, refused, refused], null)
    expect(bill.attempts.map((b) => b !== null)).toEqual([true, false, false, false])
    expect(bill.costUsd).toBeCloseTo(costUsd(MODEL, bill.attempts[0]!.usage)!, 12)
  })

  it('is what the answer cost for a pass sent once, and for one with no recorded attempt; null when nothing is priced', () => {
    expect(passBilling(MODEL, [answered], answer).costUsd).toBe(costUsd(MODEL, answer))
    expect(passBilling(MODEL, [], answer).costUsd).toBe(costUsd(MODEL, answer))
    expect(passBilling(MODEL, [refused], null)).toEqual({ attempts: [null], costUsd: null })
    const unknown = passBilling('no-such-model', [broken, answered], answer)
    expect(unknown.attempts.map((b) => b?.costUsd)).toEqual([null, null])
    expect(unknown.costUsd).toBeNull()
  })
})
