/**
 * An imported thread's conversation as session entries, so the chat shows what the transcript's session said and
 * picking an answer selects the request that produced it.
 *
 * A transcript is a tree with rewinds, not a log, so the entries follow the path the session ended on: for each
 * stretch between two compactions, the conversation the last request of that stretch carried plus that request's
 * answer. A compaction becomes a checkpoint entry whose head is the summary Claude Code continued from, the way a
 * Loupe compaction is written (src-main/engine/conversation/checkpoint.ts), so the model's view of the imported
 * session (history.ts `modelView`) is the one the transcript's next request was sent with.
 *
 * Pure: entries are returned as bodies with the time they happened; store-import.ts writes them.
 */
import type { CheckpointBody } from '../../engine/conversation/checkpoint'
import type { EntryBody, EntryId, PassId } from '../../engine/conversation/entries'
import type { AssistantContentBlock, ImageBlock, StopReason, TextBlock, UserContentBlock, WireMessage } from '../../engine/model/wire'
import type { TranscriptCheckpoint } from '../../engine/transcripts/checkpoints'
import type { ReconstructedPass } from '../../engine/transcripts/reconstruct'

export interface TimedBody {
  readonly body: EntryBody
  /** Epoch ms; null when the transcript gives no time for it. */
  readonly atMs: number | null
}

/** One stretch of the conversation: what came after a compaction (or the start) up to the next one. */
export interface Stretch {
  /** The compaction that starts the stretch; null for the first. */
  readonly checkpoint: TranscriptCheckpoint | null
  /** Index in the thread of the stretch's last request; null when no request was sent in it. */
  readonly lastPass: number | null
}

const STOP_REASONS: ReadonlySet<string> = new Set(['end_turn', 'max_tokens', 'stop_sequence', 'tool_use', 'pause_turn', 'refusal', 'model_context_window_exceeded'])

export function stopReasonOf(value: string | null): StopReason | null {
  return value !== null && STOP_REASONS.has(value) ? (value as StopReason) : null
}

/** Splits a thread's requests at its compactions (microcompactions clear old results but keep the conversation). */
export function stretches(passes: ReadonlyArray<ReconstructedPass>, checkpoints: ReadonlyArray<TranscriptCheckpoint>): Stretch[] {
  const compactions = checkpoints.filter((c) => c.kind === 'compact').sort((a, b) => a.line - b.line)
  const out: Stretch[] = [{ checkpoint: null, lastPass: null }, ...compactions.map((c) => ({ checkpoint: c, lastPass: null as number | null }))]
  const mutable = out as Array<{ checkpoint: TranscriptCheckpoint | null; lastPass: number | null }>
  passes.forEach((p, i) => {
    let k = 0
    while (k < compactions.length && compactions[k]!.line < p.request.firstLine) k++
    mutable[k]!.lastPass = i
  })
  return out
}

/** Text of a tool result for an entry (entries keep results as text; an image is named, not carried). */
function resultText(content: string | ReadonlyArray<TextBlock | ImageBlock>): string {
  if (typeof content === 'string') return content
  return content.map((b) => (b.type === 'text' ? b.text : `[image: ${b.source.media_type}]`)).join('\n')
}

/** Finds the pass whose answer a reconstructed assistant message is: by content, else by its first tool call. */
export class AnswerIndex {
  private readonly byContent = new Map<string, number>()
  private readonly byToolUse = new Map<string, number>()

  constructor(passes: ReadonlyArray<ReconstructedPass>) {
    passes.forEach((p, i) => {
      this.byContent.set(JSON.stringify(p.request.response), i)
      for (const b of p.request.response) if (b.type === 'tool_use') this.byToolUse.set(b.id, i)
    })
  }

  find(content: ReadonlyArray<AssistantContentBlock>): number | null {
    const exact = this.byContent.get(JSON.stringify(content))
    if (exact !== undefined) return exact
    for (const b of content) if (b.type === 'tool_use') {
      const i = this.byToolUse.get(b.id)
      if (i !== undefined) return i
    }
    return null
  }
}

export interface ConversationContext {
  readonly passes: ReadonlyArray<ReconstructedPass>
  readonly passIds: ReadonlyArray<string>
  readonly answers: AnswerIndex
  /** The pass an unmatched answer is attributed to (the stretch's last). */
  readonly fallbackPass: number
}

