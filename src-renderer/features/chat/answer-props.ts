/**
 * When an answer in the chat draws again. The conversation hands every answer the session's tool results, the calls
 * running and whether a turn runs; all three are new objects whenever an entry arrives (a tool's result, a page of
 * earlier entries). Compared whole, they drew every answer shown again at each entry, thousands of them in a long
 * session. An answer depends on them only through its own calls.
 */
import type { EntryView } from '../../../src-preload/contract'

export interface AnswerProps {
  readonly entry: EntryView
  readonly selected: boolean
  readonly onSelectPass: (passId: string) => void
  readonly author: string
  readonly results: ReadonlyMap<string, EntryView>
  readonly runningTools: ReadonlyArray<string>
  /** Whether the page knows of a turn running in this session (ToolCall: a call without a result waits only then). */
  readonly turnRunning: boolean
  readonly recorded: boolean
  /** The conversation's one Tab stop among the answers; the others, and what is inside them, are reached by Up/Down. */
  readonly tabStop: boolean
}

/** The ids of the tool calls an answer makes. */
function callIds(entry: EntryView): string[] {
  const content = entry.content
  if (!Array.isArray(content)) return []
  const ids: string[] = []
  for (const block of content as Array<{ type?: unknown; id?: unknown }>) if (block?.type === 'tool_use' && typeof block.id === 'string') ids.push(block.id)
  return ids
}

/** Whether an answer would draw the same with `next` as with `prev` (React.memo's comparison). */
export function answerDrawsSame(prev: AnswerProps, next: AnswerProps): boolean {
  if (prev.entry !== next.entry || prev.selected !== next.selected || prev.onSelectPass !== next.onSelectPass || prev.author !== next.author || prev.recorded !== next.recorded || prev.tabStop !== next.tabStop) return false
  for (const id of callIds(next.entry)) {
    const result = next.results.get(id)
    if (prev.results.get(id) !== result) return false
    if (prev.runningTools.includes(id) !== next.runningTools.includes(id)) return false
    // A call with no result shows as waiting only while a turn runs.
    if (result === undefined && prev.turnRunning !== next.turnRunning) return false
  }
  return true
}
