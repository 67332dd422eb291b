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

/** An attempt with what it was billed, when the host priced it (absent on passes stored before attempts were). */
export interface BilledAttemptLike extends AttemptLike {
  readonly usage?: unknown
  readonly costUsd?: number | null
}

/**
 * What the attempts before the last were billed: a stream that broke after its 200 (a dropped connection, a stall) was
 * billed for its prompt and the output it had streamed, then sent again. Its cost is in the pass's; the last attempt's
 * is the answer's, which the usage line shows. Null when no earlier attempt was billed.
 */
export function earlierBilled(attempts: ReadonlyArray<BilledAttemptLike>): { readonly count: number; readonly usd: number | null } | null {
  const billed = attempts.slice(0, -1).filter((a) => a.usage !== undefined && a.usage !== null)
  if (billed.length === 0) return null
  const priced = billed.flatMap((a) => (typeof a.costUsd === 'number' ? [a.costUsd] : []))
  return { count: billed.length, usd: priced.length === 0 ? null : priced.reduce((sum, n) => sum + n, 0) }
}

/** The words for it: "$0.4120 of it for an earlier attempt …", for the usage line and the cost's tooltip. */
export function earlierBilledText(earlier: { readonly count: number; readonly usd: number | null }, usd: (n: number | null) => string): string {
  const which = earlier.count === 1 ? 'an earlier attempt' : `${earlier.count} earlier attempts`
  const its = earlier.count === 1 ? 'its stream' : 'their streams'
  return `${usd(earlier.usd)} of it for ${which}: ${its} broke after the service had begun to answer, and the service billed the prompt and the output streamed until then`
}
