/**
 * Attribution of a pass right after it is committed: reads what the session's earlier passes did (their stored
 * attributions carry their cache facts), walks the new request, runs the engine, and stores the result with the
 * pass (`passes.attribution`, served by `pass.get`).
 *
 * Kept per store and session in memory: the facts of every attributed pass and the walk of the latest one, so the
 * next pass costs its new blocks, not the session. After a restart the first call reloads the facts from the
 * stored attributions, and attributes any earlier pass that has none (in order) before the one asked for.
 *
 * The service's cache belongs to the organisation, not to a conversation: a new session of a project sends the same
 * tools and system blocks as the last one and reads them from its entries. So the entries a pass of the app can
 * read are kept once per store, from the passes of every session the app sent (source `loupe`); the passes of
 * other agents (the capture proxy) and of imported transcripts went to other caches and keep their own.
 */
import { ATTRIBUTION_VERSION, attribute, CacheTimeline, contextFromPlan, type ModelLookup, type PassAttribution, type PassCacheFacts, type PassContext, type RequestWalk } from '../../engine/cache'
import type { CacheMissReason, Hasher } from '../../engine/ports'
import type { Entry } from '../../engine/conversation/entries'
import type { WireRequest } from '../../engine/model/wire'
import type { PromptPlan } from '../../engine/prompt/plan'
import { renderRequest } from '../../engine/prompt/render'
import { nodeHasher } from '../hasher'
import type { Store } from '../store'
import { MAX_PREFIX_COUNTS } from '../store/prefix-counts'
import type { PassSummary } from '../store/passes'
import { cacheModels, walkFor } from './models'
import { contextFromStored, diagnosisFromResponse, requestFromBody, storeDescriber } from './stored'

export interface AttributeOptions {
  /** The plan the request was rendered from: gives the request and its provenance without reading the stored body. */
  readonly plan?: PromptPlan
  /** The request as sent, when there is no plan (a replay, a request built by hand). */
  readonly request?: WireRequest
  /** What is known of how the request was made, when there is no plan and the caller has it (the capture proxy). */
  readonly context?: PassContext
  /** What the API's cache diagnostics said, when the caller has it; otherwise read from the response. */
  readonly apiDiagnosis?: CacheMissReason | null
  /** The last attempt's raw response as captured, when the caller has it in memory; otherwise read from the store. */
  readonly responseBody?: string
  /** The session's entries, when the caller holds them (the session's log); otherwise read when a cause names one. */
  readonly entries?: () => ReadonlyArray<Entry>
  readonly hasher?: Hasher
  readonly models?: ModelLookup
  /** Formats times of day in causes; local HH:MM by default. */
  readonly clock?: (at: number) => string
  /** Called when attribution fails; it never throws into the caller. */
  readonly onError?: (error: unknown) => void
}

interface KnownPass {
  readonly id: string
  readonly seq: number
  /**
   * A side request of the conversation, a keep-warm pre-warm or a compaction's summary request: no later pass is
   * compared with it (its cache facts count: what it read and wrote is in the timeline). A summary request sends the
   * conversation with old tool results trimmed and an instruction after it, then the conversation goes on (a dry run
   * discarded, a compaction cancelled) or starts again from the summary: either way, what the conversation sent last
   * is its previous main pass.
   */
  readonly sideRequest: boolean
  readonly attribution: PassAttribution
  walk: RequestWalk | null
  context: PassContext | null
}

/**
 * Whether a later pass may be compared with this one: a conversation pass (not a side request) that reached the service.
 * One that got no response (its facts hold no attempt) read and wrote nothing; the pass after it, a retry, is
 * compared with the one before it, so the tail they share counts as new once.
 */
const isSideRequest = (kind: PassSummary['kind']): boolean => kind === 'keep_warm' || kind === 'summary'

function isComparable(k: KnownPass): boolean {
  return !k.sideRequest && k.attribution.facts.attempts.length > 0
}

/** What is remembered about one session. */
export interface SessionCache {
  readonly known: Map<string, KnownPass>
  /** The highest seq attributed so far, and that pass. */
  maxSeq: number
  latest: KnownPass | null
  /**
   * The conversation pass (not a keep-warm) that reached the service, with the highest seq: what the next pass is
   * compared with. A pass that got no response wrote nothing, so it is never that pass (isComparable).
   */
  latestConversation: KnownPass | null
  /**
   * The cache entries this session's passes left, for the sessions of other sources (proxy, transcript): extended as
   * passes come in order, null until first needed or after an earlier pass was attributed again (then built from
   * `known`). The app's own sessions read the store's shared entries instead, and leave it null.
   */
  timeline: CacheTimeline | null
  loaded: boolean
}

