/**
 * Faults on demand (docs/simulator.md "Faults"; docs/reference/anthropic-api.md §12.6), chosen per request by a
 * configured FaultPlan or by the test-only header `x-sim-fault`.
 *
 * Header grammar: `kind[; times=N][; retry_after_ms=N][; after_events=N][; delay_ms=N]`. The server counts
 * requests per distinct header value, and applies the fault to the first `times` of them (default 1), so
 * "fail twice, then succeed" works across the SDK's retries and the client's own. Add any other `key=value`
 * (e.g. `id=test-7`) to keep two tests' counters apart.
 */
import type { IncomingHttpHeaders } from 'node:http'

export type FaultKind =
  /** 429 rate_limit_error with retry-after and retry-after-ms. */
  | 'rate_limit'
  /** 529 overloaded_error with x-should-retry: true. */
  | 'overloaded'
  /** 500 api_error. */
  | 'server_error'
  /** The connection is destroyed mid-stream, after `afterEvents` SSE events. */
  | 'reset'
  /** The stream ends cleanly but without message_stop (and without anything after `afterEvents`). */
  | 'truncate'
  /** One SSE data line (or the JSON body) is cut so it no longer parses. */
  | 'malformed'
  /** An `event: error` (overloaded_error) arrives mid-stream after a 200, then the stream ends. */
  | 'stream_error'
  /** The response's first byte is held back for `delayMs`. */
  | 'slow_first_byte'
  /** The stream goes silent after `afterEvents` SSE events, its connection left open, until the client goes away. */
  | 'stall'

export interface Fault {
  readonly kind: FaultKind
  /** rate_limit: the wait the response asks for. Default 1 ms (keeps retry tests fast, §4.3). */
  readonly retryAfterMs?: number
  /** reset, truncate, malformed, stream_error, stall: how many SSE events go out first. */
  readonly afterEvents?: number
  /** slow_first_byte: the delay. */
  readonly delayMs?: number
}

export interface FaultContext {
  readonly method: string
  readonly path: string
  /** `x-stainless-retry-count` as the SDK sent it (0 on a first attempt). */
  readonly retryCount: number
  readonly headers: IncomingHttpHeaders
}

export interface FaultPlan {
  /** The fault for this request, or null. Called once per request, before anything is answered. */
  next(context: FaultContext): Fault | null
}

export const FAULT_KINDS: ReadonlyArray<FaultKind> = ['rate_limit', 'overloaded', 'server_error', 'reset', 'truncate', 'malformed', 'stream_error', 'slow_first_byte', 'stall']

/**
 * A plan that hands out the given faults in order to Messages requests (POST /v1/messages), each `times` times
 * (default 1). Token counts are not among them: a client counts prefixes beside its passes, and a fault meant for a
 * pass's stream would be spent on a count.
 */
export function faultQueue(faults: ReadonlyArray<Fault & { readonly times?: number }>): FaultPlan & { remaining(): number } {
  const queue = faults.map((f) => ({ fault: f, left: f.times ?? 1 }))
  return {
    next(context) {
      if (context.method !== 'POST' || context.path !== '/v1/messages') return null
      const head = queue.find((q) => q.left > 0)
      if (!head) return null
      head.left--
      return head.fault
    },
    remaining: () => queue.reduce((sum, q) => sum + q.left, 0),
  }
}

export interface HeaderFault {
  readonly fault: Fault
  readonly times: number
}

/** Parses an `x-sim-fault` value; null when the kind is unknown. */
export function parseFaultHeader(value: string): HeaderFault | null {
  const [kindPart, ...params] = value.split(';').map((s) => s.trim())
  const kind = FAULT_KINDS.find((k) => k === kindPart)
  if (!kind) return null
  const numbers = new Map<string, number>()
  for (const param of params) {
    const [key, raw] = param.split('=').map((s) => s.trim())
    const n = Number(raw)
    if (key && Number.isFinite(n)) numbers.set(key, n)
  }
  const fault: Fault = {
    kind,
    ...(numbers.has('retry_after_ms') ? { retryAfterMs: numbers.get('retry_after_ms')! } : {}),
    ...(numbers.has('after_events') ? { afterEvents: numbers.get('after_events')! } : {}),
    ...(numbers.has('delay_ms') ? { delayMs: numbers.get('delay_ms')! } : {}),
  }
  return { fault, times: numbers.get('times') ?? 1 }
}

/** Applies `x-sim-fault` headers, counting uses per distinct header value. */
export class HeaderFaults {
  private readonly uses = new Map<string, number>()

  next(headers: IncomingHttpHeaders): Fault | null {
    const raw = headers['x-sim-fault']
    const value = Array.isArray(raw) ? raw[0] : raw
    if (!value) return null
    const parsed = parseFaultHeader(value)
    if (!parsed) return null
    const used = this.uses.get(value) ?? 0
    if (used >= parsed.times) return null
    this.uses.set(value, used + 1)
    return parsed.fault
  }
}
