/**
 * Turns a responder's draft into the assistant message the API would return: ids, thinking signatures, the
 * `max_tokens` budget (a pre-warm with max_tokens 0 returns no content, docs/reference/anthropic-api.md §5.1), the
 * room the prompt leaves in the context window (§8: a prompt plus `max_tokens` over the window is accepted, and the
 * output stops where the window fills, as `model_context_window_exceeded`), stop sequences, the stop reason, and the
 * output token count (the same counter as the input).
 */
import type { IdSource } from './ids'
import type { DraftBlock, ResponderOutput } from './responder'
import { signThinking } from './thinking'
import { countTextTokens } from './tokens'
import { TOOL_CALL_FRAMING_TOKENS } from './sequence'

export type OutBlock =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'thinking'; readonly thinking: string; readonly signature: string }
  | {
      readonly type: 'tool_use'
      readonly id: string
      readonly name: string
      readonly input: Readonly<Record<string, unknown>>
      /** A call cut where the output ran out: the JSON of its input as far as it was written (streamed as it is). */
      readonly json?: string
    }

export type OutStopReason = 'end_turn' | 'max_tokens' | 'model_context_window_exceeded' | 'stop_sequence' | 'tool_use' | 'refusal' | 'pause_turn'

export interface ComposedMessage {
  readonly content: ReadonlyArray<OutBlock>
  readonly stopReason: OutStopReason
  readonly stopSequence: string | null
  readonly outputTokens: number
}

export interface ComposeOptions {
  readonly modelId: string
  readonly maxTokens: number
  /** The context window's tokens the prompt leaves; unlimited when absent. */
  readonly windowRoom?: number
  readonly stopSequences: ReadonlyArray<string>
  readonly display: 'summarized' | 'omitted'
  readonly ids: IdSource
}

/** The longest prefix of `text`, cut at a word boundary, that fits in `budget` tokens. */
function fitText(text: string, budget: number): string {
  if (countTextTokens(text) <= budget) return text
  const words = text.split(/(?<=\s)/)
  let lo = 0
  let hi = words.length
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2)
    if (countTextTokens(words.slice(0, mid).join('')) <= budget) lo = mid
    else hi = mid - 1
  }
  return words.slice(0, lo).join('')
}

/**
 * A tool call's input cut where the output ran out (`budget` tokens for its JSON): the JSON as far as it was written,
 * and the keys written whole, as the SDK's partial parse of that stream gives them (a string cut short is left out).
 * The service streams such a call and stops with `max_tokens`; a client that runs it runs a call with part of its
 * input.
 */
export function cutToolInput(input: Readonly<Record<string, unknown>>, budget: number): { readonly json: string; readonly input: Record<string, unknown> } {
  const full = JSON.stringify(input)
  let lo = 0
  let hi = full.length
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2)
    if (countTextTokens(full.slice(0, mid)) <= budget) lo = mid
    else hi = mid - 1
  }
  const json = full.slice(0, lo)
  const parsed: Record<string, unknown> = {}
  let at = 1
  for (const [key, value] of Object.entries(input)) {
    const whole = `${at > 1 ? ',' : ''}${JSON.stringify(key)}:${JSON.stringify(value)}`
    if (at + whole.length > json.length) break
    parsed[key] = value
    at += whole.length
  }
  return { json, input: parsed }
}

function draftTokens(block: DraftBlock): number {
  switch (block.type) {
    case 'text':
      return countTextTokens(block.text)
    case 'thinking':
      return countTextTokens(block.thinking)
    case 'tool_use':
      return TOOL_CALL_FRAMING_TOKENS + countTextTokens(block.name) + countTextTokens(JSON.stringify(block.input))
  }
}

export function compose(output: ResponderOutput, options: ComposeOptions): ComposedMessage {
  if (options.maxTokens === 0) return { content: [], stopReason: 'max_tokens', stopSequence: null, outputTokens: 0 }
  const content: OutBlock[] = []
  // The output stops at whichever comes first: max_tokens, or the window filling.
  const windowRoom = Math.max(0, options.windowRoom ?? Infinity)
  const budget = Math.min(options.maxTokens, windowRoom)
  const cutReason: OutStopReason = windowRoom < options.maxTokens ? 'model_context_window_exceeded' : 'max_tokens'
  let used = 0
  let stopReason: OutStopReason | null = null
  let stopSequence: string | null = null
  for (const block of output.content) {
    const remaining = budget - used
    if (block.type === 'text') {
      let text = block.text
      const hit = options.stopSequences
        .map((s) => ({ s, at: s.length > 0 ? text.indexOf(s) : -1 }))
        .filter((h) => h.at >= 0)
        .sort((a, b) => a.at - b.at)[0]
      if (hit) text = text.slice(0, hit.at)
      const fitted = fitText(text, remaining)
      if (fitted.length > 0) content.push({ type: 'text', text: fitted })
      used += countTextTokens(fitted)
      if (fitted.length < text.length) {
        stopReason = cutReason
        break
      }
      if (hit) {
        stopReason = 'stop_sequence'
        stopSequence = hit.s
        break
      }
      continue
    }
    const cost = draftTokens(block)
    if (cost > remaining) {
      // A tool call is cut where the output runs out, as text is: its input as far as it was written.
      const room = block.type === 'tool_use' ? remaining - TOOL_CALL_FRAMING_TOKENS - countTextTokens(block.name) : 0
      if (block.type === 'tool_use' && room > 0) {
        const cut = cutToolInput(block.input, room)
        content.push({ type: 'tool_use', id: block.id ?? options.ids.toolUseId(), name: block.name, input: cut.input, json: cut.json })
        used = remaining
      }
      stopReason = cutReason
      break
    }
    used += cost
    if (block.type === 'thinking') {
      content.push({ type: 'thinking', thinking: options.display === 'omitted' ? '' : block.thinking, signature: signThinking(options.modelId, block.thinking, options.display) })
    } else {
      content.push({ type: 'tool_use', id: block.id ?? options.ids.toolUseId(), name: block.name, input: block.input })
    }
  }
  const calls = content.some((b) => b.type === 'tool_use')
  return {
    content,
    stopReason: stopReason ?? output.stopReason ?? (calls ? 'tool_use' : 'end_turn'),
    stopSequence,
    outputTokens: Math.max(1, used),
  }
}
