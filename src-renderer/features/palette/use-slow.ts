import { useEffect, useState } from 'react'

/** A user notices a wait after about a second; shorter ones show nothing, so fast actions do not flicker. */
export const SLOW_MS = 1000

/** True once `busy` has stayed true for SLOW_MS: "show progress for anything that takes more than a second". */
export function useSlow(busy: boolean, afterMs = SLOW_MS): boolean {
  const [slow, setSlow] = useState(false)
  useEffect(() => {
    if (!busy) {
      setSlow(false)
      return
    }
    const timer = setTimeout(() => setSlow(true), afterMs)
    return () => clearTimeout(timer)
  }, [busy, afterMs])
  return slow
}

/** Seconds since `since`, ticking once a second while `since` is set (for "compacting… 12 s"). */
export function useElapsed(since: number | null): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (since === null) return
    setNow(Date.now())
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [since])
  return since === null ? 0 : Math.max(0, Math.floor((now - since) / 1000))
}
