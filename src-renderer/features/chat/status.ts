import type { SessionChat } from '../../state/chat'
import type { ConversationSource } from './origin'
import { TAKE_BACK_SOURCE } from './take-back'

/**
 * What a screen reader hears of the conversation: a turn started, an approval asked for, the answer in, the turn
 * stopped, a compaction done or cancelled, a message taken back. Only of Loupe's own turns: nothing of an imported or
 * captured session, nor of the turns a continued one brought along (`inherited`: how many of its first entries, by
 * seq, came from there).
 */
export function chatStatus(chat: Pick<SessionChat, 'loaded' | 'approvals' | 'running' | 'entries'>, source: ConversationSource, inherited: number | null): string {
  if (!chat.loaded || source !== 'loupe') return ''
  if (chat.approvals.length > 0) return `Approval needed: ${chat.approvals[0]!.request.summary}`
  if (chat.running) return 'The agent is working.'
  const last = chat.entries.findLast(
    (e) =>
      e.kind === 'assistant_message' ||
      e.kind === 'turn_failed' ||
      e.kind === 'user_message' ||
      e.kind === 'turn_ended' ||
      e.kind === 'checkpoint' ||
      (e.kind === 'notice' && e.source === 'compaction') ||
      (e.kind === 'context_edit' && e.source === TAKE_BACK_SOURCE),
  )
  if (last === undefined || (inherited !== null && last.seq <= inherited)) return ''
  switch (last.kind) {
    // What ended last was not an answer: a compaction, one cancelled or given up, a message taken back.
    case 'checkpoint':
      return 'Compacted: the conversation goes on from its summary.'
    case 'notice':
      return typeof last.text === 'string' ? last.text : ''
    case 'context_edit':
      return 'Taken back: the message and its answers no longer reach the model.'
    case 'turn_ended':
      // What the chat's own note says of a turn stopped; a turn that ended on its own was said by its answer.
      if (last.reason === 'cancelled') return 'Stopped.'
      if (last.reason === 'pass_limit') return 'Stopped after the per-turn pass limit.'
      if (last.reason === 'max_tokens') return 'The answer reached the output limit and was cut off.'
      if (last.reason === 'context_window') return "The answer was cut off: the conversation filled the model's context window."
      if (last.reason === 'refusal') return 'The model declined to answer.'
      return chatStatus({ ...chat, entries: chat.entries.filter((e) => e.seq < last.seq && e.kind !== 'turn_ended') }, source, inherited)
    case 'assistant_message':
      return 'The agent answered.'
    case 'turn_failed':
      return 'The turn failed.'
    default:
      return ''
  }
}
