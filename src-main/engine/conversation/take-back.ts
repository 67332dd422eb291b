/**
 * Taking a sent message back (decision 0024): a message the user sent, and everything after it that the model sees (the
 * answers to it, and any later messages with theirs), leave what the model sees, and its text goes back to the message
 * box to be changed and sent again.
 *
 * Nothing is deleted: entries are append-only (entries.ts). A take-back is a context edit (checkpoint.ts) whose
 * `source` is TAKE_BACK_SOURCE and which drops the message and every entry after it that the model sees (answers,
 * tool results). The chat keeps showing them, folded under the take-back; the passes that sent them stay in the
 * inspector. What the tools did (files edited, commands run) is not undone.
 */
import type { ContextNote } from '../prompt/notes'
import type { ContextEditRecord } from './checkpoint'
import type { Entry } from './entries'
import { modelView } from './history'

/** The `source` of a take-back's context edit. */
export const TAKE_BACK_SOURCE = 'take-back'

export type TakeBackPlan =
  | {
      readonly ok: true
      /** The text of the message taken back, for the message box. */
      readonly text: string
      readonly edits: ReadonlyArray<ContextEditRecord>
      /**
       * Notes the dropped entries carried (a file changed on disk, a nested AGENTS.md, a saved fact): the model has not
       * seen them now, so they travel with the next message.
       */
      readonly notes: ReadonlyArray<ContextNote>
      /** The tool calls among the dropped answers (a compaction one of them asked for is dropped with it). */
      readonly toolUseIds: ReadonlyArray<string>
      /** How many messages the user sent go back: this one and those sent after it. */
      readonly messages: number
    }
  | { readonly ok: false; readonly reason: 'not_found' | 'not_a_message' | 'carried_over' | 'taken_back' | 'compacted'; readonly message: string }

/**
 * What taking `entryId` back would drop: the message and every entry after it that the model sees. The newest message
 * the user sent goes back with its turn; an earlier one takes the later messages and their turns with it (the
 * conversation goes back to before it, as a peer agent's rewind does). Only while the model still sees it as sent: a
 * compaction after it has folded it into a summary (or kept it beside one), and the summary cannot be taken apart.
 *
 * `carriedOver`: how many of the session's first entries (by seq) it brought from a conversation it continues
 * (Claude Code's). Their messages were not sent in this session: some are not the user's words at all ("[Request
 * interrupted by user]" is Claude Code's marker), and taking one back would fold the point where this session took
 * over. They are never taken back; taking back stops at the first message sent here.
 */
export function planTakeBack(entries: ReadonlyArray<Entry>, entryId: string, carriedOver = 0): TakeBackPlan {
  const at = entries.findIndex((e) => e.id === entryId)
  const entry = entries[at]
  if (entry === undefined) return { ok: false, reason: 'not_found', message: `No entry ${entryId} in this session` }
  if (entry.kind !== 'user_message') return { ok: false, reason: 'not_a_message', message: 'Only a message you sent can be taken back' }
  if (entry.seq <= carriedOver) {
    return { ok: false, reason: 'carried_over', message: 'This message came with the Claude Code conversation this session continues: only a message sent in Loupe can be taken back' }
  }
  const after = entries.slice(at + 1)
  if (after.some((e) => e.kind === 'checkpoint')) {
    return { ok: false, reason: 'compacted', message: 'This message was compacted after it was sent (it is in the summary or kept beside it), so it cannot be taken back' }
  }
  const seen = new Set<string>(modelView(entries).entries.map((e) => e.id))
  if (!seen.has(entryId)) return { ok: false, reason: 'taken_back', message: 'This message was already taken back' }
  // A later message already taken back is not dropped twice: only what the model still sees goes.
  const dropped = [entry, ...after].filter((e) => seen.has(e.id) && (e.kind === 'user_message' || e.kind === 'assistant_message' || e.kind === 'tool_result'))
  const messages = dropped.filter((e) => e.kind === 'user_message').length
  const notes = dropped.flatMap((e) => (e.kind === 'user_message' || e.kind === 'tool_result' ? (e.notes ?? []) : []))
  return {
    ok: true,
    text: entry.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n'),
    edits: dropped.map((e) => ({ entryId: e.id, action: 'drop' as const, reason: dropReason(e, entryId) })),
    notes,
    toolUseIds: dropped.flatMap((e) => (e.kind === 'assistant_message' ? e.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : [])) : [])),
    messages,
  }
}

/** Why a take-back drops an entry, as the context edit records it (the inspector's Diff shows it). */
function dropReason(e: Entry, takenId: string): string {
  if (e.id === takenId) return 'taken back by the user'
  if (e.kind === 'user_message') return 'sent after a message taken back'
  return 'an answer to a message taken back'
}

/** The newest take-back in `entries`, or -1: a failure before it has nothing left to retry. */
export function lastTakeBackIndex(entries: ReadonlyArray<Entry>): number {
  return entries.findLastIndex((e) => e.kind === 'context_edit' && e.source === TAKE_BACK_SOURCE)
}

/**
 * Notes carried over from a take-back, joined with the next message's own: a file noted as changed twice is said
 * once, as it is now (the newer note wins).
 */
export function withCarriedNotes(carried: ReadonlyArray<ContextNote>, fresh: ReadonlyArray<ContextNote>): ContextNote[] {
  const changedNow = new Set(fresh.flatMap((n) => (n.kind === 'file_changed' ? [n.path] : [])))
  return [...carried.filter((n) => !(n.kind === 'file_changed' && changedNow.has(n.path))), ...fresh]
}

/** Whether any message the user sent is still in the conversation (not taken back): the first one names a session. */
export function keptUserMessage(entries: ReadonlyArray<Entry>): boolean {
  const taken = new Set<string>()
  for (const e of entries) if (e.kind === 'context_edit' && e.source === TAKE_BACK_SOURCE) for (const d of e.edits) taken.add(d.entryId)
  return entries.some((e) => e.kind === 'user_message' && !taken.has(e.id))
}
