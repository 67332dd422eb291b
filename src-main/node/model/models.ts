/**
 * The client's model table: what the app shows and plans with (label, context window, max output, minimum
 * cacheable prefix, thinking mode) and what a pass costs. The ids, their order and their labels are the shared list
 * in src-preload/models.ts (the renderer names models from it before settings are read); every number is here, with
 * its source:
 * docs/reference/anthropic-api.md §5.2 (minimum cacheable length), §5.5 (prices per MTok, multipliers), §8
 * (context window, max output). Numbers marked UNCONFIRMED there are marked `estimated` here.
 *
 * Kept apart from the simulator's own table (src-main/simulator/models.ts) on purpose: the app's predictions are
 * later measured against the simulator, so the two must not read one shared table.
 */
import type { Usage, WireRequest } from '../../engine/model/wire'
import { dayWords, findModelIn, isRetired, lifeOf, MODEL_NAMES, type ModelId } from '../../../src-preload/models'

export interface Prices {
  /** USD per million input tokens. */
  readonly inputPerMTok: number
  readonly outputPerMTok: number
  /** A 5-minute cache write: 1.25 × input (§5.5). */
  readonly cacheWrite5mPerMTok: number
  /** A 1-hour cache write: 2 × input (§5.5). */
  readonly cacheWrite1hPerMTok: number
  /** A cache read: 0.1 × input, except newer models with their own multiplier (§5.5). */
  readonly cacheReadPerMTok: number
  readonly source: string
  /** True when the price comes from third parties only (§5.5 UNCONFIRMED). */
  readonly estimated: boolean
}

export interface ModelInfo {
  readonly id: string
  readonly label: string
  readonly contextWindow: number
  readonly maxOutputTokens: number
  /** §5.2: below this many prompt tokens a breakpoint neither reads nor writes. */
  readonly minCacheableTokens: number
  /** §8: `adaptive` models refuse `thinking.type: "enabled"`; `enabled` models take a budget. */
  readonly thinking: 'adaptive' | 'enabled'
  /**
   * §2.5: every Haiku and the Opus/Sonnet before the keep-all generation (here Sonnet 4.5) drop the thinking of
   * earlier turns once a user message that is not only tool results arrives; the prompt cache sees the request
   * without them. Opus 4.5+, Sonnet 4.6+, Fable and Mythos keep it (billed and cached as input).
   */
  readonly stripsPriorThinking: boolean
  readonly prices: Prices
}

/** §2.5's stripping models among those in the table. */
const STRIPS_PRIOR_THINKING: ReadonlySet<string> = new Set(['claude-haiku-5-5', 'claude-haiku-4-5', 'claude-sonnet-4-5'])
/** §8: models that think whatever the request says ("adaptive, always on"). */
const ALWAYS_THINKS: ReadonlySet<string> = new Set(['claude-opus-5-5', 'claude-fable-5-2', 'claude-mythos-5-2', 'claude-fable-5-1', 'claude-mythos-5-1', 'claude-fable-5', 'claude-mythos-5'])
/** §8: models that think unless the request turns it off ("adaptive (on by default)"). */
const THINKS_BY_DEFAULT: ReadonlySet<string> = new Set(['claude-opus-5'])

/** Rounds away float noise (3 × 0.1 = 0.30000000000000004) so prices read as published. */
const tidy = (usd: number): number => Math.round(usd * 1e6) / 1e6

function prices(input: number, output: number, source: string, readMultiplier = 0.1, estimated = false): Prices {
  return {
    inputPerMTok: input,
    outputPerMTok: output,
    cacheWrite5mPerMTok: tidy(input * 1.25),
    cacheWrite1hPerMTok: tidy(input * 2),
    cacheReadPerMTok: tidy(input * readMultiplier),
    source,
    estimated,
  }
}

const PC = 'docs/reference/anthropic-api.md §5.5 [DOC-PC]'
const M = 1_000_000

