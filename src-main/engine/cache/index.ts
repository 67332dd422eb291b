/**
 * Cache-hit attribution (docs/cache-attribution.md), pure: a request walked in cache order, the prediction the
 * cache rules give from earlier passes, the outcome the service reported with its cause and cost, the best possible
 * hit, per-session totals, what-ifs, and edits priced before they happen.
 *
 * Written from docs/reference/anthropic-api.md §5–6 on its own; the simulator's cache model is separate code, and
 * agreement between the two is the measure (test/node/cache/scenarios.test.ts).
 */
export { walkRequest, blockPath, shortPath } from './walk'
export type { RequestWalk, WalkBlock, CacheArea, WalkOptions } from './walk'
export { CacheState, TTL_MS, LONGEST_TTL_MS, eventsOf, compareEvents } from './state'
export { CacheTimeline } from './timeline'
export type { PassCacheFacts, FactAttempt, FactRead, FactWrite, FactBreakpoint, CacheEntry, CacheEvent, PendingWrite } from './state'
export { TokenScale } from './scale'
export { predict, LOOKBACK_POSITIONS } from './predict'
export type { Prediction, BreakpointPrediction, BreakpointAction, TokenSplit } from './predict'
export { bestPossibleHit, firstNewMessage } from './limit'
export type { BestHit, LimitReason, MessageOrigin } from './limit'
export { contextFromPlan, changedSections, EMPTY_CONTEXT } from './context'
export type { PassContext, SectionPrint } from './context'
export { contentDivergence, apiDivergence, toolChanges } from './diff'
export type { ApiDivergence, Divergence } from './diff'
export { formatTokens, utcClock } from './causes'
export type { MissCause, MissCauseKind, ChangedWhat, EntryDescription, EntryDescriber } from './causes'
export { splitOfUsage, inputCost, outputCost, missCost, UNKNOWN_MODEL_MIN_CACHEABLE } from './pricing'
export type { CachePrices, CacheModel, ModelLookup } from './pricing'
export { ATTRIBUTION_VERSION, attribute } from './attribute'
export type { AttributeInput, PassAttribution, PassRecord, PassAttemptRecord, PreviousPass, CacheOutcome, BreakpointView } from './attribute'
export { summarizeSession } from './summary'
export type { SessionCacheSummary, SessionCacheTotals, CauseTotal, KeepWarmTotals } from './summary'
export { whatIfStaticTtl1h, whatIfKeepAlive, KEEPALIVE_INTERVAL_MS } from './what-if'
export type { WhatIf } from './what-if'
export { keepWarmDecision, keepWarmHistory, keepWarmPlan, prewarmReachesLastTail, prewarmStripsThinking, KEEP_WARM_DELAY_MS, KEEP_WARM_LATEST_MS, KEEP_WARM_MAX_COST_SHARE, KEEP_WARM_PLACEHOLDER, KEEP_WARM_PENDING_RESULT } from './keep-warm'
export type { KeepWarmDecision, KeepWarmEstimate, KeepWarmInput, KeepWarmSkip } from './keep-warm'
export { priceEdit, priceCandidates, cachedReadPosition, lookbackReadPosition } from './edit-price'
export type { ProposedEdit, EditPrice, PriceEditInput, EditCandidate, PriceCandidatesInput } from './edit-price'
export { usageLimits } from './usage-only'
export { usageRequestsOf } from './transcript'
export type { UsageRequest, UsageAttribution, UsageLimits, UsageLimitReason } from './usage-only'
