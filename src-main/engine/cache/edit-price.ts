/**
 * An edit priced before it happens (docs/design.md §3 and §8 "Files"): given a proposed change to an instruction or memory
 * file, the tool set, or the model, which block moves, how many tokens the next pass pays as a write instead of a
 * read, and what that costs — measured against the cache as it stands now (an edit made after the entries expired
 * re-bills nothing they would not have re-billed anyway).
 *
 * Applying a file edit now rewrites the session block (system[1]); deferring it sends a short "file changed" note
 * after the breakpoints and moves nothing. A tool set change moves the very first block; a model switch starts
 * the other model's cache, cold unless an earlier pass on that model left part of this prompt in it (a switch back).
 *
 * Two ways in. `priceCandidates` is the measured one: the node side builds the part of the next request that exists
 * now twice — as it would be sent without the edit and with it — and counts both with the service's counter
 * (count_tokens), with the prefix up to each breakpoint that stays readable counted too; what moves is told by the
 * prefix keys, what it costs by real counts. `priceEdit` is the estimate it falls back to (no text to build from, or
 * no counter): the chars / 4 estimate scaled between the points earlier passes measured.
 */
import { signedUsd } from '../../../src-preload/money'
import { formatTokens } from './causes'
import type { PassContext } from './context'
import { inputCost, type CacheModel, type CachePrices, type ModelLookup } from './pricing'
import type { TokenScale } from './scale'
import { lookback } from './predict'
import type { CacheState, PassCacheFacts } from './state'
import { blockPath, type RequestWalk } from './walk'

export type ProposedEdit =
  | {
      readonly kind: 'instruction_file' | 'memory_file'
      readonly path: string
      readonly applyNow: boolean
      readonly charsBefore?: number
      readonly charsAfter?: number
      /** The edited text: with it the edit is built into the next request and counted, not estimated. */
      readonly text?: string
    }
  | { readonly kind: 'tools'; readonly added?: ReadonlyArray<string>; readonly removed?: ReadonlyArray<string> }
  | { readonly kind: 'model'; readonly model: string }

export interface EditPrice {
  /** The first block that would change, or null when nothing above the breakpoints moves. */
  readonly movedBlock: { readonly path: string; readonly label: string } | null
  /** Tokens the next pass would write instead of read. */
  readonly rebilledTokens: number
  readonly nextPassUsd: number | null
  readonly withoutEditUsd: number | null
  readonly deltaUsd: number | null
  /** Whether any entry of the last pass is still readable now. */
  readonly cacheWarm: boolean
  /**
   * Tokens the edit adds to what the next pass sends (negative when it removes some): the session block's change
   * applied now, the `file_changed` note deferred.
   */
  readonly addedTokens: number
  /** Every token figure is a real count (count_tokens, or a pass's usage), not an estimate. */
  readonly exact: boolean
  readonly label: string
  /**
   * Applied now: the other files whose text in the session block differs when it is read again from disk, which go
   * out with the edit: changed on disk since it was read, or cut elsewhere by the instructions budget (the label says
   * which).
   */
  readonly alsoApplied?: string[]
  /**
   * A switch to a model whose minimum cacheable prompt is more than this session's whole prompt: that model caches
   * nothing of it, so every pass pays for all of it in full (at the input price) until the conversation grows past
   * the minimum, not only the next one. `perPassUsd`: what that adds to each pass against staying.
   */
  readonly uncacheable?: { readonly model: string; readonly tokens: number; readonly minimum: number; readonly perPassUsd: number | null }
  /**
   * A model switch back to a model an earlier pass of this prompt ran on: the tokens of it that model still holds
   * cached, which the next pass reads there instead of writing. Absent when it holds none (its cache is cold).
   */
  readonly cachedOnModel?: number
  /**
   * A model switch: the part of `deltaUsd` that is cache lost — the re-billed tokens written at the new model's prices
   * where that model, as warm as the old one, would have read them. The pass after the switch is measured against the
   * best possible on its own model, so this is the figure the Cache view and the inspector give as its loss ("lost
   * $…"). The rest of `deltaUsd` is the two models' prices: the same prompt read and written at the new model's
   * prices instead of the old one's. Absent for a switch to a model that caches none of the session (`uncacheable`);
   * 0 when what staying would read is under the new model's minimum (`rebilledUnderMinimum`).
   */
  readonly switchLostUsd?: number
  /**
   * A model switch whose re-billed tokens (what staying would read: after a checkpoint, the tools and system alone) are
   * under the new model's minimum, while the prompt as a whole is not: that model could not have read them however
   * warm, so none of them is cache lost. The pass after the switch is at its limit there, and the Cache view counts
   * no loss for it; the whole `deltaUsd` is that model's prices and minimum.
   */
  readonly rebilledUnderMinimum?: { readonly minimum: number }
  /**
   * An edit above the conversation (a file applied now, the tools): the part of `deltaUsd` that is the re-billed tokens
   * written where they would have been read, the figure the Cache view gives the next pass as lost. The rest is what
   * the edit adds (or removes), which is new text, paid in full either way, and no loss (limit.ts `editedAbove`).
   */
  readonly rebilledUsd?: number
  /**
   * Left for the next compaction: what it costs then. The compaction reads the session block again from disk, so the
   * first pass after it writes the block with the edit where it would have read the block unchanged. The tokens are
   * the block's size now (the edit's own change aside); `usd` is the write's price over the read's.
   */
  readonly atCompaction?: { readonly tokens: number; readonly usd: number | null }
  /**
   * The conversation changed since the last pass other than by going on from it (a message taken back): the price is
   * of the next pass as it will go, without what was taken back. The Cache view measures the pass after against the
   * last pass's prefix, which still held what the taken-back message followed, so it counts more as lost there than
   * this edit's re-billed tokens: what the take-back cost comes with it.
   */
  readonly historyChanged?: true
}

