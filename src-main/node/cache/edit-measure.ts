/**
 * An edit priced with real token counts (docs/cache-attribution.md, "Edits priced before they happen"). The part of
 * the next request that exists now is the last pass's request as sent; it is built twice — without the edit, and
 * with it — the way the session runtime would build it:
 *
 * - applied now: the session block (system[1]) frozen again from the files with the draft in place
 *   (freezeSessionSection, rendered by the prompt builder), as `SessionRuntime.applyInstructionEdits` does; no
 *   `file_changed` note follows, since applying takes a new baseline;
 * - deferred (at the next compaction): the session block as frozen, and on the next message the `file_changed` notes
 *   the runtime would send (`SessionRuntime.fileChangeNotes` against its baseline), with the draft saved;
 * - without the edit: the session block as frozen now (which may already differ from what the last pass sent) and the
 *   notes already waiting;
 * - a model switch: the same request for the other model, which reads what that model still holds of it (an earlier
 *   pass on it: a switch back).
 *
 * Both are counted with count_tokens, and so is the prefix up to each breakpoint a read would end at when no pass's
 * usage has measured it (the static prefix, tools + system[0], is never read alone): that prefix with a one-word
 * probe message, minus the probe alone. Counts are kept by the hash of what was counted (token-counter.ts), so
 * pricing while the user types counts one new request per draft. When a count fails, the same requests are priced
 * from estimates and the price says so (`exact: false`). After a checkpoint since the last main pass the next pass
 * sends another history: its read stops at the system blocks, and only the figures about them are counted (the
 * re-billed and added tokens; the price as a whole is not exact). Where the next pass does not go on from the last
 * request (a message taken back, a pre-warm as the last pass, a switch not sent yet: `nextBase`), the candidates are
 * built from the request as the runtime would send it now, and each read is found by the candidate's own keys.
 */
import {
  CacheState,
  cachedReadPosition,
  lookbackReadPosition,
  priceCandidates,
  TokenScale,
  type EditPrice,
  type ModelLookup,
  type PassContext,
  type ProposedEdit,
  type RequestWalk,
} from '../../engine/cache'
import type { ContentBlock, TextBlock, WireMessage, WireRequest } from '../../engine/model/wire'
import { freezeSessionSection, identityLine, renderNote, sessionBlockText, sessionChangeWords, sessionFileChanges, type ContextNote, type SessionFileChange, type SnapshotOrigin } from '../../engine/prompt'
import type { GatheredContext } from '../../engine/prompt/gathered'
import type { Hasher } from '../../engine/ports'
import { gatherWithDraft, type FileRoots } from '../files'
import { nodeHasher } from '../hasher'
import { gatherProjectContext } from '../instructions'
import { findModel, thinkingFor } from '../model/models'
import { parseSessionState } from '../session/state'
import type { Store } from '../store'
import { rememberCountedPrefix } from './attribute-pass'
import { prefixRequest, probeRequest } from './prefix-counts'
import { cacheModels, walkFor } from './models'
import { contextFromStored, requestFromBody } from './stored'
import { editBasis, priceSessionEdit, type CacheSummaryOptions, type EditBasis } from './summary'
import type { CountRequest, TokenCounter } from './token-counter'

export interface MeasureOptions extends CacheSummaryOptions {
  /** The service's counter; null prices from estimates. */
  readonly counter: TokenCounter | null
  /** For an instruction or memory file edit with its text: where the files are, and what the runtime would note. */
  readonly files?: {
    readonly roots: FileRoots
    /** The `file_changed` notes the session's next message would carry with the files as `after`. */
    readonly fileChangeNotes: (after: GatheredContext) => ReadonlyArray<ContextNote>
  }
  /**
   * The part of the next pass's request that exists now, as the session's runtime would build it
   * (`SessionRuntime.nextRequest`). After a checkpoint since the last main pass the next pass sends the summary
   * instead of the history the last pass sent, and after a message taken back it sends less than the last pass did:
   * the price is sized on it then. Without it, the next pass is sized on the last request.
   */
  readonly nextRequest?: () => WireRequest | null
}

