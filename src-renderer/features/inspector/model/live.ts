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
  /**
   * The seq of its session's newest main pass listed when it started (0: none), or null when the list was still
   * loading and said nothing yet. Once stored, the live pass is a main pass with a greater seq: that is how a list
   * read again tells that the pass finished while the window was not listening (see liveStoredIn).
   */
  readonly listedSeq: number | null
}

export function livePassStarted(sessionId: string, passNumber: number, model: string, now: number, listedSeq: number | null = null): LivePass {
  return { sessionId, passNumber, model, startedAt: now, firstDeltaAt: null, messageId: null, blocks: [], listedSeq }
}

/** The seq of the newest main pass of `sessionId` in `passes`; 0 when it has none. Only main passes are ever live. */
export function newestMainSeq(passes: ReadonlyArray<{ readonly sessionId: string; readonly kind: string; readonly seq: number }>, sessionId: string): number {
  let newest = 0
  for (const p of passes) if (p.sessionId === sessionId && p.kind === 'main' && p.seq > newest) newest = p.seq
  return newest
}

/**
 * Whether a list just read from the store already holds the live pass: `pass.completed` was missed (the inspector
 * was not mounted when the pass ended, or the connection dropped), so the live row would otherwise stay forever.
 */
export function liveStoredIn(live: LivePass, passes: ReadonlyArray<{ readonly sessionId: string; readonly kind: string; readonly seq: number }>): boolean {
  return live.listedSeq !== null && newestMainSeq(passes, live.sessionId) > live.listedSeq
}

/** The live pass once a list was read: its baseline set if it started while the list was loading. */
export function liveListed(live: LivePass, passes: ReadonlyArray<{ readonly sessionId: string; readonly kind: string; readonly seq: number }>): LivePass {
  return live.listedSeq !== null ? live : { ...live, listedSeq: newestMainSeq(passes, live.sessionId) }
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

/** What the Request tab says while the selected pass streams: its bytes are stored with it, and shown from the store. */
export function liveRequestText(live: LivePass): string {
  return `Pass ${live.passNumber} of this turn is still streaming. Its exact request bytes are shown once this pass is stored; what streams back is under Response.`
}

/**
 * The inspector's count of passes: the stored ones, and the pass in flight, which is a row of the list too (a first
 * pass streaming is not "0 passes").
 */
export function passCountText(stored: number, streaming: boolean): string {
  const total = stored + (streaming ? 1 : 0)
  const passes = `${total} ${total === 1 ? 'pass' : 'passes'}`
  if (!streaming) return passes
  return total === 1 ? `${passes}, streaming` : `${passes}, the newest streaming`
}

/** What the Diff tab says while the selected pass streams: its request is not stored yet, so there is nothing to compare. */
export function liveDiffText(live: LivePass): string {
  return `Pass ${live.passNumber} of this turn is still streaming. The diff with the previous pass is shown once this pass is stored.`
}
