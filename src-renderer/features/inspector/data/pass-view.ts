/**
 * One pass as the views need it: `pass.get`'s answer plus what is derived from it (parsed body, pretty text with
 * block lines, block labels, breakpoint outcomes). The expensive derivations for other views (cache-order text for
 * the diff, the context map) are computed on first use.
 *
 * The renderer never holds every pass body: a few recent passes stay in a small cache (the diff needs two, and
 * stepping back and forth should not refetch), the rest are asked for again.
 */
import { call } from '../../../platform/client'
import type { PassDetailView } from '../../../../src-preload/contract'
import { readAttribution } from '../model/attribution'
import { describeBlocks, type BlockInfo } from '../model/blocks'
import { breakpointReport, type BreakpointReport, type UsageLike } from '../model/breakpoints'
import { contextMap, type ContextSlice } from '../model/context-map'
import { comparablePass, type ComparablePass } from '../model/first-change'
import { parseBody, prettyRequest, type PrettyMarker, type PrettyRequest } from '../model/pretty'

export interface PassView {
  readonly detail: PassDetailView
  /** Wire order; null when the body is not a JSON object (only the raw bytes can be shown). */
  readonly pretty: PrettyRequest | null
  readonly blocks: ReadonlyArray<BlockInfo>
  readonly breakpoints: BreakpointReport<PrettyMarker>
  cacheOrder(): PrettyRequest | null
  contextMap(): ReadonlyArray<ContextSlice>
  comparable(): ComparablePass
}

function once<T>(fn: () => T): () => T {
  let done = false
  let value: T
  return () => {
    if (!done) {
      value = fn()
      done = true
    }
    return value
  }
}

/**
 * The parsed body is not kept: for a 150k-token request it is megabytes of small objects, and keeping one per
 * cached pass made garbage collection pause the view. What needs it later parses the text again (≈10 ms).
 */
export function passView(detail: PassDetailView): PassView {
  const body = parseBody(detail.requestBody)
  const pretty = body ? prettyRequest(body, 'wire') : null
  const blocks = describeBlocks(detail.segments, detail.plan)
  const breakpoints = breakpointReport(blocks, pretty?.markers ?? [], (detail.usage as UsageLike | null) ?? null, readAttribution(detail.attribution))
  const parsed = () => parseBody(detail.requestBody)
  return {
    detail,
    pretty,
    blocks,
    breakpoints,
    cacheOrder: once(() => {
      const b = parsed()
      return b ? prettyRequest(b, 'cache') : null
    }),
    contextMap: once(() => contextMap(blocks, detail.segments, parsed())),
    comparable: once(() => comparablePass(parsed(), blocks, detail.stripsPriorThinking)),
  }
}

/** How many pass views stay in memory: the shown pass, the one it is compared with, and a step either way. */
const KEEP = 4
const cache = new Map<string, Promise<PassView>>()

export function loadPassView(passId: string): Promise<PassView> {
  const hit = cache.get(passId)
  if (hit) {
    cache.delete(passId)
    cache.set(passId, hit)
    return hit
  }
  const loading = call('pass.get', { passId }).then(passView)
  loading.catch(() => cache.delete(passId))
  cache.set(passId, loading)
  while (cache.size > KEEP) cache.delete(cache.keys().next().value!)
  return loading
}

/** sha256 of the body's UTF-8 bytes (the bytes that went over the wire), as lowercase hex. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('')
}