/** The next pass, without and with the edit, as far as it exists now. */
interface Candidates {
  readonly without: WireRequest
  readonly with: WireRequest
  readonly notesWithout: number
  readonly notesWith: number
  /** A checkpoint re-froze the session since the last main pass: the next pass sends another history. */
  readonly historyReplaced?: boolean
  /** The candidates were built from that other history (`MeasureOptions.nextRequest`), not from the last request. */
  readonly nextBuilt?: boolean
  /**
   * The conversation changed since the last pass other than by going on from it (a message taken back): the
   * candidates were built from it as it stands (`MeasureOptions.nextRequest`), and read by their own keys.
   */
  readonly historyChanged?: boolean
  /**
   * The candidates are not the last request's continuation (a message taken back, a switch not sent yet, a last pass
   * that was a pre-warm): their reads are found by their own keys (`PriceCandidatesInput.ownKeys`).
   */
  readonly ownKeys?: boolean
  /**
   * Other files whose text in the session block differs when it is read again from disk, which applying now does, so
   * they go out with the edit: changed on disk since the block was read, or cut elsewhere by the instructions budget
   * because the edit made another file longer or shorter.
   */
  readonly alsoApplied?: ReadonlyArray<SessionFileChange>
  /** Index in `system` of the session block. */
  readonly sessionBlock?: number
  /** Deferred: the session block the next compaction reads is the same with the edit saved as without it. */
  readonly sameAtCompaction?: boolean
}


interface LastRequest {
  readonly passId: string
  readonly request: WireRequest
  readonly walk: RequestWalk
  readonly context: PassContext
}

/**
 * The last main pass's request, parsed and walked once per pass: its body is re-assembled from the store, which is
 * slow at the end of a long session, and pricing while typing asks for it again and again.
 */
const lastRequests = new WeakMap<Store, Map<string, LastRequest>>()

function lastRequest(store: Store, sessionId: string, passId: string, hasher: Hasher, models: ModelLookup): LastRequest | null {
  let byStore = lastRequests.get(store)
  if (!byStore) lastRequests.set(store, (byStore = new Map()))
  const known = byStore.get(sessionId)
  if (known?.passId === passId) return known
  const stored = store.passes.get(passId)
  const request = stored ? requestFromBody(stored.requestBody) : null
  if (!stored || !request) return null
  const entry = { passId, request, walk: walkFor(request, hasher, { models }), context: contextFromStored(stored.plan, stored.segments) }
  byStore.set(sessionId, entry)
  return entry
}

/** What count_tokens takes: the request's prompt, without the capture's and the sender's own fields. */
export function countable(request: WireRequest): CountRequest {
  return {
    model: request.model,
    ...(request.system ? { system: request.system } : {}),
    ...(request.tools && request.tools.length > 0 ? { tools: request.tools } : {}),
    ...(request.tool_choice ? { tool_choice: request.tool_choice } : {}),
    ...(request.thinking ? { thinking: request.thinking } : {}),
    messages: request.messages,
  } as CountRequest
}

/** `request` with its session block's text replaced (added, or dropped when `text` is null); the same object when equal. */
function withSessionBlock(request: WireRequest, index: number, text: string | null): WireRequest {
  const system = request.system ?? []
  const current = system[index]
  if (current && current.text === text) return request
  if (!current && text === null) return request
  const next: TextBlock[] = [...system]
  if (text === null) next.splice(index, 1)
  else if (current) next[index] = { ...current, text }
  else next.push({ type: 'text', text, cache_control: { type: 'ephemeral' } })
  return { ...request, system: next }
}

/**
 * `request` with the notes where they travel on the next user message: after the last message's content, or, where
 * the conversation ends with an answer (a request built after a checkpoint), in a user message of their own.
 */
