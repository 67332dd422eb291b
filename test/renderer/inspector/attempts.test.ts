/** The ↻ column counts retries after an error: a pass the user stopped was not a failed attempt. */
import { describe, expect, it } from 'vitest'
import { attemptFailed, attemptsSummary, earlierBilled, earlierBilledText } from '../../../src-renderer/features/inspector/model/attempts'
import { usd } from '../../../src-preload/money'

const ok = { error: null }
const stopped = { error: { kind: 'aborted', message: 'The request was cancelled.' } }
const overloaded = { error: { kind: 'overloaded', message: 'Overloaded' } }

describe('attempts', () => {
  it('a stop by the user is not a failure', () => {
    expect(attemptFailed(stopped)).toBe(false)
    expect(attemptsSummary([stopped])).toEqual({ sent: 1, failed: 0, stopped: true, text: '', title: '1 attempt, stopped by the user' })
  })

  it('an error is a failure, and a retry stopped after it says both', () => {
    expect(attemptFailed(overloaded)).toBe(true)
    expect(attemptsSummary([overloaded, ok])).toMatchObject({ sent: 2, failed: 1, title: '2 attempts, 1 failed' })
    expect(attemptsSummary([overloaded, stopped])).toMatchObject({ failed: 1, title: '2 attempts, 1 failed, stopped by the user' })
  })

  it('a pass answered at once', () => {
    expect(attemptsSummary([ok]).title).toBe('1 attempt, none failed')
  })

  it('the column is blank for a pass sent once, and counts the sends of one sent again', () => {
    expect(attemptsSummary([ok]).text).toBe('')
    expect(attemptsSummary([overloaded]).text).toBe('')
    expect(attemptsSummary([]).text).toBe('')
    expect(attemptsSummary([overloaded, ok]).text).toBe('↻2')
    expect(attemptsSummary([overloaded, overloaded, stopped]).text).toBe('↻3')
  })
})

describe('what earlier attempts were billed', () => {
  const usage = { input_tokens: 1, output_tokens: 2, cache_read_input_tokens: 0, cache_creation_input_tokens: 150_000 }
  const broken = { error: { kind: 'connection', message: 'terminated' }, usage, costUsd: 0.57 }
  const refused = { error: { kind: 'overloaded', message: 'Overloaded' } }
  const answer = { error: null, usage, costUsd: 0.05 }

  it('counts the attempts before the last that were billed, not the answer nor one refused with an error status', () => {
    expect(earlierBilled([broken, refused, answer])).toEqual({ count: 1, usd: 0.57 })
    expect(earlierBilled([broken, broken, answer])).toEqual({ count: 2, usd: 1.14 })
    expect(earlierBilled([broken, refused])).toEqual({ count: 1, usd: 0.57 })
  })

  it('is nothing for a pass sent once, one whose retries were refused, and one stored before attempts were priced', () => {
    expect(earlierBilled([answer])).toBeNull()
    expect(earlierBilled([refused, answer])).toBeNull()
    expect(earlierBilled([ok, ok])).toBeNull()
    expect(earlierBilled([])).toBeNull()
  })

  it('says how much of the cost it was, and why it was billed', () => {
    expect(earlierBilledText({ count: 1, usd: 0.57 }, usd)).toBe(
      '$0.5700 of it for an earlier attempt: its stream broke after the service had begun to answer, and the service billed the prompt and the output streamed until then',
    )
    expect(earlierBilledText({ count: 2, usd: null }, usd)).toMatch(/^— of it for 2 earlier attempts: their streams broke/)
  })
})
