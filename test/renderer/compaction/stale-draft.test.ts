/**
 * A dry run the conversation moved past: its card says it is out of date as soon as the conversation moves on (the
 * list is read again when entries arrive, and the main process marks the draft `stale`), the notice of a refused
 * apply says what to do once, and the draft with the user's edited summary stays in the store to copy. Under Node,
 * with the contract's client replaced by one whose answers and events the test sends.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { answerHeld, held, heldListeners, settle } from '../../support/held-client'
import type { DraftView } from '../../../src-renderer/state/compaction'

vi.mock('../../../src-renderer/platform/client', async () => (await import('../../support/held-client')).heldClientModule)

const { connectCompactionEvents } = await import('../../../src-renderer/features/compaction/events')
const { applyDraft, compactionMessage } = await import('../../../src-renderer/features/compaction/actions')
const { draftFacts } = await import('../../../src-renderer/features/compaction/model/card-facts')
const { useCompactionStore } = await import('../../../src-renderer/state/compaction')
const { useChatStore } = await import('../../../src-renderer/state/chat')
const store = () => useCompactionStore.getState()

const draft = (stale: boolean) =>
  ({
    draftId: 'd1',
    trigger: 'manual',
    stage: 'summary',
    focus: 'the evaluator',
    summary: 'The model wrote this.',
    costUsd: 0.01,
    trimmed: [],
    files: [],
    pins: [],
    notes: [],
    tokens: { before: { real: 5_000, estimated: 5_000 }, after: { estimated: 1_000 }, targetTokens: 120_000, windowTokens: 200_000 },
    stale,
  }) as unknown as DraftView
const list = (stale: boolean) => ({ checkpoints: [], drafts: [draft(stale)], live: null }) as never
const MAIN_REASON = 'The conversation changed after this compaction was prepared: a checkpoint made from it would leave out what came since.'

connectCompactionEvents()

beforeEach(() => {
  held.length = 0
  useCompactionStore.setState({ bySession: {}, selection: null, summaryEdits: {}, lostEdit: null })
  useChatStore.setState({ bySession: { s: { loaded: true } as never } })
  store().listLoaded('s', list(false), [])
  store().summaryEdited('d1', 'MY IMPORTANT EDIT')
})

describe('a dry run the conversation moved past', () => {
  it('is read again when the conversation moves on, and its card says it is out of date before Apply', async () => {
    expect(draftFacts(store().bySession.s!.drafts[0]!).stale).toBe(false)
    heldListeners.get('entries.appended')!({ sessionId: 's', entries: [{ id: 'e9', kind: 'user_message' }] })
    answerHeld('compaction.list', { sessionId: 's' }, list(true))
    answerHeld('pin.list', { sessionId: 's' }, [])
    await settle()
    expect(draftFacts(store().bySession.s!.drafts[0]!, store().summaryEdits.d1).stale).toBe(true)
    // Once it is stale, nothing more to learn: the next entries do not read the list again.
    heldListeners.get('entries.appended')!({ sessionId: 's', entries: [{ id: 'e10', kind: 'assistant_message' }] })
    expect(held.filter((r) => r.name === 'compaction.list')).toHaveLength(0)
  })

  it('refused at Apply, says what to do once, without the reason nested in it, and keeps the edited text', async () => {
    const applying = applyDraft('s', 'd1', 'MY IMPORTANT EDIT')
    answerHeld('compaction.apply', { sessionId: 's' }, { status: 'stale', compactionId: 'd1', message: MAIN_REASON })
    await settle()
    answerHeld('compaction.list', { sessionId: 's' }, list(true))
    answerHeld('pin.list', { sessionId: 's' }, [])
    const notice = (await applying)!
    expect(notice).not.toContain(MAIN_REASON)
    expect(notice.match(/again/g)).toHaveLength(1)
    expect(notice).toBe(compactionMessage('stale', MAIN_REASON))
    expect(store().bySession.s!.drafts.map((d) => d.draftId)).toEqual(['d1'])
    expect(store().summaryEdits.d1).toBe('MY IMPORTANT EDIT')
  })
})
