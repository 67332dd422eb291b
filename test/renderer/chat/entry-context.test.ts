/**
 * What the conversation's entries are drawn in (entry-context.ts): the answers' one Tab stop, found without going
 * through every entry shown, and the answer a chosen pass marks.
 */
import { describe, expect, it } from 'vitest'
import type { EntryView } from '../../../src-preload/contract'
import { answerPropsOf, answerTabStop, entryContext, entryFacts } from '../../../src-renderer/features/chat/entry-context'
import { TAKE_BACK_SOURCE } from '../../../src-renderer/features/chat/take-back'

const at = (seq: number, kind: string, rest: Record<string, unknown> = {}) => ({ id: `e${seq}`, sessionId: 's', seq, at: seq, kind, content: [], ...rest }) as unknown as EntryView
/** Three turns: a message and an answer each, the second pass answering twice (its last message is its answer). */
const entries = [at(1, 'user_message'), at(2, 'assistant_message', { passId: 'p1' }), at(3, 'user_message'), at(4, 'assistant_message', { passId: 'p2' }), at(5, 'assistant_message', { passId: 'p2' }), at(6, 'user_message'), at(7, 'assistant_message', { passId: 'p3' })]
const facts = entryFacts(entries, {}, null)

describe('the answers one Tab stop', () => {
  it('is the chosen pass’s answer when it is shown, else the newest answer', () => {
    expect(answerTabStop(entries, 0, facts, 'p2')).toBe('e5')
    expect(answerTabStop(entries, 0, facts, null)).toBe('e7')
    // Its answer not shown (shown from the third entry on): the newest.
    expect(answerTabStop(entries, 2, facts, 'p1')).toBe('e7')
    expect(answerTabStop(entries, 0, facts, 'a pass of another session')).toBe('e7')
  })

  it('is never an answer folded under a take-back', () => {
    const takeBack = at(8, 'context_edit', { source: TAKE_BACK_SOURCE, edits: [{ entryId: 'e6' }] })
    const taken = [...entries, takeBack]
    const takenFacts = entryFacts(taken, {}, null)
    expect(answerTabStop(taken, 0, takenFacts, 'p3')).toBe('e5')
    expect(answerTabStop(taken, 0, takenFacts, null)).toBe('e5')
    expect(answerTabStop(taken, 6, takenFacts, null)).toBeNull()
  })
})

describe('a chosen pass', () => {
  it('marks its answer, not the pass’s earlier messages', () => {
    const context = entryContext(facts, { sessionId: 's', selectedPassId: 'p2', onSelectPass: () => {}, passSources: new Map(), source: 'loupe', inherited: null, continuedText: '', runningTools: [], turnRunning: false, tabStop: 'e5', canTakeBack: true })
    expect(entries.filter((e) => e.kind === 'assistant_message' && answerPropsOf(e, context).selected).map((e) => e.id)).toEqual(['e5'])
  })
})
