import type { EntryView } from '../../../src-preload/contract'
import { isReadOnlyAccess, toolAccessOf } from '../../../src-preload/tool-access'
import { oneLine } from '../../ui/format'

/**
 * A message taken back (decision 0024) as the chat shows it: the message and its turn folded under the take-back,
 * which says what the model no longer sees. The rules mirror src-main/engine/conversation/take-back.ts, read from the
 * entries the chat has (the renderer does not import the main process's code).
 */

/** The `source` of a take-back's context edit. */
export const TAKE_BACK_SOURCE = 'take-back'

/** Entries of a turn, folded with its message; a switch of mode or model, a notice or a pin stays in the open. */
const TURN_KINDS = new Set(['user_message', 'assistant_message', 'tool_result', 'approval', 'todo_updated', 'memory_saved', 'turn_failed', 'turn_ended', 'context_edit'])

export const isTakeBack = (e: EntryView): boolean => e.kind === 'context_edit' && e.source === TAKE_BACK_SOURCE

export interface TakeBacks {
  /** Entries shown inside a take-back, not in the conversation's own flow. */
  readonly folded: ReadonlySet<string>
  /** Take-back entry id → the entries it folds, in order (an earlier take-back among them folds its own). */
  readonly under: ReadonlyMap<string, ReadonlyArray<EntryView>>
}

export function takeBacks(entries: ReadonlyArray<EntryView>): TakeBacks {
  const folded = new Set<string>()
  const under = new Map<string, EntryView[]>()
  const bySeq = new Map(entries.map((e) => [e.id, e.seq]))
  for (const t of entries) {
    if (!isTakeBack(t)) continue
    const first = (t.edits as Array<{ entryId?: unknown }> | undefined)?.[0]?.entryId
    const from = typeof first === 'string' ? bySeq.get(first) : undefined
    if (from === undefined) continue
    const mine = entries.filter((e) => e.seq >= from && e.seq < t.seq && !folded.has(e.id) && TURN_KINDS.has(e.kind))
    for (const e of mine) folded.add(e.id)
    under.set(t.id, mine)
  }
  return { folded, under }
}

/**
 * The messages a "Take back" is offered on, oldest first: every message the user sent that the model still sees, from
 * after the newest compaction on (a message a compaction folded in cannot be taken apart from its summary), and none a
 * continued session carried over from Claude Code's conversation (`carriedOver`: how many of its first entries, by
 * seq, came from there; the main process refuses those too). Taking an earlier one back takes the later ones with it.
 */
export function takeBackableMessages(entries: ReadonlyArray<EntryView>, folded: ReadonlySet<string>, carriedOver: number | null = null): EntryView[] {
  const afterCompaction = entries.findLastIndex((e) => e.kind === 'checkpoint') + 1
  return entries.slice(afterCompaction).filter((e) => e.kind === 'user_message' && !folded.has(e.id) && (carriedOver === null || e.seq > carriedOver))
}

/** The message the palette's "Take back the last message" goes on: the newest of those offered, or null. */
export function takeBackable(entries: ReadonlyArray<EntryView>, folded: ReadonlySet<string>, carriedOver: number | null = null): EntryView | null {
  const last = entries.findLast((e) => e.kind === 'user_message' && !folded.has(e.id))
  if (last === undefined) return null
  return takeBackableMessages(entries, folded, carriedOver).at(-1)?.id === last.id ? last : null
}

/**
 * How many of the user's messages a take-back from `message` takes: it and the later ones offered. Taking back the
 * newest is one; an earlier one says how many go with it before it is done.
 */
export function messagesTakenFrom(offered: ReadonlyArray<EntryView>, message: EntryView): number {
  const at = offered.findIndex((e) => e.id === message.id)
  return at < 0 ? 0 : offered.length - at
}

/**
 * Whether a recorded call of this tool can have left something changed behind (a file edited or written, a command
 * run, a fact saved to memory): its access is not read-only. Of a tool this build does not know (an imported
 * session's) nothing is said either way.
 */
