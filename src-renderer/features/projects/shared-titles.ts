/**
 * Sessions of one list that show the same name (two Claude Code sessions imported with the same first prompt, two
 * sessions made in the same minute): each such row also shows when its session was made, so they can be told apart
 * without opening them (decision 0068). Pure: SessionList draws it.
 */
import type { Session } from '../../../src-preload/contract'
import { clock, dateTime } from '../../ui/format'
import { nestSessions } from './nest'

/** What an imported Claude Code session's title starts with (src-main/node/transcripts/store-import.ts). */
export const IMPORTED_PREFIX = 'Claude Code: '

/** What of a session its name in a list is made of. */
export type NamedSession = Pick<Session, 'id' | 'title' | 'createdAt' | 'origin' | 'parentSessionId'>

/**
 * The name a row shows: an imported session's title without its "Claude Code: " (a mark says where it came from), so
 * the narrow sidebar spends its width on what the session was about.
 */
export function rowTitle(session: Pick<Session, 'title' | 'origin'>): { text: string; imported: boolean } {
  const imported = session.origin === 'transcript' && session.title.startsWith(IMPORTED_PREFIX)
  return { text: imported ? session.title.slice(IMPORTED_PREFIX.length) : session.title, imported }
}

/**
 * When each session of a project's list was made, for those whose row shares its name with a row listed beside it:
 * the top rows among themselves, the sessions one session started (under it) among themselves. The same whether
 * they are folded or not, so the sidebar, the palette and the delete question say the same.
 */
export function madeTimes(sessions: ReadonlyArray<NamedSession>): ReadonlyMap<string, string> {
  const rows = nestSessions(sessions, new Set(sessions.map((s) => s.id)), null)
  return sharedTitleTimes(rows, (r) => r.session, (r) => `${r.depth === 1 ? r.session.parentSessionId : ''}\n${rowTitle(r.session).text}`)
}

export interface TitledSession {
  readonly id: string
  readonly createdAt: number
}

/**
 * For each row whose name (`nameOf`, which also says where the row is listed) another row shares: when its session
 * was made, "2026-11-29 14:02"; to the second, "2026-11-29 14:02:07", when the minute does not tell the group apart;
 * and with its place among those made in that second, "2026-11-29 14:02:07 (2)", when neither does. Keyed by the
 * session's id; rows named alone are absent.
 */
export function sharedTitleTimes<R>(rows: ReadonlyArray<R>, sessionOf: (row: R) => TitledSession, nameOf: (row: R) => string): ReadonlyMap<string, string> {
  const byName = new Map<string, TitledSession[]>()
  for (const row of rows) {
    const name = nameOf(row)
    const group = byName.get(name)
    if (group) group.push(sessionOf(row))
    else byName.set(name, [sessionOf(row)])
  }
  const times = new Map<string, string>()
  for (const group of byName.values()) {
    if (group.length < 2) continue
    const minutes = group.map((s) => dateTime(s.createdAt))
    const labels = new Set(minutes).size < minutes.length ? group.map((s, i) => `${minutes[i]}${clock(s.createdAt).slice(5)}`) : minutes
    // Same second too: numbered in the order they were made (then by id, so the numbers hold from one draw to the next).
    const sameLabel = new Map<string, TitledSession[]>()
    group.forEach((s, i) => sameLabel.set(labels[i]!, [...(sameLabel.get(labels[i]!) ?? []), s]))
    for (const [label, sessions] of sameLabel) {
      if (sessions.length === 1) times.set(sessions[0]!.id, label)
      else [...sessions].sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).forEach((s, i) => times.set(s.id, `${label} (${i + 1})`))
    }
  }
  return times
}