export interface PriceEditInput {
  /** The session's latest pass: its request, context, token scale and facts. */
  readonly walk: RequestWalk
  readonly context: PassContext
  readonly scale: TokenScale
  readonly last: PassCacheFacts
  /** The entries as they stand now. */
  readonly state: CacheState
  readonly now: number
  readonly models: ModelLookup
  readonly edit: ProposedEdit
  /**
   * The facts of this session's earlier passes: a switch back to a model one of them ran on reads what that model
   * still holds of them (their breakpoints whose entries live now), where the request cannot be built on that model.
   */
  readonly earlier?: ReadonlyArray<PassCacheFacts>
}

/** A deferred edit's note ("[AGENTS.md was changed on disk …]"), in tokens: about 40. */
const CHANGED_NOTE_TOKENS = 40

export function priceEdit(input: PriceEditInput): EditPrice {
  const { walk, context, scale, last, state, now, models, edit } = input
  const fromModel = models(last.model)
  const total = last.totalTokens ?? scale.total()
  const liveTokens = (below: number): number => {
    let best = 0
    for (const p of walk.breakpoints) if (p < below && state.live(walk.keys[p]!, now)) best = Math.max(best, scale.at(p))
    return best
  }
  const readNow = liveTokens(walk.blocks.length)
  const cacheWarm = readNow > 0

  let moved: number | null
  let toModel = fromModel
  let extraTokens = 0
  switch (edit.kind) {
    case 'instruction_file':
    case 'memory_file':
      if (!edit.applyNow) {
        moved = null
        extraTokens = CHANGED_NOTE_TOKENS
      } else {
        const session = context.system.indexOf('session')
        const index = session >= 0 ? session : Math.max(0, walk.blocks.filter((b) => b.area === 'system').length - 1)
        moved = walk.blocks.findIndex((b) => b.area === 'system' && b.index === index)
        extraTokens = Math.round(((edit.charsAfter ?? edit.text?.length ?? 0) - (edit.charsBefore ?? 0)) / 4)
      }
      break
    case 'tools': {
      // Tools are sorted by name, so the first block that moves is the first tool at or after the earliest change.
      const names = [...(edit.added ?? []), ...(edit.removed ?? [])].sort()
      const first = names[0]
      const at = first === undefined ? -1 : walk.toolNames.findIndex((n) => n >= first)
      moved = walk.toolNames.length === 0 ? walk.blocks.findIndex((b) => b.area !== 'tools') : at >= 0 ? at : walk.toolNames.length
      break
    }
    case 'model':
      moved = 0
      toModel = models(edit.model)
      break
  }
  if (moved !== null && moved < 0) moved = 0

  const held = edit.kind === 'model' ? heldOnModel(input.earlier ?? [], edit.model, state, now, total) : 0
  const readWith = edit.kind === 'model' ? held : moved === null ? readNow : liveTokens(moved)
  const without = nextPassCost(walk, scale, fromModel.prices, readNow, total)
  const below = uncacheableOn(edit, toModel, total + extraTokens)
  const withEdit = below ? uncachedCost(toModel.prices, total + extraTokens) : nextPassCost(walk, scale, toModel.prices, readWith, total + extraTokens)
  const rebilled = Math.max(0, readNow - readWith)
  const loss = lossParts(edit, below !== null, rebilled, readNow, toModel.minCacheableTokens, (lostTokens) => switchLost(walk, scale, toModel.prices, readWith, lostTokens, total + extraTokens, withEdit))
  const movedBlock = moved === null ? null : { path: moved < walk.blocks.length ? blockPath(walk.blocks[moved]!) : 'tools', label: movedLabel(edit, walk, moved) }
  const delta = withEdit !== null && without !== null ? withEdit - without : null
  const uncacheable = below ? { ...below, perPassUsd: perPassExtra(toModel.prices, fromModel.prices, total + extraTokens) } : undefined
  return {
    movedBlock,
    rebilledTokens: rebilled,
    nextPassUsd: withEdit,
    withoutEditUsd: without,
    deltaUsd: delta,
    cacheWarm,
    addedTokens: extraTokens,
    exact: false,
    label: uncacheable ? uncacheableLabel(uncacheable, false) : `${editLabel(edit, movedBlock, rebilled, delta, cacheWarm, false)}${held > 0 && !below ? heldWords(held) : ''}`,
    ...(uncacheable ? { uncacheable } : {}),
    ...(held > 0 && !below ? { cachedOnModel: held } : {}),
    ...loss,
  }
}

