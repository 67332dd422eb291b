/**
 * One reconstructed request as a stored pass (`NewPass`, source `transcript`), but for its request body.
 *
 * The request body is the JSON of the reconstructed request, `{"model":…,"messages":[…]}`: what the transcript can
 * tell of what was sent, never the wire bytes (Claude Code logs neither its system prompt, nor its tools, nor the
 * reminders it injects). It is given to the store split and hashed (pass-body.ts), never built whole. The response
 * is the answer's Message JSON rebuilt from the transcript lines.
 *
 * Times: a transcript has no request timestamps. The line the request continued from (a prompt or a tool result)
 * was written just before it was sent, so its time stands for the start; the last line of the answer for the end.
 * The first byte is not known.
 */
import type { WireMessage } from '../../engine/model/wire'
import type { ReconstructedPass } from '../../engine/transcripts/reconstruct'
import type { TranscriptThread } from '../../engine/transcripts/session'
import type { PriceFn } from '../../engine/transcripts/totals'
import type { NewPass, PassKind, SegmentMeta } from '../store/passes'

/** What kind of message a segment is, in the inspector's words (src-renderer/features/inspector/model/blocks.ts). */
function historyKind(message: WireMessage, index: number, pass: ReconstructedPass): string {
  if (message.role === 'assistant') return 'assistant'
  if (index === 0 && pass.start.kind === 'compaction') return 'compaction_summary'
  return message.content.length > 0 && message.content.every((b) => b.type === 'tool_result') ? 'tool_results' : 'user_input'
}

function segmentMeta(pass: ReconstructedPass): (path: string) => SegmentMeta {
  return (path) => {
    const m = /^messages\[(\d+)\]$/.exec(path)
    const message = m ? pass.messages[Number(m[1])] : undefined
    if (message === undefined) return { provenance: { kind: 'transcript', reconstructed: true }, breakpoint: null }
    return {
      provenance: { kind: 'history', historyKind: historyKind(message, Number(m![1]), pass), source: 'transcript', reconstructed: true },
      breakpoint: null,
    }
  }
}

export function passTimes(thread: TranscriptThread, pass: ReconstructedPass, fallbackMs: number): { queuedAt: number; doneAt: number } {
  const r = pass.request
  const tip = r.contextTipUuid === null ? undefined : thread.index.get(r.contextTipUuid)
  const tipAt = tip?.timestampMs ?? null
  const first = r.firstLineAtMs
  const queuedAt = tipAt !== null && (first === null || tipAt <= first) ? tipAt : (first ?? fallbackMs)
  const doneAt = Math.max(queuedAt, r.lastLineAtMs ?? first ?? queuedAt)
  return { queuedAt, doneAt }
}

export function passRecord(sessionId: string, kind: PassKind, thread: TranscriptThread, pass: ReconstructedPass, price: PriceFn, fallbackMs: number): Omit<NewPass, 'requestBody'> {
  const r = pass.request
  const { queuedAt, doneAt } = passTimes(thread, pass, fallbackMs)
  const response = {
    id: r.messageId,
    type: 'message',
    role: 'assistant',
    model: r.model,
    content: r.response,
    stop_reason: r.stopReason,
    stop_sequence: null,
    usage: r.usage,
  }
  return {
    sessionId,
    kind,
    model: r.model,
    status: 'done',
    queuedAt,
    firstByteAt: null,
    doneAt,
    segmentMeta: segmentMeta(pass),
    attempts: [{ startedAt: queuedAt, firstByteAt: null, endedAt: doneAt, status: null, requestId: r.requestId, error: null, responseHeaders: {}, responseBody: JSON.stringify(response) }],
    messageId: r.messageId,
    stopReason: r.stopReason,
    usage: r.usage,
    costUsd: price(r.model, r.usage),
    error: null,
    plan: {
      reconstructed: {
        from: 'claude-code-transcript',
        note: 'Reconstructed from a transcript: the conversation only. The system prompt, tools and injected reminders were not recorded.',
        start: pass.start,
        firstLine: r.firstLine,
        requestId: r.requestId,
        threadKind: thread.kind,
        threadId: thread.id,
      },
    },
    source: 'transcript',
  }
}
