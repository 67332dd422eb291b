/**
 * The API's cache diagnostics beside the app's own answer to the same question (docs/cache-attribution.md, "The API's
 * diagnostics"): the attribution keeps what the response's `diagnostics.cache_miss_reason` said and what it should
 * say from the app's comparison with the previous pass, and flags a difference. Said in words for the Response view.
 */
import { grouped } from '../../../ui/format'
import { isRecord } from './blocks'

export interface DiagnosisView {
  /** What the API (or the simulator) said. */
  readonly api: string
  /** What the app's own comparison with the previous pass says it should be. */
  readonly ours: string
  /** Null when there is nothing to compare (no previous pass, or the API not asked). */
  readonly agree: boolean | null
}

const LEVEL_WORDS: Readonly<Record<string, string>> = {
  model_changed: 'model changed',
  system_changed: 'system prompt changed',
  tools_changed: 'tools changed',
  messages_changed: 'earlier messages changed',
  settings_changed: 'request settings changed',
  // The API's word for a change of request settings it does not name.
  unavailable: 'unavailable (request settings changed)',
  previous_message_not_found: 'previous response not found',
}

function apiWords(api: unknown): string | null {
  if (api === null) return 'no change since the previous response'
  if (!isRecord(api) || typeof api.type !== 'string') return null
  const words = LEVEL_WORDS[api.type] ?? api.type.replace(/_/g, ' ')
  const missed = api.cache_missed_input_tokens
  return typeof missed === 'number' && Number.isFinite(missed) ? `${words} · ${grouped(missed)} tokens of the previous prompt from there on` : words
}

function oursWords(ours: unknown): string | null {
  if (ours === null) return 'no change since the previous pass'
  if (ours === 'no_previous') return 'no previous pass to compare with'
  return typeof ours === 'string' ? (LEVEL_WORDS[ours] ?? ours.replace(/_/g, ' ')) : null
}

/** The diagnosis of a pass's stored attribution; null when the request did not ask the API for one, or none is kept. */
export function diagnosisOf(attribution: unknown): DiagnosisView | null {
  if (!isRecord(attribution) || !isRecord(attribution.diagnostics)) return null
  const { api, ours, disagree } = attribution.diagnostics
  if (api === 'not_asked' || api === undefined) return null
  const apiText = apiWords(api)
  const oursText = oursWords(ours)
  if (apiText === null || oursText === null) return null
  return { api: apiText, ours: oursText, agree: ours === 'no_previous' ? null : disagree !== true }
}