/**
 * What the model a switch goes to still holds of this session, from the facts alone (the request cannot be built on
 * that model to compare keys): the largest count at a breakpoint of an earlier pass on it whose entry lives now.
 * Keys carry the model, so a live one was written by that model. It is what the next pass reads if the prompt still
 * begins as it did then (a message taken back or a compaction since would make it read less): an estimate, said so.
 */
function heldOnModel(earlier: ReadonlyArray<PassCacheFacts>, model: string, state: CacheState, now: number, total: number): number {
  let best = 0
  for (const f of earlier) {
    if (f.model !== model) continue
    for (const b of f.breakpoints) if (b.tokens > best && state.live(b.key, now)) best = b.tokens
  }
  return Math.min(best, total)
}

function heldWords(held: number): string {
  return `; ≈${formatTokens(held)} tokens of it are still cached on that model from its earlier passes, read there if the prompt still begins as it did then`
}

/**
 * The loss a change's price sets apart, as the Cache view will count it on the pass after it: a switch's
 * (`switchLostUsd`; none where what staying reads is under the new model's minimum, which that model could not have
 * read however warm: `rebilledUnderMinimum`), or an edit's re-billed dollars (`rebilledUsd`). `lostUsd` prices a count
 * of tokens written where they would have been read. Nothing for a switch to a model that caches none of the session
 * (`uncacheable`: the pass is at its limit).
 */
function lossParts(
  edit: ProposedEdit,
  uncacheable: boolean,
  rebilled: number,
  readStaying: number,
  minimum: number,
  lostUsd: (tokens: number) => number | null,
): Pick<EditPrice, 'switchLostUsd' | 'rebilledUnderMinimum' | 'rebilledUsd'> {
  if (edit.kind !== 'model') {
    const usd = rebilled > 0 ? lostUsd(rebilled) : null
    return usd !== null ? { rebilledUsd: usd } : {}
  }
  if (uncacheable) return {}
  const underMinimum = rebilled > 0 && readStaying < minimum
  const usd = lostUsd(underMinimum ? 0 : rebilled)
  return { ...(usd !== null ? { switchLostUsd: usd } : {}), ...(underMinimum ? { rebilledUnderMinimum: { minimum } } : {}) }
}

