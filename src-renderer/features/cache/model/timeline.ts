/**
 * The cache timeline's data, from a session's passes, its cache summary and its entries: one bar per pass (cache
 * read, written, paid in full, output; its cost; its outcome and cause), and the events between passes that explain
 * the cache — compactions, context edits, file edits applied now, model switches, and idle gaps longer than the TTL.
 * Pure: the view draws it.
 */
import type { CacheSummaryView, EntryView, PassSummaryView } from '../../../../src-preload/contract'
import { TAKE_BACK_SOURCE, takeBackSummary } from '../../chat/take-back'
import { clock } from '../../../ui/format'
import { formatDuration } from '../../../../src-preload/duration'
import { findModelIn } from '../../../../src-preload/models'
import { SWITCH_LOSS_NOTE } from '../../inspector/model/outcome'

export interface Bar {
  readonly passId: string
  readonly seq: number
  readonly kind: 'main' | 'summary' | 'count' | 'keep_warm'
  readonly model: string
  readonly at: number
  readonly read: number
  readonly write: number
  /** Of `write`, the tokens written with the 1-hour TTL. */
  readonly write1h: number
  readonly uncached: number
  readonly output: number
  readonly costUsd: number | null
  readonly outcome: 'full' | 'partial' | 'miss' | null
  readonly cause: string | null
  readonly summary: string | null
  readonly missTokens: number
  readonly missUsd: number | null
}

/**
 * `idle` is a pause after which the cache had expired; `kept_warm` a pause as long, whose entries a keep-warm
 * pre-warm kept (decision 0009), so the pass after it read them: the two read differently on the timeline, since
 * only the first cost anything.
 */
export type MarkerKind = 'compaction' | 'context_edit' | 'file_edit' | 'model_switch' | 'idle' | 'kept_warm'

/** The markers' kinds in the order the legend names them. */
export const MARKER_KINDS: ReadonlyArray<MarkerKind> = ['compaction', 'context_edit', 'file_edit', 'model_switch', 'idle', 'kept_warm']

/** The kinds of marker the timeline draws, in the legend's order: the legend names these and no others. */
export function markerKindsShown(markers: ReadonlyArray<Pick<Marker, 'kind'>>): MarkerKind[] {
  return MARKER_KINDS.filter((k) => markers.some((m) => m.kind === k))
}

export interface Marker {
  readonly kind: MarkerKind
  /** The bar the event comes before (bars.length when it comes after the last pass). */
  readonly beforeIndex: number
  readonly at: number
  readonly label: string
}

export interface Timeline {
  readonly bars: ReadonlyArray<Bar>
  readonly markers: ReadonlyArray<Marker>
  readonly maxTokens: number
  readonly maxUsd: number
}

/**
 * Causes that are not a miss anything could have avoided, flagged nowhere as one: the new tail alone paid, a cold
 * start, a request that got no response (it never reached a cache), and an imported session's first request after a
 * compaction (it sends a new, shorter history by design; the app's own such pass has the cause `none`).
 */
const NOT_A_MISS: ReadonlySet<string> = new Set(['none', 'cold', 'no_response', 'compaction'])
export const isAvoidableCause = (cause: string | null): boolean => !NOT_A_MISS.has(cause ?? '')

/** Whether a pass is flagged as a miss or a partial hit, with its cause. */
export const isFlaggedMiss = (b: Pick<Bar, 'outcome' | 'cause'>): boolean => (b.outcome === 'miss' || b.outcome === 'partial') && isAvoidableCause(b.cause)

/**
 * The rows of "Lost to misses, by cause", from the passes: for each cause, the passes that lost something to it and
 * what they lost, most tokens first. A pass that lost nothing (a pause longer than every TTL, a prefix below the
 * model's minimum: the best possible was no more than what was read) is said in the list of misses, without alarm,
 * but it is no line, nor a count, of a table of losses. Pre-warms are not passes of the conversation.
 */
export function lostByCause(bars: ReadonlyArray<Bar>): Array<{ kind: string; passes: number; tokens: number; usd: number | null }> {
  const rows = new Map<string, { kind: string; passes: number; tokens: number; usd: number | null }>()
  for (const b of bars) {
    if (b.kind === 'keep_warm' || !isAvoidableCause(b.cause) || !(b.missTokens > 0 || (b.missUsd ?? 0) > 0)) continue
    const kind = b.cause ?? 'unexplained'
    const row = rows.get(kind) ?? { kind, passes: 0, tokens: 0, usd: 0 }
    rows.set(kind, { kind, passes: row.passes + 1, tokens: row.tokens + b.missTokens, usd: row.usd === null || b.missUsd === null ? null : row.usd + b.missUsd })
  }
  return [...rows.values()].sort((a, b) => b.tokens - a.tokens)
}

