/** The ↻ column counts retries after an error: a pass the user stopped was not a failed attempt. */
import { describe, expect, it } from 'vitest'
import { attemptFailed, attemptsSummary } from '../../../src-renderer/features/inspector/model/attempts'

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