/**
 * How far before a pass the entries of other sessions are loaded from the store. An entry lives at most an hour past
 * its last read; a day covers a prefix kept alive by one session after another.
 */
export const SHARED_WINDOW_MS = 24 * 3_600_000

/** The entries every pass the app sent left in the service's cache, all sessions together. */
interface SharedEntries {
  readonly facts: Map<string, PassCacheFacts>
  /** The entries from every fact, kept as new passes come; null after a pass's facts were replaced (rebuilt when next needed). */
  timeline: CacheTimeline | null
  /** Stored passes queued from this time on are loaded (null: none yet). */
  loadedFrom: number | null
  /**
   * For a pass attributed again (its facts already here): the entries from the facts of every other pass that
   * started by `upTo`. Passes attributed again in the order they started extend it; an earlier one rebuilds it.
   */
  replay: { timeline: CacheTimeline; upTo: number; held: PassCacheFacts | null } | null
}

interface StoreCaches {
  readonly sessions: Map<string, SessionCache>
  readonly shared: SharedEntries
  /**
   * Prefix sizes counted with count_tokens (as a pass went out, prefix-counts.ts; while pricing edits, edit-measure.ts),
   * by prefix key: real counts too. Read from the store's `prefix_counts` when first needed; kept there too.
   */
  counted: Map<string, number> | null
}

const caches = new WeakMap<Store, StoreCaches>()

function storeCaches(store: Store): StoreCaches {
  let byStore = caches.get(store)
  if (!byStore) caches.set(store, (byStore = { sessions: new Map(), shared: { facts: new Map(), timeline: new CacheTimeline(), loadedFrom: null, replay: null }, counted: null }))
  return byStore
}

/** The prefix sizes counted with count_tokens, read from the store once. */
function countedPrefixes(store: Store): Map<string, number> {
  const caches = storeCaches(store)
  caches.counted ??= store.prefixCounts.all()
  return caches.counted
}

/**
 * Keeps a prefix's size as count_tokens gave it (as a pass went out, or while an edit was priced), in memory and in
 * the store. A later pass whose request holds that prefix reads it as its real size: a read that ends there is placed
 * by it, and the first pass after a compaction that takes an edit left for it loses the session block the price
 * counted, not an estimate of it.
 */
export function rememberCountedPrefix(store: Store, key: string, tokens: number, at: number = Date.now()): void {
  const counted = countedPrefixes(store)
  counted.delete(key)
  counted.set(key, tokens)
  if (counted.size > MAX_PREFIX_COUNTS) counted.delete(counted.keys().next().value!)
  try {
    store.prefixCounts.put(key, tokens, at)
  } catch {
    // A store that cannot be written (read-only, closing) keeps the count for this run only: a pass attributed
    // anew after a restart scales that prefix again, as before it was counted.
  }
}

/**
 * Whether the real size of the prefix `key` is known: billed by a pass of the app's own (any session's, from the day
 * before `at` on) or counted with count_tokens since the app started.
 */
export function isPrefixMeasured(store: Store, key: string, at: number): boolean {
  const caches = storeCaches(store)
  if (countedPrefixes(store).has(key)) return true
  loadShared(store, caches.shared, at)
  return sharedTimeline(caches.shared).anchors.has(key)
}

export function sessionCache(store: Store, sessionId: string): SessionCache {
  const sessions = storeCaches(store).sessions
  let cache = sessions.get(sessionId)
  if (!cache) sessions.set(sessionId, (cache = { known: new Map(), maxSeq: 0, latest: null, latestConversation: null, timeline: null, loaded: false }))
  return cache
}

/** Forgets a session (after it is deleted). The entries its passes wrote stay: the service still holds them. */
export function forgetSessionCache(store: Store, sessionId: string): void {
  caches.get(store)?.sessions.delete(sessionId)
}

/** Forgets everything known of a store's cache, as a restart does: it is loaded again from the stored attributions. */
export function forgetStoreCache(store: Store): void {
  caches.delete(store)
}

