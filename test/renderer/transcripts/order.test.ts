/** The Claude Code sessions panel lists sessions by when they were last active, as its column shows. */
import { describe, expect, it } from 'vitest'
import { newestFirst, sessionTooltip } from '../../../src-renderer/features/transcripts/order'

const session = (path: string, lastAtMs: number | null, modifiedMs: number) => ({
  path,
  sessionId: path,
  sizeBytes: 1,
  modifiedMs,
  firstAtMs: null,
  lastAtMs,
  models: [],
  requests: 1,
  subagentFiles: 0,
  title: null,
  skippedLines: 0,
  imported: null,
})

describe('newestFirst', () => {
  it("orders sessions by their last activity, else their file's time, newest first; projects by their newest session", () => {
    const projects = [
      { project: 'a', cwd: null, sessions: [session('a/touched-late', 1_000, 9_000), session('a/active-late', 5_000, 2_000), session('a/unread', null, 3_000)] },
      { project: 'b', cwd: null, sessions: [session('b/newest', 7_000, 1_000)] },
    ]
    const ordered = newestFirst(projects)
    expect(ordered.map((p) => p.project)).toEqual(['b', 'a'])
    expect(ordered[1]!.sessions.map((s) => s.path)).toEqual(['a/active-late', 'a/unread', 'a/touched-late'])
    // The listing itself is left as it was.
    expect(projects[0]!.sessions[0]!.path).toBe('a/touched-late')
  })
})

describe('sessionTooltip', () => {
  it('shows the whole title, then the file', () => {
    expect(sessionTooltip({ title: 'a long first prompt', sessionId: 'abc', path: '/p/abc.jsonl' })).toBe('a long first prompt\n/p/abc.jsonl')
    expect(sessionTooltip({ title: null, sessionId: 'abc', path: '/p/abc.jsonl' })).toBe('abc\n/p/abc.jsonl')
  })
})
