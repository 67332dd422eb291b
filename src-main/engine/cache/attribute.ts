/**
 * Attribution of one pass: the prediction the cache rules give from what earlier passes left behind, the outcome
 * the service reported, the best possible hit, and — for anything less than that — the cause, with what it cost.
 *
 * The prediction never looks at the pass's cache figures: it uses the request, the earlier passes' facts and, to
 * turn estimated tokens into real ones, the request's input total (what count_tokens would have said before it was
 * sent). When the service then reads something other than predicted, the cause is `unexplained`, shown loudly.
 */
import type { Usage } from '../model/wire'
import type { CacheMissReason } from '../ports'
import type { PassContext } from './context'
import { findCause } from './explain'
import { bestPossibleHit, editedAbove, firstNewMessage, newlyStrippedMessage, type BestHit } from './limit'
import { finishPrediction, predict, type BreakpointAction, type Prediction, type TokenSplit } from './predict'
import { inputCost, missCost, outputCost, splitOfUsage, type ModelLookup } from './pricing'
import { TokenScale, type ScaledCount } from './scale'
import { CacheState, type PassCacheFacts } from './state'
import { anchorsOf, factsOf, locateRead } from './facts'
import { addEstimates } from './timeline'
import { apiDivergence, type ApiDivergence } from './diff'
import { utcClock, type EntryDescriber, type MissCause } from './causes'
import { blockPath, type RequestWalk } from './walk'

export interface PassAttemptRecord {
  readonly startedAt: number
  /**
   * The first byte of a response the service went on to answer; null when none came (the connection failed) or
   * when the service refused the request with an error status (a 4xx, a 500, a 529): such a request read and wrote
   * nothing. The adapter decides from the recorded status (attemptForCache in src-main/node/cache/attribute-pass.ts).
   */
  readonly firstByteAt: number | null
}

/** One pass as the attribution needs it. */
export interface PassRecord {
  readonly id: string
  /** Order in the session. */
  readonly seq: number
  readonly model: string
  readonly attempts: ReadonlyArray<PassAttemptRecord>
  readonly usage: Usage | null
  /** The API's cache diagnostics: undefined when not asked, null when it saw no divergence. */
  readonly apiDiagnosis?: CacheMissReason | null
  /** A cache pre-warm sent in an idle gap (keep-warm.ts), not a pass of the conversation. */
  readonly keepWarm?: boolean
  /** A compaction's summary request: counted with the session, but idle gaps are measured between conversation passes. */
  readonly compactionCall?: boolean
  /** The user stopped it (Stop, Esc, a compaction cancelled): with no response, that is why there was none. */
  readonly stoppedByUser?: boolean
}

export interface PreviousPass {
  readonly facts: PassCacheFacts
  /** Its request walk, when still known: needed to name the first changed block. */
  readonly walk: RequestWalk | null
  readonly context: PassContext | null
}

export interface AttributeInput {
  readonly pass: PassRecord
  readonly walk: RequestWalk
  readonly context: PassContext
  /** Facts of the earlier passes whose entries this pass could read (the session's, or every session's of the app). */
  readonly prior: ReadonlyArray<PassCacheFacts>
  /**
   * The entries at a time, from exactly `prior`, when the caller keeps them incrementally (a CacheTimeline);
   * otherwise they are replayed from `prior`.
   */
  readonly entriesAt?: (now: number) => CacheState
  /** Real token counts by prefix key from `prior`, when the caller keeps them (a CacheTimeline's `anchors`). */
  readonly anchors?: ReadonlyMap<string, number>
  /** Counts earlier passes scaled at their breakpoints, nearest a real count (a CacheTimeline's `estimates`); from `prior` otherwise. */
  readonly estimates?: ReadonlyMap<string, ScaledCount>
  /**
   * Prefix sizes the service's counter gave (count_tokens: through a tool or system breakpoint as a pass went out, or
   * while an edit was priced): real counts where no usage pinned one.
   */
  readonly counted?: ReadonlyMap<string, number>
  /** The earlier pass that started last: what this pass is compared with. Null for the first pass. */
  readonly previous: PreviousPass | null
  readonly models: ModelLookup
  readonly describeEntries?: EntryDescriber
  /** Formats a time of day for causes ("applied now at 14:02"); UTC by default. */
  readonly clock?: (at: number) => string
}

