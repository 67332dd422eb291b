/**
 * An imported conversation continued before: Continue finds the sessions continued from it in every project's list,
 * newest first, and says so before offering to continue again.
 */
import { describe, expect, it } from 'vitest'
import type { Session } from '../../../src-preload/contract'
import { continuationsOf, continuedBeforeText } from '../../../src-renderer/features/transcripts/continuations'

const session = (id: string, projectId: string, createdAt: number, fromSessionId?: string, title = `Continued: ${id}`): Session => ({
  id,
  projectId,
  title,
  createdAt,
  updatedAt: createdAt,
  origin: 'loupe',
  ...(fromSessionId ? { continued: { fromSessionId, inherited: 12, fromModel: 'claude-opus-4-6' } } : {}),
})

describe('continuations of an imported session', () => {
  const imported: Session = { ...session('imp', 'p1', 1), origin: 'transcript', title: 'Claude Code: Work on bead spotter-dov' }
  const first = session('c1', 'p2', Date.UTC(2026, 4, 12, 14, 3), 'imp', 'Continued: Work on bead spotter-dov')
  const second = session('c2', 'p1', Date.UTC(2026, 4, 13, 9, 30), 'imp', 'Continued (2): Work on bead spotter-dov')
  const other = session('c3', 'p1', Date.UTC(2026, 4, 14), 'another')
  const own = session('own', 'p1', Date.UTC(2026, 4, 15))

  it('are found across projects, newest first, each once', () => {
    expect(continuationsOf('imp', [[imported, own, other, second], [first], [first]]).map((s) => s.id)).toEqual(['c2', 'c1'])
    expect(continuationsOf('imp', [[imported, own, other]])).toEqual([])
  })

  it('are said before continuing again', () => {
    expect(continuedBeforeText([])).toBeNull()
    expect(continuedBeforeText([first])).toMatch(/^This conversation was continued on 2026-05-12 \d\d:\d\d, as “Continued: Work on bead spotter-dov”\.$/)
    expect(continuedBeforeText([second, first])).toMatch(/^This conversation was continued 2 times, last on 2026-05-13 \d\d:\d\d, as “Continued \(2\): Work on bead spotter-dov”\.$/)
  })
})
