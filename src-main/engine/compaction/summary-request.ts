/**
 * The summary request (docs/compaction.md "Stage 2, the summary"; docs/design.md §7). It reuses the session's cached
 * prefix — the same tools, the same system blocks, the history as the last passes sent it — and adds one user message
 * with the instruction, so the prefix is a cache read, not a fresh write. Two ways to do that:
 *
 * - `cut`: the history up to the split, then the instruction. The pass that produced the first kept message sent
 *   exactly that prefix and put a breakpoint on its end, so the prefix is cached while that entry lives; only the
 *   instruction is new, and the model summarises just what it should.
 * - `upto`: the whole history, then an instruction that asks for the part before the split. The previous pass's
 *   tail is marked, so everything up to it is a read; the last step and the instruction are written.
 *
 * `chooseForm` takes `cut` when its prefix is known to be cached, else `upto` (docs/decisions/0006-compaction.md
 * has the measured costs). A standalone request — its own system prompt, no tools, the summarised part as text —
 * is the fallback when the model calls a tool anyway, and the baseline the benchmark compares with.
 */
import type { Entry } from '../conversation/entries'
import type { PlannedPass } from '../loop/ports'
import type { ContentBlock, TextBlock, WireMessage } from '../model/wire'
import type { HistoryMessage } from '../prompt/input'
import type { PlannedMessage, PromptPlan } from '../prompt/plan'
import type { SnapshotOrigin } from '../prompt/snapshot'
import { estimateTokens } from '../prompt/estimate'
import { renderRequest } from '../prompt/render'
import { blockTokens } from './estimate'

/** Plans a pass with the session's own tools, system blocks and settings; must not change any session state. */
export type PrefixPlanner = (history: ReadonlyArray<HistoryMessage>, previousTailIndex: number | null, maxTokens: number) => PromptPlan

/**
 * How long a `cut` prefix is trusted to be cached after the pass that wrote it ended: the 5-minute TTL counts from
 * that pass's start (docs/reference/anthropic-api.md §5.1), so a minute is left for its generation time.
 */
export const CUT_PREFIX_TRUST_MS = 4 * 60_000

export function instructionMessage(text: string): HistoryMessage {
  return { message: { role: 'user', content: [{ type: 'text', text }] }, provenance: { entryIds: [], kind: 'synthetic' } }
}

export function prefixSummaryPass(
  planner: PrefixPlanner,
  history: ReadonlyArray<HistoryMessage>,
  options: { readonly form: 'cut' | 'upto'; readonly splitIndex: number; readonly previousTailIndex: number | null; readonly instruction: string; readonly maxTokens: number },
): PlannedPass {
  const instruction = instructionMessage(options.instruction)
  let plan: PromptPlan
  if (options.form === 'cut') {
    const prefix = history.slice(0, options.splitIndex)
    plan = planner([...prefix, instruction], prefix.length - 1, options.maxTokens)
  } else {
    const tail = options.previousTailIndex
    plan = planner([...history, instruction], tail !== null && tail >= 0 && tail < history.length ? tail : null, options.maxTokens)
  }
  return { request: renderRequest(plan), plan }
}

/**
 * `cut` when the first kept message was produced in this history (since the last checkpoint) and recently enough
 * that the breakpoint its pass wrote is still alive, and nothing since re-keyed the prefix before it (an instruction
 * file applied now re-freezes the session block, a model switch changes the cache, a context edit rewrites a
 * message): that entry was written under the old prefix and cannot be read. Otherwise `upto`, whose prefix the last
 * pass just refreshed.
 */