/**
 * The cache a switch or an edit loses: the next pass as priced, against the same pass had it read what it re-bills
 * (`rebilled`), at the prices of the model it runs on — for a switch, the new model as warm as the old one (0 when what
 * it re-bills is under that model's minimum, which no entry there could hold however warm). Null without prices.
 */
function switchLost(walk: RequestWalk, scale: TokenScale, prices: CachePrices | null, readWith: number, rebilled: number, size: number, withEdit: number | null): number | null {
  const warm = nextPassCost(walk, scale, prices, Math.min(size, readWith + rebilled), size)
  return withEdit !== null && warm !== null ? withEdit - warm : null
}

/** The model switched to, when the whole prompt is under its minimum: it caches nothing of this session. */
function uncacheableOn(edit: ProposedEdit, toModel: CacheModel, tokens: number): { model: string; tokens: number; minimum: number } | null {
  return edit.kind === 'model' && tokens < toModel.minCacheableTokens ? { model: edit.model, tokens, minimum: toModel.minCacheableTokens } : null
}

/** A pass that caches nothing: every input token at the input price. */
function uncachedCost(prices: CachePrices | null, total: number): number | null {
  return prices ? inputCost({ read: 0, write1h: 0, write5m: 0, uncached: total, total }, prices) : null
}

/**
 * What each later pass on a model that caches nothing adds against staying: the prompt so far at the input price,
 * against reading it from the cache at the old model's read price (what staying pays for it once warm). The new
 * tail costs about the same either way and is left out of both.
 */
function perPassExtra(to: CachePrices | null, from: CachePrices | null, total: number): number | null {
  if (!to || !from) return null
  return (uncachedCost(to, total) ?? 0) - inputCost({ read: total, write1h: 0, write5m: 0, uncached: 0, total }, from)
}

function uncacheableLabel(u: NonNullable<EditPrice['uncacheable']>, exact: boolean): string {
  const extra = u.perPassUsd === null ? '' : ` (${signedUsd(u.perPassUsd)} a pass)`
  return `${u.model} caches nothing under ${formatTokens(u.minimum)} tokens, and this prompt is ${exact ? '' : '≈'}${formatTokens(u.tokens)}: every pass pays for all of it in full until the conversation grows past that${extra}`
}

/** The part of the next request that exists now, one way or the other. */
export interface EditCandidate {
  /** The walk of the last pass's request with the change made (the session block, the notes, the model). */
  readonly walk: RequestWalk
  /** Its count from the service (count_tokens); null when it could not be counted, and the estimate is scaled. */
  readonly tokens: number | null
  /** `file_changed` notes it carries on the next message (a deferred edit's, or changes already waiting). */
  readonly notes?: number
}

