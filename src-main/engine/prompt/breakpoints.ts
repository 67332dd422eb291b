/**
 * Breakpoint placement (docs/context-engine.md "The four breakpoints"; docs/reference/anthropic-api.md §10): at most
 * four `cache_control` markers — end of the static block (optionally 1h), end of the session block, the tail of the
 * previous pass's last message, and the tail of the newest message.
 *
 * Keeping the previous pass's tail marked means the next pass hits exactly what the last one wrote: a hit never
 * depends on the API's 20-block lookback, which one turn with ten parallel tool calls would already exceed
 * (docs/reference/anthropic-api.md §5.1, §10 rule 3).
 */
import type { CacheControl, ContentBlock, WireMessage } from '../model/wire'
import type { BreakpointTag, PlannedMessage } from './plan'
import { isMarkable } from './messages'

export const EPHEMERAL_5M: CacheControl = { type: 'ephemeral' }
export const EPHEMERAL_1H: CacheControl = { type: 'ephemeral', ttl: '1h' }

export interface Tail {
  readonly index: number
  readonly blockIndex: number
}

/** The last block that can carry a marker, at or before message `fromIndex`; null if there is none. */
export function findTail(messages: ReadonlyArray<PlannedMessage>, fromIndex: number): Tail | null {
  for (let i = fromIndex; i >= 0; i--) {
    const content = messages[i]!.wire.content
    for (let b = content.length - 1; b >= 0; b--) {
      if (isMarkable(content[b]!)) return { index: i, blockIndex: b }
    }
  }
  return null
}

/** A copy of `message` whose block `blockIndex` carries a 5-minute marker. The remembered original is untouched. */
export function markBlock(message: PlannedMessage, blockIndex: number, tag: BreakpointTag): PlannedMessage {
  const content = message.wire.content.map((block, i) =>
    i === blockIndex ? ({ ...(block as ContentBlock), cache_control: EPHEMERAL_5M } as ContentBlock) : block,
  )
  const blocks = message.blocks.map((info, i) => (i === blockIndex ? { ...info, breakpoint: tag } : info))
  return { ...message, wire: { role: message.wire.role, content } as WireMessage, blocks }
}
