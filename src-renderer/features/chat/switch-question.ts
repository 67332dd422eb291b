import type { EditPriceView } from '../../state/files'

/**
 * The question a model switch asks first (decision 0021, and 0029 for what the header shows while it is open). Its
 * price is for the prompt as it was when asked: a pass sent since (or a message taken back, a compaction) changes
 * the prompt, so the question is priced again once the session is between turns, and nothing is switched on the old
 * figure meanwhile.
 */
export interface SwitchQuestion {
  readonly model: string
  readonly price: EditPriceView | null
  readonly error: string | null
  /** The conversation the price was for: its last entry's id when asked ('' for none). */
  readonly pricedAt: string
  /** The model the session used when asked: the question is about leaving it. */
  readonly from: string
}

/**
 * What the question can say and do now: its price, or that it waits for the turn to end to be priced again, or
 * `closed`: the session's model was switched meanwhile (in another window, or from the palette), so a question about
 * leaving the model it had no longer applies, and is neither shown nor priced again.
 */
export type SwitchQuestionState = 'priced' | 'waits_for_turn' | 'to_price_again' | 'closed'

export function switchQuestionState(question: SwitchQuestion, running: boolean, conversationAt: string, model: string): SwitchQuestionState {
  if (question.from !== model) return 'closed'
  if (running) return 'waits_for_turn'
  return question.pricedAt === conversationAt ? 'priced' : 'to_price_again'
}

/** The conversation's point a price is for: its last entry. */
export function conversationPoint(entries: ReadonlyArray<{ readonly id: string }>): string {
  return entries.at(-1)?.id ?? ''
}
