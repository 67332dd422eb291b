/**
 * Token estimates for compaction decisions. The same rule as the prompt builder (characters / 4,
 * src-main/engine/prompt/estimate.ts), except that thinking blocks count by their wire size — the thinking text
 * and its signature both travel back to the API — and a real count, when one exists, calibrates the estimate.
 */
import type { ContentBlock, WireMessage } from '../model/wire'
import { estimateTokensFromChars, IMAGE_TOKENS_ESTIMATE } from '../prompt/estimate'

export function blockChars(block: ContentBlock): number {
  switch (block.type) {
    case 'text':
      return block.text.length
    case 'image':
      return 0
    case 'thinking':
      return block.thinking.length + block.signature.length
    case 'redacted_thinking':
      return block.data.length
    case 'tool_use':
      return block.name.length + JSON.stringify(block.input ?? null).length
    case 'tool_result':
      return typeof block.content === 'string' ? block.content.length : block.content.reduce((n, b) => n + (b.type === 'text' ? b.text.length : 0), 0)
  }
}

function images(block: ContentBlock): number {
  if (block.type === 'image') return 1
  if (block.type === 'tool_result' && typeof block.content !== 'string') return block.content.filter((b) => b.type === 'image').length
  return 0
}

export function blockTokens(block: ContentBlock): number {
  return estimateTokensFromChars(blockChars(block)) + images(block) * IMAGE_TOKENS_ESTIMATE
}

export function messageTokens(message: WireMessage): number {
  let n = 0
  for (const b of message.content) n += blockTokens(b)
  return n
}

export function messagesTokens(messages: ReadonlyArray<WireMessage>): number {
  let n = 0
  for (const m of messages) n += messageTokens(m)
  return n
}

/**
 * Estimates on the scale of the real count: `estimate × real / estimatedNow`. Without a real count the estimate
 * stands as it is.
 */
export function calibrate(estimated: number, real: number | null, estimatedNow: number): number {
  if (real === null || estimatedNow <= 0) return estimated
  return Math.round((estimated * real) / estimatedNow)
}
