/** What the chat and the live pass say when a pass sends its request again (src-renderer/ui/retry-note.ts). */
import { describe, expect, it } from 'vitest'
import { retryNote } from '../../src-renderer/ui/retry-note'

describe('the note of a request sent again', () => {
  it('after a refusal, says what the service answered and how long the wait is', () => {
    expect(retryNote({ status: 429, message: 'rate_limit_error: Number of request tokens has exceeded your per-minute rate limit.', retry: 1, retries: 2, waitMs: 60_000 })).toBe(
      'The service answered 429 (rate_limit_error: Number of request tokens has exceeded your per-minute rate limit). Sending the request again in 1 min (retry 1 of 2).',
    )
    expect(retryNote({ status: 529, message: 'overloaded_error: Overloaded', retry: 2, retries: 2, waitMs: null })).toBe(
      'The service answered 529 (overloaded_error: Overloaded). Sending the request again in a few seconds (retry 2 of 2).',
    )
    expect(retryNote({ status: 429, message: '', waitMs: 90_500 })).toBe('The service answered 429. Sending the request again in 1 min 31 s.')
    expect(retryNote({ status: 500, message: 'api_error: Internal server error', waitMs: 5 })).toContain('again in under a second.')
  })

  it('after a stream that broke, says the answer starts over', () => {
    expect(retryNote({ message: 'Connection error.', retry: 1, retries: 2 })).toBe('The answer broke off: Connection error. Sending the request again (retry 1 of 2); the answer starts over.')
  })
})