function withNotes(request: WireRequest, notes: ReadonlyArray<ContextNote>): WireRequest | null {
  if (notes.length === 0) return request
  const last = request.messages.at(-1)
  if (!last) return null
  const added = notes.map((n): ContentBlock => ({ type: 'text', text: renderNote(n) }))
  if (last.role !== 'user') return { ...request, messages: [...request.messages, { role: 'user', content: added } as WireMessage] }
  const content: ContentBlock[] = [...last.content, ...added]
  return { ...request, messages: [...request.messages.slice(0, -1), { ...last, content } as WireMessage] }
}

/**
 * The last request as the runtime would send it on `model`: its static rules name the model (identityLine), and the
 * thinking a pass sends follows the model (thinkingFor). The thinking setting is read off the request: adaptive
 * thinking sent means on; none sent on a model that takes it, or `disabled`, means off; a model that takes none
 * says nothing, and the setting's default (on) is taken. What the other model still holds of it is found by these keys.
 */
function onModel(request: WireRequest, model: string): WireRequest {
  const from = identityLine(request.model)
  const system = request.system?.map((b, i) => (i === 0 && b.text.includes(from) ? { ...b, text: b.text.replace(from, identityLine(model)) } : b))
  const thinkingOn = request.thinking ? request.thinking.type === 'adaptive' : findModel(request.model)?.thinking !== 'adaptive'
  const thinking = thinkingFor(model, thinkingOn)
  const { thinking: _sent, ...rest } = request
  return { ...rest, model, ...(system ? { system } : {}), ...(thinking ? { thinking } : {}) }
}

/**
 * Whether the next pass's request still begins with the last one through its final breakpoint (the usual case: the
 * answer and what follows it go on from there). Not after a message taken back since then (or another edit of what
 * was sent), which took away what that breakpoint sat on: the next pass then sends less than the last one did, and
 * reads only what it still shares with entries written before.
 */
function goesOn(next: WireRequest, last: LastRequest, hasher: Hasher, models: ModelLookup): boolean {
  const end = last.walk.breakpoints.at(-1)
  if (end === undefined) return true
  // Its messages alone are compared: a session block frozen again since, or a switch, is what is being priced.
  const walk = walkFor({ ...last.request, messages: next.messages }, hasher, { previous: last.walk, models })
  return walk.keys[end] === last.walk.keys[end]
}

/**
 * A checkpoint since the last main pass froze the session block again and replaced the history the next pass sends:
 * that pass reads at most the tools and system blocks, whatever the last pass left cached after them.
 */
function checkpointSince(origin: SnapshotOrigin, basis: EditBasis): boolean {
  const sent = basis.context.sessionOrigin
  return origin.kind === 'checkpoint' && !(sent?.kind === 'checkpoint' && sent.entryId === origin.entryId)
}

/** What the candidates are built from: the next request as far as it exists now, and how it relates to the last. */
interface NextBase {
  readonly base: WireRequest
  readonly historyReplaced: boolean
  readonly nextBuilt: boolean
  readonly historyChanged: boolean
  readonly ownKeys: boolean
}

/**
 * The request the candidates are built from. The last pass's request, as sent, while the next pass goes on from it;
 * the one the runtime builds now (`nextRequest`) after a checkpoint (the summary instead of the history), after a
 * message taken back (less than the last pass sent), or after a pre-warm (the last request's 1h markers and its
 * placeholder message are not what the next pass sends); on the model switched to when a switch was made since.
 */
function nextBase(last: LastRequest, basis: EditBasis, origin: SnapshotOrigin | undefined, sessionModel: string, nextRequest: MeasureOptions['nextRequest'], hasher: Hasher, models: ModelLookup): NextBase {
  const { request } = last
  const historyReplaced = origin !== undefined && checkpointSince(origin, basis)
  // Built once: the whole prompt rendered, asked for on every price.
  const built = nextRequest?.() ?? null
  const historyChanged = !historyReplaced && built !== null && !goesOn(built, last, hasher, models)
  const prewarm = !historyReplaced && !historyChanged && built !== null && basis.last.kind === 'keep_warm'
  const next = historyReplaced || historyChanged || prewarm ? built : null
  // A switch made since the last pass: the next pass goes on the model switched to, whose cache is its own.
  const switched = sessionModel !== request.model
  const base = next ?? request
  return {
    base: switched ? onModel(base, sessionModel) : base,
    historyReplaced,
    nextBuilt: historyReplaced && next !== null,
    historyChanged,
    ownKeys: historyChanged || prewarm || switched,
  }
}

