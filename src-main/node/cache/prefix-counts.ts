/**
 * Prefix sizes counted with the service's own counter (count_tokens), for the reads no usage can place.
 *
 * A pass's usage says how many tokens it read, not where the read ended: the attribution finds the breakpoint whose
 * count matches. Counts at the conversation's breakpoints are pinned by the usage of the passes that wrote them, but
 * the tool and system breakpoints are only ever read as part of a longer prefix, so their counts are estimates,
 * scaled by how the rest of the request counted. After a checkpoint (or a tool change) a pass reads the tools and
 * system blocks alone, and a scale skewed by the conversation (text in a script that counts at one token a character,
 * a long paste) can put that read at the wrong block, or at none, and the pass shows as `unexplained`.
 *
 * So, as a pass goes out, each tool and system breakpoint of its request whose size no pass has measured is counted:
 * that prefix with a one-word probe message, less the probe alone. The counts run beside the pass (count_tokens is
 * free on the API) and are kept in the attribution's memory (`rememberCountedPrefix`); the attribution of the pass
 * then holds them as real counts and stores them with its facts. A static prefix is counted once, the first time a
 * pass sends it; a count that fails or is slow is left out, and the attribution scales as before.
 */
import type { WireRequest } from '../../engine/model/wire'
import type { Hasher, ModelClient } from '../../engine/ports'
import { PROBE_MESSAGE } from '../../engine/prompt'
import type { ModelLookup, RequestWalk } from '../../engine/cache'
import { nodeHasher } from '../hasher'
import type { Store } from '../store'
import { isPrefixMeasured, rememberCountedPrefix } from './attribute-pass'
import { walkFor } from './models'
import { COUNT_TIMEOUT_MS, countWithin, type CountRequest } from './token-counter'

/** The probe alone, for `model`: what is taken off each prefix counted with it. */
export function probeRequest(model: string): CountRequest {
  return { model, messages: [PROBE_MESSAGE] } as CountRequest
}

/** The prefix of `request` through the tool or system block at `position` of its walk, with the probe after it (its count is taken off again: the user's words are not known yet). */
export function prefixRequest(request: WireRequest, walk: RequestWalk, position: number): CountRequest | null {
  const block = walk.blocks[position]
  if (!block || block.area === 'messages') return null
  const tools = request.tools ?? []
  return {
    model: request.model,
    ...(block.area === 'tools' ? { tools: tools.slice(0, block.index + 1) } : tools.length > 0 ? { tools } : {}),
    ...(block.area === 'system' ? { system: (request.system ?? []).slice(0, block.index + 1) } : {}),
    messages: [PROBE_MESSAGE],
  } as CountRequest
}

export interface PrefixCountOptions {
  /** The service's counter; a call that throws or returns no number counts nothing. */
  readonly countTokens: (request: CountRequest) => Promise<number>
  /** When the pass goes out: the shared cache entries from the day before are the ones consulted. */
  readonly at: number
  readonly hasher?: Hasher
  readonly models?: ModelLookup
  /** A count not answered by then is given up (COUNT_TIMEOUT_MS by default). */
  readonly countTimeoutMs?: number
}

/** Counts in flight, by store and prefix key: two passes sending the same new prefix at once count it once. */
const inFlight = new WeakMap<Store, Map<string, Promise<void>>>()

/**
 * Counts the tool and system breakpoints of `request` that no pass measured, and keeps their sizes for the
 * attribution. Resolves when every count is in (or failed); never rejects. Returns how many prefixes were counted.
 */
export async function countUnmeasuredPrefixes(store: Store, request: WireRequest, options: PrefixCountOptions): Promise<number> {
  // Only the tools and system blocks are walked: their keys do not depend on the messages.
  const walk = walkFor({ ...request, messages: [] }, options.hasher ?? nodeHasher, options.models ? { models: options.models } : {})
  const flying = inFlight.get(store) ?? new Map<string, Promise<void>>()
  inFlight.set(store, flying)
  const waits: Array<Promise<void>> = []
  const todo: number[] = []
  for (const p of walk.breakpoints) {
    const key = walk.keys[p]!
    const pending = flying.get(key)
    if (pending) waits.push(pending)
    else if (!isPrefixMeasured(store, key, options.at)) todo.push(p)
  }
  if (todo.length === 0) {
    await Promise.all(waits)
    return 0
  }
  // A count that hangs is given up after countTimeoutMs, so the next pass asks again instead of waiting on it.
  const countTimeoutMs = options.countTimeoutMs ?? COUNT_TIMEOUT_MS
  const count = (r: CountRequest) => countWithin(options.countTokens, r, countTimeoutMs)
  const probe = count(probeRequest(request.model))
  let counted = 0
  for (const p of todo) {
    const key = walk.keys[p]!
    const prefix = prefixRequest(request, walk, p)!
    const work = (async () => {
      const [tokens, probeTokens] = await Promise.all([count(prefix), probe])
      if (tokens === null || probeTokens === null || tokens < probeTokens) return
      rememberCountedPrefix(store, key, tokens - probeTokens, options.at)
      counted++
    })().finally(() => flying.delete(key))
    flying.set(key, work)
    waits.push(work)
  }
  await Promise.all(waits)
  return counted
}

/**
 * How long a pass's answer waits, once complete, for its prefixes' counts: they went out with the pass and are
 * nearly always in by then. Past this the pass is attributed without them (the counts are still kept for the next).
 */
export const PREFIX_COUNT_WAIT_MS = 2_000

/**
 * `client` with each pass it sends counting its unmeasured tool and system prefixes beside it: the answer comes back
 * once those counts are in (or after PREFIX_COUNT_WAIT_MS), so the pass is attributed with them. A stopped pass does
 * not wait. Pre-warms and token counts go straight through.
 */
export function countingPrefixes(
  client: ModelClient,
  store: Store,
  options: Omit<PrefixCountOptions, 'countTokens' | 'at'> & { readonly now: () => number; readonly onError?: (error: unknown) => void; readonly waitMs?: number },
): ModelClient {
  const { now, onError, waitMs = PREFIX_COUNT_WAIT_MS, ...counting } = options
  return {
    // Read through: the client may switch services (a key saved mid-turn) while this wrapper lives.
    get endpoint() {
      return client.endpoint
    },
    get prewarm() {
      return client.prewarm?.bind(client)
    },
    countTokens: (request) => client.countTokens(request),
    async send(request, sendOptions) {
      const counts = countUnmeasuredPrefixes(store, request, { ...counting, at: now(), countTokens: (r) => client.countTokens(r) }).catch((err) => onError?.(err))
      const outcome = await client.send(request, sendOptions)
      if (!sendOptions.signal?.aborted) await settledWithin(counts, waitMs)
      return outcome
    },
  }
}

function settledWithin(work: Promise<unknown>, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms)
    void work.finally(() => {
      clearTimeout(timer)
      resolve()
    })
  })
}
