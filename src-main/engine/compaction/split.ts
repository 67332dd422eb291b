/**
 * Where a compaction cuts the history: everything before the split is trimmed (stage 1) or summarised (stage 2),
 * everything from it on is kept whole. The kept part starts with an assistant message, so the summary (a user
 * message) can go first and roles still alternate; since a tool_result always follows its tool_use in the next
 * message, no kept tool_use loses its result and no kept result loses its call (docs/compaction.md
 * "Stage 1, no model call").
 */
import type { HistoryMessage } from '../prompt/input'

export type UptoTarget = { readonly kind: 'entry'; readonly entryId: string } | { readonly kind: 'tool_use'; readonly toolUseId: string }

export type Split =
  | {
      readonly ok: true
      /** Index in the history of the first kept message (an assistant message). */
      readonly index: number
      /** Assistant messages in the history, in all. */
      readonly assistantTurns: number
      /** The target named by `upto` left nothing to keep, so the last step is kept anyway. */
      readonly clamped: boolean
    }
  | { readonly ok: false; readonly code: 'nothing_to_compact' | 'unknown_target'; readonly reason: string }

function assistantIndices(history: ReadonlyArray<HistoryMessage>): number[] {
  const out: number[] = []
  history.forEach((m, i) => {
    if (i > 0 && m.message.role === 'assistant') out.push(i)
  })
  return out
}

/** The message that holds `target`: the entry itself, or for a tool call the message with its result. */
function targetIndex(history: ReadonlyArray<HistoryMessage>, target: UptoTarget): number {
  if (target.kind === 'entry') return history.findIndex((m) => m.provenance.entryIds.includes(target.entryId))
  const result = history.findIndex((m) => m.message.role === 'user' && m.message.content.some((b) => b.type === 'tool_result' && b.tool_use_id === target.toolUseId))
  if (result >= 0) return result
  return history.findIndex((m) => m.message.role === 'assistant' && m.message.content.some((b) => b.type === 'tool_use' && b.id === target.toolUseId))
}

export function findSplit(history: ReadonlyArray<HistoryMessage>, keepSteps: number, upto: UptoTarget | null): Split {
  const turns = assistantIndices(history)
  if (upto === null) {
    if (turns.length <= keepSteps) {
      return {
        ok: false,
        code: 'nothing_to_compact',
        // Not "since the last checkpoint": a session never compacted has none. The number kept is a setting, named.
        reason: `Nothing to compact: the conversation has ${turns.length} assistant turn${turns.length === 1 ? '' : 's'} not yet compacted, and the last ${keepSteps === 1 ? 'one is' : `${keepSteps} are`} kept whole ("Steps kept whole" in Settings).`,
      }
    }
    return { ok: true, index: turns[turns.length - keepSteps]!, assistantTurns: turns.length, clamped: false }
  }
  const at = targetIndex(history, upto)
  if (at < 0) {
    const what = upto.kind === 'entry' ? `entry ${upto.entryId}` : `tool call ${upto.toolUseId}`
    return { ok: false, code: 'unknown_target', reason: `Cannot compact up to ${what}: the model no longer sees it (it is behind a checkpoint) or it does not exist.` }
  }
  const next = turns.find((i) => i > at)
  if (next !== undefined) return { ok: true, index: next, assistantTurns: turns.length, clamped: false }
  const last = turns.at(-1)
  if (last === undefined) {
    return { ok: false, code: 'nothing_to_compact', reason: 'Nothing to compact: the model has not answered since the last checkpoint.' }
  }
  return { ok: true, index: last, assistantTurns: turns.length, clamped: true }
}
