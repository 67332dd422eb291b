/**
 * The API key as the Settings view sees it: whether one is configured, where it comes from, and its last four
 * characters — never the key itself (node/model/keys.ts keeps it in the host's secret storage; this file only
 * ever returns a hint).
 */
import { API_KEY_RULE } from '../../../src-preload/contract'
import { resolveApiKey, type KeySource, type SecretStore } from '../model/keys'

export interface KeyStatus {
  readonly configured: boolean
  /** `env`: ANTHROPIC_API_KEY, which wins over a stored key; `store`: the host's secret storage. */
  readonly source: KeySource | null
  /** `…WXYZ`: enough to tell two keys apart, not enough to use one. */
  readonly hint: string | null
}

/** Keys are printable ASCII without spaces; Anthropic's are about 100 characters. */
const KEY_PATTERN = /^[\x21-\x7e]{20,400}$/

export function keyProblem(key: string): string | null {
  if (!KEY_PATTERN.test(key)) return API_KEY_RULE
  return null
}

export function hintOf(key: string): string {
  return `…${key.slice(-4)}`
}

export async function keyStatus(secrets: SecretStore, env: Readonly<Record<string, string | undefined>>): Promise<KeyStatus> {
  const resolved = await resolveApiKey({ env, store: secrets })
  return resolved ? { configured: true, source: resolved.source, hint: hintOf(resolved.key) } : { configured: false, source: null, hint: null }
}