/**
 * A miss's line in the list, after its outcome chip: the pass's summary without the outcome the chip already says.
 * The engine's `partial hit up to system[0] · system[1] · …` reads as two block paths in a row; the line says what
 * was read and what stopped the read (`read up to system[0] · stopped by: system[1] · project instructions · …`).
 * An imported pass's `Miss: 32,459 tokens written again · …` drops its first word.
 */
export function missText(b: Pick<Bar, 'summary' | 'cause'>, words: Readonly<Record<string, string>>): string {
  if (b.summary === null) return words[b.cause ?? ''] ?? b.cause?.replace(/_/g, ' ') ?? ''
  const partial = PARTIAL.exec(b.summary)
  if (partial) return `read up to ${partial[1]} · stopped by: ${partial[2]}`
  return b.summary.replace(/^(miss|full hit) · /, '').replace(/^(Miss|Partial): /, '')
}

const PARTIAL = /^partial hit up to (\S+) · ([\s\S]*)$/

/**
 * A pass's summary where the view says it whole (the chosen pass's line, a bar's tooltip): a partial hit in the
 * words of the list of misses, what was read and what stopped the read, not two block paths in a row.
 */
export function summaryText(summary: string): string {
  const partial = PARTIAL.exec(summary)
  return partial ? `partial hit: read up to ${partial[1]} · stopped by: ${partial[2]}` : summary
}

/**
 * A separator bound to the words before it by a no-break space: where a line of figures wraps, the "·" ends the line
 * its left-hand words end and never starts the next.
 */
export const SEPARATOR = '\u00a0· '

/** Parts said on one line, between separators that never start a line; a part's own " · " is bound the same way. */
export function joinedLine(parts: ReadonlyArray<string | null | false | undefined>): string {
  return parts
    .filter((p): p is string => typeof p === 'string' && p !== '')
    .map((p) => p.replace(/ +· /g, SEPARATOR))
    .join(SEPARATOR)
}

/**
 * The chosen pass's figures, the line under its heading ("Pass 9 · main"): they start with the first figure, not a
 * separator, since the heading stands on its own line. `keepWarmCause` is what a pre-warm's line says instead of a
 * cause: it is compared with nothing, and the engine's "only the new tail paid" would read as a pass of the
 * conversation.
 */
export function focusedPassFigures(bar: Bar, format: { tokens(n: number): string; usd(n: number | null): string }, keepWarmCause: string): string {
  return joinedLine([
    `read ${format.tokens(bar.read)}`,
    `written ${format.tokens(bar.write)}`,
    `paid in full ${format.tokens(bar.uncached)}`,
    `output ${format.tokens(bar.output)}`,
    format.usd(bar.costUsd),
    // A cold start is named as the inspector's badge names it: nothing could have been cached yet, so not a "miss".
    bar.kind === 'keep_warm' ? keepWarmCause : bar.summary && summaryText(bar.cause === 'cold' ? bar.summary.replace(/^miss · /, 'cold · ') : bar.summary),
  ])
}

/**
 * A flagged miss's loss in the list of misses: "lost $0.0043", and for a model switch what it is measured against —
 * reading on the new model — since the switch's question priced the same pass against staying (decision 0021).
 */
export function missLost(bar: Pick<Bar, 'missUsd' | 'cause'>, usd: (n: number) => string): string | null {
  if (bar.missUsd === null || bar.missUsd <= 0) return null
  return `lost ${usd(bar.missUsd)}${bar.cause === 'model_changed' ? SWITCH_LOSS_NOTE : ''}`
}

/** The API's default cache lifetime (docs/reference/anthropic-api.md §5.4): an idle gap longer than this expires it. */
export const DEFAULT_TTL_MS = 5 * 60_000
/** The lifetime of a keep-warm pre-warm's entry (decision 0009: a 1h breakpoint at the tail); the label below says "1 h". */
const PREWARM_TTL_MS = 60 * 60_000

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0)


