/**
 * From entries to the history the prompt builder sends. The API wants alternating user/assistant messages, every
 * `tool_use` answered by a `tool_result` at the start of the next user message; entries are a flat log, so
 * consecutive user-side entries are merged into one user message, tool results first.
 *
 * The history starts at the last checkpoint (checkpoint.ts): its head message, then the entries it keeps, with the
 * contents it replaced and without the entries it dropped; context edits after it apply the same way.
 *
 * The same entries always produce equal messages, and the builder memoises by identity, so a message object made
 * for an entry is kept (see HistoryCache) rather than rebuilt every pass.
 */
import type { HistoryMessage } from '../prompt/input'
import type { ContextNote } from '../prompt/notes'
import type { AssistantContentBlock, TextBlock, ToolResultBlock, UserContentBlock, WireMessage } from '../model/wire'
import { isBlankText } from '../model/wire'
import type { Entry } from './entries'
import type { ModelService } from '../ports'
import type { CheckpointBody } from './checkpoint'

/** Text sent for a tool call that never got its result (the run was stopped or the app was killed). */
export const INTERRUPTED_RESULT = 'The run was interrupted before this tool finished; it may or may not have taken effect.'

interface Group {
  readonly role: 'user' | 'assistant'
  readonly entries: Entry[]
}

export type CheckpointEntry = Entry & CheckpointBody

/** What the model sees of a session: the last checkpoint's view plus the context edits after it. */
export interface ModelView {
  readonly checkpoint: CheckpointEntry | null
  /** The entries from the view's start on (every kind, in order), without dropped ones. */
  readonly entries: ReadonlyArray<Entry>
  /** Entry id → the content the model sees instead, and the entry (checkpoint or context edit) that set it. */
  readonly replaced: ReadonlyMap<string, { readonly content: string; readonly by: string }>
  readonly dropped: ReadonlySet<string>
}

export function lastCheckpoint(entries: ReadonlyArray<Entry>): CheckpointEntry | null {
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i]!
    if (e.kind === 'checkpoint') return e
  }
  return null
}

export function modelView(entries: ReadonlyArray<Entry>): ModelView {
  let at = -1
  for (let i = entries.length - 1; i >= 0; i--) {
    if (entries[i]!.kind === 'checkpoint') {
      at = i
      break
    }
  }
  const checkpoint = at >= 0 ? (entries[at] as CheckpointEntry) : null
  const replaced = new Map<string, { content: string; by: string }>()
  const dropped = new Set<string>()
  let start = 0
  if (checkpoint !== null) {
    const view = checkpoint.view
    const found = view.startEntryId === null ? -1 : entries.findIndex((e) => e.id === view.startEntryId)
    start = found >= 0 ? found : at + 1
    for (const r of view.replaced) replaced.set(r.entryId, { content: r.content, by: checkpoint.id })
    for (const d of view.dropped) dropped.add(d)
  }
  for (let i = at + 1; i < entries.length; i++) {
    const e = entries[i]!
    if (e.kind !== 'context_edit') continue
    for (const edit of e.edits) {
      if (edit.action === 'drop') dropped.add(edit.entryId)
      else if (edit.content !== undefined) replaced.set(edit.entryId, { content: edit.content, by: e.id })
    }
  }
  const visible = entries.slice(start).filter((e) => !dropped.has(e.id))
  return { checkpoint, entries: visible, replaced, dropped }
}

/** The entry as the model sees it: with the content a checkpoint or a context edit put in its place. */
function shown(entry: Entry, view: ModelView): Entry {
  const r = view.replaced.get(entry.id)
  if (r === undefined) return entry
  switch (entry.kind) {
    case 'tool_result':
      return { ...entry, content: r.content }
    case 'user_message':
      return { ...entry, content: [{ type: 'text', text: r.content }] }
    case 'assistant_message':
      return { ...entry, content: [{ type: 'text', text: r.content }] }
    default:
      return entry
  }
}

