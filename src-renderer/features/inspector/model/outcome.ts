/**
 * The cache outcome badge of a pass in the list, and its cause.
 *
 * The outcome is read from usage alone, as the transcript attribution does (src-main/engine/transcripts/
 * attribution.ts): a pass that reads at least what the previous pass left in the cache (its read + write) is a
 * hit; one that reads less is a partial hit; one that reads nothing a miss. The cause — why the cache stopped —
 * comes from the pass's stored attribution; until that is computed the badge says "not yet attributed". When the
 * attribution has an outcome of its own (it knows the best possible hit), that outcome wins.
 */
import { readAttribution } from './attribution'
import { grouped, oneLine, usd } from '../../../ui/format'
import { isRecord } from './blocks'
import type { UsageLike } from './breakpoints'

/**
 * `unavoidable`: a miss at the best possible hit, which lost nothing (a prefix under the model's minimum, a pause longer
 * than any cache lives): badged "miss" like any other, but grey, as the Cache view's list of misses says it.
 */
export type OutcomeKind = 'first' | 'hit' | 'partial' | 'miss' | 'unavoidable' | 'not_cached' | 'failed' | 'cancelled' | 'running'

export interface PassOutcome {
  readonly kind: OutcomeKind
  readonly label: string
  /** Why, in words; "not yet attributed" when the pass has no attribution yet. */
  readonly cause: string
}

export const NOT_ATTRIBUTED = 'not yet attributed'

export interface PassLike {
  readonly status: 'done' | 'failed' | 'cancelled'
  readonly usage: UsageLike | null
  readonly attribution: unknown
  /** Why the pass failed, as the service or the connection said (PassSummary `error`). */
  readonly error?: { readonly kind: string; readonly message: string } | null
}

/** A failure's own words are cut here in the cause: the response view shows them whole. */
const ERROR_WORDS_CHARS = 200

/**
 * A failed pass that got no response: the attribution's cause says only that the service "refused the request or
 * could not be reached", for want of the reason, which the pass itself records. The reason takes that clause's place
 * (a captured pass's HTTP 400 and its message, a connection that failed).
 */
function failedCause(pass: PassLike, cause: string | null): string | null {
  const error = pass.error
  if (!error || readAttribution(pass.attribution)?.causeKind !== 'no_response') return cause
  return `no response (${oneLine(`${error.kind}: ${error.message}`, ERROR_WORDS_CHARS)}), so it read and wrote nothing`
}

/** A cause in words from whatever attribution the store holds, or null when there is none to read. */
export function attributionCause(attribution: unknown): string | null {
  const view = readAttribution(attribution)
  return view ? (view.cause ?? view.summary) : null
}

export function passOutcome(pass: PassLike, previous: PassLike | null): PassOutcome {
  const outcome = outcomeOf(pass, previous)
  // A hit that wrote more than it read (a continued conversation's first pass, a compaction call) read all it could,
  // but "hit" would say the pass was mostly cached: it says "written" instead, with the same cause.
  const u = pass.usage
  if (outcome.kind === 'hit' && u && u.cache_creation_input_tokens > u.cache_read_input_tokens) return { kind: 'first', label: 'written', cause: outcome.cause }
  return outcome
}

/**
 * Why a keep-warm pre-warm was sent, in words: the engine compares it with nothing, so its own cause ("only the new
 * tail paid") would read as if it were a pass of the conversation.
 */
export const KEEP_WARM_CAUSE = 'a cache pre-warm sent during the pause: it read the conversation so far again, so the next pass finds it still cached'

