/**
 * The time the model lists are drawn for, moved on when a model's end of life begins (decision 0065). The chat's
 * model choice, the line above the message box and Settings' model list read a model's life at a moment: without
 * this, a window left open across an end-of-life day went on offering the retired model until something else drew
 * it again.
 */
import { useEffect, useState } from 'react'
import { nextLifeChange } from '../../../src-preload/models'

/** setTimeout holds at most 2^31 − 1 ms (24.8 days): a change further off is reached in steps. */
const LONGEST_TIMER_MS = 2 ** 31 - 1

/**
 * `Date.now()` as of the last end-of-life day to begin. `endOfLifeDays`: the days to watch (YYYY-MM-DD, UTC), those
 * of the app's model list by default, compared by their text (a new array of the same days keeps the timer).
 */
export function useModelDay(endOfLifeDays?: ReadonlyArray<string | null>): number {
  const [now, setNow] = useState(() => Date.now())
  const key = endOfLifeDays?.join(',')
  useEffect(() => {
    const days = key === undefined ? undefined : key.split(',')
    const next = nextLifeChange(now, days)
    if (next === null) return
    // A timer does not count while the machine sleeps: a window woken after the day catches up when it is used.
    const catchUp = () => {
      if (Date.now() >= next) setNow(Date.now())
    }
    // Drawn again when the timer ends, also after a step short of the day: the effect then sets the next one.
    const timer = setTimeout(() => setNow(Date.now()), Math.min(next - Date.now() + 1, LONGEST_TIMER_MS))
    window.addEventListener('focus', catchUp)
    document.addEventListener('visibilitychange', catchUp)
    return () => {
      clearTimeout(timer)
      window.removeEventListener('focus', catchUp)
      document.removeEventListener('visibilitychange', catchUp)
    }
  }, [now, key])
  return now
}