/** Entries for a list of messages: user text and images, tool results by call, answers linked to their pass. */
export function messageEntries(messages: ReadonlyArray<WireMessage>, ctx: ConversationContext, startAtMs: number | null): TimedBody[] {
  const out: TimedBody[] = []
  const toolNames = new Map<string, string>()
  let at = startAtMs
  for (const message of messages) {
    if (message.role === 'assistant') {
      const index = ctx.answers.find(message.content) ?? ctx.fallbackPass
      const request = ctx.passes[index]!.request
      at = request.firstLineAtMs ?? at
      for (const b of message.content) if (b.type === 'tool_use') toolNames.set(b.id, b.name)
      const body: EntryBody = {
        kind: 'assistant_message',
        passId: ctx.passIds[index]! as PassId,
        content: message.content,
        stopReason: stopReasonOf(request.stopReason),
        partial: false,
      }
      out.push({ body, atMs: at })
      continue
    }
    const rest: Array<TextBlock | ImageBlock> = []
    for (const block of message.content as ReadonlyArray<UserContentBlock>) {
      if (block.type === 'tool_result') {
        const body: EntryBody = {
          kind: 'tool_result',
          toolUseId: block.tool_use_id,
          toolName: toolNames.get(block.tool_use_id) ?? 'unknown',
          content: resultText(block.content),
          isError: block.is_error === true,
          outcome: 'ran',
        }
        out.push({ body, atMs: at })
      } else rest.push(block)
    }
    if (rest.length > 0) out.push({ body: { kind: 'user_message', content: rest }, atMs: at })
  }
  return out
}

/**
 * Splits the first message after a compaction into the summary (the checkpoint's head) and what followed it in the
 * same message (reminders, the next prompt), which stays an entry of its own.
 */
export function splitHead(first: WireMessage | undefined, summary: string | null): { head: TextBlock[]; rest: WireMessage[] } {
  if (first === undefined || first.role !== 'user') return { head: summary === null ? [] : [{ type: 'text', text: summary }], rest: first ? [first] : [] }
  const head: TextBlock[] = []
  const rest: UserContentBlock[] = []
  for (const block of first.content) {
    const inSummary = block.type === 'text' && (summary === null ? head.length === 0 : summary.includes(block.text))
    if (inSummary && block.type === 'text') head.push({ type: 'text', text: block.text })
    else rest.push(block)
  }
  if (head.length === 0 && summary !== null) head.push({ type: 'text', text: summary })
  return { head, rest: rest.length > 0 ? [{ role: 'user', content: rest }] : [] }
}

export interface CheckpointFacts {
  readonly checkpoint: TranscriptCheckpoint
  readonly head: ReadonlyArray<TextBlock>
  /** The entries the compaction replaced (the stretch before it). */
  readonly replaced: { readonly fromEntryId: string | null; readonly toEntryId: string | null; readonly entries: number; readonly messages: number }
  readonly windowTokens: number
  /** The compaction call (2.x `agent-acompact-*`), when its file was imported. */
  readonly summaryPassIds: ReadonlyArray<string>
  readonly costUsd: number
}

/** A transcript compaction as a Loupe checkpoint entry: pre-tokens as Claude Code measured them, and the summary. */
export function checkpointBody(f: CheckpointFacts): CheckpointBody {
  const c = f.checkpoint
  const before = c.preTokens ?? c.contextTokensBefore
  const after = c.postTokens ?? c.contextTokensAfter ?? 0
  const notes = [
    `Imported from a Claude Code transcript: ${c.trigger ?? 'unknown'} compact_boundary at line ${c.line}.`,
    `Before: ${c.preTokens ?? 'unknown'} tokens as Claude Code measured them (preTokens); ${c.contextTokensBefore ?? 'unknown'} in the last request before.`,
    `After: ${c.contextTokensAfter ?? 'unknown'} tokens in the first request after${c.postTokens !== null ? ` (postTokens ${c.postTokens})` : ''}.`,
  ]
  return {
    kind: 'checkpoint',
    trigger: c.trigger === 'manual' ? 'manual' : 'auto',
    focus: null,
    instructions: null,
    stage: 'summary',
    view: { head: f.head, startEntryId: null, replaced: [], dropped: [] },
    summary: c.summary,
    summaryEdited: false,
    summaryForm: null,
    trimmed: [],
    replaced: {
      fromEntryId: f.replaced.fromEntryId as EntryId | null,
      toEntryId: f.replaced.toEntryId as EntryId | null,
      entries: f.replaced.entries,
      messages: f.replaced.messages,
      estimatedTokens: before ?? 0,
    },
    reinjected: { files: [], pins: [], sessionBlock: null },
    tokens: {
      before: { real: before, estimated: before ?? 0 },
      after: { estimated: after },
      windowTokens: f.windowTokens,
      targetTokens: after,
    },
    costUsd: f.costUsd,
    summaryPassIds: f.summaryPassIds,
    notes,
  }
}
