/**
 * The pass in flight: a live pass whose `pass.completed` the window missed (the inspector was not mounted when it
 * ended: the user was in another project) must not outlive a reload of the list; and under Diff it is not compared.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { useInspectorStore, type ListedPass } from '../../../src-renderer/state/inspector'
import { liveDiffText, livePassStarted, liveRequestText, passCountText } from '../../../src-renderer/features/inspector/model/live'

function pass(id: string, seq: number, kind: ListedPass['kind'] = 'main', sessionId = 's1'): ListedPass {
  return { id, sessionId, seq, kind, model: 'm', status: 'done', queuedAt: seq * 1000, firstByteAt: null, doneAt: null, requestSha256: 'x', requestBytes: 1, usage: null, costUsd: null, attempts: [], error: null, attribution: null }
}

const store = () => useInspectorStore.getState()

describe('a live pass when the list is read again', () => {
  beforeEach(() => {
    useInspectorStore.setState({ sessionId: null, passes: [], loading: false, live: null, selectedPassId: null, liveSelected: false, compareToPassId: null })
    store().sessionShown('s1')
  })

  it('goes when the list holds it stored, and the newest stored pass is shown instead', () => {
    store().passesLoaded('s1', [pass('a', 1)])
    store().passStarted({ sessionId: 's1', passNumber: 1, model: 'm' })
    expect(store().liveSelected).toBe(true)
    // The inspector unmounts (another project), the pass ends unseen, the same session is shown again.
    store().sessionShown('s1')
    store().passesLoading()
    store().passesLoaded('s1', [pass('a', 1), pass('b', 2), pass('c', 3)])
    expect(store().live).toBeNull()
    expect(store().liveSelected).toBe(false)
    expect(store().selectedPassId).toBe('c')
  })

  it('stays while the list does not hold it yet (a reload during the stream)', () => {
    store().passesLoaded('s1', [pass('a', 1)])
    store().passStarted({ sessionId: 's1', passNumber: 1, model: 'm' })
    store().passesLoading()
    // A compaction's summary stored before the pass is not the pass.
    store().passesLoaded('s1', [pass('a', 1), pass('s', 2, 'summary')])
    expect(store().live).not.toBeNull()
    expect(store().liveSelected).toBe(true)
  })

  it('that started while the list loaded is measured against the list that arrives', () => {
    store().passesLoading()
    store().passStarted({ sessionId: 's1', passNumber: 1, model: 'm' })
    store().passesLoaded('s1', [pass('a', 1), pass('b', 2)])
    expect(store().live).not.toBeNull()
    store().passesLoaded('s1', [pass('a', 1), pass('b', 2), pass('c', 3)])
    expect(store().live).toBeNull()
  })

  it('in the project-wide list, is matched only against its own session', () => {
    store().passesLoaded('s1', [pass('a', 1)])
    store().passStarted({ sessionId: 's1', passNumber: 1, model: 'm' })
    store().passesLoaded('s1', [pass('a', 1), pass('x', 5, 'main', 's2')])
    expect(store().live).not.toBeNull()
  })
})

describe('the Diff tab while a pass streams', () => {
  it('says the diff comes once the pass is stored, not that request bytes will appear', () => {
    const text = liveDiffText(livePassStarted('s1', 1, 'm', 0, 0))
    expect(text).toBe('Pass 1 of this turn is still streaming. The diff with the previous pass is shown once this pass is stored.')
    expect(text).not.toContain('request bytes')
  })
})

describe('the pass in flight, under Request and in the count', () => {
  it('the Request tab says only that the bytes come once the pass is stored', () => {
    const text = liveRequestText(livePassStarted('s1', 2, 'm', 0, 0))
    expect(text).toBe('Pass 2 of this turn is still streaming. Its exact request bytes are shown once this pass is stored; what streams back is under Response.')
  })

  it('counts the pass in flight, and says it streams', () => {
    expect(passCountText(0, false)).toBe('0 passes')
    expect(passCountText(1, false)).toBe('1 pass')
    expect(passCountText(0, true)).toBe('1 pass, streaming')
    expect(passCountText(2, true)).toBe('3 passes, the newest streaming')
  })
})
