/**
 * Where the breakpoints of a pass sit and what the API did at each: read from cache, written to it, or missed.
 *
 * The API reports only totals (usage: cache read A, cache write C − A, uncached), not per breakpoint
 * (docs/reference/anthropic-api.md §6.4: A is the prefix up to the furthest hit, C the prefix up to the last
 * breakpoint that writes). The block token counts are estimates, so they are scaled to the billed total and each
 * breakpoint is matched to the nearest of A and C: breakpoints up to A's are read, those after it up to C's are
 * written, the rest missed (below the minimum cacheable length, or nothing was written: usage alone cannot tell).
 *
 * When the pass has its cache attribution (src-main/engine/cache/), its answer is used instead: it knows where the
 * read ended and which breakpoints were below the minimum (too short to cache, not a miss), and counts each breakpoint's prefix as its prediction
 * did; where the read ended the figure is the billed read, and at the last breakpoint written the billed read and
 * write, so the line under a breakpoint and the usage beside it never disagree.
 */
import type { BlockInfo, BreakpointTag } from './blocks'
import { comparePaths, segmentPathOf, type AttributionView } from './attribution'

/**
 * What the API did at a breakpoint. `no_response`: the request got no response (refused, or the connection failed), so
 * no breakpoint of it reached a cache. Two outcomes are neither a read nor a write and lose nothing, so they are not
 * shown as a miss (docs/decisions/0044-a-breakpoint-that-could-not-cache.md): `too_short`, a prefix under the model's
 * minimum cacheable length, which no cache holds; `nothing_to_read`, a breakpoint with no entry to read where the
 * service wrote none either and the pass lost nothing by it. `missed` is left for a breakpoint that could have been
 * read or written and was not.
 */
export type BreakpointOutcome = 'read' | 'written' | 'missed' | 'unknown' | 'no_response' | 'too_short' | 'nothing_to_read'

/** An outcome in the words a breakpoint chip says after its name ("BP1 static · 5m · too short to cache"). */
export const OUTCOME_WORDS: Readonly<Record<BreakpointOutcome, string>> = {
  read: 'read',
  written: 'written',
  missed: 'missed',
  unknown: 'unknown',
  no_response: 'no response',
  too_short: 'too short to cache',
  nothing_to_read: 'nothing to read',
}

export interface UsageLike {
  readonly input_tokens: number
  readonly output_tokens: number
  readonly cache_read_input_tokens: number
  readonly cache_creation_input_tokens: number
}

export interface MarkerLike {
  readonly blockPath: string | null
  /** The marked object's path (`messages[6].content[1]`, `system[0]`). */
  readonly path: string
  readonly ttl: '5m' | '1h'
}

export interface BreakpointMark<M extends MarkerLike = MarkerLike> {
  readonly marker: M
  readonly ordinal: number
  readonly tag: BreakpointTag | null
  /** "BP1 static · 5m" */
  readonly label: string
  /** The label's first word ("BP1"), for a narrow inspector. */
  readonly shortLabel: string
  readonly outcome: BreakpointOutcome
  /** Estimated tokens up to and including the marked block, scaled to the billed input. */
  readonly prefixTokens: number
}

export interface BreakpointReport<M extends MarkerLike = MarkerLike> {
  readonly marks: ReadonlyArray<BreakpointMark<M>>
  /** The last block read from cache (by ordinal), or -1 when nothing was read. */
  readonly cachedThroughOrdinal: number
}

const TAG_NAMES: Readonly<Record<BreakpointTag, string>> = {
  static: 'BP1 static',
  session: 'BP2 session',
  previous_tail: 'BP3 previous tail',
  newest_tail: 'BP4 tail',
}

/**
 * Where the read ended, for the line beside the breakpoint chips: at the last breakpoint read, unless the attribution
 * found the read went on past it (a request that read an entry an earlier one wrote, found by the lookback: a retry
 * after a pass that got no response, a pre-warm), then there. Never "nothing read" beside a read.
 */
