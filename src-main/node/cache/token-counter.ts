/**
 * The service's own token counter (count_tokens: the simulator's, or the real API's, which is free) with the counts
 * kept by the hash of the exact request counted. Pricing an edit while the user types asks for the same prefixes
 * again and again — the last request, the static prefix, the probe — and only the edited request is new each time,
 * so repeated pricing costs one count per draft. A count in flight is shared by every caller asking for it; a failed
 * or slow one is not kept, and its callers fall back to estimates.
 */
import type { WireRequest } from '../../engine/model/wire'
import type { Hasher } from '../../engine/ports'
import { nodeHasher } from '../hasher'

export type CountRequest = Omit<WireRequest, 'max_tokens' | 'stream'>
export type CountTokens = (request: CountRequest) => Promise<number>

export interface TokenCounterOptions {
  /** Counts kept (least recently used dropped first). */
  readonly limit?: number
  /** A count that takes longer fails (the price falls back to the estimate); the request itself is not cancelled. */
  readonly timeoutMs?: number
  readonly hasher?: Hasher
  /** Names the service counting (counts differ between the simulator and the API): part of every key. */
  readonly salt?: () => string
}

export const COUNT_TIMEOUT_MS = 8000
const COUNT_LIMIT = 256

export class TokenCounter {
  private readonly counts = new Map<string, Promise<number>>()
  private readonly limit: number
  private readonly timeoutMs: number
  private readonly hasher: Hasher
  private readonly salt: () => string
  /** Requests sent to the service (not answered from the kept counts). */
  sent = 0

  constructor(
    private readonly countTokens: CountTokens,
    options: TokenCounterOptions = {},
  ) {
    this.limit = options.limit ?? COUNT_LIMIT
    this.timeoutMs = options.timeoutMs ?? COUNT_TIMEOUT_MS
    this.hasher = options.hasher ?? nodeHasher
    this.salt = options.salt ?? (() => '')
  }

  /** The hash a count is kept under: the service, and the request's JSON exactly as it would be sent. */
  keyOf(request: CountRequest): string {
    return this.hasher.sha256Hex(`${this.salt()}\n${JSON.stringify(request)}`)
  }

  count(request: CountRequest): Promise<number> {
    const key = this.keyOf(request)
    const known = this.counts.get(key)
    if (known) {
      // Most recently used last.
      this.counts.delete(key)
      this.counts.set(key, known)
      return known
    }
    this.sent++
    const counting = withTimeout(this.countTokens(request), this.timeoutMs)
    this.counts.set(key, counting)
    counting.catch(() => {
      if (this.counts.get(key) === counting) this.counts.delete(key)
    })
    while (this.counts.size > this.limit) this.counts.delete(this.counts.keys().next().value!)
    return counting
  }

  /** A count, or null when the service could not give one. */
  async tryCount(request: CountRequest): Promise<number | null> {
    try {
      const n = await this.count(request)
      return isCount(n) ? n : null
    } catch {
      return null
    }
  }
}

/** One count straight from the service (nothing kept), or null when it failed, took longer than `ms`, or was no count. */
export async function countWithin(countTokens: CountTokens, request: CountRequest, ms: number): Promise<number | null> {
  try {
    const n = await withTimeout(countTokens(request), ms)
    return isCount(n) ? n : null
  } catch {
    return null
  }
}

function isCount(n: unknown): n is number {
  return typeof n === 'number' && Number.isFinite(n) && n >= 0
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`count_tokens took longer than ${ms} ms`)), ms)
    work.then(
      (value) => {
        clearTimeout(timer)
        resolve(value)
      },
      (err: unknown) => {
        clearTimeout(timer)
        reject(err instanceof Error ? err : new Error(String(err)))
      },
    )
  })
}
