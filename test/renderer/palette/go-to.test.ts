/** The palette's Go to list: the open project's other sessions, newest first, then the other projects. */
import { describe, expect, it } from 'vitest'
import { goToTargets } from '../../../src-renderer/features/palette/go-to'
import { dateTime } from '../../../src-renderer/ui/format'

const projects = [
  { id: 'p1', name: 'greeter', root: '/work/greeter' },
  { id: 'p2', name: 'billing', root: '/work/billing' },
]
const sessions = [
  { id: 's3', title: 'Fix the login bug', createdAt: 3 },
  { id: 's2', title: 'Parser refactor', createdAt: 2 },
  { id: 's1', title: 'Open one', createdAt: 1 },
]

describe('goToTargets', () => {
  it('lists the other sessions of the open project, then the other projects', () => {
    expect(goToTargets(projects, 'p1', sessions, 's1')).toEqual([
      { kind: 'session', id: 's3', label: 'Session “Fix the login bug”' },
      { kind: 'session', id: 's2', label: 'Session “Parser refactor”' },
      { kind: 'project', id: 'p2', label: 'Project billing (/work/billing)' },
    ])
  })

  it('lists every project when none is open, and every session when none is', () => {
    expect(goToTargets(projects, null, [], null).map((t) => t.id)).toEqual(['p1', 'p2'])
    expect(goToTargets(projects, 'p1', sessions, null).map((t) => t.id)).toEqual(['s3', 's2', 's1', 'p2'])
  })

  it('says when each was made of the sessions that share a name, the open one counted among them', () => {
    const at = (h: number, m: number) => new Date(2026, 11, 3, h, m).getTime()
    const work = [
      { id: 'w2', title: 'Work', createdAt: at(15, 26) },
      { id: 'w1', title: 'Work', createdAt: at(9, 5) },
      { id: 'x', title: 'Other', createdAt: at(8, 0) },
    ]
    expect(goToTargets([], 'p1', work, 'w1').map((t) => t.label)).toEqual([`Session “Work” (made ${dateTime(at(15, 26))})`, 'Session “Other”'])
  })
})
