import { beforeEach, describe, expect, it } from 'vitest'
import { selectComparePassId, useInspectorStore, type ListedPass } from '../../../src-renderer/state/inspector'

function pass(id: string, seq: number, sessionId = 's1'): ListedPass {
  return {
    id,
    sessionId,
    seq,
    kind: 'main',
    model: 'm',
    status: 'done',
    queuedAt: seq * 1000,
    firstByteAt: null,
    doneAt: null,
    requestSha256: 'x',
    requestBytes: 1,
    usage: null,
    costUsd: null,
    attempts: [],
    error: null,
    attribution: null,
  }
}

const store = () => useInspectorStore.getState()

describe('the inspector store', () => {
  beforeEach(() => {
    useInspectorStore.setState({ sessionId: null, scope: 'session', passes: [], live: null, selectedPassId: null, liveSelected: false, compareToPassId: null })
    store().sessionShown('s1')
  })

  it('selects the newest pass when a session opens, and keeps a selection that is still listed', () => {
    store().passesLoaded('s1', [pass('a', 1), pass('b', 2)])
    expect(store().selectedPassId).toBe('b')
    store().passSelected('a')
    store().passesLoaded('s1', [pass('a', 1), pass('b', 2), pass('c', 3)])
    expect(store().selectedPassId).toBe('a')
  })

  it("in the whole project's list, puts another session's pass where its queue time has it, and following is of the session shown", () => {
    store().scopeChosen('project')
    store().passesLoaded('s1', [pass('a', 1), pass('x', 2, 's2'), pass('b', 3)])
    // Queued before b, stored after it (two sessions running at once).
    store().passCompleted({ sessionId: 's2', pass: { ...pass('y', 4, 's2'), queuedAt: 2500 } }, true)
    expect(store().passes.map((p) => p.id)).toEqual(['a', 'x', 'y', 'b'])
    store().passCompleted({ sessionId: 's2', pass: pass('z', 5, 's2') }, true)
    // The newest pass of the session shown, chosen, is following it, though another session's pass is the last row.
    store().passSelected('b')
    expect(store().following).toBe(true)
    store().passCompleted({ sessionId: 's1', pass: pass('c', 6) })
    expect(store().selectedPassId).toBe('c')
  })

  it('ignores a list that arrives for another session', () => {
    store().passesLoaded('s2', [pass('x', 1, 's2')])
    expect(store().passes).toEqual([])
  })

  it('follows a new pass when the newest was selected: live row while it streams, then the stored pass', () => {
    store().passesLoaded('s1', [pass('a', 1)])
    store().passStarted({ sessionId: 's1', passNumber: 2, model: 'm' })
    expect(store().live).toMatchObject({ passNumber: 2 })
    expect(store().liveSelected).toBe(true)
    store().streamDeltaReceived({ sessionId: 's1', events: [{ type: 'block_started', index: 0, kind: 'text' }, { type: 'text_delta', index: 0, text: 'hi' }] })
    expect(store().live!.blocks[0]!.text).toBe('hi')
    store().passCompleted({ sessionId: 's1', pass: pass('b', 2) })
    expect(store().live).toBeNull()
    expect(store().passes.map((p) => p.id)).toEqual(['a', 'b'])
    expect(store().selectedPassId).toBe('b')
  })

  it("adds another session's stored pass only when the list shows it, without moving the selection", () => {
    store().passesLoaded('s1', [pass('a', 1), pass('x', 2, 's2')])
    store().passCompleted({ sessionId: 's2', pass: pass('y', 3, 's2') })
    expect(store().passes.map((p) => p.id)).toEqual(['a', 'x'])
    store().passCompleted({ sessionId: 's2', pass: pass('y', 3, 's2') }, true)
    expect(store().passes.map((p) => p.id)).toEqual(['a', 'x', 'y'])
    // Stored again (its attribution, re-sent): the row is replaced, not added twice.
    store().passCompleted({ sessionId: 's2', pass: { ...pass('y', 3, 's2'), costUsd: 0.5 } }, true)
    expect(store().passes.map((p) => [p.id, p.costUsd])).toEqual([['a', null], ['x', null], ['y', 0.5]])
    expect(store().selectedPassId).toBe('a')
  })

  it('shows the pass in flight when it opens in its middle, with what streamed so far, then follows the events', () => {
    store().passesLoaded('s1', [pass('a', 1)])
    const snapshot = { passNumber: 2, model: 'm', startedAt: 5000, firstDeltaAt: 5400, events: [{ type: 'block_started', index: 0, kind: 'text' }, { type: 'text_delta', index: 0, text: 'Half an ' }] }
    store().liveSeeded('s1', snapshot, 9000)
    // The times are the host's: the first byte came 400 ms after the pass started, not when the window opened.
    expect(store().live).toMatchObject({ passNumber: 2, startedAt: 5000, firstDeltaAt: 5400, listedSeq: 1 })
    expect(store().live!.blocks[0]!.text).toBe('Half an ')
    expect(store().liveSelected).toBe(true)
    store().streamDeltaReceived({ sessionId: 's1', events: [{ type: 'text_delta', index: 0, text: 'answer' }] })
    expect(store().live!.blocks[0]!.text).toBe('Half an answer')
    store().passCompleted({ sessionId: 's1', pass: pass('b', 2) })
    expect(store().live).toBeNull()
    expect(store().selectedPassId).toBe('b')
  })

  it("shows a compaction's summary request in flight when it opens in its middle, with the summary so far", () => {
    store().passesLoaded('s1', [pass('a', 1)])
    store().summarySeeded('s1', { startedAt: 5000, stream: 1, text: 'so far', textEnd: 10, outputChars: 10, thinkingChars: 0 }, 'm', 9000)
    expect(store().live).toMatchObject({ kind: 'summary', sessionId: 's1', startedAt: 5000, listedSeq: 0 })
    // The text held is the newest part: what came before it is counted as not shown.
    expect(store().live!.summary).toMatchObject({ text: 'so far', textHidden: 4, textEnd: 10, outputChars: 10 })
    expect(store().liveSelected).toBe(true)
    // A row the events started already is kept as it is.
    const before = store().live
    store().summarySeeded('s1', { startedAt: 1, stream: 1, text: 'x', textEnd: 1, outputChars: 1, thinkingChars: 0 }, 'm', 9000)
    expect(store().live).toBe(before)
  })

  it('keeps the list as it is when no pass is in flight, or the pass is of a session not shown', () => {
    store().passesLoaded('s1', [pass('a', 1)])
    store().liveSeeded('s1', null, 9000)
    store().liveSeeded('s2', { passNumber: 1, model: 'm', startedAt: 1, firstDeltaAt: null, events: [] }, 9000)
    expect(store().live).toBeNull()
    expect(store().selectedPassId).toBe('a')
  })

  it('follows a pass that was never live (a compaction summary), and the passes after it', () => {
    store().passesLoaded('s1', [pass('a', 1)])
    store().passCompleted({ sessionId: 's1', pass: { ...pass('s', 2), kind: 'summary' } })
    expect(store().selectedPassId).toBe('s')
    store().passStarted({ sessionId: 's1', passNumber: 3, model: 'm' })
    expect(store().liveSelected).toBe(true)
    store().passCompleted({ sessionId: 's1', pass: pass('c', 3) })
    expect(store().selectedPassId).toBe('c')
    // Looking at an older pass: a summary arriving does not move the selection.
    store().passSelected('a')
    store().passCompleted({ sessionId: 's1', pass: { ...pass('t', 4), kind: 'summary' } })
    expect(store().selectedPassId).toBe('a')
  })

  it("shows a compaction's summary request live from its progress, then the stored summary pass in its place", () => {
    store().passesLoaded('s1', [pass('a', 1)])
    store().compactionProgressed({ sessionId: 's1', stage: 'trimmed' }, 'claude-x')
    expect(store().live).toBeNull()
    store().compactionProgressed({ sessionId: 's1', stage: 'summary_started' }, 'claude-x')
    expect(store().live).toMatchObject({ kind: 'summary', model: 'claude-x', firstDeltaAt: null, listedSeq: 0 })
    // Followed as a main pass's live row is: the user was on the newest pass.
    expect(store().liveSelected).toBe(true)
    store().compactionProgressed({ sessionId: 's1', stage: 'summary_streaming', stream: 1, text: '<analysis>', textOffset: 0, outputChars: 10, thinkingChars: 0 }, 'claude-x')
    store().compactionProgressed({ sessionId: 's1', stage: 'summary_streaming', stream: 1, text: ' The user', textOffset: 10, outputChars: 19, thinkingChars: 0 }, 'claude-x')
    expect(store().live!.summary).toMatchObject({ text: '<analysis> The user', outputChars: 19 })
    expect(store().live!.firstDeltaAt).not.toBeNull()
    // A cancelled request is stored too, and replaces the row all the same.
    store().passCompleted({ sessionId: 's1', pass: { ...pass('s', 2), kind: 'summary', status: 'cancelled' } })
    expect(store().live).toBeNull()
    expect(store().passes.map((p) => p.id)).toEqual(['a', 's'])
    expect(store().selectedPassId).toBe('s')
    // What the compaction says after (the request finished, the checkpoint) makes no new row.
    store().compactionProgressed({ sessionId: 's1', stage: 'summary_finished' }, 'claude-x')
    expect(store().live).toBeNull()
  })

  it("keeps a summary request's live row of a session not shown, and names its model from the list when the chat does not", () => {
    store().passesLoaded('s1', [pass('a', 1)])
    store().compactionProgressed({ sessionId: 's1', stage: 'summary_started' }, '')
    expect(store().live!.model).toBe('m')
    store().passCompleted({ sessionId: 's1', pass: { ...pass('s', 2), kind: 'summary' } })
    store().compactionProgressed({ sessionId: 's2', stage: 'summary_started' }, 'claude-y')
    store().compactionProgressed({ sessionId: 's2', stage: 'summary_streaming', stream: 1, text: 'Hi', textOffset: 0, outputChars: 2 }, 'claude-y')
    expect(store().live).toBeNull()
    store().sessionShown('s2')
    expect(store().live).toMatchObject({ kind: 'summary', model: 'claude-y', summary: { text: 'Hi' } })
    expect(store().liveSelected).toBe(true)
    // A stored summary in the list read again says the request ended unseen.
    store().passesLoaded('s2', [pass('y', 3, 's2')])
    expect(store().live).not.toBeNull()
    store().passesLoaded('s2', [pass('y', 3, 's2'), { ...pass('z', 4, 's2'), kind: 'summary' }])
    expect(store().live).toBeNull()
    expect(store().selectedPassId).toBe('z')
  })

  it('does not move a user who is looking at an older pass to a summary request in flight', () => {
    store().passesLoaded('s1', [pass('a', 1), pass('b', 2)])
    store().passSelected('a')
    store().compactionProgressed({ sessionId: 's1', stage: 'summary_started' }, 'm')
    expect(store().live).not.toBeNull()
    expect(store().liveSelected).toBe(false)
    store().passCompleted({ sessionId: 's1', pass: { ...pass('s', 3), kind: 'summary' } })
    expect(store().selectedPassId).toBe('a')
  })

  it('does not move a user who is looking at an older pass', () => {
    store().passesLoaded('s1', [pass('a', 1), pass('b', 2)])
    store().passSelected('a')
    store().passStarted({ sessionId: 's1', passNumber: 1, model: 'm' })
    expect(store().liveSelected).toBe(false)
    store().passCompleted({ sessionId: 's1', pass: pass('c', 3) })
    expect(store().selectedPassId).toBe('a')
  })

  it('ignores events of other sessions', () => {
    store().passStarted({ sessionId: 's2', passNumber: 1, model: 'm' })
    store().passCompleted({ sessionId: 's2', pass: pass('z', 1, 's2') })
    expect(store().live).toBeNull()
    expect(store().passes).toEqual([])
  })

  it('compares with the previous pass of the same session unless another was chosen', () => {
    const passes = [pass('a', 1), pass('x', 1, 's2'), pass('b', 2)]
    expect(selectComparePassId({ passes, selectedPassId: 'b', compareToPassId: null })).toBe('a')
    expect(selectComparePassId({ passes, selectedPassId: 'a', compareToPassId: null })).toBeNull()
    expect(selectComparePassId({ passes, selectedPassId: 'b', compareToPassId: 'x' })).toBe('x')
    expect(selectComparePassId({ passes, selectedPassId: 'b', compareToPassId: 'b' })).toBe('a')
  })

  it("compares a pass with the conversation's pass before it, past a compaction's summary request and a pre-warm", () => {
    const side = (id: string, seq: number, kind: 'summary' | 'keep_warm'): ListedPass => ({ ...pass(id, seq), kind })
    store().passesLoaded('s1', [pass('a', 1), side('dry', 2, 'summary'), side('warm', 3, 'keep_warm'), pass('b', 4)])
    store().passSelected('b')
    expect(selectComparePassId(store())).toBe('a')
    // A side request is compared with the conversation's pass it was made from.
    store().passSelected('warm')
    expect(selectComparePassId(store())).toBe('a')
  })

  it('compares a retry with the pass before the one that got no response, unless that one is chosen', () => {
    const failed = { ...pass('f', 2), status: 'failed' as const, usage: null, attribution: { cause: { kind: 'no_response', label: 'no response' } } }
    const passes = [pass('a', 1), failed, pass('r', 3)]
    expect(selectComparePassId({ passes, selectedPassId: 'r', compareToPassId: null })).toBe('a')
    expect(selectComparePassId({ passes, selectedPassId: 'r', compareToPassId: 'f' })).toBe('f')
    // With nothing before it but the failed one, that is what there is to compare with.
    expect(selectComparePassId({ passes: [failed, pass('r', 3)], selectedPassId: 'r', compareToPassId: null })).toBe('f')
  })

  it('keeps pane sizes apart for each dock side, never below the minimum', () => {
    store().paneResized(900)
    store().dockChosen('bottom')
    store().paneResized(100)
    expect(store().layout).toMatchObject({ dock: 'bottom', paneSize: 900, paneHeight: 200 })
  })

  it('hands a file request to the Files view once', () => {
    store().fileOpenRequested('CLAUDE.md')
    expect(store().fileRequest?.path).toBe('CLAUDE.md')
    store().fileOpened()
    expect(store().fileRequest).toBeNull()
  })
})
