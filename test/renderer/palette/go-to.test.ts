/** The palette's Go to list: the open project's other sessions, newest first, then the other projects. */
import { describe, expect, it } from 'vitest'
import { goToTargets } from '../../../src-renderer/features/palette/go-to'

const projects = [
  { id: 'p1', name: 'greeter', root: '/work/greeter' },
  { id: 'p2', name: 'billing', root: '/work/billing' },
]
const sessions = [
  { id: 's3', title: 'Fix the login bug' },
  { id: 's2', title: 'Parser refactor' },
  { id: 's1', title: 'Open one' },
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
})