/** Adds (or replaces, for a pass attributed again) a pass's facts among the shared entries. */
function share(shared: SharedEntries, facts: PassCacheFacts): void {
  const replaced = shared.facts.has(facts.passId)
  shared.facts.set(facts.passId, facts)
  if (replaced) shared.timeline = null
  else shared.timeline?.add(facts)
}

function sharedTimeline(shared: SharedEntries): CacheTimeline {
  shared.timeline ??= timelineOf([...shared.facts.values()].sort((a, b) => a.startedAt - b.startedAt))
  return shared.timeline
}

/** The entries a pass attributed again could read: every other pass's that started by its start (SharedEntries.replay). */
function replayTimeline(shared: SharedEntries, passId: string, start: number): CacheTimeline {
  const replay = shared.replay
  const others = (from: number) => [...shared.facts.values()].filter((f) => f.passId !== passId && f.startedAt > from && f.startedAt <= start).sort((a, b) => a.startedAt - b.startedAt)
  if (!replay || start <= replay.upTo) {
    shared.replay = { timeline: timelineOf(others(Number.NEGATIVE_INFINITY)), upTo: start, held: shared.facts.get(passId) ?? null }
    return shared.replay.timeline
  }
  // The pass held out last time (the one then attributed) is an earlier pass now.
  if (replay.held && replay.held.passId !== passId) replay.timeline.add(shared.facts.get(replay.held.passId) ?? replay.held)
  for (const f of others(replay.upTo)) replay.timeline.add(f)
  replay.upTo = start
  replay.held = shared.facts.get(passId) ?? null
  return replay.timeline
}

/** A session's own timeline (see SessionCache.timeline), built from the passes known when first asked for. */
function ownTimeline(cache: SessionCache): CacheTimeline {
  cache.timeline ??= timelineOf([...cache.known.values()].sort((a, b) => a.seq - b.seq).map((k) => k.attribution.facts))
  return cache.timeline
}

function timelineOf(facts: Iterable<PassCacheFacts>): CacheTimeline {
  const timeline = new CacheTimeline()
  for (const f of facts) timeline.add(f)
  return timeline
}

/** Loads the stored facts of every session's passes queued within SHARED_WINDOW_MS before `at`, once. */
function loadShared(store: Store, shared: SharedEntries, at: number): void {
  const from = at - SHARED_WINDOW_MS
  if (shared.loadedFrom !== null && shared.loadedFrom <= from) return
  for (const row of store.passes.attributionsSince(from, shared.loadedFrom ?? Number.POSITIVE_INFINITY)) {
    if (!shared.facts.has(row.id) && isAttribution(row.attribution)) share(shared, row.attribution.facts)
  }
  shared.loadedFrom = from
}

/**
 * The facts of every pass of the app's own from the day before `at` on, all sessions together: the entries the
 * service holds for them, which a session's next pass reads whoever wrote them (a second session reads the tools and
 * system the first one cached). An edit is priced against these, as the pass after it is attributed.
 */
export function sharedCacheFacts(store: Store, at: number): PassCacheFacts[] {
  const shared = storeCaches(store).shared
  loadShared(store, shared, at)
  return [...shared.facts.values()]
}

