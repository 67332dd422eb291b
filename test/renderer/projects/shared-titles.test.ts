/** Rows of the sidebar that share a name say when each session was made, to the second only when the minute is shared. */
import { describe, expect, it } from 'vitest'
import { madeTimes, sharedTitleTimes } from '../../../src-renderer/features/projects/shared-titles'
import { dateTime } from '../../../src-renderer/ui/format'

const at = (h: number, m: number, s: number) => new Date(2026, 10, 29, h, m, s).getTime()

describe('sharedTitleTimes', () => {
  it('gives a time to each session whose name another shares, and none to a session named alone', () => {
    const sessions = [
      { id: 'a', title: 'Claude Code: fix the parser', createdAt: at(9, 5, 0) },
      { id: 'b', title: 'Claude Code: fix the parser', createdAt: at(14, 2, 30) },
      { id: 'c', title: 'Add a flag', createdAt: at(14, 3, 0) },
    ]
    const times = sharedTitleTimes(sessions, (s) => s, (s) => s.title)
    expect([...times.entries()]).toEqual([
      ['a', dateTime(at(9, 5, 0))],
      ['b', dateTime(at(14, 2, 30))],
    ])
  })

  it('goes to the second when the minute does not tell the group apart', () => {
    const sessions = [
      { id: 'a', title: 'Session 2026-11-29 14:02', createdAt: at(14, 2, 7) },
      { id: 'b', title: 'Session 2026-11-29 14:02', createdAt: at(14, 2, 41) },
    ]
    const times = sharedTitleTimes(sessions, (s) => s, (s) => s.title)
    expect(times.get('a')).toBe(`${dateTime(at(14, 2, 7))}:07`)
    expect(times.get('b')).toBe(`${dateTime(at(14, 2, 41))}:41`)
  })

  it('numbers sessions made in the same second, in the order they were made', () => {
    const sessions = [
      { id: 'b', title: 'Claude Code: fix it', createdAt: at(14, 2, 7) + 400 },
      { id: 'a', title: 'Claude Code: fix it', createdAt: at(14, 2, 7) },
      { id: 'c', title: 'Claude Code: fix it', createdAt: at(14, 5, 0) },
    ]
    const times = sharedTitleTimes(sessions, (s) => s, (s) => s.title)
    expect(times.get('a')).toBe(`${dateTime(at(14, 2, 7))}:07 (1)`)
    expect(times.get('b')).toBe(`${dateTime(at(14, 2, 7))}:07 (2)`)
    expect(times.get('c')).toBe(`${dateTime(at(14, 5, 0))}:00`)
  })

  it('compares rows only with the rows listed beside them: a session under its parent is not one of the top rows', () => {
    const rows = [
      { session: { id: 'p', createdAt: at(9, 0, 0) }, key: '\nReview the parser' },
      { session: { id: 'child', createdAt: at(9, 1, 0) }, key: 'p\nReview the parser' },
    ]
    expect(sharedTitleTimes(rows, (r) => r.session, (r) => r.key).size).toBe(0)
  })
})

describe('madeTimes', () => {
  const session = (id: string, title: string, createdAt: number, more: { origin?: 'transcript'; parentSessionId?: string } = {}) => ({ id, title, createdAt, origin: more.origin ?? ('loupe' as const), ...(more.parentSessionId ? { parentSessionId: more.parentSessionId } : {}) })

  it('compares names as the rows show them: an import without its "Claude Code: "', () => {
    const times = madeTimes([session('a', 'fix the parser', at(9, 0, 0)), session('b', 'Claude Code: fix the parser', at(10, 0, 0), { origin: 'transcript' })])
    expect([...times.keys()].sort()).toEqual(['a', 'b'])
  })

  it('compares the sessions one session started among themselves, folded or not, and not with the top rows or another’s', () => {
    const times = madeTimes([
      session('p1', 'Explore the code', at(9, 0, 0), { origin: 'transcript' }),
      session('p2', 'Other', at(9, 30, 0)),
      session('c1', 'Explore the code', at(9, 1, 0), { origin: 'transcript', parentSessionId: 'p1' }),
      session('c2', 'Explore the code', at(9, 2, 0), { origin: 'transcript', parentSessionId: 'p1' }),
      session('c3', 'Explore the code', at(9, 31, 0), { origin: 'transcript', parentSessionId: 'p2' }),
    ])
    expect([...times.keys()].sort()).toEqual(['c1', 'c2'])
  })
})
