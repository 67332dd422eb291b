/**
 * History messages as they go on the wire: each block rebuilt with a fixed key order (so the bytes depend only on
 * the values, never on how the loop built its objects), incoming `cache_control` removed (the builder alone places
 * breakpoints), notes rendered after the content, and the frozen session context in front of messages[0].
 *
 * A rendered message is remembered by the identity of its history message: a pass renders only what is new, and its
 * cost grows with what is new, not with the whole history (docs/context-engine.md "Performance").
 */
import type { ContentBlock, TextBlock, ToolResultBlock, WireMessage } from '../model/wire'
import type { HistoryMessage } from './input'
import type { PlannedBlockInfo, PlannedMessage } from './plan'
import type { FrozenSessionContext } from './session-context'
import { PlanError } from './errors'
import { estimateTokens, estimateTokensFromChars, IMAGE_TOKENS_ESTIMATE } from './estimate'
import { noteEntryId, noteFile, renderNote } from './notes'

function canonicalInner(block: TextBlock | { readonly type: 'image'; readonly source: { readonly type: 'base64'; readonly media_type: string; readonly data: string } }) {
  return block.type === 'text'
    ? { type: 'text' as const, text: block.text }
    : { type: 'image' as const, source: { type: 'base64' as const, media_type: block.source.media_type, data: block.source.data } }
}

/** The block with its keys in one fixed order and without `cache_control`. */
export function canonicalBlock(block: ContentBlock): ContentBlock {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text }
    case 'image':
      return canonicalInner(block)
    case 'tool_use':
      return { type: 'tool_use', id: block.id, name: block.name, input: block.input }
    case 'tool_result': {
      const content = typeof block.content === 'string' ? block.content : block.content.map(canonicalInner)
      const out: ToolResultBlock =
        block.is_error === undefined
          ? { type: 'tool_result', tool_use_id: block.tool_use_id, content }
          : { type: 'tool_result', tool_use_id: block.tool_use_id, content, is_error: block.is_error }
      return out
    }
    case 'thinking':
      return { type: 'thinking', thinking: block.thinking, signature: block.signature }
    case 'redacted_thinking':
      return { type: 'redacted_thinking', data: block.data }
    default: {
      const unknown: { type?: unknown } = block
      throw new PlanError('unknown_block', `content block of type ${String(unknown.type)} is not a wire block`)
    }
  }
}

export function blockTokens(block: ContentBlock): number {
  switch (block.type) {
    case 'text':
      return estimateTokens(block.text)
    case 'image':
      return IMAGE_TOKENS_ESTIMATE
    case 'tool_use':
      return estimateTokensFromChars(block.name.length + JSON.stringify(block.input ?? null).length)
    case 'tool_result':
      if (typeof block.content === 'string') return estimateTokens(block.content)
      return block.content.reduce((sum, inner) => sum + (inner.type === 'text' ? estimateTokens(inner.text) : IMAGE_TOKENS_ESTIMATE), 0)
    case 'thinking':
      return estimateTokens(block.thinking)
    case 'redacted_thinking':
      return estimateTokens(block.data)
  }
}

/** A block that may carry `cache_control`: not thinking, not empty text (docs/reference/anthropic-api.md §5.1). */
export function isMarkable(block: ContentBlock): boolean {
  if (block.type === 'thinking' || block.type === 'redacted_thinking') return false
  if (block.type === 'text') return block.text.length > 0
  return true
}

function render(history: HistoryMessage, context: FrozenSessionContext | null): PlannedMessage {
  const { message, provenance } = history
  const notes = history.notes ?? []
  if (notes.length > 0 && message.role !== 'user') {
    throw new PlanError('notes_on_assistant_message', `notes can only travel on a user message (entries ${provenance.entryIds.join(', ')})`)
  }
  const content: ContentBlock[] = []
  const blocks: PlannedBlockInfo[] = []
  let tokens = 0
  const push = (block: ContentBlock, info: Omit<PlannedBlockInfo, 'tokens' | 'breakpoint'>): void => {
    const t = blockTokens(block)
    content.push(block)
    blocks.push({ ...info, tokens: t, breakpoint: null })
    tokens += t
  }
  if (context !== null) {
    push({ type: 'text', text: context.text }, { stability: 'session', provenance: { kind: 'section', section: 'session_context', reason: null } })
  }
  const historyProvenance = { kind: 'history' as const, entryIds: provenance.entryIds, historyKind: provenance.kind }
  for (const block of message.content) push(canonicalBlock(block), { stability: 'history', provenance: historyProvenance })
  for (const note of notes) {
    push(
      { type: 'text', text: renderNote(note) },
      { stability: 'history', provenance: { kind: 'note', note: note.kind, entryId: noteEntryId(note), file: noteFile(note) } },
    )
  }
  const wire = { role: message.role, content } as WireMessage
  return { wire, provenance, blocks, tokens }
}

const rendered = new WeakMap<HistoryMessage, PlannedMessage>()
const renderedFirst = new WeakMap<HistoryMessage, { context: FrozenSessionContext; planned: PlannedMessage }>()

/** The planned message for `history`, rendered once per history object (and, for messages[0], per context). */
export function planMessage(history: HistoryMessage, context: FrozenSessionContext | null): PlannedMessage {
  if (context === null) {
    let planned = rendered.get(history)
    if (planned === undefined) {
      planned = render(history, null)
      rendered.set(history, planned)
    }
    return planned
  }
  const cached = renderedFirst.get(history)
  if (cached !== undefined && cached.context === context) return cached.planned
  const planned = render(history, context)
  renderedFirst.set(history, { context, planned })
  return planned
}
