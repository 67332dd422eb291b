/**
 * The history a pass sent, as text for a diff: one section per message with a header line naming its role, its
 * entries and what a compaction did to it (not its position, which a compaction shifts) (summarised, trimmed, the summary head). Built from a pass's exact request
 * body and the provenance of its message segments (`pass.get`), or — for a compaction whose first pass has not run
 * yet — from the checkpoint's head and the entries it keeps, as the next pass will send them.
 *
 * Pure: no DOM, no Monaco. The line ranges of marked messages come back with the text, for decorations.
 */
import { grouped } from '../../../ui/format'

export type Mark = 'summarised' | 'trimmed' | 'summary' | 'kept'

export interface HistoryMessageIn {
  readonly role: string
  readonly content: unknown
  readonly entryIds: ReadonlyArray<string>
  readonly kind: string | null
  /**
   * Blocks the prompt builder puts in front of the message's own (the frozen session context, in messages[0]): the
   * same at every pass of the session, before a compaction and after it, so never marked summarised or summary.
   */
  readonly preamble?: ReadonlyArray<unknown>
}

export interface MarkedRange {
  readonly startLine: number
  readonly endLine: number
  readonly mark: Mark
}

export interface HistoryText {
  readonly text: string
  readonly ranges: ReadonlyArray<MarkedRange>
}

/** A block longer than this is shown cut, with a line that says so: a diff of 100 kB tool results helps nobody. */
export const BLOCK_PREVIEW_CHARS = 4000

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

function cut(text: string): string {
  return text.length <= BLOCK_PREVIEW_CHARS ? text : `${text.slice(0, BLOCK_PREVIEW_CHARS)}\n… (${grouped(text.length - BLOCK_PREVIEW_CHARS)} more characters)`
}

function blockText(block: unknown): string {
  if (typeof block === 'string') return cut(block)
  if (!isRecord(block)) return String(block)
  switch (block.type) {
    case 'text':
      return cut(String(block.text ?? ''))
    case 'thinking':
      return `(thinking) ${cut(String(block.thinking ?? ''))}`
    case 'redacted_thinking':
      return '(redacted thinking)'
    case 'tool_use':
      return `→ tool_use ${String(block.name)} ${JSON.stringify(block.input ?? {})}`
    case 'tool_result': {
      const content = block.content
      const body = typeof content === 'string' ? content : Array.isArray(content) ? content.map(blockText).join('\n') : ''
      return `← tool_result${block.is_error === true ? ' (error)' : ''}\n${cut(body)}`
    }
    case 'image':
      return '(image)'
    default:
      return `(${String(block.type)})`
  }
}

/** Messages of a request body with the provenance of its `messages[i]` segments. */
export function messagesOfPass(requestBody: string, segments: ReadonlyArray<{ path: string; provenance: unknown }>): HistoryMessageIn[] {
  let body: unknown
  try {
    body = JSON.parse(requestBody)
  } catch {
    return []
  }
  const messages = isRecord(body) && Array.isArray(body.messages) ? body.messages : []
  const provenance = new Map<number, { entryIds: string[]; kind: string | null; preambleBlocks: number }>()
  for (const s of segments) {
    const m = /^messages\[(\d+)\]$/.exec(s.path)
    if (!m || !isRecord(s.provenance)) continue
    const p = s.provenance
    // The leading blocks that came from a section (the session context), not from the message's entries.
    const blocks = Array.isArray(p.blocks) ? p.blocks : []
    let preambleBlocks = 0
    while (preambleBlocks < blocks.length && isRecord(blocks[preambleBlocks]) && (blocks[preambleBlocks] as Record<string, unknown>).kind === 'section') preambleBlocks++
    provenance.set(Number(m[1]), {
      entryIds: Array.isArray(p.entryIds) ? p.entryIds.filter((x): x is string => typeof x === 'string') : [],
      kind: typeof p.historyKind === 'string' ? p.historyKind : null,
      preambleBlocks,
    })
  }
  return messages.map((m, i) => {
    const content = isRecord(m) ? m.content : m
    const lead = provenance.get(i)?.preambleBlocks ?? 0
    const split = lead > 0 && Array.isArray(content)
    return {
      role: isRecord(m) ? String(m.role) : 'user',
      content: split ? content.slice(lead) : content,
      entryIds: provenance.get(i)?.entryIds ?? [],
      kind: provenance.get(i)?.kind ?? null,
      ...(split ? { preamble: content.slice(0, lead) } : {}),
    }
  })
}

