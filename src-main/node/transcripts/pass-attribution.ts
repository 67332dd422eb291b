/**
 * The attribution stored with an imported pass (`store.passes.setAttribution`): the transcript-level outcome of
 * src-main/engine/transcripts/attribution.ts, in the fields the inspector's tolerant reader takes (`outcome`,
 * `cause.kind` / `cause.label`, `summary`; src-renderer/features/inspector/model/attribution.ts), with the whole
 * transcript attribution kept under `transcript`.
 *
 * It has no `version` field on purpose: the cache engine's attributions have `version: 1`, and these are not
 * theirs (no request bytes, so no first changed block).
 */
import { CACHE_TTL_1H_MS, type RequestAttribution } from '../../engine/transcripts/attribution'

export interface TranscriptPassAttribution {
  readonly source: 'transcript'
  readonly outcome: 'full' | 'partial' | 'miss' | null
  readonly cause: { readonly kind: string; readonly label: string }
  readonly summary: string
  readonly transcript: RequestAttribution
}

const grouped = (n: number): string => n.toLocaleString('en-US')

function minutes(ms: number): string {
  const m = ms / 60_000
  return m >= 90 ? `${(m / 60).toFixed(1)} h` : `${Math.round(m)} min`
}

export function passAttribution(a: RequestAttribution, previousModel: string | null): TranscriptPassAttribution {
  const base = { source: 'transcript' as const, transcript: a }
  const o = a.outcome
  switch (o.kind) {
    case 'first':
      return {
        ...base,
        outcome: null,
        cause: { kind: 'first', label: 'first request of the thread' },
        summary: a.readTokens > 0 ? `First request: read ${grouped(a.readTokens)} tokens cached before the transcript begins` : 'First request: nothing earlier to compare with',
      }
    case 'not_cached':
      return { ...base, outcome: null, cause: { kind: 'not_cached', label: 'not cached' }, summary: 'Not cached: neither this request nor the one before used the cache' }
    case 'hit':
      return {
        ...base,
        outcome: 'full',
        cause: { kind: 'hit', label: 'read everything the previous request left cached' },
        summary: `Hit: read ${grouped(a.readTokens)} of the ${grouped(a.expectedReadTokens ?? 0)} tokens the previous request left`,
      }
    case 'miss': {
      const outcome = a.readTokens > 0 ? 'partial' : 'miss'
      let label: string
      switch (o.cause) {
        case 'compaction':
          label = 'compaction: the conversation was replaced by its summary'
          break
        case 'model_switch':
          label = `model switch${previousModel !== null ? ` (${previousModel} → ${a.model})` : ''}: the cache is per model`
          break
        case 'idle_gap':
          // Past the longest TTL no cache could have bridged the pause: said so, as the summary counts nothing lost.
          label =
            a.sincePreviousMs !== null && a.sincePreviousMs > CACHE_TTL_1H_MS
              ? `idle gap of ${minutes(a.sincePreviousMs)}, longer than any cache entry is kept (1 h at most): nothing could have stayed cached`
              : `idle gap of ${a.sincePreviousMs === null ? 'unknown length' : minutes(a.sincePreviousMs)}, longer than the cache lifetime (TTL)`
          break
        case 'not_visible':
          label = 'cause not visible in a transcript (the system prompt, tools and injected reminders are not recorded)'
          break
      }
      return {
        ...base,
        outcome,
        cause: { kind: o.cause, label },
        summary: `${outcome === 'partial' ? 'Partial' : 'Miss'}: ${grouped(o.droppedTokens)} tokens written again · ${label}`,
      }
    }
  }
}
