/**
 * What the Cache view says instead of its figures when it has none to show: a session with no pass stored yet, or
 * with passes none of which was answered with usage (each failed, or was stopped before the service said what it
 * read and wrote). Its timeline and totals would then be an empty chart and a row of zeros, which read as "the cache
 * did nothing" rather than "nothing has happened yet".
 */

export interface PassLike {
  readonly status: 'done' | 'failed' | 'cancelled'
  /** Null when the service never reported the pass's usage. */
  readonly usage: unknown
}

export interface EmptyState {
  /** The state's kind, for tests and styling. */
  readonly kind: 'no_pass' | 'none_answered'
  readonly title: string
  readonly body: string
}

/**
 * The empty state for a session's stored passes (`pass.list`), or null when at least one pass was answered with
 * usage and the view has figures to show. `inFlight`: a pass of the session is on its way now.
 */
export function cacheEmptyState(passes: ReadonlyArray<PassLike>, inFlight = false): EmptyState | null {
  if (passes.length === 0) {
    return {
      kind: 'no_pass',
      title: 'No pass yet',
      body: inFlight
        ? 'The first pass is on its way: it shows here once it is answered, with what it read from the cache, what it wrote, and what it paid in full — and why.'
        : 'Send a message in the chat: every pass then shows here with what it read from the cache, what it wrote, and what it paid in full — and why.',
    }
  }
  if (passes.some((p) => p.usage !== null && p.usage !== undefined)) return null
  const n = passes.length
  const failed = passes.filter((p) => p.status === 'failed').length
  const stopped = passes.filter((p) => p.status === 'cancelled').length
  const sent = n === 1 ? '1 pass was sent' : `${n} passes were sent`
  const why = failed === n ? (n === 1 ? 'it failed' : 'each failed') : stopped === n ? (n === 1 ? 'it was stopped' : 'each was stopped') : 'each failed or was stopped'
  const next = inFlight ? 'The pass on its way now may be the first.' : 'Send the message again (Retry in the chat), or another.'
  return {
    kind: 'none_answered',
    title: 'No pass answered yet',
    body: `${sent}, and ${n === 1 ? 'it got no' : 'none got an'} answer that says what it read from the cache and what it wrote (${why} before the model service reported it). The figures start with the first pass answered. ${next}`,
  }
}
