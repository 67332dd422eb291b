/**
 * Cache diagnostics (docs/reference/anthropic-api.md §6, "cache-diagnosis-2026-04-07"): a fingerprint is kept per
 * response id for requests that carry a `diagnostics` object; a later request naming that id as
 * `diagnostics.previous_message_id` gets the first divergence, checked in the order model, system, tools,
 * messages. `cache_missed_input_tokens` is the previous prompt's tokens from the first differing block on.
 */
import { createHash } from 'node:crypto'
import { canonicalJson, type Sequence } from './sequence'
import type { SimRequest } from './request'

export type CacheMissReason =
  | { readonly type: 'model_changed' | 'system_changed' | 'tools_changed' | 'messages_changed'; readonly cache_missed_input_tokens: number }
  | { readonly type: 'previous_message_not_found' }
  | { readonly type: 'unavailable' }

export interface DiagnosticsResult {
  readonly cache_miss_reason: CacheMissReason
}

interface Fingerprint {
  readonly model: string
  readonly tools: string
  readonly system: string
  /** Per-block content hashes (the cumulative keys), in sequence order, with their level and running total. */
  readonly keys: ReadonlyArray<string>
  readonly levels: ReadonlyArray<string>
  readonly cums: ReadonlyArray<number>
  readonly config: string
}

// A session only ever compares with its previous response; 1,000 fingerprints of 16-hex-digit keys stay small.
/**
 * Responses whose fingerprint is kept. A client names the previous response of its own conversation, so a short
 * window serves every live conversation; each fingerprint holds a key per block, so the window bounds memory.
 */
const FINGERPRINT_LIMIT = 64
const KEY_CHARS = 16

/** A hash, not the text: fingerprints are kept for many responses, and a level's text can be tens of kB. */
function levelDigest(request: SimRequest, level: 'tools' | 'system'): string {
  const json = canonicalJson(level === 'tools' ? request.tools.map(stripCc) : request.system.map(stripCc))
  return createHash('sha256').update(json).digest('hex')
}

function stripCc(block: object): object {
  const { cache_control: _omit, ...rest } = block as Record<string, unknown>
  return rest
}

function fingerprint(request: SimRequest, sequence: Sequence, betas: ReadonlyArray<string>): Fingerprint {
  return {
    // The SDK documents model_changed as "model or speed differs".
    model: `${request.model}|${request.speed ?? 'standard'}`,
    tools: levelDigest(request, 'tools'),
    system: levelDigest(request, 'system'),
    keys: sequence.entries.map((e) => e.key.slice(0, KEY_CHARS)),
    levels: sequence.entries.map((e) => e.level),
    cums: sequence.entries.map((e) => e.cum),
    config: canonicalJson({
      tool_choice: request.tool_choice ?? null,
      thinking: request.thinking ?? null,
      output_config: request.output_config ?? null,
      betas: [...betas].filter((b) => b !== 'cache-diagnosis-2026-04-07').sort(),
    }),
  }
}

function missedFrom(previous: Fingerprint, current: Fingerprint): number {
  let common = 0
  while (common < previous.keys.length && common < current.keys.length && previous.keys[common] === current.keys[common]) common++
  const total = previous.cums[previous.cums.length - 1] ?? 0
  const kept = common > 0 ? previous.cums[common - 1]! : 0
  return total - kept
}

export class DiagnosticsStore {
  private readonly prints = new Map<string, Fingerprint>()

  /**
   * Compares this request with the one named by `previous_message_id` and remembers it under `messageId`.
   * Returns undefined when the request did not ask (no `diagnostics` field), null when nothing diverged.
   */
  diagnose(request: SimRequest, sequence: Sequence, betas: ReadonlyArray<string>, messageId: string): DiagnosticsResult | null | undefined {
    if (!request.diagnostics) return undefined
    const current = fingerprint(request, sequence, betas)
    const previousId = request.diagnostics.previous_message_id ?? null
    this.remember(messageId, current)
    if (previousId === null) return null
    const previous = this.prints.get(previousId)
    if (!previous) return { cache_miss_reason: { type: 'previous_message_not_found' } }
    const missed = (type: 'model_changed' | 'system_changed' | 'tools_changed' | 'messages_changed'): DiagnosticsResult => ({
      cache_miss_reason: { type, cache_missed_input_tokens: missedFrom(previous, current) },
    })
    if (previous.model !== current.model) return missed('model_changed')
    if (previous.system !== current.system) return missed('system_changed')
    if (previous.tools !== current.tools) return missed('tools_changed')
    if (previous.config !== current.config) return { cache_miss_reason: { type: 'unavailable' } }
    // Messages may only have been appended to: every earlier message block must still be in place.
    const firstMessage = previous.levels.indexOf('messages')
    if (firstMessage >= 0) {
      const last = previous.keys.length - 1
      if (current.keys.length <= last || current.keys[last] !== previous.keys[last]) return missed('messages_changed')
    }
    return null
  }

  private remember(messageId: string, print: Fingerprint): void {
    if (this.prints.size >= FINGERPRINT_LIMIT) {
      const oldest = this.prints.keys().next().value
      if (oldest !== undefined) this.prints.delete(oldest)
    }
    this.prints.set(messageId, print)
  }
}
