/**
 * The pass in flight: it appears when `pass.started` arrives and fills in from `stream.delta` events (the app's
 * ModelStreamEvent, src-main/engine/ports.ts) until `pass.completed` replaces it with the stored pass.
 */
import { isRecord } from './blocks'

export interface LiveBlock {
  readonly kind: string
  readonly text: string
  readonly toolName: string | null
}

export interface LivePass {
  readonly sessionId: string
  /** The pass's number within its turn (pass.started's `passNumber`). */
  readonly passNumber: number
  readonly model: string
  readonly startedAt: number
  readonly firstDeltaAt: number | null
  readonly messageId: string | null
  readonly blocks: ReadonlyArray<LiveBlock>
}

export function livePassStarted(sessionId: string, passNumber: number, model: string, now: number): LivePass {
  return { sessionId, passNumber, model, startedAt: now, firstDeltaAt: null, messageId: null, blocks: [] }
}

/** Applies a batch of stream events; unknown events are ignored so a newer host does not break an older view. */
export function liveDeltaApplied(live: LivePass, events: ReadonlyArray<unknown>, now: number): LivePass {
  const blocks = [...live.blocks]
  let messageId = live.messageId
  for (const e of events) {
    if (!isRecord(e)) continue
    const index = typeof e.index === 'number' ? e.index : -1
    switch (e.type) {
      case 'message_started':
        messageId = typeof e.messageId === 'string' ? e.messageId : messageId
        break
      case 'block_started':
        blocks[index] = { kind: String(e.kind ?? 'text'), text: '', toolName: typeof e.toolName === 'string' ? e.toolName : null }
        break
      case 'text_delta':
      case 'thinking_delta':
      case 'tool_input_delta': {
        const piece = e.type === 'text_delta' ? e.text : e.type === 'thinking_delta' ? e.thinking : e.partialJson
        const block = blocks[index] ?? { kind: e.type === 'tool_input_delta' ? 'tool_use' : 'text', text: '', toolName: null }
        blocks[index] = { ...block, text: block.text + (typeof piece === 'string' ? piece : '') }
        break
      }
      default:
        break
    }
  }
  return { ...live, messageId, blocks, firstDeltaAt: live.firstDeltaAt ?? now }
}

export function liveChars(live: LivePass): number {
  return live.blocks.reduce((sum, b) => sum + (b?.text.length ?? 0), 0)
}
