/**
 * An imported session's totals, read back from the store (not from the file): what the transcripts panel shows
 * per session, and what the tests compare with an independent count of the file.
 */
import type { Usage } from '../../engine/model/wire'
import type { Store } from '../store'
import type { PassSummary } from '../store/passes'
import { childSessions } from './origins'

export interface UsageFigures {
  readonly passes: number
  readonly uncached: number
  readonly read: number
  readonly write: number
  readonly output: number
  /** Sum over passes with a known price; null when none has one. */
  readonly costUsd: number | null
  /** read / (read + write + uncached). */
  readonly cachedShare: number
}

export interface CompactionFigures {
  readonly trigger: string
  /** As Claude Code measured it before compacting (`compactMetadata.preTokens`). */
  readonly preTokens: number | null
  /** The context of the first request after the compaction. */
  readonly tokensAfter: number | null
  readonly summaryChars: number | null
  /** The compaction call's cost, when its file was imported. */
  readonly costUsd: number
}

export interface ImportedTotals extends UsageFigures {
  readonly sessionId: string
  readonly title: string
  readonly hits: number
  /** By transcript cause, the passes the Cache view lists as misses (a compaction's first request is not one). */
  readonly misses: Readonly<Record<string, number>>
  readonly compactions: ReadonlyArray<CompactionFigures>
  readonly children: ReadonlyArray<UsageFigures & { readonly sessionId: string; readonly title: string; readonly kind: string }>
  readonly includingChildren: UsageFigures
}

export function usageFigures(passes: ReadonlyArray<Pick<PassSummary, 'usage' | 'costUsd'>>): UsageFigures {
  let uncached = 0
  let read = 0
  let write = 0
  let output = 0
  let cost = 0
  let priced = 0
  for (const p of passes) {
    const u: Usage | null = p.usage
    if (u !== null) {
      uncached += u.input_tokens
      read += u.cache_read_input_tokens
      write += u.cache_creation_input_tokens
      output += u.output_tokens
    }
    if (p.costUsd !== null) {
      cost += p.costUsd
      priced++
    }
  }
  const sent = uncached + read + write
  return { passes: passes.length, uncached, read, write, output, costUsd: priced > 0 ? cost : null, cachedShare: sent === 0 ? 0 : read / sent }
}

function outcomeOf(attribution: unknown): { kind: string; cause: string | null } | null {
  if (typeof attribution !== 'object' || attribution === null) return null
  const t = (attribution as { transcript?: { outcome?: { kind?: unknown; cause?: unknown } } }).transcript
  const kind = t?.outcome?.kind
  return typeof kind === 'string' ? { kind, cause: typeof t?.outcome?.cause === 'string' ? t.outcome.cause : null } : null
}

function numberAt(value: unknown, ...path: string[]): number | null {
  let v: unknown = value
  for (const key of path) v = typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[key] : undefined
  return typeof v === 'number' ? v : null
}

/** Transcript causes of a request that reads less than the one before, which the Cache view does not flag as a miss. */
const NOT_A_MISS: ReadonlySet<string> = new Set(['compaction'])

/** Null when there is no such session. */
export function importedTotals(store: Store, sessionId: string): ImportedTotals | null {
  const session = store.sessions.get(sessionId)
  if (session === null) return null
  const passes = store.passes.list(sessionId)
  const misses: Record<string, number> = {}
  let hits = 0
  for (const p of passes) {
    const o = outcomeOf(p.attribution)
    if (o?.kind === 'hit') hits++
    // Misses as the Cache view lists them: the first request after a compaction sends a new, shorter history by
    // design and is not one (decision 0020); `compactions` counts those.
    else if (o?.kind === 'miss' && o.cause !== null && !NOT_A_MISS.has(o.cause)) misses[o.cause] = (misses[o.cause] ?? 0) + 1
  }
  const compactions: CompactionFigures[] = []
  for (const e of store.entries.list(sessionId)) {
    if (e.kind !== 'checkpoint') continue
    compactions.push({
      trigger: e.trigger,
      preTokens: numberAt(e.tokens, 'before', 'real'),
      tokensAfter: numberAt(e.tokens, 'after', 'estimated'),
      summaryChars: e.summary === null ? null : e.summary.length,
      costUsd: e.costUsd,
    })
  }
  const all: Array<Pick<PassSummary, 'usage' | 'costUsd'>> = [...passes]
  const children = childSessions(store, sessionId).map((c) => {
    const childPasses = store.passes.list(c.sessionId)
    all.push(...childPasses)
    const kind = c.ref?.kind === 'claude-code' ? c.ref.threadKind : c.origin
    return { sessionId: c.sessionId, title: store.sessions.get(c.sessionId)?.title ?? '', kind, ...usageFigures(childPasses) }
  })
  return { sessionId, title: session.title, ...usageFigures(passes), hits, misses, compactions, children, includingChildren: usageFigures(all) }
}
