/**
 * Narrowing of transcript message content (untrusted JSON) into the wire block types of model/wire.ts.
 *
 * Blocks of kinds the wire types do not carry (documents, tool references, server tool results …) are left out and
 * counted, so a reconstructed request says how much it could not show.
 */
import type {
  AssistantContentBlock,
  ImageBlock,
  TextBlock,
  ToolResultBlock,
  UserContentBlock,
} from '../model/wire'

export type Json = Record<string, unknown>

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null
}

export function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null
}

export interface Converted<B> {
  readonly blocks: ReadonlyArray<B>
  readonly dropped: number
}

function textBlock(raw: Json): TextBlock | null {
  const text = str(raw.text)
  return text === null ? null : { type: 'text', text }
}

function imageBlock(raw: Json): ImageBlock | null {
  const source = raw.source
  if (!isObject(source)) return null
  const mediaType = str(source.media_type)
  const data = str(source.data)
  if (source.type !== 'base64' || mediaType === null || data === null) return null
  return { type: 'image', source: { type: 'base64', media_type: mediaType, data } }
}

function toolResultBlock(raw: Json): ToolResultBlock | null {
  const toolUseId = str(raw.tool_use_id)
  if (toolUseId === null) return null
  const rawContent = raw.content
  let content: ToolResultBlock['content']
  if (typeof rawContent === 'string') content = rawContent
  else if (Array.isArray(rawContent)) {
    const inner: Array<TextBlock | ImageBlock> = []
    for (const item of rawContent) {
      if (!isObject(item)) continue
      const block = item.type === 'text' ? textBlock(item) : item.type === 'image' ? imageBlock(item) : null
      if (block !== null) inner.push(block)
    }
    content = inner
  } else content = ''
  return raw.is_error === true
    ? { type: 'tool_result', tool_use_id: toolUseId, content, is_error: true }
    : { type: 'tool_result', tool_use_id: toolUseId, content }
}

/** A user message's content: a plain string becomes one text block. */
export function userBlocks(content: unknown): Converted<UserContentBlock> {
  if (typeof content === 'string') return { blocks: [{ type: 'text', text: content }], dropped: 0 }
  if (!Array.isArray(content)) return { blocks: [], dropped: 1 }
  const blocks: UserContentBlock[] = []
  let dropped = 0
  for (const raw of content) {
    let block: UserContentBlock | null = null
    if (isObject(raw)) {
      if (raw.type === 'text') block = textBlock(raw)
      else if (raw.type === 'tool_result') block = toolResultBlock(raw)
      else if (raw.type === 'image') block = imageBlock(raw)
    }
    if (block === null) dropped++
    else blocks.push(block)
  }
  return { blocks, dropped }
}

export function assistantBlocks(content: unknown): Converted<AssistantContentBlock> {
  if (typeof content === 'string') return { blocks: [{ type: 'text', text: content }], dropped: 0 }
  if (!Array.isArray(content)) return { blocks: [], dropped: 1 }
  const blocks: AssistantContentBlock[] = []
  let dropped = 0
  for (const raw of content) {
    let block: AssistantContentBlock | null = null
    if (isObject(raw)) {
      switch (raw.type) {
        case 'text':
          block = textBlock(raw)
          break
        case 'thinking': {
          const thinking = str(raw.thinking)
          // Transcripts may carry redacted or empty signatures; the block is still what the model was shown.
          if (thinking !== null) block = { type: 'thinking', thinking, signature: str(raw.signature) ?? '' }
          break
        }
        case 'redacted_thinking': {
          const data = str(raw.data)
          if (data !== null) block = { type: 'redacted_thinking', data }
          break
        }
        case 'tool_use': {
          const id = str(raw.id)
          const name = str(raw.name)
          if (id !== null && name !== null) block = { type: 'tool_use', id, name, input: raw.input ?? {} }
          break
        }
        default:
          break
      }
    }
    if (block === null) dropped++
    else blocks.push(block)
  }
  return { blocks, dropped }
}
