/** A model switch's question holds its price only for the conversation it was priced on (decisions 0021, 0029). */
import { describe, expect, it } from 'vitest'
import { conversationPoint, switchQuestionState, type SwitchQuestion } from '../../../src-renderer/features/chat/switch-question'

const asked: SwitchQuestion = { model: 'claude-opus-4-6', price: null, error: null, pricedAt: 'e3', from: 'claude-sonnet-4-6' }

describe("a model switch's question", () => {
  it('offers its price while the conversation is as it was priced', () => {
    expect(switchQuestionState(asked, false, 'e3', 'claude-sonnet-4-6')).toBe('priced')
  })

  it('waits while a turn runs (the turn keeps its model), then is priced again on the conversation the turn left', () => {
    expect(switchQuestionState(asked, true, 'e3', 'claude-sonnet-4-6')).toBe('waits_for_turn')
    expect(switchQuestionState(asked, true, 'e7', 'claude-sonnet-4-6')).toBe('waits_for_turn')
    expect(switchQuestionState(asked, false, 'e7', 'claude-sonnet-4-6')).toBe('to_price_again')
  })

  it('closes, instead of being priced again, once the model was switched elsewhere (another window, the palette)', () => {
    // The switch's own entry moves the conversation too: without the model's check that read as "price again".
    expect(switchQuestionState(asked, false, 'e8', 'claude-sonnet-4-5')).toBe('closed')
    expect(switchQuestionState(asked, true, 'e8', 'claude-sonnet-4-5')).toBe('closed')
    expect(switchQuestionState(asked, false, 'e3', 'claude-sonnet-4-5')).toBe('closed')
  })

  it("reads the conversation's point from its last entry", () => {
    expect(conversationPoint([])).toBe('')
    expect(conversationPoint([{ id: 'e1' }, { id: 'e2' }])).toBe('e2')
  })
})