export interface PriceCandidatesInput {
  /** The session's latest pass: its walk, its facts, and its request's count (null when not counted). */
  readonly last: { readonly walk: RequestWalk; readonly facts: PassCacheFacts; readonly tokens: number | null }
  /** Real counts at the last walk's positions: every pass's usage, and the prefixes counted for this price. */
  readonly scale: TokenScale
  readonly state: CacheState
  readonly now: number
  readonly models: ModelLookup
  readonly edit: ProposedEdit
  /** The next pass as it would go without the edit, and with it. */
  readonly without: EditCandidate
  readonly with: EditCandidate
  /**
   * The history was replaced since the last pass (a checkpoint): the next pass sends other messages, so it reads at
   * most the tools and system blocks, and what it writes after them is not known here (the price is not exact).
   */
  readonly historyReplaced?: boolean
  /**
   * With `historyReplaced`: the candidates are the next pass's request built from that other history, so what it
   * writes after the system blocks is known and the price can be exact.
   */
  readonly nextBuilt?: boolean
  /** Index in `system` of the session block, which a compaction reads again from disk: prices a deferred edit then. */
  readonly sessionBlock?: number
  /**
   * Deferred: the session block the next compaction reads from disk is the same with the edit as without it (the
   * edit lies past a file's cut, say): the compaction writes nothing more for it.
   */
  readonly sameAtCompaction?: boolean
  /**
   * The conversation changed since the last pass other than by going on from it (a message taken back): the
   * candidates hold less than the last request. Read as `ownKeys`, and said in the price (`EditPrice.historyChanged`).
   */
  readonly historyChanged?: boolean
  /**
   * The candidates are not the last request's continuation: a message taken back (`historyChanged`), a switch made
   * since the last pass and not sent yet (the candidates are on that model, at its prices), or a last pass that was a
   * pre-warm, whose 1h markers the next pass does not send. Each read is found by the candidate's own keys
   * (lookbackReadPosition), and what the next pass writes is priced at the candidates' own TTLs. With it,
   * `withoutScale` and `withScale` are the candidates' own.
   */
  readonly ownKeys?: boolean
  /**
   * Real counts at the positions of `with`'s walk, where its keys are not the last walk's (a model switch: the other
   * model's own passes pinned its prefixes; `ownKeys`). `scale` when absent.
   */
  readonly withScale?: TokenScale
  /** Real counts at the positions of `without`'s walk, where they are not the last walk's (`ownKeys`). */
  readonly withoutScale?: TokenScale
}

/**
 * Where the next pass's read would end if it sent `candidate`: the highest breakpoint of the last request whose
 * entry is readable now and whose prefix the candidate keeps byte for byte (same key). -1 for none.
 */
export function cachedReadPosition(last: RequestWalk, candidate: RequestWalk, state: CacheState, now: number, options: { systemOnly?: boolean } = {}): number {
  let best = -1
  for (const p of last.breakpoints) {
    if (p >= candidate.keys.length || candidate.keys[p] !== last.keys[p]) break
    if (options.systemOnly && last.blocks[p]!.area === 'messages') break
    if (state.live(last.keys[p]!, now)) best = p
  }
  return best
}

/**
 * Where the next pass would read to when its request is not the last one's continuation, found by its own keys as the
 * service would (§6.4): from each breakpoint of the tools and system, and from the candidate's tail, which the next
 * pass marks again, back at most 20 positions. -1 for none. Two cases: a switch, whose model keys its entries apart
 * (the model salts every key), so the last request's cannot be read, but an earlier pass on that model may have left
 * part of this prompt there (a switch back); and a history changed since the last pass (a message taken back), whose
 * tail the last request's breakpoints passed, but an earlier pass's tail may still be cached.
 */
export function lookbackReadPosition(candidate: RequestWalk, state: CacheState, now: number, options: { systemOnly?: boolean } = {}): number {
  const tail = candidate.breakpoints.at(-1)
  const from = candidate.breakpoints.filter((p) => candidate.blocks[p]!.area !== 'messages' || (p === tail && !options.systemOnly))
  let best = -1
  for (const p of from) best = lookback(candidate, state, now, p, best) ?? best
  return best
}

/**
 * The measured price: the next pass reads up to `cachedReadPosition` and writes the rest of what exists now, with
 * the edit and without it. The new tail (the message the user has not typed yet) costs the same either way and is
 * left out of both. Token figures are real counts when the candidates and the read positions were counted.
 */
