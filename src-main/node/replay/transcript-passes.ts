/**
 * A recorded Claude Code session as Loupe passes: for each request of the main thread, the conversation it carried
 * (reconstructed from the transcript, docs/claude-code-import.md) as the history Loupe's builder takes, when it was
 * sent, the model, what came back, and what it recorded for usage.
 *
 * What changes on the way: thinking is kept where Loupe would think (its default setting, on the models that take
 * adaptive thinking: thinkingFor) and dropped elsewhere, with its recorded signature, which the replay swaps for the
 * simulator's (replay.ts); empty text blocks are dropped (the API refuses them), and any cache_control is removed
 * (Loupe places its own breakpoints). Each message gets a stable entry id from its content, so the best possible hit
 * can tell what is new on each pass.
 *
 * The recorded thinking is what the transcript kept: the summarised text Claude Code was shown, not the full
 * reasoning it was billed for, so the replay's thinking is shorter than the real one.
 */
import type { AssistantContentBlock, ContentBlock, Usage, UserContentBlock, WireMessage } from '../../engine/model/wire'
import { isBlankText } from '../../engine/model/wire'
import type { HistoryMessage } from '../../engine/prompt/input'
import { reconstructPasses, type ImportedSession } from '../../engine/transcripts'
import type { Hasher } from '../../engine/ports'

export interface ReplayPass {
  readonly index: number
  readonly model: string
  /** When the request was sent, epoch ms (never earlier than the pass before). */
  readonly startedAt: number
  readonly history: ReadonlyArray<HistoryMessage>
  /** The previous pass's last message, when this pass's history continues it. */
  readonly previousTailIndex: number | null
  /** A compaction came just before this pass. */
  readonly afterCompaction: boolean
  /** The answer to give: the recorded response (its thinking only where Loupe would think). */
  readonly response: ReadonlyArray<AssistantContentBlock>
  /**
   * The recorded response as the session's history holds it once it came back: what a keep-warm pre-warm after this
   * pass carries (the replay knows only what came before, never the next pass's history).
   */
  readonly answer: HistoryMessage
  /** What Claude Code's request recorded. */
  readonly recordedUsage: Usage
}

/** Thinking the replay leaves out: produced on a model Loupe does not think on (by its text). */
type DroppedThinking = Set<string>

function cleanBlock<B extends ContentBlock>(block: B, dropped: DroppedThinking | null): B | null {
  if (block.type === 'redacted_thinking') return null
  if (block.type === 'thinking' && (dropped === null || dropped.has(block.thinking))) return null
  // As the app's history leaves it out (engine/conversation/history.ts): the API refuses it sent back.
  if (block.type === 'text' && isBlankText(block.text)) return null
  if (!('cache_control' in block)) return block
  const { cache_control: _drop, ...rest } = block as B & { cache_control?: unknown }
  return rest as B
}

/** A message as the replay sends it; `dropped` null leaves every thinking block out. */
export function cleanMessage(message: WireMessage, dropped: DroppedThinking | null = null): WireMessage {
  if (message.role === 'assistant') {
    const content = message.content.map((b) => cleanBlock(b, dropped)).filter((b): b is AssistantContentBlock => b !== null)
    return { role: 'assistant', content: content.length ? content : [{ type: 'text', text: '(no answer)' }] }
  }
  const content = message.content.map((b) => cleanBlock(b, dropped)).filter((b): b is UserContentBlock => b !== null)
  return { role: 'user', content: content.length ? content : [{ type: 'text', text: '(empty)' }] }
}

/** Whether Loupe, with its default settings, would think on `model`. */
export type ThinksOn = (model: string) => boolean

export function transcriptPasses(session: ImportedSession, hasher: Hasher, thinksOn: ThinksOn = () => false): ReplayPass[] {
  const dropped: DroppedThinking = new Set()
  const converted = new WeakMap<WireMessage, HistoryMessage>()
  // Equal content, equal id: the same message seen again on a later pass is recognised as old.
  const historyMessage = (message: WireMessage, kind: HistoryMessage['provenance']['kind']): HistoryMessage => ({ message, provenance: { entryIds: [`msg_${hasher.sha256Hex(JSON.stringify(message)).slice(0, 16)}`], kind } })
  const checkpointsAfter = new Set(session.checkpoints.flatMap((c) => (c.requestAfter === null ? [] : [c.requestAfter])))
  const out: ReplayPass[] = []
  let lastStart = 0
  let previous: ReadonlyArray<HistoryMessage> = []
  for (const [i, pass] of reconstructPasses(session).entries()) {
    if (pass.messages.length === 0 || pass.messages[0]!.role !== 'user') continue
    const r = pass.request
    // The answer's thinking, on a model Loupe does not think on, leaves the later passes' history too.
    const thinks = thinksOn(r.model)
    if (!thinks) for (const b of r.response) if (b.type === 'thinking') dropped.add(b.thinking)
    const history = pass.messages.map((m, j) => {
      const known = converted.get(m)
      if (known) return known
      const message = cleanMessage(m, dropped)
      const kind = j === 0 && pass.start.kind === 'compaction' ? 'compaction_summary' : message.role === 'assistant' ? 'assistant' : message.content.every((b) => b.type === 'tool_result') ? 'tool_results' : 'user_input'
      const made = historyMessage(message, kind)
      converted.set(m, made)
      return made
    })
    const tip = r.contextTipUuid === null ? null : (session.index.get(r.contextTipUuid)?.timestampMs ?? null)
    const startedAt = Math.max(lastStart, tip ?? r.firstLineAtMs ?? lastStart)
    lastStart = startedAt
    const continues = previous.length > 0 && previous.length <= history.length && previous[previous.length - 1]!.provenance.entryIds[0] === history[previous.length - 1]!.provenance.entryIds[0]
    out.push({
      index: i,
      model: r.model,
      startedAt,
      history,
      previousTailIndex: continues ? previous.length - 1 : null,
      afterCompaction: checkpointsAfter.has(i),
      response: r.response.map((b) => cleanBlock(b, dropped)).filter((b): b is AssistantContentBlock => b !== null),
      answer: historyMessage(cleanMessage({ role: 'assistant', content: r.response }, dropped), 'assistant'),
      recordedUsage: r.usage,
    })
    previous = history
  }
  return out
}
