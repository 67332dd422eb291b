/** Entries → the messages the model is sent (src-main/engine/conversation/history.ts). */
import { describe, expect, it } from 'vitest'
import type { Entry, EntryBody } from '../../../src-main/engine/conversation/entries'
import { HistoryCache, toHistory } from '../../../src-main/engine/conversation/history'

function log(bodies: ReadonlyArray<EntryBody>): Entry[] {
  return bodies.map((body, i) => ({ ...body, id: `e${i + 1}`, sessionId: 's', seq: i + 1, at: 1_000 + i }) as Entry)
}

describe('the history sent to the model', () => {
  it('leaves out an answer\'s text blocks of only spaces and line breaks, which the API refuses, and keeps its tool call', () => {
    const entries = log([
      { kind: 'user_message', content: [{ type: 'text', text: 'list the files' }] },
      // As models answer before a tool call: a text block of two line breaks, then the call.
      { kind: 'assistant_message', passId: 'p1' as never, content: [{ type: 'text', text: '\n\n' }, { type: 'tool_use', id: 't1', name: 'list_files', input: { path: '.' } }], stopReason: 'tool_use', partial: false },
      { kind: 'tool_result', toolUseId: 't1', toolName: 'list_files', content: 'README.md', isError: false, outcome: 'ran' },
      { kind: 'assistant_message', passId: 'p2' as never, content: [{ type: 'text', text: ' \t\n' }], stopReason: 'end_turn', partial: false },
    ])
    const history = toHistory(entries)
    expect(history.map((m) => m.message.role)).toEqual(['user', 'assistant', 'user', 'assistant'])
    expect(history[1]!.message.content).toEqual([{ type: 'tool_use', id: 't1', name: 'list_files', input: { path: '.' } }])
    // An answer of nothing but whitespace still takes its place, as an answer that said nothing.
    expect(history[3]!.message.content).toEqual([{ type: 'text', text: '(no answer)' }])
  })

  it('sends what a failed pass streamed only once something of the user\'s follows it: never last (a prefill), never merged into the retry\'s answer', () => {
    const failedTurn: EntryBody[] = [
      { kind: 'user_message', content: [{ type: 'text', text: 'explain the project' }] },
      { kind: 'assistant_message', passId: 'p1' as never, content: [{ type: 'text', text: 'The project is ' }], stopReason: null, partial: true },
      { kind: 'turn_failed', message: 'The model service is overloaded', errorKind: 'overloaded', retryable: true },
    ]
    // Retried: the request is the failed pass's again.
    expect(toHistory(log(failedTurn)).map((m) => m.message.role)).toEqual(['user'])
    const retried = toHistory(log([...failedTurn, { kind: 'assistant_message', passId: 'p2' as never, content: [{ type: 'text', text: 'The project is a greeter.' }], stopReason: 'end_turn', partial: false }]))
    expect(retried.map((m) => m.message.content)).toEqual([[{ type: 'text', text: 'explain the project' }], [{ type: 'text', text: 'The project is a greeter.' }]])
    // A message sent instead of a retry follows it: the model sees where its answer broke off.
    const answered = toHistory(log([...failedTurn, { kind: 'user_message', content: [{ type: 'text', text: 'go on' }] }]))
    expect(answered.map((m) => m.message.content)).toEqual([[{ type: 'text', text: 'explain the project' }], [{ type: 'text', text: 'The project is ' }], [{ type: 'text', text: 'go on' }]])
    // A broken call's interrupted result follows it too.
    const call = toHistory(log([
      failedTurn[0]!,
      { kind: 'assistant_message', passId: 'p1' as never, content: [{ type: 'tool_use', id: 't1', name: 'read_file', input: {} }], stopReason: null, partial: true },
      { kind: 'tool_result', toolUseId: 't1', toolName: 'read_file', content: 'interrupted', isError: true, outcome: 'interrupted' },
      failedTurn[2]!,
    ]))
    expect(call.map((m) => m.message.role)).toEqual(['user', 'assistant', 'user'])
  })

  it('sends the answers another service wrote without their thinking blocks, which that service signed, and the others whole', () => {
    const thinking = { type: 'thinking' as const, thinking: 'Reading the README first.', signature: 'sig' }
    const entries = log([
      { kind: 'user_message', content: [{ type: 'text', text: 'read README.md' }] },
      { kind: 'assistant_message', passId: 'p1' as never, content: [thinking, { type: 'text', text: 'Done.' }], stopReason: 'end_turn', partial: false, service: 'simulator' },
      { kind: 'user_message', content: [{ type: 'text', text: 'and now?' }] },
      { kind: 'assistant_message', passId: 'p2' as never, content: [{ type: 'redacted_thinking', data: 'opaque' }, { type: 'text', text: 'Now this.' }], stopReason: 'end_turn', partial: false, service: 'anthropic' },
      { kind: 'user_message', content: [{ type: 'text', text: 'thanks' }] },
      // Recorded before the service was kept: sent as it is.
      { kind: 'assistant_message', passId: 'p3' as never, content: [thinking, { type: 'text', text: 'Welcome.' }], stopReason: 'end_turn', partial: false },
      { kind: 'user_message', content: [{ type: 'text', text: 'bye' }] },
    ])
    let service: 'simulator' | 'anthropic' = 'anthropic'
    const cache = new HistoryCache(() => service)
    const answers = () => cache.toHistory(entries).filter((m) => m.message.role === 'assistant').map((m) => m.message.content.map((b) => b.type))
    expect(answers()).toEqual([['text'], ['redacted_thinking', 'text'], ['thinking', 'text']])
    const onApi = cache.toHistory(entries)
    service = 'simulator'
    expect(answers()).toEqual([['thinking', 'text'], ['text'], ['thinking', 'text']])
    // Back on the API, it is sent what it was sent before; an answer no switch changes keeps its message object.
    service = 'anthropic'
    const again = cache.toHistory(entries)
    expect(again[1]).toEqual(onApi[1])
    expect(again[5]).toBe(onApi[5])
    // A history read for its shape, not sent, keeps every block.
    expect(toHistory(entries)[1]!.message.content).toHaveLength(2)
  })
})
