/**
 * The compaction view's focus field, kept by session in the store: a dry run's focus stays while the user goes to
 * another view and back, until a checkpoint with it is made (docs/compaction.md "The focus field").
 */
import { beforeEach, describe, expect, it } from 'vitest'
import type { EntryView, RequestOutput } from '../../../src-preload/contract'
import { selectCompactions, useCompactionStore, type DraftView } from '../../../src-renderer/state/compaction'

const store = () => useCompactionStore.getState()
const focus = (sessionId: string) => selectCompactions(sessionId)(store()).focus
const checkpoint = (id: string, focus: string | null) => ({ id, kind: 'checkpoint', seq: 9, at: 0, focus }) as unknown as EntryView
const record = (id: string, focus: string | null) => ({ checkpoint: checkpoint(id, focus), realTokensAfter: null, context: { before: { tokens: 1, measured: true, passSeq: null }, after: { tokens: 1, measured: false, passSeq: null, addedSince: 0 } }, passes: [] })
const list = (checkpoints: ReturnType<typeof record>[], drafts: Array<{ draftId: string; focus: string | null; stale?: boolean }> = []) =>
  ({ checkpoints, drafts: drafts as unknown as DraftView[], live: null }) as unknown as RequestOutput<'compaction.list'>

describe('the compaction focus field', () => {
  beforeEach(() => useCompactionStore.setState({ bySession: {}, selection: null, summaryEdits: {}, lostEdit: null }))

  it('is kept per session, outside the view: a dry run run with it keeps it while the view is away', () => {
    store().listLoaded('s1', list([]), [])
    store().focusTyped('s1', 'the price.ts edit')
    store().focusTyped('s2', 'another session')
    // The dry run comes back as a draft and the list is read again: no checkpoint, the focus stays.
    store().listLoaded('s1', list([], [{ draftId: 'd1', focus: 'the price.ts edit' }]), [])
    expect([focus('s1'), focus('s2')]).toEqual(['the price.ts edit', 'another session'])
  })

  it('empties when the checkpoint it was for is made, whether the event or the list tells it first', () => {
    store().listLoaded('s1', list([record('c1', null)]), [])
    store().focusTyped('s1', 'the price.ts edit')
    store().compactionApplied({ sessionId: 's1', compactionId: 'd1', checkpoint: checkpoint('c2', 'the price.ts edit'), pins: [] }, true)
    expect(focus('s1')).toBe('')

    store().listLoaded('s2', list([record('c1', null)]), [])
    store().focusTyped('s2', 'the ledger')
    store().listLoaded('s2', list([record('c1', null), record('c2', 'the ledger')]), [])
    expect(focus('s2')).toBe('')
  })

  it('keeps its text when the new checkpoint had another focus, or none', () => {
    store().listLoaded('s1', list([]), [])
    store().focusTyped('s1', 'the parser next')
    store().compactionApplied({ sessionId: 's1', compactionId: 'x', checkpoint: checkpoint('c2', 'the ledger'), pins: [] }, true)
    store().listLoaded('s1', list([record('c2', 'the ledger'), record('c3', null)]), [])
    expect(focus('s1')).toBe('the parser next')
  })

  it("a window that opens on a waiting dry run shows the focus it was run with, and never replaces what was typed", () => {
    store().listLoaded('s1', list([], [{ draftId: 'd0', focus: 'older' }, { draftId: 'd1', focus: 'the price.ts edit' }]), [])
    expect(focus('s1')).toBe('the price.ts edit')
    store().focusTyped('s2', 'typed first')
    store().listLoaded('s2', list([], [{ draftId: 'd1', focus: 'the price.ts edit' }]), [])
    expect(focus('s2')).toBe('typed first')
  })

  it('a window that opens on an out-of-date dry run, older than the latest checkpoint, leaves the field empty', () => {
    // A dry run with one focus, a message (it is out of date), then Compact now with another focus; the window reloads.
    store().listLoaded('s1', list([record('c1', 'the CLAUDE.md wording')], [{ draftId: 'd1', focus: 'the verbose flag', stale: true }]), [])
    expect(focus('s1')).toBe('')
    // Out of date with no checkpoint since (only a message): its focus is on its card, not in the field.
    store().listLoaded('s2', list([], [{ draftId: 'd1', focus: 'the verbose flag', stale: true }]), [])
    expect(focus('s2')).toBe('')
    // A new dry run after it is waiting: its focus is the field's.
    store().listLoaded('s3', list([], [{ draftId: 'd1', focus: 'the verbose flag', stale: true }, { draftId: 'd2', focus: 'the parser', stale: false }]), [])
    expect(focus('s3')).toBe('the parser')
  })
})
