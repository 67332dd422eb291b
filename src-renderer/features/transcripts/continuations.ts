/**
 * The Loupe sessions an imported conversation was continued as (each records it: `Session.continued.fromSessionId`,
 * origin_ref `{kind: 'continued'}` in the store). Continue offers the newest one first, so that a second Continue
 * is a choice, not a slip; the new one is numbered by the main process ("Continued (2): …"). Pure: actions.ts
 * `findContinuations` reads the lists.
 */
import type { Session } from '../../../src-preload/contract'
import { dateTime } from '../../ui/format'

/** The sessions continued from `importedSessionId`, newest first, from every project's list. */
export function continuationsOf(importedSessionId: string, lists: ReadonlyArray<ReadonlyArray<Session>>): Session[] {
  const seen = new Set<string>()
  const out: Session[] = []
  for (const list of lists)
    for (const s of list) {
      if (s.continued?.fromSessionId !== importedSessionId || seen.has(s.id)) continue
      seen.add(s.id)
      out.push(s)
    }
  return out.sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1))
}

/** What Continue says of an imported session continued before. */
export function continuedBeforeText(continuations: ReadonlyArray<Pick<Session, 'title' | 'createdAt'>>): string | null {
  const newest = continuations[0]
  if (!newest) return null
  const when = dateTime(newest.createdAt)
  return continuations.length === 1
    ? `This conversation was continued on ${when}, as “${newest.title}”.`
    : `This conversation was continued ${continuations.length} times, last on ${when}, as “${newest.title}”.`
}
