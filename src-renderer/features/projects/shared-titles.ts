/**
 * Sessions of one list that show the same name (two Claude Code sessions imported with the same first prompt, two
 * sessions made in the same minute): each such row also shows when its session was made, so they can be told apart
 * without opening them. Pure: SessionList draws it.
 */
import { clock, dateTime } from '../../ui/format'

export interface TitledSession {
  readonly id: string
  readonly createdAt: number
}

/**
 * For each session whose shown name another one in `sessions` shares: when it was made, "2026-11-29 14:02", or to
 * the second, "2026-11-29 14:02:07", when that minute does not tell the group apart. Sessions named alone are absent.
 */
export function sharedTitleTimes<S extends TitledSession>(sessions: ReadonlyArray<S>, shownName: (s: S) => string): ReadonlyMap<string, string> {
  const byName = new Map<string, S[]>()
  for (const s of sessions) {
    const name = shownName(s)
    const group = byName.get(name)
    if (group) group.push(s)
    else byName.set(name, [s])
  }
  const times = new Map<string, string>()
  for (const group of byName.values()) {
    if (group.length < 2) continue
    const minutes = group.map((s) => dateTime(s.createdAt))
    const toSecond = new Set(minutes).size < minutes.length
    group.forEach((s, i) => times.set(s.id, toSecond ? `${minutes[i]}${clock(s.createdAt).slice(5)}` : minutes[i]!))
  }
  return times
}
