/**
 * The Claude Code dialog's line about an imported session's cache misses, in the Cache view's figures (the reference,
 * docs/decisions/0020): the misses it lists (a compaction's first request is not one, it sends a new, shorter
 * history by design) and what they lost against the best possible. A miss after a pause longer than any cache
 * lifetime is listed there but lost nothing, so the line says how many of the misses the loss comes from.
 */
import type { CacheSummaryView, TranscriptTotalsView } from '../../../src-preload/contract'
import { grouped, usd } from '../../ui/format'
import { isFlaggedMiss } from '../cache/model/timeline'

/** The transcript's miss causes (node/transcripts/pass-attribution.ts), in words that fit "2 …, 1 …". */
const CAUSE_WORDS: Readonly<Record<string, string>> = {
  idle_gap: 'after a pause',
  not_visible: 'from a change the transcript does not record',
  model_switch: 'after a model switch',
}

const plural = (n: number, one: string, many: string) => `${grouped(n)} ${n === 1 ? one : many}`

export function missLine(t: Pick<TranscriptTotalsView, 'hits' | 'misses' | 'compactions'>, cache: Pick<CacheSummaryView, 'passes' | 'totals'> | null): string {
  const causes = Object.entries(t.misses).filter(([, n]) => n > 0)
  const misses = causes.reduce((sum, [, n]) => sum + n, 0)
  const parts = [plural(t.hits, 'hit', 'hits')]
  const words = (cause: string) => CAUSE_WORDS[cause] ?? cause.replace(/_/g, ' ')
  parts.push(misses === 0 ? 'no miss' : misses === 1 ? `1 miss, ${words(causes[0]![0])}` : `${plural(misses, 'miss', 'misses')}: ${causes.map(([cause, n]) => `${grouped(n)} ${words(cause)}`).join(', ')}`)
  let line = `${parts.join('; ')}.`
  if (cache !== null && misses > 0) {
    const listed = cache.passes.filter(isFlaggedMiss)
    const losing = listed.filter((p) => p.missTokens > 0 || (p.missUsd ?? 0) > 0).length
    const free = listed.length - losing
    if (losing === 0) line += ` ${misses === 1 ? 'It' : 'They'} lost nothing: no cache could have bridged ${misses === 1 ? 'its pause' : 'their pauses'}.`
    else {
      const from = free === 0 ? '' : `, from ${grouped(losing)} of them`
      line += ` Lost to misses: ${usd(cache.totals.missUsd)} (${grouped(cache.totals.missTokens)} tokens paid for that could have been read)${from}.`
      if (free > 0) line += ` ${free === 1 ? 'The other came' : `The other ${grouped(free)} came`} after a pause longer than any cache lifetime (1 h at most): nothing could have stayed cached.`
    }
  }
  if (t.compactions.length > 0) line += ` The first request after ${t.compactions.length === 1 ? 'the compaction' : 'each compaction'} is not a miss: it sends a new, shorter history by design.`
  return line
}
