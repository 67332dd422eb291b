/**
 * Headers through the capture proxy: what is forwarded (everything but the hop-by-hop headers of RFC 9110 §7.6.1),
 * what is recorded (nothing that can carry a secret), and which client a request belongs to.
 */
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http'
import { isHopByHop } from '../hop-by-hop'


/** Never recorded, whatever their value: API keys pass through the proxy and are never stored. */
const SECRET_HEADERS = new Set(['authorization', 'x-api-key', 'proxy-authorization', 'cookie', 'set-cookie', 'anthropic-admin-api-key'])

/** The proxy's own header naming the client (docs/proxy.md); removed before forwarding. */
export const CLIENT_HEADER = 'x-loupe-client'

/** Request headers for the upstream: the client's, minus hop-by-hop ones, with the upstream's host. */
export function upstreamHeaders(headers: IncomingHttpHeaders, host: string, bodyBytes: number): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || isHopByHop(name) || name === 'host' || name === CLIENT_HEADER) continue
    out[name] = value
  }
  out.host = host
  // The body is forwarded whole with its length, whether the client sent a length or chunks.
  out['content-length'] = String(bodyBytes)
  return out
}

/** Response headers for the client, as raw name/value pairs (their case kept), minus hop-by-hop ones. */
export function clientHeaders(rawHeaders: ReadonlyArray<string>): string[] {
  const out: string[] = []
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (isHopByHop(rawHeaders[i]!)) continue
    out.push(rawHeaders[i]!, rawHeaders[i + 1]!)
  }
  return out
}

/** Headers as recorded: lower-case names, secrets left out (by name, and any value containing a known secret). */
export function recordedHeaders(headers: IncomingHttpHeaders, secrets: ReadonlyArray<string> = []): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || SECRET_HEADERS.has(name)) continue
    const text = Array.isArray(value) ? value.join(', ') : String(value)
    if (secrets.some((s) => s.length > 0 && text.includes(s))) continue
    out[name] = text
  }
  return out
}

/** The secrets a request carries (its key), so that no recorded header repeats them under another name. */
export function secretsOf(headers: IncomingHttpHeaders): string[] {
  const out: string[] = []
  const key = headers['x-api-key']
  if (typeof key === 'string') out.push(key)
  const bearer = /^Bearer\s+(.+)$/i.exec(headers.authorization ?? '')?.[1]
  if (bearer !== undefined) out.push(bearer)
  return out
}

const MAX_CLIENT_CHARS = 120

/**
 * Which client sent a request: the `x-loupe-client` header when the agent sets one, else its user agent
 * (`claude-cli/2.1.39 (external, cli)`, `Anthropic/JS 1.14.0`). Never derived from the API key.
 */
export function clientKey(headers: IncomingHttpHeaders): string {
  const named = headers[CLIENT_HEADER]
  const raw = (typeof named === 'string' && named.trim() !== '' ? named : headers['user-agent']) ?? 'unknown client'
  const text = String(raw).replace(/[\u0000-\u001f]/g, ' ').trim()
  return text.length > MAX_CLIENT_CHARS ? text.slice(0, MAX_CLIENT_CHARS) : text || 'unknown client'
}