export function priceCandidates(input: PriceCandidatesInput): EditPrice {
  const { last, scale, state, now, models, edit } = input
  const walk = last.walk
  const lastBreakpoint = walk.breakpoints.at(-1) ?? walk.blocks.length - 1
  // Everything the last pass could leave cached: the prefix through its last breakpoint.
  const known = scale.at(lastBreakpoint)
  const ratio = scale.ratio() ?? last.facts.ratio ?? 1
  const sizeOf = (c: EditCandidate): number =>
    c.tokens !== null && last.tokens !== null ? known + c.tokens - last.tokens : known + Math.round((c.walk.estimatedTotal - walk.estimatedTotal) * ratio)
  const ownKeys = input.historyChanged === true || input.ownKeys === true
  const systemOnly = input.historyReplaced === true
  const readAt = (c: EditCandidate): number => (ownKeys ? lookbackReadPosition(c.walk, state, now) : cachedReadPosition(walk, c.walk, state, now, { systemOnly }))
  const pWithout = readAt(input.without)
  const withoutScale = input.withoutScale ?? scale
  // Where `with` is read by its own keys (a switch's always are), its positions are its own walk's.
  const withScale = edit.kind === 'model' || ownKeys ? (input.withScale ?? scale) : scale
  const pWith = edit.kind === 'model' ? lookbackReadPosition(input.with.walk, state, now, { systemOnly }) : readAt(input.with)
  const readNow = withoutScale.at(pWithout)
  const readWith = withScale.at(pWith)
  const cacheWarm = walk.breakpoints.some((p) => state.live(walk.keys[p]!, now) !== null)

  // The model the next pass runs on without the edit: the last pass's, or one switched to since.
  const fromModel = models(input.without.walk.model)
  const toModel = edit.kind === 'model' ? models(edit.model) : fromModel
  const sizeWithout = sizeOf(input.without)
  // A switch not counted, where the request on the other model has the same blocks: its size there is that model's
  // own count up to what it holds (its earlier passes pinned it), and the old model's count of the blocks after it —
  // the messages since, which both count alike. Taking the old model's count of the whole would mix the two counts
  // where a switch back reads.
  const alignedSwitch = edit.kind === 'model' && !ownKeys && input.with.walk.blocks.length === walk.blocks.length
  const uncountedSwitch = alignedSwitch && (input.with.tokens === null || last.tokens === null)
  const thereAt = (p: number): number => (pWith < 0 ? scale.at(p) : p <= pWith ? withScale.at(p) : withScale.at(pWith) + scale.at(p) - scale.at(pWith))
  const sizeWith = uncountedSwitch ? thereAt(lastBreakpoint) : sizeOf(input.with)
  // The TTLs the next pass writes at: the last request's, or where the candidates are not its continuation, their own.
  const [withoutTtls, withoutTtlScale] = ownKeys ? [input.without.walk, withoutScale] : [walk, scale]
  const [withTtls, withTtlScale] = ownKeys ? [input.with.walk, withScale] : [walk, scale]
  const without = nextPassCost(withoutTtls, withoutTtlScale, models(input.without.walk.model).prices, readNow, sizeWithout)
  const below = uncacheableOn(edit, toModel, sizeWith)
  const withEdit = below ? uncachedCost(toModel.prices, sizeWith) : nextPassCost(withTtls, withTtlScale, toModel.prices, readWith, sizeWith)
  const delta = withEdit !== null && without !== null ? withEdit - without : null
  // A switch writes on the other model, which may count the same prompt otherwise (its tool prompt, the thinking it
  // strips from earlier turns): what it writes instead of reading is in its own count. Where staying reads the whole
  // of what the last pass could leave, that is the other model's size of it (counted); where it reads less, the
  // read's share of the other model's count.
  const otherCount = edit.kind === 'model' && input.with.tokens !== null && input.without.tokens !== null && input.without.tokens > 0 && input.with.tokens !== input.without.tokens
  const wholeRead = pWithout === lastBreakpoint && alignedSwitch
  const share = otherCount && !wholeRead
  const readNowThere = uncountedSwitch ? thereAt(pWithout) : otherCount ? (wholeRead ? sizeWith : Math.round((readNow * input.with.tokens!) / input.without.tokens!)) : readNow
  // What the other model still holds (a switch back) is read there, in its own count, and not re-billed.
  const rebilled = Math.max(0, readNowThere - readWith)
  const addedTokens = sizeWith - sizeWithout
  // What staying would read, under the new model's minimum: that model could not read it however warm (limit.ts), so
  // the pass after the switch loses none of it.
  const loss = lossParts(edit, below !== null, rebilled, readNowThere, toModel.minCacheableTokens, (lostTokens) => switchLost(withTtls, withTtlScale, toModel.prices, readWith, lostTokens, sizeWith, withEdit))

  // What the edit moves: the first block it changes in what the next pass would otherwise send.
  const a = input.without.walk
  const b = input.with.walk
  let first = 0
  while (first < a.keys.length && first < b.keys.length && a.keys[first] === b.keys[first]) first++
  const moved = first < a.keys.length && first < b.keys.length ? first : null
  const movedBlock = moved === null ? null : { path: blockPath(b.blocks[moved]!), label: movedLabel(edit, b, moved) }

  const counted = last.tokens !== null && input.without.tokens !== null && input.with.tokens !== null
  // The re-billed figure of a switch to a model that counts otherwise is a share, not a count, where staying reads
  // only part of the prompt (a switch that caches nothing says only the prompt's size, which is counted).
  const exact = counted && !(share && !below) && !(input.historyReplaced && !input.nextBuilt) && withoutScale.exact(pWithout) && withScale.exact(pWith) && scale.exact(lastBreakpoint)
  const deferred = (edit.kind === 'instruction_file' || edit.kind === 'memory_file') && !edit.applyNow
  const uncacheable = below ? { ...below, perPassUsd: perPassExtra(toModel.prices, fromModel.prices, sizeWith) } : undefined
  // A deferred edit that changes what the model would be sent moves the session block at the next compaction; unless
  // a change already due (its note travels now) moves it then anyway, and the rewrite is not this edit's to pay.
  // Nothing to pay then either when the block read again is the same, or when the prompt is under the model's minimum
  // (nothing of it is cached to be written instead of read; a compaction only makes it shorter).
  const changesAtCompaction = deferred && (input.with.notes ?? 0) > 0 && input.sameAtCompaction !== true && sizeWithout >= fromModel.minCacheableTokens
  const movedAnyway = (input.without.notes ?? 0) > 0
  const atCompaction = changesAtCompaction && !movedAnyway ? compactionCost(withoutTtls, withoutTtlScale, fromModel.prices, input.sessionBlock) : null
  const compactionPart = atCompaction ? compactionWords(atCompaction) : changesAtCompaction && movedAnyway && input.sessionBlock !== undefined ? COMPACTION_ANYWAY : ''
  const label = uncacheable
    ? uncacheableLabel(uncacheable, exact)
    : deferred
      ? `${deferredLabel(edit.path, input.with.notes ?? 0, addedTokens, dueNoteTokens(input, sizeWithout - known), delta, exact)}${compactionPart}`
      : editLabel(edit, movedBlock, rebilled, delta, cacheWarm, exact)
  return {
    movedBlock,
    rebilledTokens: rebilled,
    nextPassUsd: withEdit,
    withoutEditUsd: without,
    deltaUsd: delta,
    cacheWarm,
    addedTokens,
    exact,
    label,
    ...(uncacheable ? { uncacheable } : {}),
    ...(edit.kind === 'model' && !below && readWith > 0 ? { cachedOnModel: readWith } : {}),
    ...loss,
    ...(atCompaction ? { atCompaction } : {}),
    ...(input.historyChanged ? { historyChanged: true as const } : {}),
  }
}

