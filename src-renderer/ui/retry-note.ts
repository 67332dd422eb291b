/**
 * Why a pass sends its request again, as the host's `retrying` stream event says (src-main/engine/ports.ts,
 * ModelStreamEvent): the attempt failed after the service had begun to answer (a connection dropped or stalled, a
 * stream cut short) and the answer starts over; or the service refused it (a rate limit, an overload) and it waits
 * before trying again, which without a word looks like a pass that hangs. The chat and the inspector's live pass
 * both show it.
 */
export interface RetryingEvent {
  readonly message?: unknown
  readonly retry?: unknown
  readonly retries?: unknown
  /** Set when the service refused the request (429, 529, 5xx) before answering: nothing streamed, a wait comes first. */
  readonly status?: unknown
  /** The wait before it is sent again, as the service asked; null or absent: a short backoff. */
  readonly waitMs?: unknown
}

export function retryNote(e: RetryingEvent): string {
  const why = (typeof e.message === 'string' ? e.message : '').trim().replace(/[.\s]+$/, '')
  const which = typeof e.retry === 'number' ? ` (retry ${e.retry}${typeof e.retries === 'number' ? ` of ${e.retries}` : ''})` : ''
  if (typeof e.status === 'number') {
    const wait = typeof e.waitMs === 'number' && e.waitMs > 0 ? `in ${waitText(e.waitMs)}` : 'in a few seconds'
    return `The service answered ${e.status}${why === '' ? '' : ` (${why})`}. Sending the request again ${wait}${which}.`
  }
  return `${why === '' ? 'The answer broke off' : `The answer broke off: ${why}`}. Sending the request again${which}; the answer starts over.`
}

/** "2 s", "1 min 30 s", "under a second". */
function waitText(ms: number): string {
  if (ms < 1000) return 'under a second'
  const seconds = Math.round(ms / 1000)
  if (seconds < 60) return `${seconds} s`
  const minutes = Math.floor(seconds / 60)
  const rest = seconds % 60
  return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`
}
