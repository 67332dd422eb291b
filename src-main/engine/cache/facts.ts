/**
 * What a pass did to the cache, as later passes need it (its facts), and where the service's read ended, found
 * from its token count.
 */
import type { PassRecord } from './attribute'
import type { Prediction, TokenSplit } from './predict'
import { splitOfUsage } from './pricing'
import type { TokenScale } from './scale'
import type { CacheState, FactAttempt, PassCacheFacts } from './state'
import type { RequestWalk } from './walk'

/**
 * The position whose real cumulative count is `read`: one where an entry was written earlier (only those can be
 * read), preferring an exact known count, else the nearest scaled one. Null when no such position is plausible (the
 * service read a prefix this app never wrote).
 */
export function locateRead(read: number, walk: RequestWalk, scale: TokenScale, state: CacheState, predicted: number): number | null {
  if (read === 0) return -1
  // Where the prediction ended, when its count is known to be this one: the usual case, at no cost.
  if (predicted >= 0 && scale.exact(predicted) && scale.at(predicted) === read) return predicted
  let best: number | null = null
  let bestError = Number.POSITIVE_INFINITY
  for (let j = walk.keys.length - 1; j >= 0; j--) {
    if (j !== predicted && !state.entry(walk.keys[j]!)) continue
    const error = Math.abs(scale.at(j) - read)
    if (error === 0 && scale.exact(j)) return j
    if (error < bestError) {
      best = j
      bestError = error
    }
  }
  // A scaled count is an estimate; beyond a quarter off, the position is not one this app wrote.
  return best !== null && bestError <= Math.max(64, read * 0.25) ? best : null
}

export function anchorsOf(walk: RequestWalk, written: Prediction, actual: TokenSplit): Array<{ key: string; tokens: number }> {
  const out: Array<{ key: string; tokens: number }> = []
  if (written.readPosition >= 0) out.push({ key: walk.keys[written.readPosition]!, tokens: actual.read })
  const last = written.writes.at(-1)
  if (last) out.push({ key: last.key, tokens: actual.read + actual.write1h + actual.write5m })
  const last1h = [...written.writes].reverse().find((w) => w.ttl === '1h')
  if (last1h && last1h !== last) out.push({ key: last1h.key, tokens: actual.read + actual.write1h })
  return out
}

export function factsOf(
  pass: PassRecord,
  walk: RequestWalk,
  scale: TokenScale,
  written: Prediction,
  attempts: ReadonlyArray<FactAttempt>,
  anchors: ReadonlyArray<{ key: string; tokens: number }>,
  nothingWritten = false,
  lookups: Prediction = written,
): PassCacheFacts {
  return {
    passId: pass.id,
    seq: pass.seq,
    model: pass.model,
    attempts,
    startedAt: pass.attempts.at(-1)?.startedAt ?? 0,
    reads: lookups.reads
      .filter((r) => written.readPosition < 0 ? false : r.position <= written.readPosition)
      .map((r) => ({ key: r.key, ttl: r.ttl, exact: r.exact })),
    writes: nothingWritten ? [] : written.writes.map((w) => ({ key: w.key, ttl: w.ttl })),
    anchors,
    // A count this pass's usage pinned beats the scaled one (the scale did not know it yet).
    breakpoints: walk.breakpoints.map((p) => {
      const pinned = anchors.find((a) => a.key === walk.keys[p])
      return { key: walk.keys[p]!, tokens: pinned?.tokens ?? scale.at(p), ttl: walk.blocks[p]!.ttl!, moving: walk.blocks[p]!.area === 'messages', span: pinned ? 0 : scale.span(p) }
    }),
    totalTokens: pass.usage ? splitOfUsage(pass.usage).total : null,
    outputTokens: pass.usage?.output_tokens ?? 0,
    ratio: scale.ratio(),
  }
}

