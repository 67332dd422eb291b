/**
 * A session's cache summary and edit prices, from the store: what `session.cacheSummary` and `cache.priceEdit`
 * answer. Passes that were never attributed are attributed first.
 */
import {
  ATTRIBUTION_VERSION,
  CacheState,
  priceEdit,
  summarizeSession,
  TokenScale,
  type EditPrice,
  type ModelLookup,
  type PassAttribution,
  type PassCacheFacts,
  type PassContext,
  type ProposedEdit,
  type RequestWalk,
  type SessionCacheSummary,
} from '../../engine/cache'
import type { Hasher } from '../../engine/ports'
import { nodeHasher } from '../hasher'
import type { Store } from '../store'
import type { PassSummary } from '../store/passes'
import { attributePass, sessionCache, sharedCacheFacts } from './attribute-pass'
import { cacheModels, walkFor } from './models'
import { contextFromStored, requestFromBody } from './stored'

export interface CacheSummaryOptions {
  readonly models?: ModelLookup
  readonly hasher?: Hasher
}

export interface SessionCacheReport extends SessionCacheSummary {
  readonly sessionId: string
  /** Every pass's attribution, oldest first (null for a pass that could not be attributed). */
  readonly passes: ReadonlyArray<{ readonly passId: string; readonly seq: number; readonly attribution: PassAttribution | null }>
}

function isAttribution(value: unknown): value is PassAttribution {
  return typeof value === 'object' && value !== null && (value as { version?: unknown }).version === ATTRIBUTION_VERSION
}

export function sessionCacheSummary(store: Store, sessionId: string, options: CacheSummaryOptions = {}): SessionCacheReport {
  const models = options.models ?? cacheModels
  const passes = store.passes.list(sessionId).map((p) => ({
    passId: p.id,
    seq: p.seq,
    // A pass reconstructed from a transcript keeps the transcript-level attribution it was imported with: its body
    // is not a request the cache engine can walk.
    attribution: isAttribution(p.attribution) ? p.attribution : p.source === 'transcript' ? null : attributePass(store, p, { models, ...(options.hasher ? { hasher: options.hasher } : {}) }),
  }))
  const attributions = passes.flatMap((p) => (p.attribution ? [p.attribution] : []))
  return { sessionId, passes, ...summarizeSession(attributions, models) }
}

/** What an edit is priced against: the session's latest pass, its walk and context, and every pass's cache facts. */
export interface EditBasis {
  readonly last: PassSummary
  readonly attribution: PassAttribution
  readonly walk: RequestWalk
  readonly context: PassContext
  /** The cache facts of every attributed pass, oldest first. */
  readonly facts: ReadonlyArray<PassCacheFacts>
  /** This session's own passes' facts, oldest first: what a switch back finds its earlier passes left. */
  readonly own: ReadonlyArray<PassCacheFacts>
  /** Real token counts by prefix key, from every pass's usage. */
  readonly anchors: Map<string, number>
}

/**
 * The basis of an edit's price; null when the session has no pass yet (there is no cache to lose). The next pass is
 * built from the latest main pass, or the pre-warm sent after it (keep-warm: the same history through the last
 * answer, then a placeholder where the next message goes — the closest to the next pass there is); a summary pass is
 * not what the conversation sends next. Every pass's facts make the cache as it stands.
 */
export function editBasis(
  store: Store,
  sessionId: string,
  options: CacheSummaryOptions = {},
  /** The pass's walk and context when the caller keeps them (the body is otherwise re-read from the store). */
  loaded?: (last: PassSummary) => { readonly walk: RequestWalk; readonly context: PassContext } | null,
): EditBasis | null {
  const models = options.models ?? cacheModels
  const hasher = options.hasher ?? nodeHasher
  let passes = store.passes.list(sessionId)
  const last = passes.filter((p) => p.kind === 'main' || p.kind === 'keep_warm').at(-1) ?? passes.at(-1)
  if (!last) return null
  const current = isAttribution(last.attribution) ? last.attribution : null
  const attribution = current ?? attributePass(store, last, { models, hasher })
  if (!attribution) return null
  // Attributing the last pass attributed every earlier one that had no current attribution: read them again.
  if (current === null) passes = store.passes.list(sessionId)
  const known = sessionCache(store, sessionId).known.get(last.id)
  const kept = known?.walk && known.context ? null : (loaded?.(last) ?? null)
  let walk = known?.walk ?? kept?.walk ?? null
  let context = known?.context ?? kept?.context ?? null
  if (!walk || !context) {
    const stored = store.passes.get(last.id)
    const request = stored ? requestFromBody(stored.requestBody) : null
    if (!stored || !request) return null
    walk = walkFor(request, hasher, { models: options.models ?? cacheModels })
    context = contextFromStored(stored.plan, stored.segments)
  }
  const own = passes.flatMap((p) => (isAttribution(p.attribution) ? [p.attribution.facts] : p.id === last.id ? [attribution.facts] : []))
  // The app's own sessions share the service's entries: what this session reads may have been written by another.
  const facts = last.source === 'loupe' ? withOwn(sharedCacheFacts(store, attribution.facts.startedAt), own) : own
  const anchors = new Map<string, number>()
  for (const f of facts) for (const a of f.anchors) anchors.set(a.key, a.tokens)
  return { last, attribution, walk, context, facts, own, anchors }
}

/**
 * Prices a proposed edit against the session's latest pass and the cache as it stands at `now`, from estimates
 * scaled between measured points (src-main/node/cache/edit-measure.ts counts instead, when it can). Null when the
 * session has no pass yet (there is no cache to lose).
 */
export function priceSessionEdit(store: Store, sessionId: string, edit: ProposedEdit, now: number, options: CacheSummaryOptions = {}): EditPrice | null {
  const basis = editBasis(store, sessionId, options)
  if (!basis) return null
  const { walk, context, attribution, facts, own, anchors } = basis
  const scale = new TokenScale({ walk, anchors, realTotal: attribution.facts.totalTokens, fallbackRatio: attribution.facts.ratio ?? 1 })
  return priceEdit({ walk, context, scale, last: attribution.facts, state: CacheState.at(facts, now), now, models: options.models ?? cacheModels, edit, earlier: own })
}

/** `shared` with the session's own facts in place of any of theirs it holds (the current ones), in start order. */
function withOwn(shared: ReadonlyArray<PassCacheFacts>, own: ReadonlyArray<PassCacheFacts>): PassCacheFacts[] {
  const byPass = new Map(shared.map((f) => [f.passId, f]))
  for (const f of own) byPass.set(f.passId, f)
  return [...byPass.values()].sort((a, b) => a.startedAt - b.startedAt || a.seq - b.seq)
}
