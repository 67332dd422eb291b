/**
 * What the builder keeps between passes of one session, so a pass costs what is new: the planned messages of the
 * last pass and the running token total, keyed by the session's first history message. A pass whose history
 * starts with the same objects reuses them; the rest are planned (and remembered by messages.ts) as they come.
 */
import type { HistoryMessage } from './input'
import type { PlannedMessage } from './plan'
import type { FrozenSessionContext } from './session-context'
import { planMessage } from './messages'

interface State {
  readonly context: FrozenSessionContext
  readonly history: HistoryMessage[]
  readonly planned: PlannedMessage[]
  /** tokens[i] is the sum of planned[0..i-1].tokens. */
  readonly tokens: number[]
}

const states = new WeakMap<HistoryMessage, State>()

export interface PlannedHistory {
  /** A fresh array the caller may change. */
  readonly messages: PlannedMessage[]
  readonly tokens: number
  /** Messages before this index were planned in an earlier pass (and checked then). */
  readonly reused: number
}

export function planHistory(history: ReadonlyArray<HistoryMessage>, context: FrozenSessionContext): PlannedHistory {
  const first = history[0]!
  let state = states.get(first)
  if (state === undefined || state.context !== context) {
    state = { context, history: [], planned: [], tokens: [0] }
    states.set(first, state)
  }
  let same = 0
  const limit = Math.min(state.history.length, history.length)
  while (same < limit && state.history[same] === history[same]) same++
  state.history.length = same
  state.planned.length = same
  state.tokens.length = same + 1
  for (let i = same; i < history.length; i++) {
    const planned = planMessage(history[i]!, i === 0 ? context : null)
    state.history.push(history[i]!)
    state.planned.push(planned)
    state.tokens.push(state.tokens[i]! + planned.tokens)
  }
  return { messages: state.planned.slice(), tokens: state.tokens[history.length]!, reused: same }
}
