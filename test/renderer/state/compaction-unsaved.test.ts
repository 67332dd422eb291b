/**
 * The edited dry-run summaries a window holds, which its leave-page question counts (decision 0072): the edits to a
 * dry run still listed, waiting or out of date, and those kept to copy after the dry run was applied elsewhere.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import type { EntryView, RequestOutput } from '../../../src-preload/contract'
import { editedSummaryCount, useCompactionStore, type DraftView } from '../../../src-renderer/state/compaction'

const store = () => useCompactionStore.getState()
const list = (drafts: Array<{ draftId: string; stale?: boolean }>) =>
  ({ checkpoints: [], drafts: drafts.map((d) => ({ focus: null, summary: 'The model’s summary.', ...d })) as unknown as DraftView[], live: null }) as unknown as RequestOutput<'compaction.list'>

describe('the edited dry-run summaries a window holds', () => {
  beforeEach(() => useCompactionStore.setState({ bySession: {}, selection: null, summaryEdits: {}, lostEdit: null }))

  it('count an edit to a dry run waiting, and to one out of date, until the user gives it back to the model', () => {
    store().listLoaded('s1', list([{ draftId: 'd1', stale: false }]), [])
    expect(editedSummaryCount(store())).toBe(0)
    store().summaryEdited('d1', 'My edit.')
    expect(editedSummaryCount(store())).toBe(1)
    store().listLoaded('s1', list([{ draftId: 'd1', stale: true }]), [])
    expect(editedSummaryCount(store())).toBe(1)
    store().summaryEdited('d1', null)
    expect(editedSummaryCount(store())).toBe(0)
  })

  it('no longer count an edit once its dry run is applied with it, discarded here, or gone from the list', () => {
    store().listLoaded('s1', list([{ draftId: 'd1' }, { draftId: 'd2' }, { draftId: 'd3' }]), [])
    store().summaryEdited('d1', 'Applied as edited.')
    store().summaryEdited('d2', 'Thrown away.')
    store().summaryEdited('d3', 'Discarded in another window.')
    expect(editedSummaryCount(store())).toBe(3)
    store().compactionApplied({ sessionId: 's1', compactionId: 'd1', checkpoint: { id: 'c1', kind: 'checkpoint', seq: 9, at: 0, summary: 'Applied as edited.' } as unknown as EntryView } as never, true)
    expect(editedSummaryCount(store())).toBe(2)
    store().draftDiscarded('s1', 'd2')
    expect(editedSummaryCount(store())).toBe(1)
    store().listLoaded('s1', list([]), [])
    expect(editedSummaryCount(store())).toBe(0)
  })

  it('count the edit kept to copy after its dry run was applied elsewhere without it, until dismissed', () => {
    store().listLoaded('s1', list([{ draftId: 'd1' }]), [])
    store().summaryEdited('d1', 'My edit.')
    store().compactionApplied({ sessionId: 's1', compactionId: 'd1', checkpoint: { id: 'c1', kind: 'checkpoint', seq: 9, at: 0, summary: 'The model’s summary.' } as unknown as EntryView } as never, true)
    expect(editedSummaryCount(store())).toBe(1)
    store().lostEditDismissed()
    expect(editedSummaryCount(store())).toBe(0)
  })
})
