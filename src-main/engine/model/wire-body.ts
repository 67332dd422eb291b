/**
 * A request body in the block form the cache engine walks: a foreign agent's as the proxy captured it, or any
 * stored body read back. The API accepts a string wherever a list of
 * text blocks may stand (`system: "…"`, `content: "…"`) and caches it as one text block, so the string becomes
 * that block; nothing else changes, and message and block positions stay where they were on the wire.
 */
import type { WireRequest } from './wire'

type Json = Record<string, unknown>
const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)
const asBlocks = (v: unknown): unknown => (typeof v === 'string' ? [{ type: 'text', text: v }] : v)

/** Null when the body is not a Messages request (no model, no message list). */
export function wireRequestOf(body: unknown): WireRequest | null {
  if (!isRecord(body) || typeof body.model !== 'string' || !Array.isArray(body.messages)) return null
  const messages = body.messages.map((m: unknown) => (isRecord(m) ? { ...m, content: asBlocks(m.content) } : m))
  return { ...body, ...(body.system !== undefined ? { system: asBlocks(body.system) } : {}), messages } as unknown as WireRequest
}