function groupEntries(entries: ReadonlyArray<Entry>): Group[] {
  const groups: Group[] = []
  const sent = entries.filter((e) => e.kind === 'user_message' || e.kind === 'tool_result' || e.kind === 'assistant_message')
  for (const [i, entry] of sent.entries()) {
    // What a failed pass streamed before it broke is kept (shown in the chat) but sent only once something of the
    // user's follows it. Last, it would end the request with an assistant message: a prefill, which the service
    // refuses on newer models and, on older ones, takes as the start of the answer to write. Followed by the answer
    // of the retry that replaced it, it would be merged into that answer, saying its first part twice.
    if (entry.kind === 'assistant_message' && entry.partial) {
      const next = sent[i + 1]
      if (next === undefined || next.kind === 'assistant_message') continue
    }
    let role: 'user' | 'assistant' | null
    switch (entry.kind) {
      case 'user_message':
      case 'tool_result':
        role = 'user'
        break
      case 'assistant_message':
        role = 'assistant'
        break
      default:
        role = null // notes, approvals, turn markers: not sent (their effect is in other entries)
    }
    if (!role) continue
    const last = groups.at(-1)
    // Two assistant messages in a row stay separate groups only if something user-side lies between; otherwise they
    // are merged, which the API accepts as one assistant message.
    if (last && last.role === role) last.entries.push(entry)
    else groups.push({ role, entries: [entry] })
  }
  return groups
}

function userMessage(group: Group): HistoryMessage {
  const results: ToolResultBlock[] = []
  const rest: UserContentBlock[] = []
  const notes: ContextNote[] = []
  for (const e of group.entries) {
    if (e.kind === 'tool_result') {
      results.push({ type: 'tool_result', tool_use_id: e.toolUseId, content: e.content, ...(e.isError ? { is_error: true } : {}) })
    } else if (e.kind === 'user_message') {
      rest.push(...e.content)
    }
    if ((e.kind === 'user_message' || e.kind === 'tool_result') && e.notes) notes.push(...e.notes)
  }
  const kind = rest.length === 0 ? 'tool_results' : 'user_input'
  const message: WireMessage = { role: 'user', content: [...results, ...rest] }
  return { message, provenance: { entryIds: group.entries.map((e) => e.id), kind }, ...(notes.length ? { notes } : {}) }
}

/** Whether `entry` is an answer another service wrote, with thinking blocks that `service` would refuse. */
function foreignThinking(entry: Entry, service: ModelService | null): boolean {
  return (
    service !== null &&
    entry.kind === 'assistant_message' &&
    entry.service !== undefined &&
    entry.service !== service &&
    entry.content.some((b) => b.type === 'thinking' || b.type === 'redacted_thinking')
  )
}

function assistantMessage(group: Group, service: ModelService | null): HistoryMessage {
  const content: AssistantContentBlock[] = []
  for (const e of group.entries) {
    if (e.kind !== 'assistant_message') continue
    // A thinking block's signature is the service's that wrote it: the simulator's are refused by the API and the
    // API's by the simulator ("Invalid `signature`"), on this pass and every later one. An answer the other service
    // wrote goes without them, as earlier answers may (the model reads the answer, not how it got there).
    const bare = foreignThinking(e, service)
    for (const block of e.content) {
      if (bare && (block.type === 'thinking' || block.type === 'redacted_thinking')) continue
      // The API refuses a text block that is empty (a cut stream can leave one) or only spaces and line breaks (a
      // model may answer "\n\n" before a tool call): sent back, it would fail this pass and every later one.
      if (block.type === 'text' && isBlankText(block.text)) continue
      content.push(block)
    }
  }
  if (content.length === 0) content.push({ type: 'text', text: '(no answer)' })
  return { message: { role: 'assistant', content }, provenance: { entryIds: group.entries.map((e) => e.id), kind: 'assistant' } }
}

/**
 * Every tool_use in `entries` that has no tool_result entry. After a crash or a cancel these get an
 * "interrupted" result (written as entries by the loop) so the session stays valid for the API.
 */