/**
 * What the first pass after the next compaction pays for writing the session block (system[`index`]) where it would
 * have read it: its tokens now, at its breakpoint's write price over the read price. Null when there is no such block.
 */
function compactionCost(walk: RequestWalk, scale: TokenScale, prices: CachePrices | null, index: number | undefined): EditPrice['atCompaction'] | null {
  if (index === undefined) return null
  const at = walk.blocks.findIndex((b) => b.area === 'system' && b.index === index)
  if (at < 0) return null
  const tokens = scale.at(at) - scale.at(at - 1)
  if (tokens <= 0) return null
  const write = walk.blocks[at]!.ttl === '1h' ? prices?.cacheWrite1hPerMTok : prices?.cacheWrite5mPerMTok
  const usd = prices && write !== undefined ? (tokens * (write - prices.cacheReadPerMTok)) / 1_000_000 : null
  return { tokens, usd }
}

/** What a deferred edit adds at the compaction when a change already due moves the session block then anyway. */
const COMPACTION_ANYWAY = '; at the next compaction the session block is read again and written, with this edit or without it, for the change already due'

function compactionWords(at: NonNullable<EditPrice['atCompaction']>): string {
  return `; at the next compaction the session block is read again with it, and written instead of read: ≈${formatTokens(at.tokens)} tokens${usdText(at.usd)} then`
}