export function readThrough(lastReadPath: string | null, attributedReadPath: string | null, readTokens: number): string {
  // The attribution knows where the read ended; past the last breakpoint read it found an earlier request's entry.
  if (lastReadPath !== null && attributedReadPath !== null && readTokens > 0 && comparePaths(attributedReadPath, lastReadPath) > 0) return `from cache through ${attributedReadPath}`
  if (lastReadPath !== null) return `from cache through ${lastReadPath}`
  if (readTokens === 0) return 'nothing read from cache'
  return attributedReadPath !== null ? `from cache through ${attributedReadPath}` : 'read from cache'
}

/** What the chips' place says when a request has no breakpoint: a transcript's request is rebuilt from the log,
 * which does not record where the agent put its breakpoints. */
export function noBreakpointText(source: string | undefined, readTokens: number): string {
  if (source === 'transcript') return 'The transcript does not record where the agent put its cache breakpoints; the usage below is what it was billed.'
  return readTokens > 0 ? 'No cache breakpoint in this request: it read an entry an earlier request wrote, and wrote nothing.' : 'No cache breakpoint in this request: nothing can be read from or written to the cache.'
}

export function breakpointName(tag: BreakpointTag | null): string {
  return tag ? TAG_NAMES[tag] : 'BP (untagged)'
}

function nearest(values: ReadonlyArray<number>, target: number, from: number): number {
  let best = -1
  for (let i = from; i < values.length; i++) if (best < 0 || Math.abs(values[i]! - target) < Math.abs(values[best]! - target)) best = i
  return best
}

export function breakpointReport<M extends MarkerLike>(
  blocks: ReadonlyArray<Pick<BlockInfo, 'ordinal' | 'path' | 'tokens' | 'breakpoint'>>,
  markers: ReadonlyArray<M>,
  usage: UsageLike | null,
  attributed: AttributionView | null = null,
): BreakpointReport<M> {
  const ordered = [...blocks].sort((a, b) => a.ordinal - b.ordinal)
  const cumByPath = new Map<string, { ordinal: number; cum: number; tag: BreakpointTag | null }>()
  let cum = 0
  for (const b of ordered) {
    cum += b.tokens
    cumByPath.set(b.path, { ordinal: b.ordinal, cum, tag: b.breakpoint })
  }
  const billed = usage ? usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens : 0
  const scale = billed > 0 && cum > 0 ? billed / cum : 1
  const placed = markers
    .map((marker) => {
      const at = marker.blockPath === null ? undefined : cumByPath.get(marker.blockPath)
      // A top-level cache_control (automatic caching) marks the last block.
      const last = ordered.at(-1)
      const where = at ?? (last ? cumByPath.get(last.path) : undefined)
      return where ? { marker, ordinal: where.ordinal, tag: at ? where.tag : null, prefix: Math.round(where.cum * scale) } : null
    })
    .filter((m): m is NonNullable<typeof m> => m !== null)
    .sort((a, b) => a.ordinal - b.ordinal)

  if (attributed?.noResponse) {
    const marks = placed.map((p): BreakpointMark<M> => ({ marker: p.marker, ordinal: p.ordinal, tag: p.tag, label: labelOf(p.tag, p.marker.ttl), shortLabel: shortLabelOf(p.tag), outcome: 'no_response', prefixTokens: p.prefix }))
    return { marks, cachedThroughOrdinal: -1 }
  }
  if (attributed && (attributed.readPath !== null || attributed.actions.size > 0)) return fromAttribution(placed, ordered, attributed)
  let hit = -1
  let written = -1
  if (usage) {
    const read = usage.cache_read_input_tokens
    const write = usage.cache_creation_input_tokens
    const prefixes = placed.map((p) => p.prefix)
    if (read > 0) hit = nearest(prefixes, read, 0)
    written = write > 0 ? Math.max(hit, nearest(prefixes, read + write, hit + 1)) : hit
  }
  const marks = placed.map((p, i): BreakpointMark<M> => ({
    marker: p.marker,
    ordinal: p.ordinal,
    tag: p.tag,
    label: labelOf(p.tag, p.marker.ttl),
    shortLabel: shortLabelOf(p.tag),
    outcome: !usage ? 'unknown' : i <= hit ? 'read' : i <= written ? 'written' : 'missed',
    prefixTokens: p.prefix,
  }))
  let cachedThroughOrdinal = hit >= 0 ? placed[hit]!.ordinal : -1
  if (hit < 0 && usage && usage.cache_read_input_tokens > 0) {
    // A read without any marker placed here (the lookback found an older entry): shade by the estimate.
    for (const b of ordered) if ((cumByPath.get(b.path)?.cum ?? 0) * scale <= usage.cache_read_input_tokens * 1.02) cachedThroughOrdinal = b.ordinal
  }
  return { marks, cachedThroughOrdinal }
}

