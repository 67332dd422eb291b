/**
 * The cause of a read that stopped short of the best possible hit, found in this order:
 *
 * 1. the limit itself was nothing: first pass, idle longer than any TTL, the prefix left by the previous pass below
 *    the model's minimum (a model switch is named first there: it is what the user chose);
 * 2. the model changed since the previous pass (the cache is per model);
 * 3. a block before the limit differs from the previous pass: the first one, with what produced it (and, when the
 *    read stopped short of the entry before that block too, why: the reasons of 4);
 * 4. the prefix is the same, so an entry was written for it: it expired (TTL), was not readable yet (a concurrent
 *    pass whose response had not begun), or sat beyond the 20-block lookback of every breakpoint;
 * 5. nothing was ever written there: no breakpoint covered that prefix.
 *
 * The previous pass is one that reached the service: a pass that got no response read and wrote nothing, and is
 * never the one a later pass is compared with (its cause is `no_response`, set in attribute.ts).
 */
import type { PassRecord, PreviousPass } from './attribute'
import { changedBlockLabel, formatTokens, ttlLabel, untouchedLabel, type ChangedWhat, type EntryDescriber, type EntryDescription, type MissCause } from './causes'
import { changedSections, type PassContext } from './context'
import { contentDivergence, toolChanges } from './diff'
import type { BestHit } from './limit'
import { LOOKBACK_POSITIONS } from './predict'
import type { CacheModel } from './pricing'
import type { TokenScale } from './scale'
import { LONGEST_TTL_MS, type CacheState } from './state'
import { blockPath, shortPath, type RequestWalk } from './walk'
import { TAKE_BACK_SOURCE } from '../conversation/take-back'
import { formatDuration } from '../../../src-preload/duration'

export interface CauseInput {
  readonly walk: RequestWalk
  readonly context: PassContext
  readonly previous: PreviousPass | null
  readonly state: CacheState
  readonly now: number
  /** Where the read ended (-1: nothing read). */
  readonly readPosition: number
  readonly limit: BestHit
  readonly scale: TokenScale
  readonly model: CacheModel
  readonly pass: PassRecord
  readonly describe: EntryDescriber | undefined
  readonly clock: (at: number) => string
}

