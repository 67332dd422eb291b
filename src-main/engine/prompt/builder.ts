/**
 * buildPromptPlan: one pass, from values to a plan in cache order (docs/design.md §3).
 *
 *   tools[]        sorted by name, fixed for the session
 *   system[0]      static sections                                        ◀ BP1 (1h when settings ask)
 *   system[1]      session sections (instructions, memory, skills)        ◀ BP2
 *   messages[0]    frozen session context + the first user message
 *   messages[1..]  history; the previous pass's last message              ◀ BP3
 *   messages[n]    newest message (with its after-the-breakpoint notes)   ◀ BP4
 *                  volatile sections, after every breakpoint
 */
import type { SectionFingerprint, BreakpointPlacement, PlannedMessage, PlannedSystemBlock, PromptPlan } from './plan'
import type { PromptInput } from './input'
import type { FrozenSessionContext } from './session-context'
import type { Hasher } from '../ports'
import type { TextBlock } from '../model/wire'
import { PlanError } from './errors'
import { estimateTokens } from './estimate'
import { planHistory } from './history-cache'
import { planSystem } from './system'
import { EPHEMERAL_1H, EPHEMERAL_5M, findTail, markBlock } from './breakpoints'
import { validatePlan } from './validate'

function checkInput(input: PromptInput): void {
  if (!Number.isInteger(input.maxTokens) || input.maxTokens < 1) {
    throw new PlanError('invalid_max_tokens', `maxTokens must be a positive integer, got ${input.maxTokens}`)
  }
  const first = input.history[0]
  if (first === undefined) throw new PlanError('empty_history', 'a pass needs at least one message')
  if (first.message.role !== 'user') {
    throw new PlanError('first_message_not_user', 'messages[0] carries the session context and must be a user message')
  }
  const tail = input.previousTailIndex
  if (tail !== null && (!Number.isInteger(tail) || tail < 0 || tail >= input.history.length)) {
    throw new PlanError('previous_tail_out_of_range', `previousTailIndex ${tail} is outside a history of ${input.history.length}`)
  }
}

const contextPrints = new WeakMap<FrozenSessionContext, { hasher: Hasher; print: SectionFingerprint }>()

function contextFingerprint(context: FrozenSessionContext, hasher: Hasher): SectionFingerprint {
  const cached = contextPrints.get(context)
  if (cached !== undefined && cached.hasher === hasher) return cached.print
  const print: SectionFingerprint = {
    section: 'session_context',
    part: null,
    stability: 'session',
    sha256: hasher.sha256Hex(context.text),
    chars: context.text.length,
    tokens: estimateTokens(context.text),
  }
  contextPrints.set(context, { hasher, print })
  return print
}

export function buildPromptPlan(input: PromptInput): PromptPlan {
  checkInput(input)
  const system = planSystem(input)

  const systemBlocks: PlannedSystemBlock[] = []
  const breakpoints: BreakpointPlacement[] = []
  const staticTtl = input.settings.staticCacheTtl1h ? EPHEMERAL_1H : EPHEMERAL_5M
  const staticWire: TextBlock = { type: 'text', text: system.staticBlock.text, cache_control: staticTtl }
  systemBlocks.push({
    wire: staticWire,
    spans: system.staticBlock.spans,
    stability: 'static',
    provenance: { kind: 'system', block: 'static' },
    tokens: estimateTokens(system.staticBlock.text),
    breakpoint: 'static',
  })
  breakpoints.push({ tag: 'static', area: 'system', index: 0, blockIndex: 0, ttl: staticTtl.ttl ?? '5m' })
  if (system.sessionBlock !== null) {
    systemBlocks.push({
      wire: { type: 'text', text: system.sessionBlock.text, cache_control: EPHEMERAL_5M },
      spans: system.sessionBlock.spans,
      stability: 'session',
      provenance: { kind: 'system', block: 'session' },
      tokens: estimateTokens(system.sessionBlock.text),
      breakpoint: 'session',
    })
    breakpoints.push({ tag: 'session', area: 'system', index: 1, blockIndex: 0, ttl: '5m' })
  }

  const planned = planHistory(input.history, input.context)
  const messages: PlannedMessage[] = planned.messages
  let messageTokens = planned.tokens
  // Messages reused from an earlier pass were checked then; a marked copy keeps its stability.
  let firstChanged = planned.reused

  const newest = findTail(messages, messages.length - 1)
  const previous = input.previousTailIndex === null ? null : findTail(messages, input.previousTailIndex)
  if (previous !== null && (newest === null || previous.index !== newest.index || previous.blockIndex !== newest.blockIndex)) {
    messages[previous.index] = markBlock(messages[previous.index]!, previous.blockIndex, 'previous_tail')
    firstChanged = Math.min(firstChanged, previous.index)
    breakpoints.push({ tag: 'previous_tail', area: 'messages', index: previous.index, blockIndex: previous.blockIndex, ttl: '5m' })
  }
  if (newest !== null) {
    messages[newest.index] = markBlock(messages[newest.index]!, newest.blockIndex, 'newest_tail')
    firstChanged = Math.min(firstChanged, newest.index)
    breakpoints.push({ tag: 'newest_tail', area: 'messages', index: newest.index, blockIndex: newest.blockIndex, ttl: '5m' })
  }

  const fingerprints = [...system.fingerprints, contextFingerprint(input.context, input.hasher)]
  const volatile = (input.extraSections ?? []).filter((s) => s.placement === 'tail')
  if (volatile.length > 0) {
    const lastIndex = messages.length - 1
    const last = messages[lastIndex]!
    if (last.wire.role !== 'user') {
      throw new PlanError('tail_on_assistant_message', 'tail sections need the newest message to be a user message')
    }
    const content = [...last.wire.content]
    const blocks = [...last.blocks]
    let tokens = last.tokens
    for (const section of volatile) {
      const t = estimateTokens(section.text)
      content.push({ type: 'text', text: section.text })
      blocks.push({
        stability: section.stability,
        provenance: { kind: 'section', section: section.name, reason: section.reason ?? null },
        tokens: t,
        breakpoint: null,
      })
      tokens += t
      messageTokens += t
      fingerprints.push({
        section: section.name,
        part: null,
        stability: section.stability,
        sha256: input.hasher.sha256Hex(section.text),
        chars: section.text.length,
        tokens: t,
      })
    }
    messages[lastIndex] = { ...last, wire: { role: 'user', content }, blocks, tokens }
    firstChanged = Math.min(firstChanged, lastIndex)
  }

  const systemTokens = systemBlocks.reduce((sum, b) => sum + b.tokens, 0)
  const plan: PromptPlan = {
    model: input.model,
    maxTokens: input.maxTokens,
    thinking: input.thinking ?? null,
    tools: system.tools,
    system: systemBlocks,
    messages,
    breakpoints,
    fingerprints,
    tokens: {
      tools: system.toolTokens,
      system: systemTokens,
      messages: messageTokens,
      total: system.toolTokens + systemTokens + messageTokens,
    },
    sessionOrigin: input.session.origin,
  }
  validatePlan(plan, { fromMessage: firstChanged })
  return plan
}