function labelOf(tag: BreakpointTag | null, ttl: '5m' | '1h'): string {
  return `${breakpointName(tag)} · ${ttl}`
}

/**
 * A breakpoint chip's words in a narrow inspector: its first word and what the API did there, in one short word
 * each ("BP1 read", "BP4 write"), so four chips take one line at 330 px; the chip's name keeps the long words.
 */
export function shortChipWords(mark: { readonly shortLabel: string; readonly outcome: BreakpointOutcome }): string {
  const word: Record<BreakpointOutcome, string> = { read: 'read', written: 'write', missed: 'miss', unknown: '?', no_response: 'none', too_short: 'short', nothing_to_read: 'empty' }
  return `${mark.shortLabel} ${word[mark.outcome]}`
}

function shortLabelOf(tag: BreakpointTag | null): string {
  return breakpointName(tag).split(' ')[0]!
}

interface Placed<M> {
  readonly marker: M
  readonly ordinal: number
  readonly tag: BreakpointTag | null
  readonly prefix: number
}

function fromAttribution<M extends MarkerLike>(placed: ReadonlyArray<Placed<M>>, ordered: ReadonlyArray<Pick<BlockInfo, 'ordinal' | 'path'>>, a: AttributionView): BreakpointReport<M> {
  const readPath = a.readPath
  const outcomes = placed.map((p): BreakpointOutcome => {
    const action = a.actions.get(p.marker.path)
    const read = readPath !== null && comparePaths(p.marker.path, readPath) <= 0
    if (read) return 'read'
    // Under the model's minimum no entry is read or written: the prompt is short, not the cache at fault.
    if (action === 'below_minimum') return 'too_short'
    // Nothing written: a miss only where the pass lost something it could have read.
    if (a.wrote === false) return a.lostTokens === 0 ? 'nothing_to_read' : 'missed'
    return 'written'
  })
  // The billed figures are exact where they apply: the read ends at the last breakpoint read (when the read ended at
  // a breakpoint, not past it through the lookback), the write at the last breakpoint written.
  const lastRead = outcomes.lastIndexOf('read')
  const lastWritten = outcomes.lastIndexOf('written')
  const readAtBreakpoint = lastRead >= 0 && readPath !== null && comparePaths(placed[lastRead]!.marker.path, readPath) === 0
  const marks = placed.map((p, i): BreakpointMark<M> => {
    let prefixTokens = a.tokensAt.get(p.marker.path) ?? p.prefix
    if (a.billed && i === lastRead && readAtBreakpoint) prefixTokens = a.billed.read
    if (a.billed && i === lastWritten && a.billed.written > 0) prefixTokens = a.billed.read + a.billed.written
    return { marker: p.marker, ordinal: p.ordinal, tag: p.tag, label: labelOf(p.tag, p.marker.ttl), shortLabel: shortLabelOf(p.tag), outcome: outcomes[i]!, prefixTokens }
  })
  const readSegment = readPath === null ? null : segmentPathOf(readPath)
  const cachedThroughOrdinal = readSegment === null ? -1 : (ordered.find((b) => b.path === readSegment)?.ordinal ?? -1)
  return { marks, cachedThroughOrdinal }
}
