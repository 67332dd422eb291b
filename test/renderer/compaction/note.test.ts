/**
 * A compaction that found nothing to compact is a note, not an error: the Compaction view shows it
 * neutrally, and once shown it goes when the user leaves the view or the session. A failure stays an error until the
 * session moves on (a turn or a compaction starts).
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { useCompactionStore } from '../../../src-renderer/state/compaction'
import { outcomeLevel } from '../../../src-renderer/features/compaction/model/outcome-level'

const store = () => useCompactionStore.getState()
const failureOf = (sessionId: string) => store().bySession[sessionId]?.lastFailure ?? null
const NOTHING = 'Nothing worth compacting: the part before the kept steps is about 67 tokens, no more than a summary of it would take.'

describe('a compaction that made no checkpoint', () => {
  beforeEach(() => useCompactionStore.setState({ bySession: {} }))

  it('is a note when there was nothing to compact or the user cancelled, an error otherwise', () => {
    for (const status of ['nothing_to_compact', 'cancelled']) expect(outcomeLevel(status)).toBe('note')
    for (const status of ['failed', 'refused', 'stale']) expect(outcomeLevel(status)).toBe('error')
    store().compactionFailed({ sessionId: 's1', compactionId: 'cmp_1', reason: 'nothing_to_compact', message: NOTHING })
    expect(failureOf('s1')).toMatchObject({ level: 'note', message: NOTHING, shown: false })
  })

  it('goes once the view has shown it and the user has left, not before it was shown', () => {
    store().compactionFailed({ sessionId: 's1', compactionId: 'cmp_1', reason: 'nothing_to_compact', message: NOTHING })
    // /compact in the chat while the view is closed: leaving another view does not count as having seen it.
    store().shownNotesCleared()
    expect(failureOf('s1')).not.toBeNull()
    store().noteShown('s1', 'cmp_1')
    store().noteShown('s1', 'cmp_1')
    expect(failureOf('s1')).toMatchObject({ shown: true })
    store().shownNotesCleared()
    expect(failureOf('s1')).toBeNull()
  })

  it('a failure stays until the session moves on', () => {
    store().compactionFailed({ sessionId: 's1', compactionId: 'cmp_2', reason: 'failed', message: 'overloaded' })
    store().noteShown('s1', 'cmp_2')
    store().shownNotesCleared()
    expect(failureOf('s1')).toMatchObject({ level: 'error', shown: false })
    store().runStarted('s1')
    expect(failureOf('s1')).toBeNull()
  })

  it('a note not yet shown goes when the session moves on', () => {
    store().compactionFailed({ sessionId: 's1', compactionId: 'cmp_3', reason: 'nothing_to_compact', message: NOTHING })
    store().runStarted('s1')
    expect(failureOf('s1')).toBeNull()
  })
})
