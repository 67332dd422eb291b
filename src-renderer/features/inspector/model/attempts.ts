/**
 * A pass's attempts as the ↻ column counts them: how many times its request was sent, how many of those failed, and
 * whether the user stopped the last one. The column is blank for a pass sent once, as nearly every pass is, and
 * says "↻2" only for one sent again, so a retry stands out instead of a "1" on every row. A stop (Esc, Stop) ends the attempt with an `aborted` error
 * (src-main/node/model/convert.ts), but it is the user's choice, not a failure: the column is about retries after an
 * error, so a stop neither counts as failed nor turns it amber.
 */
export interface AttemptLike {
  readonly error: { readonly kind: string } | null
}

/** Whether an attempt failed: it ended with an error the user did not cause by stopping it. */
export function attemptFailed(attempt: AttemptLike): boolean {
  return attempt.error !== null && attempt.error.kind !== 'aborted'
}

export interface AttemptsSummary {
  readonly sent: number
  readonly failed: number
  readonly stopped: boolean
  /** The column's text: "" for a pass sent once (or never), "↻2" for one sent twice. */
  readonly text: string
  /** The column's tooltip: "1 attempt, stopped by the user", "3 attempts, 2 failed". */
  readonly title: string
}

export function attemptsSummary(attempts: ReadonlyArray<AttemptLike>): AttemptsSummary {
  const sent = attempts.length
  const failed = attempts.filter(attemptFailed).length
  const stopped = attempts.some((a) => a.error?.kind === 'aborted')
  const parts = [`${sent} ${sent === 1 ? 'attempt' : 'attempts'}`]
  if (failed > 0) parts.push(`${failed} failed`)
  if (stopped) parts.push('stopped by the user')
  if (failed === 0 && !stopped) parts.push('none failed')
  return { sent, failed, stopped, text: sent > 1 ? `↻${sent}` : '', title: parts.join(', ') }
}