export function chooseForm(input: {
  readonly history: ReadonlyArray<HistoryMessage>
  readonly splitIndex: number
  readonly entries: ReadonlyArray<Entry>
  readonly now: number
}): 'cut' | 'upto' {
  const firstKept = input.history[input.splitIndex]?.provenance.entryIds[0]
  if (firstKept === undefined) return 'upto'
  let checkpointSeq = 0
  let kept: Entry | undefined
  for (const e of input.entries) {
    if (e.kind === 'checkpoint') checkpointSeq = e.seq
    if (e.id === firstKept) kept = e
  }
  if (kept === undefined || kept.kind !== 'assistant_message' || kept.seq < checkpointSeq) return 'upto'
  const before = new Set(input.history.slice(0, input.splitIndex).flatMap((m) => m.provenance.entryIds))
  if (input.entries.some((e) => e.seq > kept!.seq && rekeysPrefix(e, before))) return 'upto'
  return input.now - kept.at < CUT_PREFIX_TRUST_MS ? 'cut' : 'upto'
}

/** An entry after which the prefix before the split is not the one earlier passes wrote (`before`: its entries). */
function rekeysPrefix(e: Entry, before: ReadonlySet<string>): boolean {
  if (e.kind === 'context_edit') return e.edits.some((edit) => before.has(edit.entryId))
  return (e.kind === 'notice' && e.source === 'instructions') || e.kind === 'model_switched'
}

function asText(block: ContentBlock): string | null {
  switch (block.type) {
    case 'text':
      return block.text.length > 0 ? block.text : null
    case 'image':
      return '[image]'
    case 'thinking':
    case 'redacted_thinking':
      return null
    case 'tool_use':
      return `[tool call ${block.name} (${block.id}): ${JSON.stringify(block.input ?? {})}]`
    case 'tool_result': {
      const body = typeof block.content === 'string' ? block.content : block.content.map((b) => (b.type === 'text' ? b.text : '[image]')).join('\n')
      return `[tool result for ${block.tool_use_id}${block.is_error ? ', an error' : ''}]\n${body}`
    }
  }
}

/**
 * The messages as plain text for a standalone request: thinking left out, images as `[image]`, tool calls and
 * results written out (a request without tools may not carry tool blocks), consecutive same-role messages joined.
 */
export function textualise(messages: ReadonlyArray<WireMessage>): WireMessage[] {
  const out: Array<{ role: 'user' | 'assistant'; content: TextBlock[] }> = []
  for (const m of messages) {
    const content: TextBlock[] = []
    for (const b of m.content) {
      const t = asText(b)
      if (t !== null) content.push({ type: 'text', text: t })
    }
    if (content.length === 0) continue
    const last = out.at(-1)
    if (last && last.role === m.role) last.content.push(...content)
    else out.push({ role: m.role, content })
  }
  if (out[0]?.role === 'assistant') out.unshift({ role: 'user', content: [{ type: 'text', text: '(The conversation begins with the assistant.)' }] })
  return out
}

function planned(message: WireMessage): PlannedMessage {
  const blocks = message.content.map((b) => ({
    stability: 'history' as const,
    provenance: { kind: 'section' as const, section: 'compaction_transcript', reason: null },
    tokens: blockTokens(b),
    breakpoint: null,
  }))
  return { wire: message, provenance: { entryIds: [], kind: 'synthetic' }, blocks, tokens: blocks.reduce((n, b) => n + b.tokens, 0) }
}

/** A standalone request and a plan describing it (so it is stored and shown like any pass). */
export function standaloneSummaryPass(model: string, maxTokens: number, system: string, messages: ReadonlyArray<WireMessage>, origin: SnapshotOrigin): PlannedPass {
  const systemTokens = estimateTokens(system)
  const plannedMessages = messages.map(planned)
  const messageTokens = plannedMessages.reduce((n, m) => n + m.tokens, 0)
  const plan: PromptPlan = {
    model,
    maxTokens,
    thinking: null,
    tools: [],
    system: [
      {
        wire: { type: 'text', text: system },
        spans: [],
        stability: 'static',
        provenance: { kind: 'section', section: 'compaction_system', reason: null },
        tokens: systemTokens,
        breakpoint: null,
      },
    ],
    messages: plannedMessages,
    breakpoints: [],
    fingerprints: [],
    tokens: { tools: 0, system: systemTokens, messages: messageTokens, total: systemTokens + messageTokens },
    sessionOrigin: origin,
  }
  return { request: renderRequest(plan), plan }
}
