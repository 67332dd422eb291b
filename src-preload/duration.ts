/**
 * How a span of time is written ("5 m 31 s", "1 h 10 m"), in a module that imports nothing so that both sides may
 * use it (like money.ts): the cache attribution's causes ("cache expired: idle 5 m 31 s") and the Cache view's
 * markers give a pause in the same words. To the second, so a pause just past a TTL is not rounded up to a minute it
 * did not last.
 */
export function formatDuration(ms: number): string {
  const totalSeconds = Math.round(ms / 1000)
  const h = Math.floor(totalSeconds / 3600)
  const m = Math.floor((totalSeconds % 3600) / 60)
  const s = totalSeconds % 60
  const parts: string[] = []
  if (h > 0) parts.push(`${h} h`)
  if (m > 0) parts.push(`${m} m`)
  if (s > 0 || parts.length === 0) parts.push(`${s} s`)
  return parts.join(' ')
}