export interface RenderOptions {
  /** The mark of a message (or null for none), from its entries. */
  readonly markOf: (message: HistoryMessageIn, index: number) => Mark | null
  /** Entry id → its seq, for "entries #3–#5" in headers. */
  readonly seqOf?: (entryId: string) => number | undefined
}

const MARK_WORDS: Readonly<Record<Mark, string>> = {
  summarised: 'SUMMARISED',
  trimmed: 'TRIMMED',
  summary: 'SUMMARY HEAD',
  kept: 'kept',
}

/** The header of the session context's lines, which a compaction keeps as they were. */
export const SESSION_CONTEXT_HEADER = 'session context, sent at every pass, kept'

export function renderHistory(messages: ReadonlyArray<HistoryMessageIn>, options: RenderOptions): HistoryText {
  const lines: string[] = []
  const ranges: MarkedRange[] = []
  messages.forEach((message, i) => {
    const mark = options.markOf(message, i)
    const seqs = message.entryIds.map((id) => options.seqOf?.(id)).filter((x): x is number => x !== undefined)
    const entries = seqs.length === 0 ? '' : seqs.length === 1 ? ` · entry #${seqs[0]}` : ` · entries #${Math.min(...seqs)}–#${Math.max(...seqs)}`
    // The session context first, under its own header and never marked: the same text stands on both sides.
    if (message.preamble && message.preamble.length > 0) {
      lines.push(`── ${message.role} · ${SESSION_CONTEXT_HEADER} ──`)
      for (const block of message.preamble) lines.push(...blockText(block).split('\n'))
      lines.push('')
    }
    const start = lines.length + 1
    // No position (messages[i]) in the header: a compaction moves every kept message up, and a header that changed
    // with it made each kept message a changed line, so the diff could neither fold the kept tail away nor show it
    // as the same. The entries name the message on both sides.
    // A kind that only repeats the role (an assistant message's) is left out.
    const kind = message.kind && message.kind !== message.role ? ` · ${message.kind.replace(/_/g, ' ')}` : ''
    lines.push(`── ${message.role}${kind}${entries}${mark && mark !== 'kept' ? ` · ${MARK_WORDS[mark]}` : ''} ──`)
    const content = typeof message.content === 'string' ? [message.content] : Array.isArray(message.content) ? message.content : []
    for (const block of content) lines.push(...blockText(block).split('\n'))
    if (mark && mark !== 'kept') ranges.push({ startLine: start, endLine: lines.length, mark })
    lines.push('')
  })
  return { text: lines.join('\n'), ranges }
}

/** A loosely typed session entry, as the chat store keeps it. */
export interface EntryLike {
  readonly id: string
  readonly seq: number
  readonly kind: string
  readonly [key: string]: unknown
}

/**
 * The messages a checkpoint's view makes, before its first pass has run: the head, then the kept entries grouped
 * into alternating messages (tool results and user text merged into one user message), with replaced contents.
 * `preamble`: the session context the builder puts in front of messages[0], as a real pass of the session sent it
 * (it is frozen for the session's life, so the pass before the compaction has the very blocks the next one sends).
 */
export function messagesOfView(
  head: ReadonlyArray<{ text: string }> | null,
  kept: ReadonlyArray<EntryLike>,
  replaced: ReadonlyMap<string, string>,
  preamble: ReadonlyArray<unknown> = [],
): HistoryMessageIn[] {
  const out: HistoryMessageIn[] = []
  if (head) out.push({ role: 'user', content: head.map((b) => ({ type: 'text', text: b.text })), entryIds: [], kind: 'compaction_summary' })
  const push = (role: string, blocks: unknown[], entryId: string, kind: string) => {
    const last = out.at(-1)
    if (last && last.role === role && Array.isArray(last.content)) out[out.length - 1] = { ...last, content: [...last.content, ...blocks], entryIds: [...last.entryIds, entryId] }
    else out.push({ role, content: blocks, entryIds: [entryId], kind })
  }
  for (const e of kept) {
    if (e.kind === 'user_message') push('user', Array.isArray(e.content) ? e.content : [], e.id, 'user_input')
    else if (e.kind === 'assistant_message') push('assistant', Array.isArray(e.content) ? e.content : [], e.id, 'assistant')
    else if (e.kind === 'tool_result') push('user', [{ type: 'tool_result', tool_use_id: e.toolUseId, content: replaced.get(e.id) ?? e.content, is_error: e.isError === true }], e.id, 'tool_results')
  }
  if (preamble.length > 0 && out[0]) out[0] = { ...out[0], preamble }
  return out
}
