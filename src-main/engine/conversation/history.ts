/**
 * From entries to the history the prompt builder sends. The API wants alternating user/assistant messages, every
 * `tool_use` answered by a `tool_result` at the start of the next user message; entries are a flat log, so
 * consecutive user-side entries are merged into one user message, tool results first.
 *
 * The same entries always produce equal messages, and the builder memoises by identity, so a message object made
 * for an entry is kept (see HistoryCache) rather than rebuilt every pass.
 */
import type { HistoryMessage } from '../prompt/input'
import type { ContextNote } from '../prompt/notes'
import type { AssistantContentBlock, ToolResultBlock, UserContentBlock, WireMessage } from '../model/wire'
import type { Entry } from './entries'

/** Text sent for a tool call that never got its result (the run was stopped or the app was killed). */
export const INTERRUPTED_RESULT = 'The run was interrupted before this tool finished; it may or may not have taken effect.'

interface Group {
  readonly role: 'user' | 'assistant'
  readonly entries: Entry[]
}

function groupEntries(entries: ReadonlyArray<Entry>): Group[] {
  const groups: Group[] = []
  for (const entry of entries) {
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
    // Two assistant messages in a row (a failed pass, then a retry) stay separate groups only if something user-side
    // lies between; otherwise they are merged, which the API accepts as one assistant message.
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

function assistantMessage(group: Group): HistoryMessage {
  const content: AssistantContentBlock[] = []
  for (const e of group.entries) {
    if (e.kind !== 'assistant_message') continue
    for (const block of e.content) {
      // An empty text block is rejected by the API; a cut stream can leave one.
      if (block.type === 'text' && block.text.length === 0) continue
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

  toHistory(entries: ReadonlyArray<Entry>): HistoryMessage[] {
    const out: HistoryMessage[] = []
    const live = new Set<string>()
    for (const group of groupEntries(entries)) {
      const key = `${group.role}:${group.entries.map((e) => e.id).join(',')}`
      live.add(key)
      let message = this.byKey.get(key)
      if (!message) {
        message = group.role === 'user' ? userMessage(group) : assistantMessage(group)
        this.byKey.set(key, message)
      }
      out.push(message)
    }
    for (const key of this.byKey.keys()) if (!live.has(key)) this.byKey.delete(key)
    return out
  }
}

export function toHistory(entries: ReadonlyArray<Entry>): HistoryMessage[] {
  return new HistoryCache().toHistory(entries)
}