export type CacheOutcome = 'full' | 'partial' | 'miss'

export interface BreakpointView {
  readonly path: string
  readonly position: number
  readonly ttl: '5m' | '1h'
  readonly tokens: number
  readonly action: BreakpointAction
  readonly foundPath: string | null
}

/**
 * The shape and rules an attribution was made under. A stored attribution of another version is made again when it
 * is next needed (2: a prefix below the minimum is named by the prefix the previous pass left, a model switch before
 * it; agreement counts the TTL of what was written. 3: a pass that got no response read and wrote nothing. 4: such a
 * pass is a miss at its limit with the cause `no_response`, not the prediction's verdict. 5: the first pass after a
 * compaction says the conversation starts again from its summary. 6: a file a section holds twice, AGENTS.md as
 * itself and imported by CLAUDE.md, is no longer named as changed when it was not; a changed block's cause also says
 * why the read stopped short of the entry before it, when it did. 7: an expired entry is said in plain words, "cache
 * expired: idle 6 m 10 s, longer than the 5 m an entry is kept (TTL)", so a session's passes all read alike. 8: a
 * message taken back is named, both where its place is now held by another and where no breakpoint ended before it.
 * 9: a compaction's summary request is never the previous pass of a later one: after a dry run discarded, the next
 * pass is compared with the conversation's last pass, and an entry of it that expired in between is said to have.
 * 10: what an edit above the conversation added is new content, out of the limit, so a pass after an edit applied now
 * loses what the edit's price said, not that plus the edit's own text. 11: a request the user stopped before any
 * answer says so, instead of blaming the service. 12: a count no usage pinned is scaled from the count an earlier
 * request made nearest a real one, so a read of the system blocks alone after a checkpoint is placed where it ends.
 * 13: the first pass after a compaction on a model whose minimum is over the tools and system says the conversation
 * starts again from the summary, not that a short prefix came "before the new tail". 14: the first pass after a
 * switch to a model whose minimum is over the prefix the previous pass left says so, with that model's minimum and the
 * prefix's tokens, as the switch's question did). 15: that pass says every pass pays in full only when its own prompt
 * is under the minimum too; when it is over (a compaction left the tools and system alone), its tail was written.
 * 16: the last block ends TOKENS_AFTER_LAST_BLOCK before the request's total, so a prompt 1–3 tokens over the minimum
 * is predicted to write nothing, as the service wrote nothing, instead of an "unexplained" miss). 17: an edit applied
 * now is named with when it was applied, and with when each file was edited where that was recorded, instead of
 * calling the apply time the edit time.
 */
export const ATTRIBUTION_VERSION = 17

export interface PassAttribution {
  readonly version: typeof ATTRIBUTION_VERSION
  readonly passId: string
  readonly model: string
  readonly startedAt: number
  /** Present on a keep-warm pre-warm: its tokens and dollars are the session's, its share is not the conversation's. */
  readonly keepWarm?: true
  /** Present on a compaction's summary request: a side request, not a pass the conversation's gaps are measured from. */
  readonly compactionCall?: true
  /** full: only the new tail paid; partial: read up to `readPath`; miss: nothing read. */
  readonly outcome: CacheOutcome
  /** From the usage the service returned (true) or, with no usage, from the prediction alone (false). */
  readonly measured: boolean
  /** The read reached the best possible hit (a cold start or an idle gap over 1h can be a miss at the limit). */
  readonly atLimit: boolean
  readonly cause: MissCause
  /** One line for lists: the outcome and its cause. */
  readonly summary: string
  readonly readPath: string | null
  readonly prediction: {
    readonly readPosition: number
    readonly readPath: string | null
    readonly breakpoints: ReadonlyArray<BreakpointView>
    readonly tokens: TokenSplit
  }
  readonly actual: { readonly readPosition: number | null; readonly readPath: string | null; readonly tokens: TokenSplit } | null
  /** Prediction and service agree on where the read ended and whether anything was written; null without usage. */
  readonly agrees: boolean | null
  readonly limit: BestHit & { readonly path: string | null }
  /** Tokens that could have been read but were paid more for, and the dollars that cost. */
  readonly miss: { readonly tokens: number; readonly usd: number | null; readonly actualUsd: number | null; readonly bestUsd: number | null }
  readonly diagnostics: {
    /** What the API's cache diagnostics said ('not_asked' when the request did not ask). */
    readonly api: CacheMissReason | null | 'not_asked'
    /** What they should say, from the app's own comparison with the previous pass. */
    readonly ours: ApiDivergence | null | 'no_previous'
    readonly disagree: boolean
  }
  readonly facts: PassCacheFacts
}