export function buildTimeline(passes: ReadonlyArray<PassSummaryView>, summary: CacheSummaryView | null, entries: ReadonlyArray<EntryView>, ttlMs = DEFAULT_TTL_MS): Timeline {
  const rows = new Map((summary?.passes ?? []).map((r) => [r.passId, r]))
  const bars: Bar[] = passes.map((p) => {
    const u = (p.usage ?? {}) as Record<string, unknown>
    const row = rows.get(p.id)
    return {
      passId: p.id,
      seq: p.seq,
      kind: p.kind,
      model: p.model,
      at: p.attempts.at(-1)?.startedAt ?? p.queuedAt,
      read: num(u.cache_read_input_tokens),
      write: num(u.cache_creation_input_tokens),
      write1h: typeof u.cache_creation === 'object' && u.cache_creation !== null ? num((u.cache_creation as Record<string, unknown>).ephemeral_1h_input_tokens) : 0,
      uncached: num(u.input_tokens),
      output: num(u.output_tokens),
      costUsd: p.costUsd,
      outcome: row?.outcome ?? null,
      cause: row?.cause ?? null,
      summary: row?.summary ?? null,
      missTokens: row?.missTokens ?? 0,
      missUsd: row?.missUsd ?? null,
    }
  })
  const beforeIndexOf = (at: number) => {
    const i = bars.findIndex((b) => b.at >= at)
    return i < 0 ? bars.length : i
  }
  const markers: Marker[] = []
  const byId = new Map(entries.map((e) => [e.id, e]))
  for (const e of entries) {
    const body = e as Record<string, unknown>
    if (e.kind === 'checkpoint') {
      const trigger = typeof body.trigger === 'string' ? body.trigger : 'manual'
      const focus = typeof body.focus === 'string' && body.focus ? ` · focus “${body.focus}”` : ''
      markers.push({ kind: 'compaction', beforeIndex: beforeIndexOf(e.at), at: e.at, label: `compaction (${trigger})${focus}` })
    } else if (e.kind === 'context_edit') {
      const label = body.source === TAKE_BACK_SOURCE ? takenBack(e, byId) : `context edit by ${typeof body.source === 'string' ? body.source : 'an extension'}`
      markers.push({ kind: 'context_edit', beforeIndex: beforeIndexOf(e.at), at: e.at, label })
    } else if (e.kind === 'notice' && body.source === 'instructions') {
      markers.push({ kind: 'file_edit', beforeIndex: beforeIndexOf(e.at), at: e.at, label: String(body.text ?? 'instruction file applied now') })
    } else if (e.kind === 'model_switched') {
      markers.push({ kind: 'model_switch', beforeIndex: beforeIndexOf(e.at), at: e.at, label: `model switched to ${String(body.model)}` })
    }
  }
  // A model change between two main passes with no entry for it (a session imported from elsewhere) is marked too.
  let lastMain: Bar | null = null
  bars.forEach((b, i) => {
    if (b.kind !== 'main') return
    if (lastMain && lastMain.model !== b.model && !markers.some((m) => m.kind === 'model_switch' && m.beforeIndex === i)) {
      markers.push({ kind: 'model_switch', beforeIndex: i, at: b.at, label: `model: ${lastMain.model} → ${b.model}` })
    }
    // Idle since the conversation's last pass that got a response: one that got none (a refused key, a lost
    // connection) touched no cache entry, and a pre-warm in the gap is not the user's, so neither ends the pause.
    let j = i - 1
    let skippedFailed = false
    let warm: Bar | null = null
    while (j >= 0) {
      const answered = passes[j]!.usage !== null && bars[j]!.cause !== 'no_response'
      if (bars[j]!.kind === 'keep_warm') warm ??= answered ? bars[j]! : null
      else if (!answered) skippedFailed = true
      else break
      j--
    }
    if (j >= 0) {
      // From that pass's start, where the lifetime of what it wrote and read begins (§5.1), as the miss's cause
      // measures it: the marker and the cause give one figure, and the marker shows exactly when the entries expired.
      const gap = b.at - bars[j]!.at
      const since = skippedFailed ? ' since the last pass that got a response' : ''
      const idle = `idle ${formatDuration(gap)}${since}`
      if (gap > ttlMs) {
        // A pre-warm's 1h entry bridged the pause when the pass after it read on: the pause cost nothing, and a
        // marker saying the TTL was passed would contradict the hit right after it.
        const warmLived = warm !== null && b.at - warm.at <= PREWARM_TTL_MS
        if (warmLived && b.cause !== 'ttl_expired') markers.push({ kind: 'kept_warm', beforeIndex: i, at: b.at, label: `${idle} · kept warm by a pre-warm` })
        else if (warm !== null && !warmLived) markers.push({ kind: 'idle', beforeIndex: i, at: b.at, label: `${idle} (longer than the 1 h a pre-warm keeps the cache)` })
        else markers.push({ kind: 'idle', beforeIndex: i, at: b.at, label: `${idle} (longer than the ${formatDuration(ttlMs)} TTL)` })
      }
    }
    lastMain = b
  })
  markers.sort((a, b) => a.beforeIndex - b.beforeIndex || a.at - b.at)
  return {
    bars,
    markers: toldApart(markers),
    maxTokens: Math.max(1, ...bars.map((b) => b.read + b.write + b.uncached + b.output)),
    maxUsd: Math.max(0, ...bars.map((b) => b.costUsd ?? 0)),
  }
}

