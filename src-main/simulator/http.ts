/**
 * HTTP plumbing for the simulator: reading the body, headers every response carries (`request-id`, and the
 * SHA-256 of the body bytes received, so a client can check its wire capture byte for byte), error bodies, and
 * the checks every endpoint shares: auth, `anthropic-version`, `anthropic-beta` (docs/reference/anthropic-api.md
 * §1.2, §4, §12.2).
 */
import { createHash } from 'node:crypto'
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http'
import { errorBody, invalidRequest, SimApiError } from './errors'
import { API_VERSIONS, type ApiVersion } from './validate'

/** Response header carrying the hex SHA-256 of the request body bytes the simulator received. */
export const BODY_HASH_HEADER = 'x-sim-request-sha256'
/** §1.4: 32 MB for Messages and Token Counting. */
export const MAX_BODY_BYTES = 32 * 1024 * 1024

/** Betas the simulator knows; any other value is a 400, as on the real API (§1.2). */
export const KNOWN_BETAS: ReadonlySet<string> = new Set([
  'cache-diagnosis-2026-04-07',
  'extended-cache-ttl-2025-04-11',
  'prompt-caching-2024-07-31',
  'interleaved-thinking-2025-05-14',
  'fine-grained-tool-streaming-2025-05-14',
  'token-efficient-tools-2025-02-19',
  'output-128k-2025-02-19',
  'output-300k-2026-03-24',
  'context-1m-2025-08-07',
  'context-management-2025-06-27',
  'model-context-window-exceeded-2025-08-26',
  'compact-2026-01-12',
  'files-api-2025-04-14',
  'code-execution-2025-08-25',
  'web-fetch-2025-09-10',
  'mcp-client-2025-11-20',
  'skills-2025-10-02',
  'effort-2025-11-24',
  'structured-outputs-2025-11-13',
  'advanced-tool-use-2025-11-20',
])

export function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name]
  return Array.isArray(value) ? value[0] : value
}

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    const buf = chunk as Buffer
    size += buf.length
    if (size > MAX_BODY_BYTES) throw new SimApiError(413, 'request_too_large', 'Request exceeds the maximum allowed number of bytes.')
    chunks.push(buf)
  }
  return Buffer.concat(chunks)
}

export function sha256Hex(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex')
}

export interface AuthOptions {
  /** When set, only these keys are accepted; otherwise any non-empty key is. */
  readonly apiKeys?: ReadonlyArray<string>
}

/** §0, §12.2: either auth header; x-api-key wins when both are present. */
export function checkAuth(headers: IncomingHttpHeaders, options: AuthOptions): void {
  const bearer = header(headers, 'authorization')?.match(/^Bearer\s+(.+)$/i)?.[1]
  const key = header(headers, 'x-api-key') ?? bearer
  if (!key) throw new SimApiError(401, 'authentication_error', 'x-api-key header is required')
  if (options.apiKeys && !options.apiKeys.includes(key)) throw new SimApiError(401, 'authentication_error', 'invalid x-api-key')
}

export function checkVersion(headers: IncomingHttpHeaders): ApiVersion {
  const version = header(headers, 'anthropic-version')
  if (!version) throw invalidRequest('anthropic-version: header is required')
  const known = API_VERSIONS.find((v) => v === version)
  if (!known) throw invalidRequest(`anthropic-version: "${version}" is not a valid version`)
  return known
}

export function checkBetas(headers: IncomingHttpHeaders): string[] {
  const raw = header(headers, 'anthropic-beta')
  if (!raw) return []
  const betas = raw.split(',').map((b) => b.trim()).filter((b) => b.length > 0)
  const unknown = betas.filter((b) => !KNOWN_BETAS.has(b))
  if (unknown.length > 0) {
    throw invalidRequest(`Unexpected value(s) \`${unknown.join('`, `')}\` for the \`anthropic-beta\` header. Please consult our documentation at platform.claude.com/docs or try again without the header.`)
  }
  return betas
}

export function sendJson(res: ServerResponse, status: number, body: string, headers: Readonly<Record<string, string>> = {}): void {
  if (res.headersSent || res.destroyed) return
  res.writeHead(status, { 'content-type': 'application/json', ...headers })
  res.end(body)
}

export function sendError(res: ServerResponse, error: SimApiError, requestId: string): void {
  sendJson(res, error.status, errorBody(error.errorType, error.message, requestId), error.headers)
}

export function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve()
}
