/**
 * Why an answer streaming starts over: the attempt failed after the service had begun to answer (a connection dropped
 * or stalled, a stream cut short) and the request is sent again, as the host's `retrying` stream event says
 * (src-main/engine/ports.ts, ModelStreamEvent). The chat and the inspector's live pass both show it.
 */
export interface RetryingEvent {
  readonly message?: unknown
  readonly retry?: unknown
  readonly retries?: unknown
}

export function retryNote(e: RetryingEvent): string {
  const why = (typeof e.message === 'string' ? e.message : '').trim().replace(/[.\s]+$/, '')
  const which = typeof e.retry === 'number' ? ` (retry ${e.retry}${typeof e.retries === 'number' ? ` of ${e.retries}` : ''})` : ''
  return `${why === '' ? 'The answer broke off' : `The answer broke off: ${why}`}. Sending the request again${which}; the answer starts over.`
}