/**
 * The input side of the next pass: `read` tokens from the cache, the rest of the last request written again at its
 * breakpoints' TTLs (1h up to the highest 1h breakpoint of the tools and system, 5m after), the new tail left out (it
 * costs the same either way). A 1h marker on a message is a pre-warm's (keep-warm), not one the next pass sends.
 */
function nextPassCost(walk: RequestWalk, scale: TokenScale, prices: CachePrices | null, read: number, total: number): number | null {
  if (!prices) return null
  let oneHour = read
  for (const p of walk.breakpoints) if (walk.blocks[p]!.ttl === '1h' && walk.blocks[p]!.area !== 'messages') oneHour = Math.max(oneHour, Math.min(scale.at(p), total))
  return inputCost({ read, write1h: oneHour - read, write5m: Math.max(0, total - oneHour), uncached: 0, total }, prices)
}

function movedLabel(edit: ProposedEdit, walk: RequestWalk, moved: number): string {
  switch (edit.kind) {
    case 'instruction_file':
    case 'memory_file':
      return `${blockPath(walk.blocks[moved]!)} · session block (${edit.kind === 'memory_file' ? 'memory' : 'project instructions'} · ${edit.path})`
    case 'tools':
      return 'tools · the tool list'
    case 'model':
      return `everything: the cache is per model (${edit.model})`
  }
}

function usdText(delta: number | null): string {
  return delta === null ? '' : ` (${signedUsd(delta)})`
}

function editLabel(edit: ProposedEdit, moved: EditPrice['movedBlock'], rebilled: number, delta: number | null, warm: boolean, exact: boolean): string {
  const usd = usdText(delta)
  const deferred = (edit.kind === 'instruction_file' || edit.kind === 'memory_file') && !edit.applyNow
  if (!moved) return deferred ? `nothing above the breakpoints moves: a short note travels with the next message${usd}` : `nothing above the breakpoints moves${usd}`
  if (!warm) return `moves ${moved.path}, but nothing is in the cache to lose now (expired, or under the model's minimum): the next pass writes its prefix either way${usd}`
  return `moves ${moved.path}: the next pass re-bills ${exact ? '' : '≈'}${formatTokens(rebilled)} tokens${usd}`
}

/**
 * The `file_changed` notes already due for the next message without the edit, in tokens: what the request without
 * the edit sends beyond the last one (`beyond`), when it carries notes. Said apart from the edit's own figure, which
 * is the difference it makes (so a note already due is neither added to it nor taken from it).
 */
function dueNoteTokens(input: PriceCandidatesInput, beyond: number): number {
  return (input.without.notes ?? 0) > 0 ? Math.max(0, beyond) : 0
}

/**
 * A deferred edit in words: its own effect on the next message (a note that `path` changed, or nothing), and apart
 * from it a note already due for that message, which travels whether or not this edit is saved.
 */
function deferredLabel(path: string, notes: number, added: number, due: number, delta: number | null, exact: boolean): string {
  const usd = usdText(delta)
  const n = (tokens: number) => `${exact ? '' : '≈'}${formatTokens(Math.abs(tokens))}`
  if (notes === 0) return `nothing above the breakpoints moves, and the next message says nothing of it${usd}`
  if (added === 0) {
    const size = due > 0 ? `${n(due)}-token ` : ''
    return `nothing above the breakpoints moves, and this edit adds nothing to the next message: the ${size}note already due that ${path} changed travels with it either way${usd}`
  }
  if (added < 0) return `nothing above the breakpoints moves: this edit makes a note already due unneeded, so the next message is ${n(added)} tokens shorter${usd}`
  const other = due > 0 ? `; a ${n(due)}-token note already due that other files changed travels with it either way` : ''
  // The price is this edit's own: it follows the note it pays for, not the note already due.
  return `nothing above the breakpoints moves: this edit adds a ${n(added)}-token note that ${path} changed to the next message${usd}${other}`
}

