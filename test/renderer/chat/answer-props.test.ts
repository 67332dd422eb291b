/** When an answer in the chat draws again: only for what it shows, not for every entry of the session. */
import { describe, expect, it } from 'vitest'
import type { EntryView } from '../../../src-preload/contract'
import { answerDrawsSame, type AnswerProps } from '../../../src-renderer/features/chat/answer-props'

const entry = (id: string, kind: string, extra: Record<string, unknown> = {}): EntryView => ({ id, sessionId: 's', seq: 1, at: 1, kind, ...extra }) as unknown as EntryView
const answer = entry('a1', 'assistant_message', { passId: 'p1', content: [{ type: 'text', text: 'Reading it.' }, { type: 'tool_use', id: 'tu1', name: 'read_file', input: { path: 'a.md' } }] })
const ownResult = entry('r1', 'tool_result', { toolUseId: 'tu1' })
const otherResult = entry('r2', 'tool_result', { toolUseId: 'tu2' })
const select = (): void => {}
const props = (over: Partial<AnswerProps> = {}): AnswerProps => ({
  entry: answer,
  selected: false,
  onSelectPass: select,
  author: 'Loupe',
  results: new Map([['tu1', ownResult]]),
  runningTools: [],
  turnRunning: false,
  recorded: false,
  tabStop: false,
  ...over,
})

describe('an answer in the chat', () => {
  it('does not draw again for a new results map, running list or turn state that change nothing of its own calls', () => {
    // What the conversation hands every answer when another call's result arrives, or a page of earlier entries.
    const after = props({ results: new Map([['tu1', ownResult], ['tu2', otherResult]]), runningTools: ['tu3'], turnRunning: true })
    expect(answerDrawsSame(props(), after)).toBe(true)
  })

  it('draws again when its own call gets a result, starts or stops running', () => {
    const waiting = props({ results: new Map(), turnRunning: true })
    expect(answerDrawsSame(waiting, props({ turnRunning: true }))).toBe(false)
    expect(answerDrawsSame(waiting, props({ results: new Map(), turnRunning: true, runningTools: ['tu1'] }))).toBe(false)
  })

  it('draws again when a turn starts or ends while one of its calls has no result (it shows as waiting only during a turn)', () => {
    expect(answerDrawsSame(props({ results: new Map(), turnRunning: true }), props({ results: new Map(), turnRunning: false }))).toBe(false)
  })

  it('draws again for a change of its own: the entry, being chosen, the author or the Tab stop', () => {
    expect(answerDrawsSame(props(), props({ selected: true }))).toBe(false)
    expect(answerDrawsSame(props(), props({ tabStop: true }))).toBe(false)
    expect(answerDrawsSame(props(), props({ author: 'Claude Code' }))).toBe(false)
    expect(answerDrawsSame(props(), props({ entry: { ...answer } as EntryView }))).toBe(false)
  })

  it('takes an answer with no calls, or content that is not a list, as depending on none', () => {
    const text = entry('a2', 'assistant_message', { passId: 'p2', content: 'odd' })
    expect(answerDrawsSame(props({ entry: text }), props({ entry: text, results: new Map(), turnRunning: true }))).toBe(true)
  })
})