async function fileCandidates(
  store: Store,
  sessionId: string,
  basis: EditBasis,
  last: LastRequest,
  edit: Extract<ProposedEdit, { kind: 'instruction_file' | 'memory_file' }> & { readonly text: string },
  now: number,
  files: NonNullable<MeasureOptions['files']>,
  hasher: Hasher,
  models: ModelLookup,
  nextRequest: MeasureOptions['nextRequest'],
): Promise<Candidates | null> {
  const { request } = last
  const state = parseSessionState(store.sessions.state(sessionId), request.model)
  const frozen = state.frozen
  if (!frozen) return null
  const { roots } = files
  const [disk, draft] = await Promise.all([
    gatherProjectContext(roots.root, { homeDir: roots.homeDir, loupeHome: roots.loupeHome, now }),
    gatherWithDraft(edit.path, edit.text, { ...roots, now }),
  ])
  // After a checkpoint the next pass sends the summary, not the history the last pass sent: sized on what it sends.
  const { base, ...relation } = nextBase(last, basis, frozen.session.origin, state.model, nextRequest, hasher, models)
  const system = base.system ?? []
  const tagged = basis.context.system.indexOf('session')
  const index = tagged >= 0 ? tagged : Math.min(1, system.length)
  const model = state.model
  const current = withSessionBlock(base, index, sessionBlockText(frozen, frozen.session, model, hasher))
  const waiting = files.fileChangeNotes(disk)
  const without = withNotes(current, waiting)
  if (!without) return null
  // The session block as applying now, or the next compaction, would read it from the files.
  const freeze = (gathered: GatheredContext) => freezeSessionSection(gathered, { origin: { kind: 'apply_now', entryId: 'pending', paths: [edit.path] }, contextWindowTokens: findModel(model)?.contextWindow ?? 200_000, skills: true })
  if (edit.applyNow) {
    const section = freeze(draft)
    const alsoApplied = sessionFileChanges(frozen.session, section, [edit.path])
    return { without, with: withSessionBlock(base, index, sessionBlockText(frozen, section, model, hasher)), notesWithout: waiting.length, notesWith: 0, ...relation, alsoApplied }
  }
  const noted = files.fileChangeNotes(draft)
  const withEdit = withNotes(current, noted)
  // What the next compaction reads from disk, with the draft saved and without it: the same block when the edit
  // changes nothing the block holds (text past a file's cut, say), and then the compaction re-bills nothing for it.
  const atCompaction = (gathered: GatheredContext) => sessionBlockText(frozen, freeze(gathered), model, hasher)
  const sameAtCompaction = atCompaction(draft) === atCompaction(disk)
  return withEdit ? { without, with: withEdit, notesWithout: waiting.length, notesWith: noted.length, ...relation, sessionBlock: index, sameAtCompaction } : null
}

/**
 * Prices `edit` with real counts where it can (see above), from estimates where it cannot. Null when the session has
 * no pass yet.
 */
