import { describe, expect, it } from 'vitest'
import { nestSessions, type NestableSession } from '../../../src-renderer/features/projects/nest'

const s = (id: string, createdAt: number, parentSessionId?: string): NestableSession => ({ id, createdAt, ...(parentSessionId ? { parentSessionId } : {}) })

// Newest activity first, as session.list gives them: a subagent of `cc` sorts between two other sessions.
const listed = [s('a', 50), s('sub2', 32, 'cc'), s('b', 40), s('cc', 30), s('sub1', 31, 'cc'), s('old', 10)]
const shape = (rows: ReturnType<typeof nestSessions>) => rows.map((r) => `${'  '.repeat(r.depth)}${r.session.id}${r.children ? ` (${r.children}${r.unfolded ? ' open' : ''})` : ''}`)

describe('the sessions list, nested', () => {
  it('lists a session another one started under it, oldest first, only while that one is unfolded', () => {
    expect(shape(nestSessions(listed, new Set(), null))).toEqual(['a', 'b', 'cc (2)', 'old'])
    expect(shape(nestSessions(listed, new Set(['cc']), null))).toEqual(['a', 'b', 'cc (2 open)', '  sub1', '  sub2', 'old'])
  })

  it('unfolds the parent of the open session, so it always has a row', () => {
    expect(shape(nestSessions(listed, new Set(), 'sub2'))).toEqual(['a', 'b', 'cc (2 open)', '  sub1', '  sub2', 'old'])
  })

  it('lists on its own a session whose parent is not listed, and keeps two levels', () => {
    const rows = nestSessions([s('orphan', 5, 'gone'), s('p', 4), s('c', 3, 'p'), s('gc', 2, 'c'), s('self', 1, 'self')], new Set(['p']), null)
    expect(shape(rows)).toEqual(['orphan', 'p (1 open)', '  c', 'gc', 'self'])
  })
})
