/** What the chat's hidden status line says to a screen reader. */
import { describe, expect, it } from 'vitest'
import type { EntryView } from '../../../src-preload/contract'
import { chatStatus } from '../../../src-renderer/features/chat/status'

let seq = 0
const entry = (kind: string, extra: Record<string, unknown> = {}): EntryView => ({ id: `e${++seq}`, sessionId: 's', seq, at: seq, kind, ...extra }) as unknown as EntryView
const chat = (...entries: EntryView[]) => ({ loaded: true, approvals: [], running: false, entries })

describe('the chat status line', () => {
  it('says the agent answered when the turn ended on its own', () => {
    expect(chatStatus(chat(entry('user_message'), entry('assistant_message'), entry('turn_ended', { reason: 'end_turn' })), 'loupe', null)).toBe('The agent answered.')
    expect(chatStatus(chat(entry('user_message'), entry('turn_failed'), entry('turn_ended', { reason: 'error' })), 'loupe', null)).toBe('The turn failed.')
  })

  it('says "Stopped." as the chat does when the user stopped the turn, streaming or at an approval', () => {
    expect(chatStatus(chat(entry('user_message'), entry('assistant_message'), entry('turn_ended', { reason: 'cancelled' })), 'loupe', null)).toBe('Stopped.')
    const call = entry('assistant_message')
    expect(chatStatus(chat(entry('user_message'), call, entry('tool_result', { outcome: 'denied' }), entry('turn_ended', { reason: 'cancelled' })), 'loupe', null)).toBe('Stopped.')
    expect(chatStatus(chat(entry('user_message'), entry('assistant_message'), entry('turn_ended', { reason: 'pass_limit' })), 'loupe', null)).toBe('Stopped after the per-turn pass limit.')
    // An answer cut at the output limit says so: it would otherwise read as "The agent answered."
    expect(chatStatus(chat(entry('user_message'), entry('assistant_message'), entry('turn_ended', { reason: 'max_tokens' })), 'loupe', null)).toBe('The answer reached the output limit and was cut off.')
    expect(chatStatus(chat(entry('user_message'), entry('assistant_message'), entry('turn_ended', { reason: 'refusal' })), 'loupe', null)).toBe('The model declined to answer.')
    // An answer cut because the conversation filled the model's context window says so, and not as the output limit.
    expect(chatStatus(chat(entry('user_message'), entry('assistant_message'), entry('turn_ended', { reason: 'context_window' })), 'loupe', null)).toBe("The answer was cut off: the conversation filled the model's context window.")
  })

  it('says what ended last when it was not an answer: a compaction, one cancelled, a message taken back', () => {
    const answered = [entry('user_message'), entry('assistant_message'), entry('turn_ended', { reason: 'end_turn' })]
    expect(chatStatus(chat(...answered, entry('checkpoint')), 'loupe', null)).toBe('Compacted: the conversation goes on from its summary.')
    const cancelled = 'You cancelled “/compact the parser”: the conversation is exactly as it was.'
    expect(chatStatus(chat(...answered, entry('notice', { source: 'compaction', level: 'info', text: cancelled })), 'loupe', null)).toBe(cancelled)
    expect(chatStatus(chat(...answered, entry('context_edit', { source: 'take-back', edits: [] })), 'loupe', null)).toBe('Taken back: the message and its answers no longer reach the model.')
    // Other notices and context edits say nothing new: the answer before them is still what ended last.
    expect(chatStatus(chat(...answered, entry('notice', { source: 'pins', level: 'info', text: 'Pinned.' }), entry('context_edit', { source: 'trim-old-tools', edits: [] })), 'loupe', null)).toBe('The agent answered.')
  })

  it('says nothing of the turns a continued session brought along', () => {
    const entries = [entry('user_message'), entry('assistant_message'), entry('turn_ended', { reason: 'cancelled' })]
    expect(chatStatus(chat(...entries), 'loupe', entries.at(-1)!.seq)).toBe('')
  })
})