export async function priceSessionEditMeasured(store: Store, sessionId: string, edit: ProposedEdit, now: number, options: MeasureOptions): Promise<EditPrice | null> {
  const hasher = options.hasher ?? nodeHasher
  const models = options.models ?? cacheModels
  const estimate = () => priceSessionEdit(store, sessionId, edit, now, options)
  let last: LastRequest | null = null
  const basis = editBasis(store, sessionId, options, (pass) => (last = lastRequest(store, sessionId, pass.id, hasher, models)))
  if (!basis) return null
  last ??= lastRequest(store, sessionId, basis.last.id, hasher, models)
  if (!last) return estimate()
  const { request, walk } = last

  let candidates: Candidates | null = null
  if ((edit.kind === 'instruction_file' || edit.kind === 'memory_file') && edit.text !== undefined && options.files) {
    candidates = await fileCandidates(store, sessionId, basis, last, { ...edit, text: edit.text }, now, options.files, hasher, models, options.nextRequest)
  } else if (edit.kind === 'model') {
    // After a checkpoint, staying would read the tools and system alone: a switch loses that, not the last pass's
    // whole prefix (the next pass on either model sends the summary, not the history the last pass sent). After a
    // switch not sent yet, staying is staying on that model.
    const sessionState = parseSessionState(store.sessions.state(sessionId), request.model)
    const { base, ...relation } = nextBase(last, basis, sessionState.frozen?.session.origin, sessionState.model, options.nextRequest, hasher, models)
    candidates = { without: base, with: onModel(base, edit.model), notesWithout: 0, notesWith: 0, ...relation }
  }
  if (!candidates) return estimate()

  const withoutWalk = walkFor(candidates.without, hasher, { previous: walk, models })
  const withWalk = walkFor(candidates.with, hasher, { previous: walk, models })
  const state = CacheState.at(basis.facts, now)
  const counter = options.counter
  const count = (r: CountRequest): Promise<number | null> => (counter ? counter.tryCount(r) : Promise.resolve(null))

  // The prefixes a read would end at that no pass's usage measured: counted, so the re-billed tokens are real.
  const anchors = new Map(basis.anchors)
  const realTotal = basis.attribution.facts.totalTokens
  const fallbackRatio = basis.attribution.facts.ratio ?? 1
  const usageScale = new TokenScale({ walk, anchors, realTotal, fallbackRatio })
  const systemOnly = candidates.historyReplaced === true
  // Left for the next compaction, the edit is priced then too, by the session block's size: counted at both ends.
  const deferred = (edit.kind === 'instruction_file' || edit.kind === 'memory_file') && !edit.applyNow
  const sessionAt = deferred && candidates.sessionBlock !== undefined ? walk.blocks.findIndex((b) => b.area === 'system' && b.index === candidates.sessionBlock) : -1
  const sessionEnds = sessionAt >= 0 ? [sessionAt - 1, sessionAt] : []
  // A prefix a read ends at, in the request it is a prefix of: the last one's, or where the candidates are not its
  // continuation, the candidate's own (its reads are found by its keys, and may end at an earlier pass's tail).
  type Prefix = { readonly request: WireRequest; readonly walk: RequestWalk; readonly at: number }
  const ownKeys = candidates.ownKeys === true
  const reads: Prefix[] = ownKeys
    ? [
        { request: candidates.without, walk: withoutWalk, at: lookbackReadPosition(withoutWalk, state, now) },
        ...(edit.kind === 'model' ? [] : [{ request: candidates.with, walk: withWalk, at: lookbackReadPosition(withWalk, state, now) }]),
      ]
    : [withoutWalk, withWalk].map((c) => ({ request, walk, at: cachedReadPosition(walk, c, state, now, { systemOnly }) }))
  const ends: Prefix[] = sessionEnds.map((at) => ({ request, walk, at }))
  const seen = new Set<string>()
  const unmeasured = [...reads, ...ends].filter((p) => {
    const key = p.at >= 0 ? p.walk.keys[p.at]! : ''
    if (p.at < 0 || seen.has(key) || anchors.has(key) || (p.walk === walk && usageScale.exact(p.at))) return false
    seen.add(key)
    return true
  })
  const [lastTokens, withoutTokens, withTokens, probeTokens, ...prefixTokens] = await Promise.all([
    count(countable(request)),
    count(countable(candidates.without)),
    count(countable(candidates.with)),
    unmeasured.length > 0 ? count(probeRequest(request.model)) : Promise.resolve(null),
    ...unmeasured.map((p) => {
      const prefix = prefixRequest(p.request, p.walk, p.at)
      return prefix ? count(prefix) : Promise.resolve(null)
    }),
  ])
  unmeasured.forEach((p, i) => {
    const tokens = prefixTokens[i]
    if (tokens !== null && tokens !== undefined && probeTokens !== null) {
      anchors.set(p.walk.keys[p.at]!, tokens - probeTokens)
      rememberCountedPrefix(store, p.walk.keys[p.at]!, tokens - probeTokens)
    }
  })
  const scale = new TokenScale({ walk, anchors, realTotal, fallbackRatio })
  // A switch reads the other model's entries, whose prefixes that model's own passes pinned under its keys; where the
  // candidates are not the last request's continuation, their reads are at their own positions.
  const withScale = edit.kind === 'model' || ownKeys ? new TokenScale({ walk: withWalk, anchors, realTotal: withTokens, fallbackRatio }) : undefined
  const withoutScale = ownKeys ? new TokenScale({ walk: withoutWalk, anchors, realTotal: withoutTokens, fallbackRatio }) : undefined
  const price = priceCandidates({
    last: { walk, facts: basis.attribution.facts, tokens: lastTokens },
    scale,
    state,
    now,
    models,
    edit,
    without: { walk: withoutWalk, tokens: withoutTokens, notes: candidates.notesWithout },
    with: { walk: withWalk, tokens: withTokens, notes: candidates.notesWith },
    historyReplaced: systemOnly,
    ...(candidates.nextBuilt ? { nextBuilt: true } : {}),
    ...(candidates.sessionBlock !== undefined ? { sessionBlock: candidates.sessionBlock } : {}),
    ...(candidates.sameAtCompaction ? { sameAtCompaction: true } : {}),
    ...(withScale ? { withScale } : {}),
    ...(withoutScale ? { withoutScale } : {}),
    ...(candidates.historyChanged ? { historyChanged: true } : {}),
    ...(ownKeys ? { ownKeys: true } : {}),
  })
  if (edit.kind === 'model' && !systemOnly && !ownKeys) rememberSwitchedPrefix(store, walk, withWalk, scale, lastTokens, withTokens)
  return withAlsoApplied(price, candidates.alsoApplied ?? [])
}