export function findCause(input: CauseInput): MissCause {
  const { walk, previous, state, now, readPosition, limit, model } = input
  if (limit.position >= 0 && readPosition >= limit.position) {
    const stripped = limit.thinkingStrippedFrom
    if (stripped === undefined && restartsAtSummary(input)) {
      return { kind: 'none', label: 'only the new tail paid: the conversation starts again from the compaction summary, so all of it after the tools and system is new' }
    }
    if (stripped === undefined) return { kind: 'none', label: 'only the new tail paid' }
    return { kind: 'none', label: `only the new tail paid: from messages[${stripped}] on, ${model.id} no longer sees earlier turns' thinking (it drops it at a new user turn), so that part was written again` }
  }
  // Idle longer than any TTL since the previous conversation pass, yet read: a keep-warm pre-warm sent in the gap
  // wrote a 1h entry that was still alive.
  if (limit.reason === 'idle_beyond_ttl' && readPosition >= 0) return { kind: 'none', label: 'only the new tail paid' }
  switch (limit.reason) {
    case 'cold': {
      if (readPosition < 0) return { kind: 'cold', label: 'first pass of the session: nothing cached yet' }
      // Nothing of this session was cached, yet the service read: the entry was written by an earlier attempt of
      // this pass, or by another session (the cache belongs to the organisation, not to a conversation).
      const writer = state.entry(walk.keys[readPosition]!)?.writtenBy
      const by = writer === input.pass.id ? 'an earlier attempt of this pass' : 'another session'
      return { kind: 'none', label: `first pass of the session, yet read through ${blockPath(walk.blocks[readPosition]!)}: ${by} had written that prefix and it was still cached` }
    }
    case 'idle_beyond_ttl': {
      const idle = limit.idleMs ?? 0
      return { kind: 'ttl_expired', idleMs: idle, ttlMs: LONGEST_TTL_MS, label: `cache expired: idle ${formatDuration(idle)}, longer than any entry is kept (${formatDuration(LONGEST_TTL_MS)} at most), so no cache could bridge it` }
    }
    case 'below_minimum': {
      // The prefix the previous pass could have left for this one is too short for any entry on this model.
      const tokens = limit.shortPrefixTokens ?? 0
      // After a switch the switch is named, with why the pass still lost nothing: the new model could cache none of it.
      if (previous && previous.facts.model !== walk.model) {
        // Whether this pass's own prompt is under the minimum too (nothing written either), or over it (its tail wrote).
        const last = walk.breakpoints.at(-1)
        const promptTokens = last === undefined ? input.scale.total() : input.scale.at(last)
        return modelChanged(previous.facts.model, walk.model, { tokens, minimum: model.minCacheableTokens, promptTokens })
      }
      const minimum = `${model.id}'s minimum of ${formatTokens(model.minCacheableTokens)}`
      // After a checkpoint the "new tail" is the whole history from the summary on: say so, or the label reads as if
      // a few thousand tokens were all the pass sent.
      if (restartsAtSummary(input)) {
        return { kind: 'below_minimum', tokens, minimum: model.minCacheableTokens, label: `prefix below the minimum: the conversation starts again from the compaction summary, so only the tools and system could have been read, and their ${formatTokens(tokens)} tokens are under ${minimum}` }
      }
      return { kind: 'below_minimum', tokens, minimum: model.minCacheableTokens, label: `prefix below the minimum: the ${formatTokens(tokens)} tokens before the new tail are under ${minimum}` }
    }
    case 'new_tail':
      break
  }
  if (previous && previous.facts.model !== walk.model) return modelChanged(previous.facts.model, walk.model)
  const d = previous?.walk ? contentDivergence(previous.walk, walk) : null
  if (d && d.position <= limit.position) {
    const changed = changedBlock(input, d.position, d.reason === 'settings' ? (d.level ?? 'messages') : 'block')
    // The change stops the read at the last entry before it; a read that stopped earlier still had that entry to
    // miss (it expired while a pre-warm kept only the tail alive, or sat past the lookback), and the label says so.
    const before = entryCause(input, d.position - 1)
    return before ? { ...changed, label: `${changed.label}; the prefix before it was not read either: ${before.label}` } : changed
  }
  const found = entryCause(input, limit.position)
  if (found) return found
  const takenBack = d ? takenBackAt(input, d.position) : null
  if (d && takenBack) {
    // The previous pass's breakpoint sat on the message taken back: the prefix up to where the conversation now goes
    // on was inside that entry, never at the end of one. The change is the cause; the label says why it cost more
    // than the message itself.
    const block = walk.blocks[d.position]!
    const origin = input.context.messages?.[block.index] ?? null
    return {
      kind: 'changed_block',
      position: d.position,
      path: shortPath(block),
      area: block.area,
      what: { kind: 'message', historyKind: origin?.kind ?? null, entryIds: origin?.entryIds ?? [], editedBy: takenBack },
      label: `no breakpoint ended at ${blockPath(walk.blocks[limit.position]!)}, where the conversation now goes on: the previous pass's breakpoint sat on a message since taken back by the user${takenBack.at !== null ? ` at ${input.clock(takenBack.at)}` : ''}`,
    }
  }
  return { kind: 'no_breakpoint', label: 'no breakpoint covered this prefix on an earlier pass, so nothing was written to read' }
}

/** The take-back that dropped what the previous pass sent at `position` (a message), or null. */
function takenBackAt(input: CauseInput, position: number): EntryDescription | null {
  const block = input.walk.blocks[position]
  if (block?.area !== 'messages' || !input.describe) return null
  const ids = input.previous?.context?.messages?.[block.index]?.entryIds ?? []
  const edit = ids.length ? input.describe.editOf(ids) : null
  return edit?.kind === 'context_edit' && edit.source === TAKE_BACK_SOURCE ? edit : null
}

/**
 * Why the entry the read should have reached, at or before `from` (and after where the read ended), was not read:
 * it expired, was not readable yet, or sat beyond the lookback. Null when no entry was ever written there.
 */
function entryCause(input: CauseInput, from: number): MissCause | null {
  const { walk, state, now, readPosition } = input
  // The prefix up to `from` is what the previous pass sent: look for the entry that should have been read.
  for (let j = from; j > readPosition; j--) {
    const key = walk.keys[j]!
    const pending = state.pending(key)
    const e = state.entry(key)
    if (pending && !(e && e.availableAt <= now && e.expiresAt > now)) {
      return {
        kind: 'concurrent',
        passId: pending.passId,
        startedAt: now,
        availableAt: pending.availableAt,
        label: `concurrent pass: ${pending.passId} writes ${blockPath(walk.blocks[j]!)}, but its response began ${formatDuration(pending.availableAt - now)} after this pass was sent (entries are readable only once a response begins)`,
      }
    }
    if (!e) continue
    if (e.expiresAt <= now) {
      const idle = now - e.lastTouchedAt
      // The session was not idle (its last pass is recent): only this entry was, while the passes since read a later
      // one (after a pre-warm's, for one): "idle" would name a pause the user never made.
      const busy = input.previous !== null && now - input.previous.facts.startedAt < e.ttlMs
      return { kind: 'ttl_expired', idleMs: idle, ttlMs: e.ttlMs, label: busy ? untouchedLabel(blockPath(walk.blocks[j]!), idle, e.ttlMs) : ttlLabel(idle, e.ttlMs) }
    }
    const after = walk.breakpoints.find((p) => p >= j) ?? null
    const distance = after === null ? null : after - j + 1
    return {
      kind: 'lookback_exceeded',
      entryPosition: j,
      breakpointPosition: after,
      distance,
      label: `lookback window exceeded: the entry at ${blockPath(walk.blocks[j]!)} is ${distance === null ? 'after every breakpoint' : `${distance} positions back from the breakpoint at ${blockPath(walk.blocks[after!]!)}`} (the API checks ${LOOKBACK_POSITIONS})`,
    }
  }
  return null
}