const pathAt = (walk: RequestWalk, position: number | null): string | null =>
  position === null || position < 0 ? null : blockPath(walk.blocks[position]!)

/** The ratio of the pass that started last (prior passes may come from several sessions, whose seqs do not compare). */
function latestRatio(prior: ReadonlyArray<PassCacheFacts>): number {
  let best: PassCacheFacts | null = null
  for (const f of prior) if (f.ratio !== null && (!best || f.startedAt > best.startedAt || (f.startedAt === best.startedAt && f.seq > best.seq))) best = f
  return best?.ratio ?? 1
}

/** The real token counts the earlier passes' usages pinned, by prefix key; a later pass's count wins. */
function realCountsOf(prior: ReadonlyArray<PassCacheFacts>): Map<string, number> {
  const known = new Map<string, number>()
  for (const f of [...prior].sort((a, b) => a.seq - b.seq)) for (const a of f.anchors) known.set(a.key, a.tokens)
  return known
}

/** The earlier passes' counts of each prefix, the one made nearest a real count kept. */
function estimatesOf(prior: ReadonlyArray<PassCacheFacts>): Map<string, ScaledCount> {
  const nearest = new Map<string, ScaledCount>()
  for (const f of prior) addEstimates(nearest, f)
  return nearest
}

/**
 * The counts the service's counter gave for this request's tool and system prefixes that no usage pinned: kept with
 * the pass's facts, so later passes (and the app after a restart) hold them as real counts.
 */
function countedIn(walk: RequestWalk, anchors: ReadonlyMap<string, number>, counted: ReadonlyMap<string, number> | undefined): Array<{ key: string; tokens: number }> {
  if (!counted || counted.size === 0) return []
  const out: Array<{ key: string; tokens: number }> = []
  for (let i = 0; i < walk.blocks.length && walk.blocks[i]!.area !== 'messages'; i++) {
    const key = walk.keys[i]!
    const tokens = counted.get(key)
    if (tokens !== undefined && !anchors.has(key)) out.push({ key, tokens })
  }
  return out
}

