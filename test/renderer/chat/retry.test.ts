/** When a failed turn offers Retry: only while the failure is the conversation's newest outcome. */
import { describe, expect, it } from 'vitest'
import type { EntryView } from '../../../src-preload/contract'
import { repeatedFailures, retryableFailure } from '../../../src-renderer/features/chat/retry'

let seq = 0
const entry = (kind: string): EntryView => ({ id: `e${++seq}`, sessionId: 's', seq, at: seq, kind }) as unknown as EntryView

describe('retryableFailure', () => {
  it('offers the newest failure, and nothing once a retry answered or a new message was sent', () => {
    const failed = entry('turn_failed')
    const start = [entry('user_message'), failed]
    expect(retryableFailure(start)).toBe(failed)
    // The retry went on and answered: the failure above it has nothing left to retry.
    expect(retryableFailure([...start, entry('assistant_message'), entry('turn_ended')])).toBeNull()
    // A new message after the failure.
    expect(retryableFailure([...start, entry('user_message')])).toBeNull()
    // A failure in the middle of a turn, after the model had answered once: still retryable.
    const late = entry('turn_failed')
    expect(retryableFailure([...start, entry('assistant_message'), entry('tool_result'), late])).toBe(late)
    // The failed message taken back: nothing is left to retry. Another extension's edit changes nothing.
    const takeBack = { ...entry('context_edit'), source: 'take-back' } as unknown as EntryView
    expect(retryableFailure([...start, takeBack])).toBeNull()
    expect(retryableFailure([...start, { ...entry('context_edit'), source: 'trim-old-tools' } as unknown as EntryView])).toBe(failed)
  })
})

describe('repeatedFailures', () => {
  const failed = (message: string): EntryView => ({ ...entry('turn_failed'), message }) as unknown as EntryView

  it('shows a run of the same failure once, counted; a different failure or a message between starts anew', () => {
    const a1 = failed('Could not reach the API')
    const a2 = failed('Could not reach the API')
    const a3 = failed('Could not reach the API')
    const b = failed('Overloaded')
    const user = entry('user_message')
    const a4 = failed('Could not reach the API')
    const { hidden, times } = repeatedFailures([entry('user_message'), a1, entry('turn_ended'), a2, a3, b, user, a4])
    expect([...hidden]).toEqual([a1.id, a2.id])
    expect([...times]).toEqual([[a3.id, 3]])
  })
})
