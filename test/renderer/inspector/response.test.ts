import { describe, expect, it } from 'vitest'
import { outputTokensText, parseResponse, sseEvents } from '../../../src-renderer/features/inspector/model/response'
import { livePassStarted, liveDeltaApplied, liveChars, liveSummaryStarted, liveSummaryStreamed } from '../../../src-renderer/features/inspector/model/live'
import { recordedPasses } from './fixture'

describe('parseResponse', () => {
  it('rebuilds the final message of a recorded SSE stream', () => {
    const pass = recordedPasses()[0]!
    const parsed = parseResponse(pass.responseRaw)
    expect(parsed.format).toBe('sse')
    expect(parsed.message).toMatchObject({ id: pass.messageId, stopReason: 'tool_use' })
    expect(parsed.message!.content.map((c) => c.type)).toEqual(['text', 'tool_use'])
    const tool = parsed.message!.content[1]!
    expect(tool.type === 'tool_use' && JSON.parse(tool.input)).toEqual({ path: 'README.md' })
    expect(parsed.message!.usage).toMatchObject({ output_tokens: pass.usage!.output_tokens, cache_creation_input_tokens: pass.usage!.cache_creation_input_tokens })
  })

  it('reads a JSON message and a JSON error', () => {
    const ok = parseResponse(JSON.stringify({ id: 'msg_1', model: 'm', content: [{ type: 'text', text: 'hi' }], stop_reason: 'end_turn', usage: { input_tokens: 1, output_tokens: 2, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 } }))
    expect(ok).toMatchObject({ format: 'json', message: { id: 'msg_1', stopReason: 'end_turn', content: [{ type: 'text', text: 'hi' }] } })
    const err = parseResponse(JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }))
    expect(err).toMatchObject({ format: 'json', message: null, error: { type: 'overloaded_error', message: 'Overloaded' } })
  })

  it('keeps an error sent mid-stream', () => {
    const raw = 'event: message_start\ndata: {"type":"message_start","message":{"id":"m","model":"x","usage":{}}}\n\nevent: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"busy"}}\n\n'
    expect(parseResponse(raw)).toMatchObject({ format: 'sse', eventCount: 2, error: { type: 'overloaded_error' }, message: { id: 'm' } })
  })

  it('says empty or unreadable instead of throwing', () => {
    expect(parseResponse(null).format).toBe('empty')
    expect(parseResponse('{oops').format).toBe('unreadable')
    expect(parseResponse('garbage').format).toBe('unreadable')
  })

  it('joins multi-line data as the SSE spec says', () => {
    expect(sseEvents('data: a\ndata: b\n\nevent: x\ndata: c')).toEqual([{ event: null, data: 'a\nb' }, { event: 'x', data: 'c' }])
  })
})

describe('the live pass', () => {
  it('fills in from stream events and ignores unknown ones', () => {
    let live = livePassStarted('s', 2, 'model', 100)
    live = liveDeltaApplied(live, [{ type: 'message_started', messageId: 'msg_9', model: 'model' }, { type: 'block_started', index: 0, kind: 'text' }, { type: 'text_delta', index: 0, text: 'Hel' }], 150)
    live = liveDeltaApplied(live, [{ type: 'text_delta', index: 0, text: 'lo' }, { type: 'block_started', index: 1, kind: 'tool_use', toolName: 'read_file' }, { type: 'tool_input_delta', index: 1, partialJson: '{"p' }, { type: 'from_the_future' }], 180)
    expect(live).toMatchObject({ messageId: 'msg_9', firstDeltaAt: 150, blocks: [{ kind: 'text', text: 'Hello' }, { kind: 'tool_use', text: '{"p', toolName: 'read_file' }] })
    expect(liveChars(live)).toBe(8)
  })

  it('drops what streamed when the request is sent again after its stream broke, and says why', () => {
    let live = livePassStarted('s', 1, 'model', 100)
    live = liveDeltaApplied(live, [{ type: 'message_started', messageId: 'msg_1', model: 'model' }, { type: 'block_started', index: 0, kind: 'text' }, { type: 'text_delta', index: 0, text: 'Half' }, { type: 'block_started', index: 1, kind: 'tool_use', toolName: 'read_file' }], 150)
    live = liveDeltaApplied(live, [{ type: 'retrying', kind: 'connection', message: 'Nothing arrived for 90 s after the service had begun to answer, so the stream was given up: the connection had stalled.', retry: 1, retries: 2 }], 90_000)
    expect(live.blocks).toEqual([])
    expect(live.retry).toBe('The answer broke off: Nothing arrived for 90 s after the service had begun to answer, so the stream was given up: the connection had stalled. Sending the request again (retry 1 of 2); the answer starts over.')
    live = liveDeltaApplied(live, [{ type: 'message_started', messageId: 'msg_2', model: 'model' }, { type: 'block_started', index: 0, kind: 'text' }, { type: 'text_delta', index: 0, text: 'Whole' }], 90_100)
    expect(live).toMatchObject({ messageId: 'msg_2', firstDeltaAt: 150, blocks: [{ kind: 'text', text: 'Whole' }] })
    expect(liveChars(live)).toBe(5)
  })
})

describe("a compaction's summary request in flight", () => {
  it('fills in from its progress in order, and a retried stream starts its text again', () => {
    let live = liveSummaryStarted('s', 'model', 100)
    expect(liveChars(live)).toBe(0)
    live = liveSummaryStreamed(live, { stream: 1, text: '', textOffset: 0, outputChars: 0, thinkingChars: 40 }, 130)
    expect(live).toMatchObject({ kind: 'summary', firstDeltaAt: 130, summary: { thinkingChars: 40 } })
    live = liveSummaryStreamed(live, { stream: 1, text: 'The user', textOffset: 0, outputChars: 8 }, 150)
    // A piece repeating what is held adds only what is new.
    live = liveSummaryStreamed(live, { stream: 1, text: 'user asked', textOffset: 4, outputChars: 14 }, 180)
    expect(live.summary!.text).toBe('The user asked')
    expect(liveChars(live)).toBe(14)
    live = liveSummaryStreamed(live, { stream: 2, text: 'Again', textOffset: 0, outputChars: 5 }, 200)
    expect(live.summary).toMatchObject({ stream: 2, text: 'Again', outputChars: 5 })
    expect(live.firstDeltaAt).toBe(130)
  })
})

describe('outputTokensText', () => {
  it("says a pass's output as counted when it ended, and as an estimate, with why, when it did not", () => {
    const plain = (n: number) => String(n)
    expect(outputTokensText('done', 120, plain)).toBe('120')
    expect(outputTokensText('cancelled', 37, plain)).toBe('≈37 (estimated from what arrived: the stream ended before the service counted it)')
    expect(outputTokensText('failed', 37, plain)).toMatch(/^≈37 /)
  })
})
