/**
 * The compaction view's live state: `compaction.progressed` pieces of the forming summary are appended in order,
 * a piece that starts later (a burst sent only its tail) counts what was not shown, an old or repeated piece changes
 * nothing, a new stream starts the text again, and the text kept is bounded to its newest part.
 */
import { describe, expect, it } from 'vitest'
import { LIVE_TEXT_MAX_CHARS, useCompactionStore, withSummaryText, type LiveCompaction } from '../../../src-renderer/state/compaction'

const START: LiveCompaction = {
  compactionId: 'cmp_1',
  trigger: 'manual',
  focus: null,
  dryRun: false,
  startedAt: 0,
  stage: 'started',
  outputChars: 0,
  outputTokens: 0,
  thinkingChars: 0,
  trimmed: null,
  savedTokens: null,
  text: '',
  textHidden: 0,
  textEnd: 0,
  stream: 0,
}

describe('the forming summary', () => {
  it('appends pieces in order and ignores one it already has', () => {
    let live = withSummaryText(START, { stream: 1, text: 'Hello ', textOffset: 0 })
    live = withSummaryText(live, { stream: 1, text: 'world', textOffset: 6 })
    live = withSummaryText(live, { stream: 1, text: 'world', textOffset: 6 })
    live = withSummaryText(live, { stream: 1, text: 'lo world!', textOffset: 3 })
    expect(live).toMatchObject({ text: 'Hello world!', textHidden: 0, textEnd: 12, stream: 1 })
  })

  it('counts a gap as characters not shown, and a new stream starts again', () => {
    let live = withSummaryText(START, { stream: 1, text: 'abc', textOffset: 0 })
    live = withSummaryText(live, { stream: 1, text: 'xyz', textOffset: 10 })
    expect(live).toMatchObject({ text: 'abcxyz', textHidden: 7, textEnd: 13 })
    live = withSummaryText(live, { stream: 2, text: 'Retried.', textOffset: 0 })
    expect(live).toMatchObject({ text: 'Retried.', textHidden: 0, textEnd: 8, stream: 2 })
  })

  it('keeps the newest LIVE_TEXT_MAX_CHARS characters', () => {
    let live = START
    const piece = '0123456789'.repeat(100)
    for (let i = 0; i < 40; i++) live = withSummaryText(live, { stream: 1, text: piece, textOffset: i * piece.length })
    expect(live.text).toHaveLength(LIVE_TEXT_MAX_CHARS)
    expect(live.textHidden).toBe(40 * piece.length - LIVE_TEXT_MAX_CHARS)
    expect(live.textEnd).toBe(40 * piece.length)
    expect(live.text.endsWith(piece)).toBe(true)
  })

  it('follows the events of the compaction in flight only', () => {
    const store = useCompactionStore.getState()
    store.compactionStarted({ sessionId: 's1', compactionId: 'cmp_1', trigger: 'manual', focus: 'the parser', dryRun: false }, 5)
    store.compactionProgressed({ sessionId: 's1', compactionId: 'cmp_1', stage: 'summary_started', form: 'cut' })
    store.compactionProgressed({ sessionId: 's1', compactionId: 'cmp_1', stage: 'summary_streaming', stream: 1, outputChars: 9, outputTokens: 3, text: '1. User: ', textOffset: 0 })
    store.compactionProgressed({ sessionId: 's1', compactionId: 'cmp_other', stage: 'summary_streaming', stream: 1, outputChars: 5, outputTokens: 2, text: 'Other', textOffset: 0 })
    store.compactionProgressed({ sessionId: 's1', compactionId: 'cmp_1', stage: 'summary_streaming', stream: 1, outputChars: 20, outputTokens: 5, text: 'fix the parser', textOffset: 9 })
    const live = useCompactionStore.getState().bySession.s1!.live!
    expect(live).toMatchObject({ stage: 'summary_streaming', text: '1. User: fix the parser', outputChars: 20, outputTokens: 5 })
    // The model thought before writing; a second summary request (the standalone one) counts from nothing.
    store.compactionProgressed({ sessionId: 's1', compactionId: 'cmp_1', stage: 'summary_streaming', stream: 1, outputChars: 20, outputTokens: 5, text: '', textOffset: 20, thinkingChars: 400 })
    expect(useCompactionStore.getState().bySession.s1!.live).toMatchObject({ thinkingChars: 400, outputChars: 20 })
    store.compactionProgressed({ sessionId: 's1', compactionId: 'cmp_1', stage: 'summary_started', form: 'standalone' })
    expect(useCompactionStore.getState().bySession.s1!.live).toMatchObject({ stage: 'summary_started', thinkingChars: 0, outputChars: 0, outputTokens: 0 })
    store.compactionFailed({ sessionId: 's1', compactionId: 'cmp_1', reason: 'cancelled', message: 'cancelled' })
    expect(useCompactionStore.getState().bySession.s1!.live).toBeNull()
  })

  it('a window opened mid-compaction starts from the snapshot, adds the progress that came before it, and carries on', () => {
    const store = useCompactionStore.getState()
    // Two pieces arrive before the snapshot: one it already holds, one newer than it.
    store.compactionProgressed({ sessionId: 's2', compactionId: 'cmp_2', stage: 'summary_streaming', stream: 1, outputChars: 8, outputTokens: 2, text: 'Summary.', textOffset: 0 })
    store.compactionProgressed({ sessionId: 's2', compactionId: 'cmp_2', stage: 'summary_streaming', stream: 1, outputChars: 16, outputTokens: 4, text: ' Second.', textOffset: 8 })
    expect(useCompactionStore.getState().bySession.s2?.live ?? null).toBeNull()
    const snapshot = { ...START, compactionId: 'cmp_2', stage: 'summary_streaming', stream: 1, text: 'Summary.', textEnd: 8, outputChars: 8, outputTokens: 2 }
    store.listLoaded('s2', { checkpoints: [], drafts: [], live: snapshot }, [])
    expect(useCompactionStore.getState().bySession.s2!.live).toMatchObject({ compactionId: 'cmp_2', text: 'Summary. Second.', textHidden: 0, textEnd: 16, outputChars: 16 })
    store.compactionProgressed({ sessionId: 's2', compactionId: 'cmp_2', stage: 'summary_streaming', stream: 1, outputChars: 23, outputTokens: 6, text: ' Third.', textOffset: 16 })
    expect(useCompactionStore.getState().bySession.s2!.live).toMatchObject({ text: 'Summary. Second. Third.', textHidden: 0 })
    expect(useCompactionStore.getState().bySession.s2!.early).toEqual([])
  })

  it('a snapshot taken before a compaction ended, read after the window heard it end, does not show it running again', () => {
    const store = useCompactionStore.getState()
    const snapshot = { ...START, compactionId: 'cmp_3', stage: 'summary_streaming', stream: 1, text: 'Summary.', textEnd: 8, outputChars: 8 }
    store.compactionFailed({ sessionId: 's3', compactionId: 'cmp_3', reason: 'cancelled', message: 'cancelled' })
    store.listLoaded('s3', { checkpoints: [], drafts: [], live: snapshot }, [])
    expect(useCompactionStore.getState().bySession.s3!.live).toBeNull()
    // A later compaction's snapshot still counts.
    store.listLoaded('s3', { checkpoints: [], drafts: [], live: { ...snapshot, compactionId: 'cmp_4' } }, [])
    expect(useCompactionStore.getState().bySession.s3!.live).toMatchObject({ compactionId: 'cmp_4' })
  })

  it('keeps the summary edited here when the dry run is applied from another window without it', () => {
    const store = useCompactionStore.getState()
    const checkpoint = (summary: string) => ({ id: 'e_9', sessionId: 's5', seq: 9, at: 1, kind: 'checkpoint', summary })
    store.summaryEdited('cmp_5', 'my better summary')
    store.compactionApplied({ sessionId: 's5', compactionId: 'cmp_5', checkpoint: checkpoint('the model summary'), pins: [] }, true)
    expect(useCompactionStore.getState().lostEdit).toEqual({ draftId: 'cmp_5', text: 'my better summary' })
    expect(useCompactionStore.getState().summaryEdits).toEqual({})
    store.lostEditDismissed()
    // Applied here, with the edits: nothing is lost.
    store.summaryEdited('cmp_6', 'mine')
    store.compactionApplied({ sessionId: 's5', compactionId: 'cmp_6', checkpoint: checkpoint('mine'), pins: [] }, true)
    expect(useCompactionStore.getState().lostEdit).toBeNull()
  })
})