function localClock(at: number): string {
  const d = new Date(at)
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`
}

function isAttribution(value: unknown): value is PassAttribution {
  return typeof value === 'object' && value !== null && (value as { version?: unknown }).version === ATTRIBUTION_VERSION && typeof (value as { facts?: unknown }).facts === 'object'
}

/**
 * Attributes one committed pass and stores the result with it. Returns null when the pass cannot be attributed
 * (its body is not a Messages request) or attribution failed (reported through `onError`).
 */
export function attributePass(store: Store, pass: PassSummary | string, options: AttributeOptions = {}): PassAttribution | null {
  try {
    return attributeOrThrow(store, pass, options)
  } catch (err) {
    options.onError?.(err)
    return null
  }
}

function attributeOrThrow(store: Store, pass: PassSummary | string, options: AttributeOptions): PassAttribution | null {
  const hasher = options.hasher ?? nodeHasher
  const detail = typeof pass === 'string' ? store.passes.get(pass) : null
  const summary: PassSummary | null = typeof pass === 'string' ? detail : pass
  if (!summary) return null
  const cache = sessionCache(store, summary.sessionId)
  const start = summary.attempts.at(-1)?.startedAt ?? summary.queuedAt
  const shared = summary.source === 'loupe' ? storeCaches(store).shared : null
  if (shared) loadShared(store, shared, start)
  catchUp(store, cache, summary, options, shared)

  // Passes come in order (the usual case): the latest one is this pass's predecessor and the timeline holds
  // exactly the earlier passes. Otherwise (attributing an earlier pass again), both are rebuilt for it.
  const inOrder = summary.seq > cache.maxSeq
  const prior = inOrder ? [...cache.known.values()] : [...cache.known.values()].filter((k) => k.seq < summary.seq)
  const latestOf = (passes: ReadonlyArray<KnownPass>): KnownPass | null => passes.reduce<KnownPass | null>((best, k) => (!best || k.seq > best.seq ? k : best), null)
  const latest = inOrder ? cache.latest : latestOf(prior)
  // A pass is compared with the conversation passes before it: a keep-warm changes what is cached (its facts are
  // in the timeline), not what the conversation sent.
  const conversation = prior.filter(isComparable)
  const latestConversation = inOrder ? cache.latestConversation : latestOf(conversation)
  let request = options.request ?? (options.plan ? renderRequest(options.plan) : null)
  let context: PassContext | null = options.context ?? (options.plan ? contextFromPlan(options.plan) : null)
  if (!request || !context) {
    const stored = detail ?? store.passes.get(summary.id)
    if (!stored) return null
    request ??= requestFromBody(stored.requestBody)
    context ??= contextFromStored(stored.plan, stored.segments)
  }
  if (!request) return null
  const walk = walkFor(request, hasher, { previous: latest?.walk ?? null, ...(options.models ? { models: options.models } : {}) })

  // The pass compared with: the earlier conversation pass that started last (by seq when two started together).
  let previous: KnownPass | null = latestConversation && latestConversation.attribution.facts.startedAt <= start ? latestConversation : null
  if (!previous || conversation.some((k) => k !== previous && k.attribution.facts.startedAt > previous!.attribution.facts.startedAt && k.attribution.facts.startedAt <= start)) {
    previous = conversation.filter((k) => k.attribution.facts.startedAt <= start).reduce<KnownPass | null>((best, k) => {
      if (!best) return k
      const a = k.attribution.facts.startedAt
      const b = best.attribution.facts.startedAt
      return a > b || (a === b && k.seq > best.seq) ? k : best
    }, null)
  }
  if (previous && (!previous.walk || !previous.context)) loadWalk(store, previous, hasher, options.models)
  // What the cache held: every session's entries for the app's own passes (without this pass's, when it is
  // attributed again), the session's own otherwise.
  let timeline: CacheTimeline
  if (shared) timeline = shared.facts.has(summary.id) ? replayTimeline(shared, summary.id, start) : sharedTimeline(shared)
  else if (inOrder) timeline = ownTimeline(cache)
  else timeline = timelineOf([...prior].sort((a, b) => a.seq - b.seq).map((k) => k.attribution.facts))

  const apiDiagnosis = options.apiDiagnosis !== undefined ? options.apiDiagnosis : diagnosisFromResponse(options.responseBody ?? responseOf(store, summary))
  const result = attribute({
    pass: {
      id: summary.id,
      seq: summary.seq,
      model: summary.model,
      attempts: summary.attempts.map(attemptForCache),
      usage: summary.usage,
      ...(apiDiagnosis !== undefined ? { apiDiagnosis } : {}),
      ...(summary.kind === 'keep_warm' ? { keepWarm: true } : {}),
      ...(summary.kind === 'summary' ? { compactionCall: true } : {}),
      ...(summary.status === 'cancelled' ? { stoppedByUser: true } : {}),
    },
    walk,
    context,
    prior: timeline.facts,
    entriesAt: (at) => timeline.stateAt(at),
    anchors: timeline.anchors,
    estimates: timeline.estimates,
    counted: countedPrefixes(store),
    previous: previous ? { facts: previous.attribution.facts, walk: previous.walk, context: previous.context } : null,
    models: options.models ?? cacheModels,
    describeEntries: storeDescriber(store, summary.sessionId, options.entries),
    clock: options.clock ?? localClock,
  })
  store.passes.setAttribution(summary.id, result)
  if (shared) share(shared, result.facts)
  const known: KnownPass = { id: summary.id, seq: summary.seq, sideRequest: isSideRequest(summary.kind), attribution: result, walk, context }
  const replaced = cache.known.get(summary.id)
  cache.known.set(summary.id, known)
  if (inOrder) {
    // Only the newest walks are kept: the next pass takes its shared keys from the latest, and is compared with
    // the latest conversation pass.
    const before = [cache.latest, cache.latestConversation]
    cache.latest = known
    if (isComparable(known)) cache.latestConversation = known
    for (const k of before) {
      if (k && k !== cache.latest && k !== cache.latestConversation) {
        k.walk = null
        k.context = null
      }
    }
    cache.maxSeq = summary.seq
    cache.timeline?.add(result.facts)
  } else if (replaced) {
    // An earlier pass attributed again: the session's own timeline is built again from the facts now known.
    cache.timeline = null
  }
  return result
}

type PassAttempt = PassSummary['attempts'][number]

/**
 * Whether an attempt reached the model service, and so read and wrote the cache: it was answered with a success
 * status (its stream may have broken later). One the service answered with an error status (a refused key, a rate
 * limit, an overload, a 500) got a first byte but was never processed, as a connection that failed.
 */
function attemptReachedService(a: PassAttempt): boolean {
  return a.firstByteAt !== null && (a.status === null || (a.status >= 200 && a.status < 300))
}

/** Whether any attempt of a pass reached the model service (decision 0015); the runtime keeps its breakpoints by it. */
export function reachedService(pass: Pick<PassSummary, 'attempts'>): boolean {
  return pass.attempts.some(attemptReachedService)
}

/** An attempt as the cache sees it: one that did not reach the service has no first byte. */
function attemptForCache(a: PassAttempt): { startedAt: number; firstByteAt: number | null } {
  return { startedAt: a.startedAt, firstByteAt: attemptReachedService(a) ? a.firstByteAt : null }
}

function responseOf(store: Store, summary: PassSummary): string | null {
  const hash = summary.attempts.at(-1)?.responseHash ?? null
  return hash ? store.passes.blobText(hash) : null
}

function loadWalk(store: Store, known: KnownPass, hasher: Hasher, models?: ModelLookup): void {
  const stored = store.passes.get(known.id)
  if (!stored) return
  const request = requestFromBody(stored.requestBody)
  if (request) known.walk = walkFor(request, hasher, models ? { models } : {})
  known.context = contextFromStored(stored.plan, stored.segments)
}

/**
 * Makes sure every earlier pass of the session is known: loads stored attributions the first time, and attributes
 * (in order) any earlier pass that has none yet.
 */
function catchUp(store: Store, cache: SessionCache, summary: PassSummary, options: AttributeOptions, shared: SharedEntries | null): void {
  if (cache.loaded && cache.maxSeq >= summary.seq - 1) return
  const passes = store.passes.list(summary.sessionId).filter((p) => p.seq < summary.seq && !cache.known.has(p.id))
  cache.loaded = true
  for (const p of passes) {
    if (isAttribution(p.attribution)) {
      const known: KnownPass = { id: p.id, seq: p.seq, sideRequest: isSideRequest(p.kind), attribution: p.attribution, walk: null, context: null }
      cache.known.set(p.id, known)
      if (shared && !shared.facts.has(p.id)) share(shared, p.attribution.facts)
      if (p.seq > cache.maxSeq) {
        cache.maxSeq = p.seq
        cache.latest = known
        if (isComparable(known)) cache.latestConversation = known
        cache.timeline?.add(p.attribution.facts)
      } else {
        cache.timeline = null
      }
    } else {
      // Attributed from what the store kept: the options that describe the asked-for pass do not apply to it.
      const { plan: _plan, request: _request, context: _context, apiDiagnosis: _api, responseBody: _body, ...shared } = options
      attributeOrThrow(store, p, shared)
    }
  }
}

/**
 * A pass whose stored attribution was made under an earlier version of the rules (ATTRIBUTION_VERSION). A pass
 * imported from a transcript keeps the attribution it was imported with; one never attributed is not stale.
 */
export function hasStaleAttribution(pass: Pick<PassSummary, 'source' | 'attribution'>): boolean {
  return pass.source !== 'transcript' && pass.attribution !== null && !isAttribution(pass.attribution)
}

/**
 * Attributes again the stale passes among a session's `passes` (as listed), so a reader shows what the current rules
 * say. True when any was: the caller reads them again.
 */
export function refreshStaleAttributions(store: Store, passes: ReadonlyArray<PassSummary>): boolean {
  // The newest: attributing it attributes every earlier pass that needs it first, in order.
  const newest = passes.filter(hasStaleAttribution).at(-1)
  if (!newest) return false
  attributePass(store, newest)
  return true
}
