/**
 * The simulator's own model table: what the server needs to validate a request and run the cache model.
 *
 * Kept apart from the client's price table (src-main/node/model/models.ts) on purpose: the simulator stands in for
 * the remote service, and the app is later judged by how well its own predictions agree with it, so the two sides
 * must not read one shared table. Sources: docs/reference/anthropic-api.md §0 (ids), §5.2 (minimum cacheable
 * length), §7.2 (tool-use system prompt tokens), §8 (context window, max output), §2.5 (thinking behaviour).
 */

export type ThinkingMode = 'enabled_or_adaptive' | 'adaptive_only'

export interface SimModel {
  readonly id: string
  /** Dated or older spellings the API also answers to. */
  readonly aliases: ReadonlyArray<string>
  readonly displayName: string
  readonly contextWindow: number
  readonly maxOutput: number
  /** §5.2. Values for the 5.1/5.2/5.5 generation are not published; see docs/simulator.md. */
  readonly minCacheableTokens: number
  /** §7.2 tool-use system prompt tokens, for tool_choice auto/none and any/tool. */
  readonly toolPromptTokens: { readonly auto: number; readonly forced: number }
  /** §2.5: older Opus/Sonnet and every Haiku drop prior-turn thinking once a non-tool-result user turn arrives. */
  readonly stripsPriorThinking: boolean
  /** §2.3: Claude 4.6 and later refuse a conversation that ends with an assistant message. */
  readonly allowsPrefill: boolean
  readonly thinking: ThinkingMode
  /** §2.5: whether thinking text is shown or omitted when the request does not say. */
  readonly defaultDisplay: 'summarized' | 'omitted'
}

const M = 1_000_000

function model(
  id: string,
  displayName: string,
  fields: Omit<SimModel, 'id' | 'displayName' | 'aliases'> & { readonly aliases?: ReadonlyArray<string> },
): SimModel {
  return { id, displayName, aliases: fields.aliases ?? [], ...fields }
}

const modern = { contextWindow: M, maxOutput: 128_000, stripsPriorThinking: false, allowsPrefill: false } as const

export const SIM_MODELS: ReadonlyArray<SimModel> = [
  model('claude-opus-5-5', 'Claude Opus 5.5', { ...modern, minCacheableTokens: 512, toolPromptTokens: { auto: 286, forced: 406 }, thinking: 'adaptive_only', defaultDisplay: 'omitted' }),
  model('claude-sonnet-5-5', 'Claude Sonnet 5.5', { ...modern, minCacheableTokens: 1024, toolPromptTokens: { auto: 354, forced: 474 }, thinking: 'adaptive_only', defaultDisplay: 'omitted' }),
  model('claude-haiku-5-5', 'Claude Haiku 5.5', { ...modern, minCacheableTokens: 4096, toolPromptTokens: { auto: 354, forced: 474 }, stripsPriorThinking: true, thinking: 'adaptive_only', defaultDisplay: 'omitted' }),
  model('claude-fable-5-2', 'Claude Fable 5.2', { ...modern, minCacheableTokens: 512, toolPromptTokens: { auto: 286, forced: 406 }, thinking: 'adaptive_only', defaultDisplay: 'omitted' }),
  model('claude-mythos-5-2', 'Claude Mythos 5.2', { ...modern, minCacheableTokens: 512, toolPromptTokens: { auto: 286, forced: 406 }, thinking: 'adaptive_only', defaultDisplay: 'omitted' }),
  model('claude-fable-5-1', 'Claude Fable 5.1', { ...modern, minCacheableTokens: 512, toolPromptTokens: { auto: 286, forced: 406 }, thinking: 'adaptive_only', defaultDisplay: 'omitted' }),
  model('claude-mythos-5-1', 'Claude Mythos 5.1', { ...modern, minCacheableTokens: 512, toolPromptTokens: { auto: 286, forced: 406 }, thinking: 'adaptive_only', defaultDisplay: 'omitted' }),
  model('claude-fable-5', 'Claude Fable 5', { ...modern, minCacheableTokens: 512, toolPromptTokens: { auto: 286, forced: 406 }, thinking: 'adaptive_only', defaultDisplay: 'omitted' }),
  model('claude-mythos-5', 'Claude Mythos 5', { ...modern, minCacheableTokens: 512, toolPromptTokens: { auto: 286, forced: 406 }, thinking: 'adaptive_only', defaultDisplay: 'omitted' }),
  model('claude-opus-5', 'Claude Opus 5', { ...modern, minCacheableTokens: 512, toolPromptTokens: { auto: 286, forced: 406 }, thinking: 'adaptive_only', defaultDisplay: 'omitted' }),
  model('claude-sonnet-5', 'Claude Sonnet 5', { ...modern, minCacheableTokens: 1024, toolPromptTokens: { auto: 354, forced: 474 }, thinking: 'adaptive_only', defaultDisplay: 'omitted' }),
  model('claude-opus-4-8', 'Claude Opus 4.8', { ...modern, minCacheableTokens: 1024, toolPromptTokens: { auto: 290, forced: 410 }, thinking: 'adaptive_only', defaultDisplay: 'omitted' }),
  model('claude-opus-4-7', 'Claude Opus 4.7', { ...modern, minCacheableTokens: 2048, toolPromptTokens: { auto: 675, forced: 804 }, thinking: 'adaptive_only', defaultDisplay: 'omitted' }),
  model('claude-mythos-preview', 'Claude Mythos Preview', { ...modern, minCacheableTokens: 2048, toolPromptTokens: { auto: 675, forced: 804 }, thinking: 'adaptive_only', defaultDisplay: 'omitted' }),
  model('claude-opus-4-6', 'Claude Opus 4.6', { ...modern, minCacheableTokens: 4096, toolPromptTokens: { auto: 497, forced: 589 }, thinking: 'enabled_or_adaptive', defaultDisplay: 'summarized' }),
  model('claude-sonnet-4-6', 'Claude Sonnet 4.6', { ...modern, minCacheableTokens: 1024, toolPromptTokens: { auto: 497, forced: 589 }, thinking: 'enabled_or_adaptive', defaultDisplay: 'summarized' }),
  model('claude-haiku-4-5', 'Claude Haiku 4.5', { aliases: ['claude-haiku-4-5-20251001'], contextWindow: 200_000, maxOutput: 64_000, minCacheableTokens: 4096, toolPromptTokens: { auto: 496, forced: 588 }, stripsPriorThinking: true, allowsPrefill: true, thinking: 'enabled_or_adaptive', defaultDisplay: 'summarized' }),
  model('claude-opus-4-5', 'Claude Opus 4.5', { aliases: ['claude-opus-4-5-20251101'], contextWindow: 200_000, maxOutput: 64_000, minCacheableTokens: 4096, toolPromptTokens: { auto: 496, forced: 588 }, stripsPriorThinking: false, allowsPrefill: true, thinking: 'enabled_or_adaptive', defaultDisplay: 'summarized' }),
  model('claude-sonnet-4-5', 'Claude Sonnet 4.5', { aliases: ['claude-sonnet-4-5-20250929'], contextWindow: 200_000, maxOutput: 64_000, minCacheableTokens: 1024, toolPromptTokens: { auto: 496, forced: 588 }, stripsPriorThinking: true, allowsPrefill: true, thinking: 'enabled_or_adaptive', defaultDisplay: 'summarized' }),
]

const byName = new Map<string, SimModel>()
for (const m of SIM_MODELS) {
  byName.set(m.id, m)
  for (const alias of m.aliases) byName.set(alias, m)
}

export function findSimModel(name: string): SimModel | null {
  return byName.get(name) ?? null
}