export function unansweredToolUses(entries: ReadonlyArray<Entry>): Array<{ id: string; name: string }> {
  const answered = new Set<string>()
  for (const e of entries) if (e.kind === 'tool_result') answered.add(e.toolUseId)
  const open: Array<{ id: string; name: string }> = []
  for (const e of entries) {
    if (e.kind !== 'assistant_message') continue
    for (const b of e.content) if (b.type === 'tool_use' && !answered.has(b.id)) open.push({ id: b.id, name: b.name })
  }
  return open
}

/**
 * Keeps the HistoryMessage made for each group of entries, keyed by the group's entry ids, so unchanged groups
 * keep their object identity from pass to pass (the builder's render memo relies on it). A group that grows (a
 * new tool result joins the last user message) gets a new object.
 */
export class HistoryCache {
  private readonly byKey = new Map<string, HistoryMessage>()

  /**
   * `service`: the service the history is for, read on every build (the user may add or forget a key between two
   * passes): answers another service wrote go to it without their thinking blocks. Without it, answers go as written
   * (a history read for its structure, not sent).
   */
  constructor(private readonly service: () => ModelService | null = () => null) {}

  toHistory(entries: ReadonlyArray<Entry>): HistoryMessage[] {
    return this.fromView(modelView(entries))
  }

  fromView(view: ModelView): HistoryMessage[] {
    const out: HistoryMessage[] = []
    const live = new Set<string>()
    const service = this.service()
    const groups = groupEntries(view.entries.map((e) => shown(e, view)))
    const head = view.checkpoint?.view.head ?? null
    let headKey: string | null = null
    if (head !== null && view.checkpoint !== null) headKey = `head:${view.checkpoint.id}`
    groups.forEach((group, i) => {
      // A replaced entry's bytes depend on what replaced it; the key names that entry so it is never stale.
      const by = group.entries.map((e) => view.replaced.get(e.id)?.by ?? '').join(',')
      // An answer sent without its thinking is other bytes than the same answer sent whole.
      const bare = group.role === 'assistant' && group.entries.some((e) => foreignThinking(e, service)) ? `|bare for ${service}` : ''
      let key = `${group.role}:${group.entries.map((e) => e.id).join(',')}|${by}${bare}`
      const mergeHead = i === 0 && headKey !== null && group.role === 'user'
      if (mergeHead) key = `${headKey}+${key}`
      live.add(key)
      let message = this.byKey.get(key)
      if (!message) {
        message = group.role === 'user' ? userMessage(group) : assistantMessage(group, service)
        if (mergeHead) message = withHead(message, head!, view.checkpoint!.id)
        this.byKey.set(key, message)
      }
      if (i === 0 && headKey !== null && !mergeHead) out.push(this.headMessage(headKey, head!, view.checkpoint!.id, live))
      out.push(message)
    })
    if (groups.length === 0 && headKey !== null) out.push(this.headMessage(headKey, head!, view.checkpoint!.id, live))
    for (const key of this.byKey.keys()) if (!live.has(key)) this.byKey.delete(key)
    return out
  }

  private headMessage(key: string, head: ReadonlyArray<TextBlock>, checkpointId: string, live: Set<string>): HistoryMessage {
    live.add(key)
    let message = this.byKey.get(key)
    if (!message) {
      message = { message: { role: 'user', content: head }, provenance: { entryIds: [checkpointId], kind: 'compaction_summary' } }
      this.byKey.set(key, message)
    }
    return message
  }
}

/** A user message that follows the head directly is sent as one message with it (the API wants alternation). */
function withHead(message: HistoryMessage, head: ReadonlyArray<TextBlock>, checkpointId: string): HistoryMessage {
  const content = message.message.content as ReadonlyArray<UserContentBlock>
  const results = content.filter((b) => b.type === 'tool_result')
  const rest = content.filter((b) => b.type !== 'tool_result')
  return {
    ...message,
    message: { role: 'user', content: [...results, ...head, ...rest] },
    provenance: { entryIds: [checkpointId, ...message.provenance.entryIds], kind: 'compaction_summary' },
  }
}

export function toHistory(entries: ReadonlyArray<Entry>): HistoryMessage[] {
  return new HistoryCache().toHistory(entries)
}