/**
 * The count, on the model a switch goes to, of the prefix the last pass could leave cached: the next pass there could
 * have read it, so its loss is that prefix (limit.ts). Kept under the other model's key, the pass after the switch
 * loses the tokens the price re-billed, not a scaled estimate a few tokens off. Counted when the last pass's count at
 * its last breakpoint is real and the request on the other model has the same blocks: the two requests then differ
 * in their counts by what differs in that prefix.
 */
function rememberSwitchedPrefix(store: Store, walk: RequestWalk, withWalk: RequestWalk, scale: TokenScale, lastTokens: number | null, withTokens: number | null): void {
  const lastBreakpoint = walk.breakpoints.at(-1)
  if (lastBreakpoint === undefined || lastTokens === null || withTokens === null || withWalk.blocks.length !== walk.blocks.length || !scale.exact(lastBreakpoint)) return
  rememberCountedPrefix(store, withWalk.keys[lastBreakpoint]!, scale.at(lastBreakpoint) + withTokens - lastTokens)
}

/**
 * The price names every file that applying now sends, not only the one being edited, and why each is sent otherwise:
 * one that grew pushes another's budget cut, and that file did not change on disk.
 */
function withAlsoApplied(price: EditPrice, changes: ReadonlyArray<SessionFileChange>): EditPrice {
  if (changes.length === 0) return price
  const others = changes.map((c) => c.path)
  const also = `with ${sessionChangeWords(changes)}`
  // "system[1] · session block (project instructions · CLAUDE.md)": the others join the file in its parentheses.
  const moved = price.movedBlock && { ...price.movedBlock, label: price.movedBlock.label.endsWith(')') ? `${price.movedBlock.label.slice(0, -1)}; ${also})` : `${price.movedBlock.label} (${also})` }
  return { ...price, alsoApplied: others, label: `${price.label} (${also})`, movedBlock: moved }
}