function outcomeOf(pass: PassLike, previous: PassLike | null): PassOutcome {
  if (isRecord(pass.attribution) && pass.attribution.keepWarm === true && pass.status === 'done') return { kind: 'hit', label: 'warm', cause: KEEP_WARM_CAUSE }
  const cause = attributionCause(pass.attribution)
  if (pass.status === 'failed') return { kind: 'failed', label: 'failed', cause: failedCause(pass, cause) ?? 'the request failed; see the response' }
  // "stopped", as the chat says of the turn: the word fits the list's narrow cache column, and the cause (the
  // badge's title) says who stopped it before what the cache did.
  // A pass stopped before its answer began has a cause that says so ("no response: stopped by the user before the
  // answer began…"): "before the answer ended" ahead of it would say the stop twice, as if of two moments.
  if (pass.status === 'cancelled') {
    if (readAttribution(pass.attribution)?.causeKind === 'no_response' && cause) return { kind: 'cancelled', label: 'stopped', cause }
    return { kind: 'cancelled', label: 'stopped', cause: `cancelled by the user before the answer ended${cause ? ` · ${cause}` : ''}` }
  }
  const view = readAttribution(pass.attribution)
  const attributed = view?.outcome ?? null
  // A cold start is a miss at the physical limit: nothing could have been cached yet.
  if (view?.causeKind === 'cold') return { kind: 'first', label: 'cold', cause: cause ?? 'first pass: nothing cached yet' }
  // An imported transcript's first request has nothing before it to compare with: what it read was cached before the
  // transcript begins, so it is neither a hit nor a miss of this session (the Cache view and the Claude Code dialog
  // count it as neither).
  if (view?.causeKind === 'first') return { kind: 'first', label: 'first', cause: view.summary ?? cause ?? 'first request of the thread' }
  if (attributed === 'full') return { kind: 'hit', label: 'hit', cause: cause ?? 'only the new tail paid' }
  if (attributed === 'partial') return { kind: 'partial', label: 'partial', cause: cause ?? NOT_ATTRIBUTED }
  if (attributed === 'miss') return { kind: lostNothing(pass.attribution) ? 'unavoidable' : 'miss', label: 'miss', cause: cause ?? NOT_ATTRIBUTED }
  const u = pass.usage
  if (!u) return { kind: 'not_cached', label: 'no usage', cause: cause ?? NOT_ATTRIBUTED }
  const read = u.cache_read_input_tokens
  const write = u.cache_creation_input_tokens
  if (read === 0 && write === 0) return { kind: 'not_cached', label: 'not cached', cause: cause ?? NOT_ATTRIBUTED }
  const pu = previous?.usage ?? null
  if (!pu) return read > 0 ? { kind: 'hit', label: 'hit', cause: cause ?? NOT_ATTRIBUTED } : { kind: 'first', label: 'written', cause: cause ?? 'first pass: nothing cached yet' }
  const expected = pu.cache_read_input_tokens + pu.cache_creation_input_tokens
  if (read >= expected && read > 0) return { kind: 'hit', label: 'hit', cause: cause ?? 'read everything the previous pass left cached' }
  if (read > 0) return { kind: 'partial', label: 'partial', cause: cause ?? NOT_ATTRIBUTED }
  return { kind: 'miss', label: 'miss', cause: cause ?? NOT_ATTRIBUTED }
}

/** The attribution counts no token of the pass as lost: the read reached the best possible hit. */
function lostNothing(attribution: unknown): boolean {
  return isRecord(attribution) && isRecord(attribution.miss) && attribution.miss.tokens === 0
}

/**
 * What a pass's miss cost, in the words the Cache view uses for the same figure ("lost $0.0043: 1,234 tokens paid for
 * that could have been read"), so the pass and the session's totals can be read against each other. Null when the
 * pass lost nothing, or when its attribution does not count it (an imported pass: the Cache view prices those).
 */
export function missLine(attribution: unknown): string | null {
  if (!isRecord(attribution) || !isRecord(attribution.miss)) return null
  const tokens = attribution.miss.tokens
  const dollars = attribution.miss.usd
  if (typeof tokens !== 'number' || !Number.isFinite(tokens) || tokens <= 0) return null
  const cost = typeof dollars === 'number' && Number.isFinite(dollars) ? `lost ${usd(dollars)}: ` : ''
  const cause = isRecord(attribution.cause) ? attribution.cause.kind : null
  return `${cost}${grouped(tokens)} tokens paid for that could have been read${cause === 'model_changed' ? SWITCH_LOSS_NOTE : ''}`
}

/**
 * What a model switch's loss measures, where it is given: against reading on the new model. The switch's question
 * priced the pass against staying, so its figure also holds the two models' prices (and says how much of it is this
 * loss: src-renderer/features/chat/switch-cost.ts); without this the two figures read as two prices of one thing.
 */
export const SWITCH_LOSS_NOTE = " on the new model, at its prices (the price Loupe gives before a switch also counts the difference between the two models' prices)"