/** The first pass after a compaction checkpoint: it opens with a summary the pass before it did not send. */
function restartsAtSummary(input: CauseInput): boolean {
  const first = input.context.messages?.[0]
  if (first?.kind !== 'compaction_summary') return false
  const before = input.previous?.context?.messages?.[0]
  return before === undefined || before.kind !== 'compaction_summary' || before.entryIds.join() !== first.entryIds.join()
}

/**
 * A switch to another model. `belowMinimum`: the prefix the previous pass left is under the new model's minimum, so
 * nothing of it could be read there. When this pass's own prompt (`promptTokens`, up to its last breakpoint) is under
 * the minimum too, nothing is written either, said in the words the switch's question used (edit-price.ts
 * `uncacheable`): every pass pays in full until the conversation grows past it. When it is over (after a compaction,
 * the tools and system alone were left, and the summary brings the prompt past the minimum), its tail was written for
 * the next pass, and only the read is said to be impossible. Either way the pass's grey miss reads as what was priced.
 */
function modelChanged(from: string, to: string, belowMinimum?: { tokens: number; minimum: number; promptTokens: number }): MissCause {
  const label = `model changed: ${from} → ${to} (the cache is per model)`
  if (!belowMinimum) return { kind: 'model_changed', from, to, label }
  const { tokens, minimum, promptTokens } = belowMinimum
  const under = `${to} caches nothing under ${formatTokens(minimum)} tokens`
  const short =
    promptTokens < minimum
      ? `${under}, and the prompt before the new tail is ${formatTokens(tokens)}: every pass pays for all of it in full until the conversation grows past that`
      : `${under}, and the prefix the previous pass left is ${formatTokens(tokens)}: nothing of it could be read on that model, so nothing was lost; this pass's prompt is over the minimum, so its tail was written for the next pass`
  return { kind: 'model_changed', from, to, belowMinimum: { tokens, minimum }, label: `${label}; ${short}` }
}

/** `changed`: a block's bytes, or the request setting that salts the level named. */
function changedBlock(input: CauseInput, position: number, changed: 'block' | 'system' | 'messages'): MissCause {
  const { walk, previous, context, describe, clock } = input
  const block = walk.blocks[position]!
  const path = shortPath(block)
  let what: ChangedWhat
  if (changed !== 'block') what = { kind: 'settings', level: changed }
  else if (block.area === 'tools') {
    const changes = previous?.walk ? toolChanges(previous.walk, walk) : { added: [], removed: [], changed: [] }
    what = { kind: 'tools', ...changes }
  } else if (block.area === 'system') {
    const kind = context.system[block.index] ?? null
    const sections = changedSections(previous?.context?.fingerprints ?? [], context.fingerprints)
      .filter((s) => s.section !== 'session_context' && s.section !== 'tools')
      .map((s) => ({ section: s.section, part: s.part }))
    const origin = kind === 'session' || kind === null ? context.sessionOrigin : null
    const changedOrigin = origin && origin.kind !== 'session_start' && JSON.stringify(origin) !== JSON.stringify(previous?.context?.sessionOrigin ?? null) ? origin : null
    const originEntry = changedOrigin && describe ? describe.entry(changedOrigin.entryId) : null
    what = { kind: 'system', block: kind, sections, origin: changedOrigin, originAt: originEntry?.at ?? null }
  } else {
    const origin = context.messages?.[block.index] ?? null
    const entryIds = origin?.entryIds ?? []
    // What the previous pass sent in this place may be what was edited: a message dropped (taken back, or by an
    // extension) leaves the next message in its place, which no edit touched.
    const replacedIds = previous?.context?.messages?.[block.index]?.entryIds ?? []
    const editedBy = describe ? (entryIds.length ? describe.editOf(entryIds) : null) ?? (replacedIds.length ? describe.editOf(replacedIds) : null) : null
    what = { kind: 'message', historyKind: origin?.kind ?? null, entryIds, editedBy }
  }
  return { kind: 'changed_block', position, path, area: block.area, what, label: changedBlockLabel(what.kind === 'tools' ? 'tools' : path, what, clock) }
}