export function attribute(input: AttributeInput): PassAttribution {
  const { pass, walk, context, previous, models } = input
  const model = models(pass.model)
  const prior = input.prior
  // Given by the caller that keeps them across passes (CacheTimeline), or made here from the earlier passes' facts.
  const anchors = input.anchors ?? realCountsOf(prior)
  const estimates = input.estimates ?? estimatesOf(prior)
  const usage = pass.usage
  const actualSplit = usage ? splitOfUsage(usage) : null
  const scale = new TokenScale({ walk, anchors, ...(input.counted ? { counted: input.counted } : {}), estimates, realTotal: actualSplit?.total ?? null, fallbackRatio: latestRatio(prior) })
  const min = model.minCacheableTokens

  // Each attempt that got a response looked up and wrote; a retry reads what an earlier attempt of it wrote.
  const responded = pass.attempts.filter((a) => a.firstByteAt !== null)
  const final = responded.at(-1) ?? pass.attempts.at(-1) ?? { startedAt: 0, firstByteAt: null }
  const now = final.startedAt
  const earlier: PassCacheFacts[] = []
  let prediction: Prediction | null = null
  const stateAt = (at: number): CacheState => (earlier.length === 0 && input.entriesAt ? input.entriesAt(at) : CacheState.at([...prior, ...earlier], at))
  for (const attempt of responded.length > 0 ? responded : [final]) {
    const state = stateAt(attempt.startedAt)
    prediction = predict({ walk, state, now: attempt.startedAt, scale, minCacheableTokens: min })
    if (attempt !== final && attempt.firstByteAt !== null) {
      earlier.push(factsOf(pass, walk, scale, prediction, [{ startedAt: attempt.startedAt, availableAt: attempt.firstByteAt }], []))
    }
  }
  const predicted = prediction!
  const state = stateAt(now)

  // Where the service's read ended, found from its token count.
  const actualPosition = actualSplit ? locateRead(actualSplit.read, walk, scale, state, predicted.readPosition) : null
  // Where the read ended, and what was written: anything, and — when the usage splits its writes by TTL — a 1h
  // write and a 5m write each where the prediction has one (the 1h-before-5m placement of §5.4).
  const sameWrites = (a: TokenSplit, b: TokenSplit): boolean =>
    usage?.cache_creation ? (a.write1h > 0) === (b.write1h > 0) && (a.write5m > 0) === (b.write5m > 0) : (a.write1h + a.write5m > 0) === (b.write1h + b.write5m > 0)
  const agrees = actualSplit ? actualPosition === predicted.readPosition && sameWrites(actualSplit, predicted.tokens) : null

  const previousStart = previous ? previous.facts.startedAt : null
  const newContent = firstNewMessage(context.messages, previous?.context?.messages ?? null, walk.messageCount, previous?.walk?.messageCount ?? previous?.context?.messages?.length ?? 0)
  // A message whose thinking the model now strips reads as new to the service (§2.5).
  // Without the previous request's walk there is nothing to tell a new strip from an old one: no message is excused.
  const stripped = previous?.walk ? newlyStrippedMessage(previous.walk, walk) : null
  const strippedFirst = stripped !== null && stripped < newContent
  const newFrom = strippedFirst ? stripped : newContent
  const reachable = bestPossibleHit({ walk, scale, minCacheableTokens: min, previous: previousStart === null ? null : { startedAt: previousStart }, newFromMessage: newFrom, thinkingStripped: strippedFirst, now })
  // What an edit above the conversation added is new content, paid in full at the limit too.
  const limit = editedAbove(reachable, previous?.walk ?? null, walk, scale, (key) => anchors.get(key) ?? input.counted?.get(key))

  // A pass no attempt of which got a response (a refused key, a connection that failed) never reached a cache: it
  // read and wrote nothing, lost nothing, and later passes are predicted from the ones before it. Its prediction is
  // kept, as what the request would have done.
  const reached = responded.length > 0 || actualSplit !== null
  const readPosition = actualSplit ? (actualPosition ?? -1) : reached ? predicted.readPosition : -1
  const readTokens = actualSplit ? actualSplit.read : reached ? predicted.tokens.read : 0
  const outcome: CacheOutcome =
    readTokens === 0 ? 'miss' : limit.position >= 0 && readPosition >= limit.position ? 'full' : limit.position < 0 && readTokens > 0 ? 'full' : 'partial'
  const cause: MissCause = !reached
    ? {
        kind: 'no_response',
        label: pass.stoppedByUser
          ? 'no response: stopped by the user before the answer began, so it read and wrote nothing'
          : 'no response: the model service refused the request or could not be reached, so it read and wrote nothing',
      }
    : agrees === false
      ? unexplained(walk, predicted, actualSplit!, actualPosition)
      : findCause({ walk, context, previous, state, now, readPosition, limit, scale, model, pass, describe: input.describeEntries, clock: input.clock ?? utcClock })

  const split = actualSplit ?? predicted.tokens
  const prices = model.prices
  // A read that reached the limit's block lost nothing, whatever the token estimate of that block says: the limit's
  // tokens are scaled from estimates, and a few tokens of difference are not a miss (its outcome is a full hit).
  const atLimit = !reached || readTokens >= limit.tokens || (limit.position >= 0 && readPosition >= limit.position)
  const missed = atLimit ? { tokens: 0, usd: prices ? 0 : null } : prices ? missCost(split, limit.tokens, prices) : { tokens: Math.max(0, limit.tokens - split.read), usd: null }
  // What the pass cost: from the usage, else as predicted; nothing when it never reached the service.
  const actualUsd = !prices ? null : reached ? inputCost(split, prices) + outputCost(usage?.output_tokens ?? 0, prices) : 0
  const written = actualSplit && actualPosition !== null && agrees !== false ? finishPrediction({ walk, scale, minCacheableTokens: min }, actualPosition, new Map(), []) : predicted
  const facts = factsOf(
    pass,
    walk,
    scale,
    written,
    responded.map((a) => ({ startedAt: a.startedAt, availableAt: a.firstByteAt! })),
    // The usage's counts last: where both know a prefix, the one the service billed wins.
    [...countedIn(walk, anchors, input.counted), ...(agrees === true ? anchorsOf(walk, written, actualSplit!) : [])],
    !reached || (actualSplit !== null && actualSplit.write1h + actualSplit.write5m === 0),
    reached ? predicted : { ...predicted, reads: [] },
  )

  const ours = previous?.walk ? apiDivergence(previous.walk, walk) : 'no_previous'
  const api = pass.apiDiagnosis === undefined ? 'not_asked' : pass.apiDiagnosis
  return {
    version: ATTRIBUTION_VERSION,
    passId: pass.id,
    model: pass.model,
    startedAt: now,
    ...(pass.keepWarm ? { keepWarm: true as const } : {}),
    ...(pass.compactionCall ? { compactionCall: true as const } : {}),
    outcome,
    measured: actualSplit !== null,
    atLimit,
    cause,
    summary: reached ? summaryLine(outcome, walk, readPosition, cause) : cause.label,
    readPath: pathAt(walk, readPosition),
    prediction: {
      readPosition: predicted.readPosition,
      readPath: pathAt(walk, predicted.readPosition),
      breakpoints: predicted.breakpoints.map((b) => ({ path: blockPath(walk.blocks[b.position]!), position: b.position, ttl: b.ttl, tokens: b.tokens, action: b.action, foundPath: pathAt(walk, b.foundAt) })),
      tokens: predicted.tokens,
    },
    actual: actualSplit ? { readPosition: actualPosition, readPath: pathAt(walk, actualPosition), tokens: actualSplit } : null,
    agrees,
    limit: { ...limit, path: pathAt(walk, limit.position) },
    miss: { tokens: missed.tokens, usd: missed.usd, actualUsd, bestUsd: actualUsd !== null && missed.usd !== null ? actualUsd - missed.usd : null },
    diagnostics: { api, ours, disagree: diagnosticsDisagree(api, ours) },
    facts,
  }
}