function canChange(toolName: unknown): boolean {
  const access = toolAccessOf(String(toolName))
  return access !== null && !isReadOnlyAccess(access)
}

/**
 * Whether a recorded call of this tool changed nothing on disk: it read the project or changed only the session's
 * plan. Not `compact`: a turn with a compaction in it cannot be taken back, and is never said to have only read.
 */
function onlyReads(toolName: unknown): boolean {
  const access = toolAccessOf(String(toolName))
  return access === 'read' || access === 'plan'
}

export interface TakeBackSummary {
  readonly message: string
  /** Messages the user sent after it that went back with it (a take-back from an earlier message). */
  readonly laterMessages: number
  readonly answers: number
  readonly toolCallsRan: number
  readonly toolCallsCut: number
  /** One of the calls that ran (or was stopped while it ran) could have changed something. */
  readonly changing: boolean
  /** Every call that ran (or was stopped while it ran) only read the project: nothing on disk to undo. */
  readonly onlyRead: boolean
}

/**
 * What a take-back's fold says of what it holds: the message's first line, and the tool calls it does not undo
 * (`changing`: whether one of them could have changed something, so that "files edited stay edited" is true to say;
 * `onlyRead`: whether every one only read, so that there is nothing on disk to undo).
 */
export function takeBackSummary(entries: ReadonlyArray<EntryView>): TakeBackSummary {
  const message = entries.find((e) => e.kind === 'user_message')
  const text = ((message?.content as Array<{ text?: string }> | undefined) ?? []).map((b) => b.text ?? '').join('\n')
  const firstLine = text.split('\n').find((l) => l.trim() !== '')?.trim() ?? ''
  // Stopped while they ran, calls may have done something before they were; refused or failed ones did nothing.
  const done = entries.filter((e) => e.kind === 'tool_result' && (e.outcome === 'ran' || e.outcome === 'interrupted'))
  return {
    message: oneLine(firstLine),
    laterMessages: Math.max(0, entries.filter((e) => e.kind === 'user_message').length - 1),
    answers: entries.filter((e) => e.kind === 'assistant_message').length,
    toolCallsRan: done.filter((e) => e.outcome === 'ran').length,
    toolCallsCut: done.filter((e) => e.outcome === 'interrupted').length,
    changing: done.some((e) => canChange(e.toolName)),
    onlyRead: done.length > 0 && done.every((e) => onlyReads(e.toolName)),
  }
}

/**
 * The line under a take-back's fold about what its tool calls did, or null when none ran. A turn that only read the
 * project says there is nothing on disk to undo: "not undone" would have the user look for a change that was never made.
 */
export function takeBackUndoneWords(summary: TakeBackSummary): string | null {
  const calls = summary.toolCallsRan + summary.toolCallsCut
  if (calls === 0) return null
  const callWords = calls === 1 ? 'tool call' : `${calls} tool calls`
  if (summary.onlyRead) return `${calls === 1 ? 'Its tool call' : `Its ${callWords}`} only read the project: there is nothing on disk to undo.`
  return `What its ${callWords} did${summary.toolCallsCut > 0 ? ', or had started to do when stopped,' : ''} is not undone${summary.changing ? ' (files edited stay edited)' : ''}.`
}

/** The message box after a take-back, and what the user had typed in it (kept through the next take-back). */
export interface BoxAfterTakeBack {
  readonly box: string
  readonly typed: string
}

/**
 * The message taken back goes into the box before what the user had typed there (kept, after a blank line). Taken
 * back again with the box as the last take-back left it, that message gives its place to this one: two old messages
 * run together would be sent as one.
 */
export function boxAfterTakeBack(now: string, taken: string, last: BoxAfterTakeBack | undefined): BoxAfterTakeBack {
  const typed = last !== undefined && now === last.box ? last.typed : now
  return { box: typed.trim() === '' ? taken : `${taken}\n\n${typed}`, typed }
}
