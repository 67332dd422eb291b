/**
 * Reads the cache attribution stored with a pass (src-main/engine/cache/attribute.ts, `PassAttribution`), when it
 * has been computed: the outcome, the cause in words, where the read ended and what each breakpoint did. The reader
 * is tolerant: the store's JSON is not validated by the contract, and a pass without attribution gives null.
 */
import { isRecord } from './blocks'

export type AttributedAction = 'read' | 'write' | 'below_minimum'

export interface AttributionView {
  readonly outcome: 'full' | 'partial' | 'miss' | null
  /** The cause in one line ("system[1] · project instructions · CLAUDE.md changed …"). */
  readonly cause: string | null
  /** The cause's kind (`cold`, `changed_block`, `ttl_expired` …), src-main/engine/cache/causes.ts. */
  readonly causeKind: string | null
  /** Outcome and cause in one line, for lists. */
  readonly summary: string | null
  /** The block path where the read ended (`messages[4].content[0]`), measured if known, else predicted. */
  readonly readPath: string | null
  readonly actions: ReadonlyMap<string, AttributedAction>
  /** Whether anything was written (measured, or predicted when there was no usage). */
  readonly wrote: boolean | null
  /** The prediction disagreed with the service: the app's bug or the provider's. */
  readonly unexplained: boolean
  /** The request got no response (cause `no_response`): it read and wrote nothing, whatever was predicted. */
  readonly noResponse: boolean
  /** Tokens up to and including each breakpoint's block, by its path, as the attribution counted them. */
  readonly tokensAt: ReadonlyMap<string, number>
  /** What the service billed as read from and written to the cache; null when it did not say (no usage). */
  readonly billed: { readonly read: number; readonly written: number } | null
  /** Tokens paid for that could have been read (`miss.tokens`: 0 at the best possible hit); null when not counted. */
  readonly lostTokens: number | null
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null)

export function readAttribution(attribution: unknown): AttributionView | null {
  if (!isRecord(attribution)) return typeof attribution === 'string' ? { outcome: null, cause: attribution, causeKind: null, summary: attribution, readPath: null, actions: new Map(), wrote: null, unexplained: false, noResponse: false, tokensAt: new Map(), billed: null, lostTokens: null } : null
  const outcome = attribution.outcome === 'full' || attribution.outcome === 'partial' || attribution.outcome === 'miss' ? attribution.outcome : null
  const cause = isRecord(attribution.cause) ? (str(attribution.cause.label) ?? str(attribution.cause.kind)?.replace(/_/g, ' ') ?? null) : (str(attribution.cause)?.replace(/_/g, ' ') ?? null)
  const prediction = isRecord(attribution.prediction) ? attribution.prediction : null
  const actual = isRecord(attribution.actual) ? attribution.actual : null
  const noResponse = isRecord(attribution.cause) && attribution.cause.kind === 'no_response'
  const actions = new Map<string, AttributedAction>()
  const tokensAt = new Map<string, number>()
  // A request that got no response did nothing at its breakpoints; the prediction is only what it would have done.
  for (const b of !noResponse && Array.isArray(prediction?.breakpoints) ? prediction.breakpoints : []) {
    if (isRecord(b) && typeof b.path === 'string' && (b.action === 'read' || b.action === 'write' || b.action === 'below_minimum')) actions.set(b.path, b.action)
    if (isRecord(b) && typeof b.path === 'string' && typeof b.tokens === 'number' && Number.isFinite(b.tokens)) tokensAt.set(b.path, b.tokens)
  }
  const measured = !noResponse && isRecord(actual?.tokens) ? actual.tokens : null
  const billed = measured ? { read: Number(measured.read ?? 0) || 0, written: (Number(measured.write5m ?? 0) || 0) + (Number(measured.write1h ?? 0) || 0) } : null
  const split = isRecord(actual?.tokens) ? actual.tokens : isRecord(prediction?.tokens) ? prediction.tokens : null
  const wrote = noResponse ? false : split ? Number(split.write5m ?? 0) + Number(split.write1h ?? 0) > 0 : null
  const lost = isRecord(attribution.miss) ? attribution.miss.tokens : null
  return {
    outcome,
    cause,
    causeKind: isRecord(attribution.cause) ? str(attribution.cause.kind) : str(attribution.cause),
    summary: str(attribution.summary),
    readPath: noResponse ? null : actual ? str(actual.readPath) : (str(attribution.readPath) ?? (prediction ? str(prediction.readPath) : null)),
    actions,
    wrote,
    unexplained: isRecord(attribution.cause) && attribution.cause.kind === 'unexplained',
    noResponse,
    tokensAt,
    billed,
    lostTokens: typeof lost === 'number' && Number.isFinite(lost) ? lost : null,
  }
}

/** Cache order of a block path: tools, then system, then messages; then index, then content block index. */
export function pathOrder(path: string): readonly [number, number, number] | null {
  const m = /^(tools|system|messages)\[(\d+)\](?:\.content\[(\d+)\])?$/.exec(path)
  if (!m) return null
  return [['tools', 'system', 'messages'].indexOf(m[1]!), Number(m[2]), m[3] === undefined ? Number.MAX_SAFE_INTEGER : Number(m[3])]
}

export function comparePaths(a: string, b: string): number {
  const x = pathOrder(a)
  const y = pathOrder(b)
  if (!x || !y) return 0
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2]
}

/** `messages[4]` for `messages[4].content[0]`: the segment a block path lies in. */
export function segmentPathOf(path: string): string {
  return path.replace(/\.content\[\d+\]$/, '')
}