function unexplained(walk: RequestWalk, predicted: Prediction, actual: TokenSplit, actualPosition: number | null): MissCause {
  const predictedPath = pathAt(walk, predicted.readPosition)
  const actualPath = pathAt(walk, actualPosition)
  const fmt = (n: number): string => Math.round(n).toLocaleString('en-US')
  const sameRead = actualPosition === predicted.readPosition
  // The read ended where predicted: what differs is what was written, and at which TTL.
  const what = sameRead
    ? `predicted writes of ${fmt(predicted.tokens.write1h)} tokens for 1h and ${fmt(predicted.tokens.write5m)} for 5m, the service wrote ${fmt(actual.write1h)} for 1h and ${fmt(actual.write5m)} for 5m`
    : `predicted a read of ${fmt(predicted.tokens.read)} tokens${predictedPath ? ` (up to ${predictedPath})` : ''}, the service read ${fmt(actual.read)}${actualPath ? ` (up to ${actualPath})` : ''}`
  return {
    kind: 'unexplained',
    predictedRead: predicted.tokens.read,
    actualRead: actual.read,
    predictedPath,
    actualPath,
    label: `unexplained: the cache rules ${what} — the app's bug or the provider's`,
  }
}

function summaryLine(outcome: CacheOutcome, walk: RequestWalk, readPosition: number, cause: MissCause): string {
  const head = outcome === 'full' ? 'full hit' : outcome === 'miss' ? 'miss' : `partial hit up to ${pathAt(walk, readPosition) ?? '?'}`
  return `${head} · ${cause.label}`
}

function diagnosticsDisagree(api: CacheMissReason | null | 'not_asked', ours: ApiDivergence | null | 'no_previous'): boolean {
  if (api === 'not_asked' || ours === 'no_previous') return false
  if (api === null) return ours !== null
  switch (api.type) {
    case 'previous_message_not_found':
      return false
    case 'unavailable':
      return ours !== 'settings_changed'
    default:
      return api.type !== ours
  }
}
