/**
 * The Claude Code dialog's line about an imported session's cache misses, in the Cache view's figures (the reference,
 * docs/decisions/0020): the misses it lists (a compaction's first request is not one, it sends a new, shorter
 * history by design) and what they lost against the best possible. A miss after a pause longer than any cache
 * lifetime is listed there but lost nothing, so the line says how many of the misses the loss comes from.
 */
import type { CacheSummaryView, TranscriptTotalsView } from '../../../src-preload/contract'
import { grouped, usd } from '../../ui/format'
import { isFlaggedMiss } from '../cache/model/timeline'

/** Why a request read less than it could, in words that fit "2 …, 1 …": the transcript's causes and the Cache view's. */
const CAUSE_WORDS: Readonly<Record<string, string>> = {
  idle_gap: 'after a pause',
  ttl_expired: 'after a pause',
  not_visible: 'from a change the transcript does not record',
  model_switch: 'after a model switch',
  model_changed: 'after a model switch',
}

const plural = (n: number, one: string, many: string) => `${grouped(n)} ${n === 1 ? one : many}`
const words = (cause: string) => CAUSE_WORDS[cause] ?? cause.replace(/_/g, ' ')

/** "1 miss, after a pause" / "3 misses: 2 after a pause, 1 from …", the shortfalls named by `noun`. */
function shortfalls(byCause: ReadonlyArray<readonly [string, number]>, noun: (n: number) => string): string {
  const total = byCause.reduce((sum, [, n]) => sum + n, 0)
  if (total === 1) return `${noun(1)}, ${words(byCause[0]![0])}`
  return `${noun(total)}: ${byCause.map(([cause, n]) => `${grouped(n)} ${words(cause)}`).join(', ')}`
}

/**
 * With the Cache view's summary, its figures: its hits (the inspector's "hit" badges), and the passes it lists as
 * short of the best possible, named as its rows name them (partial hit or miss). Without it (it could not be read),
 * the transcript's own counts.
 */
export function missLine(t: Pick<TranscriptTotalsView, 'hits' | 'misses' | 'compactions'>, cache: Pick<CacheSummaryView, 'passes' | 'totals'> | null): string {
  let line: string
  let misses: number
  if (cache === null) {
    const causes = Object.entries(t.misses).filter(([, n]) => n > 0)
    misses = causes.reduce((sum, [, n]) => sum + n, 0)
    line = `${plural(t.hits, 'hit', 'hits')}; ${misses === 0 ? 'no miss' : shortfalls(causes, (n) => plural(n, 'miss', 'misses'))}.`
  } else {
    const hits = cache.passes.filter((p) => p.outcome === 'full').length
    const listed = cache.passes.filter(isFlaggedMiss)
    misses = listed.length
    const byCause = new Map<string, number>()
    for (const p of listed) byCause.set(p.cause ?? 'unknown', (byCause.get(p.cause ?? 'unknown') ?? 0) + 1)
    const partials = listed.filter((p) => p.outcome === 'partial').length
    const noun = (n: number) => (partials === n ? plural(n, 'partial hit', 'partial hits') : partials === 0 ? plural(n, 'miss', 'misses') : `${grouped(n)} misses or partial hits`)
    line = `${plural(hits, 'hit', 'hits')}; ${misses === 0 ? 'no miss' : shortfalls([...byCause], noun)}.`
    const losing = listed.filter((p) => p.missTokens > 0 || (p.missUsd ?? 0) > 0).length
    const free = listed.length - losing
    if (misses > 0 && losing === 0) line += ` ${misses === 1 ? 'It' : 'They'} lost nothing: no cache could have bridged ${misses === 1 ? 'its pause' : 'their pauses'}.`
    else if (misses > 0) {
      const from = free === 0 ? '' : `, from ${grouped(losing)} of them`
      line += ` Lost to misses: ${usd(cache.totals.missUsd)} (${grouped(cache.totals.missTokens)} tokens paid for that could have been read)${from}.`
      if (free > 0) line += ` ${free === 1 ? 'The other came' : `The other ${grouped(free)} came`} after a pause longer than any cache entry is kept (1 h at most): nothing could have stayed cached.`
    }
  }
  if (t.compactions.length > 0) line += ` The first request after ${t.compactions.length === 1 ? 'the compaction' : 'each compaction'} is not a miss: it sends a new, shorter history by design.`
  return line
}