/**
 * A take-back's label names the message taken back: two take-backs in a row (the last message, then the one before
 * it) come before the same pass, and "a message taken back" twice would read as one event listed twice.
 */
function takenBack(edit: EntryView, byId: ReadonlyMap<string, EntryView>): string {
  const first = (edit.edits as Array<{ entryId?: unknown }> | undefined)?.[0]?.entryId
  const message = typeof first === 'string' ? byId.get(first) : undefined
  const text = message ? takeBackSummary([message]).message : ''
  return text ? `the message “${text}” taken back by the user` : 'a message taken back by the user'
}

/**
 * Events that would read the same before the same pass (two edits by one extension, the same message taken back
 * twice) say when each happened, so that two events do not look like one listed twice.
 */
function toldApart(markers: ReadonlyArray<Marker>): Marker[] {
  const key = (m: Marker) => `${m.beforeIndex}\u0000${m.kind}\u0000${m.label}`
  const counts = new Map<string, number>()
  for (const m of markers) counts.set(key(m), (counts.get(key(m)) ?? 0) + 1)
  return markers.map((m) => ((counts.get(key(m)) ?? 0) > 1 ? { ...m, label: `${m.label} at ${clock(m.at)}` } : m))
}

type Prices = { input: number; cacheRead: number; cacheWrite5m: number; cacheWrite1h: number }

/**
 * A model's prices from the settings' model table, by its id as a pass names it: the table's id, or that id with a
 * date after it (`claude-haiku-4-5-20251001`, as Claude Code's transcripts name their models) — the rule the main
 * process prices passes with (findModelIn, src-preload/models.ts), so every figure of the view has the prices.
 */
export function pricesLookup<P>(models: ReadonlyArray<{ id: string; prices: P }>): (model: string) => P | null {
  return (model) => findModelIn(model, models)?.prices ?? null
}

/**
 * Dollars the cache saved the conversation's passes against sending every input token at the full price, per model's
 * prices. A keep-warm pre-warm is left out: it is sent only to keep the cache alive, so what it reads saves no pass
 * anything — without the cache it would not be sent at all — and it is a cost, counted in "Paid". What it keeps warm is
 * counted where it is read, by the pass after it.
 */
export function savedByCache(bars: ReadonlyArray<Bar>, priceOf: (model: string) => Prices | null): number | null {
  let saved = 0
  for (const b of bars) {
    if (b.kind === 'keep_warm') continue
    const p = priceOf(b.model)
    if (!p) return null
    // Reads cost less than input; writes cost more (§5.5: 1.25× for 5 minutes, 2× for an hour).
    const write5m = b.write - b.write1h
    saved += (b.read * (p.input - p.cacheRead) - write5m * (p.cacheWrite5m - p.input) - b.write1h * (p.cacheWrite1h - p.input)) / 1_000_000
  }
  return saved
}

/**
 * What "Saved by the cache" says under its figure. Early in a session the figure is below zero — the first pass
 * writes the prefix at 1.25× the input price and nothing has read it yet — and a bare "−$0.0020 saved" reads as a
 * fault: the line then says why, and what pays it back. With pre-warms sent (`prewarms`), it says they are not in it.
 */
export function savedHint(saved: number | null, prewarms = 0): string {
  const apart = prewarms === 0 ? '' : `; not the ${prewarms === 1 ? 'keep-warm pre-warm' : `${prewarms} keep-warm pre-warms`}: a cost, counted in Paid`
  if (saved !== null && saved < 0) return `so far the cache cost more than it saved: writing costs 1.25× the input price (2× for 1 hour), and each later pass reads it back at 0.1×${apart}`
  return `the conversation's passes, against sending every input token at the full price${apart}`
}
