/**
 * A dry run applied while this window held edits to its summary: the edits are kept to copy only when the applied
 * summary is not them (applied from another window without them), never for the same text the host trimmed.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import type { EntryView } from '../../../src-preload/contract'
import { useCompactionStore } from '../../../src-renderer/state/compaction'

const store = () => useCompactionStore.getState()
const applied = (summary: string) => ({ sessionId: 's1', compactionId: 'd1', checkpoint: { id: 'c1', kind: 'checkpoint', seq: 9, at: 0, summary } as unknown as EntryView }) as never

describe('the edits to a dry run that was applied', () => {
  beforeEach(() => useCompactionStore.setState({ bySession: {}, selection: null, summaryEdits: {}, lostEdit: null }))

  it('are not said lost when the applied summary is them, trimmed as the host keeps it', () => {
    store().summaryEdited('d1', 'The summary.\n- X\n')
    store().compactionApplied(applied('The summary.\n- X'), true)
    expect(store().lostEdit).toBeNull()
    expect(store().summaryEdits).toEqual({})
  })

  it('are kept to copy when the summary applied is another text', () => {
    store().summaryEdited('d1', 'My edit.\n')
    store().compactionApplied(applied('The summary as drafted.'), true)
    expect(store().lostEdit).toEqual({ draftId: 'd1', text: 'My edit.\n' })
  })
})