/** Each model's figures, by the id the shared list names it with (its order and labels: src-preload/models.ts). */
const FIGURES: Readonly<Record<ModelId, Omit<ModelInfo, 'id' | 'label' | 'stripsPriorThinking'>>> = {
  'claude-opus-5-5': { contextWindow: M, maxOutputTokens: 128_000, minCacheableTokens: 512, thinking: 'adaptive', prices: prices(4, 20, '§5.5 official Opus 5.5 model page', 0.05) },
  'claude-sonnet-5-5': { contextWindow: M, maxOutputTokens: 128_000, minCacheableTokens: 1024, thinking: 'adaptive', prices: prices(2, 10, '§5.5 official Sonnet 5.5 model page (read 0.20; a later cut to 0.10 is unconfirmed)') },
  'claude-haiku-5-5': { contextWindow: M, maxOutputTokens: 128_000, minCacheableTokens: 4096, thinking: 'adaptive', prices: prices(0.1, 0.5, '§5.5 third-party only (prompt ≤100k tier)', 0.1, true) },
  'claude-fable-5-2': { contextWindow: M, maxOutputTokens: 128_000, minCacheableTokens: 512, thinking: 'adaptive', prices: prices(10, 50, '§5.5 Fable 5.1 prices, assumed for 5.2', 0.025, true) },
  'claude-mythos-5-2': { contextWindow: M, maxOutputTokens: 128_000, minCacheableTokens: 512, thinking: 'adaptive', prices: prices(10, 50, '§5.5 Mythos 5.1 prices, assumed for 5.2', 0.025, true) },
  'claude-fable-5-1': { contextWindow: M, maxOutputTokens: 128_000, minCacheableTokens: 512, thinking: 'adaptive', prices: prices(10, 50, '§5.5 [DOC-PRICING]', 0.025) },
  'claude-mythos-5-1': { contextWindow: M, maxOutputTokens: 128_000, minCacheableTokens: 512, thinking: 'adaptive', prices: prices(10, 50, '§5.5 [DOC-PRICING]', 0.025) },
  'claude-fable-5': { contextWindow: M, maxOutputTokens: 128_000, minCacheableTokens: 512, thinking: 'adaptive', prices: prices(10, 50, PC) },
  'claude-mythos-5': { contextWindow: M, maxOutputTokens: 128_000, minCacheableTokens: 512, thinking: 'adaptive', prices: prices(10, 50, PC) },
  'claude-opus-5': { contextWindow: M, maxOutputTokens: 128_000, minCacheableTokens: 512, thinking: 'adaptive', prices: prices(5, 25, PC) },
  'claude-sonnet-5': { contextWindow: M, maxOutputTokens: 128_000, minCacheableTokens: 1024, thinking: 'adaptive', prices: prices(2, 10, PC) },
  'claude-opus-4-8': { contextWindow: M, maxOutputTokens: 128_000, minCacheableTokens: 1024, thinking: 'adaptive', prices: prices(5, 25, PC) },
  'claude-opus-4-7': { contextWindow: M, maxOutputTokens: 128_000, minCacheableTokens: 2048, thinking: 'adaptive', prices: prices(5, 25, PC) },
  'claude-opus-4-6': { contextWindow: M, maxOutputTokens: 128_000, minCacheableTokens: 4096, thinking: 'adaptive', prices: prices(5, 25, PC) },
  'claude-sonnet-4-6': { contextWindow: M, maxOutputTokens: 128_000, minCacheableTokens: 1024, thinking: 'adaptive', prices: prices(3, 15, PC) },
  'claude-haiku-4-5': { contextWindow: 200_000, maxOutputTokens: 64_000, minCacheableTokens: 4096, thinking: 'enabled', prices: prices(1, 5, PC) },
  'claude-opus-4-5': { contextWindow: 200_000, maxOutputTokens: 64_000, minCacheableTokens: 4096, thinking: 'enabled', prices: prices(5, 25, PC) },
  'claude-sonnet-4-5': { contextWindow: 200_000, maxOutputTokens: 64_000, minCacheableTokens: 1024, thinking: 'enabled', prices: prices(3, 15, PC) },
}

