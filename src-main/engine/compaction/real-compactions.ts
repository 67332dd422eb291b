/**
 * Another agent's conversation (a request reconstructed from a Claude Code transcript, src-main/engine/transcripts/)
 * as Loupe entries, so Loupe's compaction can be run on it and compared with the compaction that agent made
 * (docs/compaction.md "Real compactions, replayed"). Thinking blocks are left out: their signatures belong to the
 * service that wrote them and cannot be sent to another. Tool results keep their text; images become `[image]`.
 */
import type { Entry, EntryBody, EntryId, PassId } from '../conversation/entries'
import type { AssistantContentBlock, ImageBlock, TextBlock, WireMessage } from '../model/wire'

export function entriesFromMessages(messages: ReadonlyArray<WireMessage>, options: { readonly sessionId: string; readonly startAt: number; readonly stepMs: number }): Entry[] {
  const bodies: EntryBody[] = []
  const names = new Map<string, string>()
  let pass = 0
  for (const m of messages) {
    if (m.role === 'assistant') {
      const content: AssistantContentBlock[] = m.content.filter((b) => b.type === 'tool_use' || (b.type === 'text' && b.text.trim() !== ''))
      for (const b of content) if (b.type === 'tool_use') names.set(b.id, b.name)
      if (content.length === 0) content.push({ type: 'text', text: '(no answer)' })
      bodies.push({ kind: 'assistant_message', passId: `replay_${++pass}` as PassId, content, stopReason: content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn', partial: false })
      continue
    }
    const rest: Array<TextBlock | ImageBlock> = []
    for (const b of m.content) {
      if (b.type === 'tool_result') {
        const text = typeof b.content === 'string' ? b.content : b.content.map((c) => (c.type === 'text' ? c.text : '[image]')).join('\n')
        bodies.push({ kind: 'tool_result', toolUseId: b.tool_use_id, toolName: names.get(b.tool_use_id) ?? 'unknown', content: text, isError: b.is_error === true, outcome: 'ran' })
      } else if (b.type === 'image' || (b.type === 'text' && b.text.trim() !== '')) {
        rest.push(b)
      }
    }
    if (rest.length > 0) bodies.push({ kind: 'user_message', content: rest })
  }
  return bodies.map((body, i) => ({ ...body, id: `ent_replay_${i + 1}` as EntryId, sessionId: options.sessionId, seq: i + 1, at: options.startAt + i * options.stepMs }) as Entry)
}

const TAG = /<([a-zA-Z][\w-]*)[^>]*>[\s\S]*?<\/\1>/g

/**
 * The user's own words in a user message, as a reader of the conversation would quote them: tool results and the
 * app's tagged text (`<system-reminder>`, `<command-name>` …) are not requests; an interrupted-request marker is not.
 */
export function userRequests(entries: ReadonlyArray<Entry>): string[] {
  const out: string[] = []
  for (const e of entries) {
    if (e.kind !== 'user_message') continue
    const texts = e.content.flatMap((b) => (b.type === 'text' ? [b.text.replace(TAG, '').trim()] : [])).filter((t) => t !== '' && !/^\[Request interrupted/.test(t) && !/^\[[^\]\n]*\](?:\n|$)/.test(t))
    const last = texts.at(-1)
    if (last !== undefined) out.push(last)
  }
  return out
}

const EDIT_TOOLS: Readonly<Record<string, string>> = { Edit: 'file_path', MultiEdit: 'file_path', Write: 'file_path', NotebookEdit: 'notebook_path', edit_file: 'path', write_file: 'path' }

/** Every file path a tool call changed, in order of first change. */
export function editedPaths(entries: ReadonlyArray<Entry>): string[] {
  const out: string[] = []
  for (const e of entries) {
    if (e.kind !== 'assistant_message') continue
    for (const b of e.content) {
      if (b.type !== 'tool_use') continue
      const key = EDIT_TOOLS[b.name]
      const path = key === undefined ? undefined : (b.input as Record<string, unknown> | null)?.[key]
      if (typeof path === 'string' && !out.includes(path)) out.push(path)
    }
  }
  return out
}

function normal(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

/**
 * Which of `requests` and `paths` a summary keeps: a request counts when its first 80 characters appear (spacing
 * ignored), a path when it appears whole or relative to `root`.
 */
export function coverage(summary: string, requests: ReadonlyArray<string>, paths: ReadonlyArray<string>, root: string | null): { requests: { kept: number; total: number; missing: string[] }; paths: { kept: number; total: number; missing: string[] } } {
  const s = normal(summary)
  const missingRequests = requests.filter((r) => !s.includes(normal(r).slice(0, 80)))
  const rel = (p: string) => (root !== null && p.startsWith(`${root}/`) ? p.slice(root.length + 1) : p)
  const missingPaths = paths.filter((p) => !s.includes(p) && !s.includes(rel(p)))
  return {
    requests: { kept: requests.length - missingRequests.length, total: requests.length, missing: missingRequests },
    paths: { kept: paths.length - missingPaths.length, total: paths.length, missing: missingPaths },
  }
}