export const MODELS: ReadonlyArray<ModelInfo> = MODEL_NAMES.map(({ id, label }) => ({ id, label, ...FIGURES[id], stripsPriorThinking: STRIPS_PRIOR_THINKING.has(id) }))

/** The model the app starts with. */
export const DEFAULT_MODEL_ID = 'claude-sonnet-4-6'

/** Finds a model by id, also by a dated id (`claude-haiku-4-5-20251001` → `claude-haiku-4-5`). */
export function findModel(id: string): ModelInfo | null {
  return findModelIn(id, MODELS)
}

/** True for a model of the table (or a dated id of one) the API still serves at `now` (decision 0065). */
export function isServed(id: string, now: number): boolean {
  return findModel(id) !== null && !isRetired(id, now)
}

/** The models a session may be given at `now`: the table's, but those the API no longer serves (decision 0065). */
export function servedModels(now: number): ModelInfo[] {
  return MODELS.filter((m) => !isRetired(m.id, now))
}

/**
 * Why a session cannot be given `id` as its model at `now`, naming the choices; null for a model of the table (or a
 * dated id of one) the API still serves. The table is what the app plans and prices with (decision 0054); a model
 * past its end of life stays in it, to price the passes it made, but no session starts on it or switches to it
 * (decision 0065).
 */
export function modelProblem(id: string, now: number): string | null {
  const choices = `choose one of ${servedModels(now).map((m) => m.id).join(', ')}`
  const info = findModel(id)
  if (!info) return `Unknown model ${id}: ${choices}`
  const life = lifeOf(id, now)
  if (life?.state === 'retired') return `${info.label} (${id}) was retired on ${dayWords(life.endOfLife)}: the API no longer serves it; ${choices}`
  return null
}

/**
 * The cost of one pass in USD (§5.5): input, 5m and 1h writes, reads and output, each at its own rate. When the
 * usage has no 5m/1h split, every write is priced as 5m. Null for a model the table does not know.
 */
export function costUsd(model: string | ModelInfo, usage: Usage): number | null {
  const info = typeof model === 'string' ? findModel(model) : model
  if (!info) return null
  const p = info.prices
  const split = usage.cache_creation
  const write1h = split ? split.ephemeral_1h_input_tokens : 0
  const write5m = split ? split.ephemeral_5m_input_tokens : usage.cache_creation_input_tokens
  return (
    usage.input_tokens * p.inputPerMTok +
    write5m * p.cacheWrite5mPerMTok +
    write1h * p.cacheWrite1hPerMTok +
    usage.cache_read_input_tokens * p.cacheReadPerMTok +
    usage.output_tokens * p.outputPerMTok
  ) / 1_000_000
}

/**
 * The `thinking` a pass sends (docs/decisions/0010-thinking.md): adaptive thinking on the models that take it when
 * the setting is on, else none — `disabled` on a model that would think without being asked, and adaptive always on
 * one that cannot stop (§8), so its thinking is at least shown and given room in `max_tokens`. Models that only take a fixed budget (`enabled`) get none: a budget request cannot
 * be kept warm (`max_tokens: 0` refuses it) and splits the output between thinking and answer by a guess. The
 * thinking is asked for summarised, so it can be read in the chat and the inspector on every model (Opus 4.7 and
 * later omit it by default, §2.5); the signature, and what is billed, are the same either way.
 */
export function thinkingFor(modelId: string, on: boolean): WireRequest['thinking'] | null {
  const info = findModel(modelId)
  if (!info || info.thinking !== 'adaptive') return null
  if (on || ALWAYS_THINKS.has(info.id)) return { type: 'adaptive', display: 'summarized' }
  return THINKS_BY_DEFAULT.has(info.id) ? { type: 'disabled' } : null
}
