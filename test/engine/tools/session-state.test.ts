import { describe, expect, it } from 'vitest'
import {
  applyToolEffects,
  checkEditable,
  emptyToolSessionState,
  findUnchangedRead,
  forgetReadsAtCompaction,
  type ToolEffect,
} from '../../../src-main/engine/tools'

const read = (path: string, fingerprint: string, startLine: number, endLine: number): ToolEffect => ({
  type: 'file_read',
  path,
  fingerprint,
  range: { startLine, endLine },
  totalLines: 100,
})

describe('read dedup memory', () => {
  it('recognises a range already shown of the same content', () => {
    const state = applyToolEffects(emptyToolSessionState(), [read('a.ts', 'h1', 1, 50), read('a.ts', 'h1', 51, 100)])
    expect(findUnchangedRead(state, 'a.ts', 'h1', { startLine: 10, endLine: 20 })).toEqual({ startLine: 1, endLine: 50 })
    expect(findUnchangedRead(state, 'a.ts', 'h1', { startLine: 60, endLine: 100 })).toEqual({ startLine: 51, endLine: 100 })
    // Spans two reads: not one contiguous view in the conversation, so it is sent again.
    expect(findUnchangedRead(state, 'a.ts', 'h1', { startLine: 40, endLine: 60 })).toBeNull()
    expect(findUnchangedRead(state, 'b.ts', 'h1', { startLine: 1, endLine: 1 })).toBeNull()
  })

  it('forgets shown ranges when the content changes', () => {
    const state = applyToolEffects(emptyToolSessionState(), [read('a.ts', 'h1', 1, 100), read('a.ts', 'h2', 1, 10)])
    expect(state.files['a.ts']).toEqual({ fingerprint: 'h2', shownRanges: [{ startLine: 1, endLine: 10 }] })
    expect(findUnchangedRead(state, 'a.ts', 'h1', { startLine: 1, endLine: 10 })).toBeNull()
  })

  it('is cleared at compaction, while the fingerprint (for edits) is kept', () => {
    const state = forgetReadsAtCompaction(applyToolEffects(emptyToolSessionState(), [read('a.ts', 'h1', 1, 100)]))
    expect(findUnchangedRead(state, 'a.ts', 'h1', { startLine: 1, endLine: 10 })).toBeNull()
    expect(checkEditable(state, 'a.ts', 'h1')).toEqual({ ok: true })
  })

  it('does not count a write as a read of the new content', () => {
    const state = applyToolEffects(emptyToolSessionState(), [
      read('a.ts', 'h1', 1, 100),
      { type: 'file_written', path: 'a.ts', fingerprint: 'h2', created: false },
    ])
    expect(findUnchangedRead(state, 'a.ts', 'h2', { startLine: 1, endLine: 10 })).toBeNull()
    expect(checkEditable(state, 'a.ts', 'h2')).toEqual({ ok: true })
  })

  it('covers an empty file by any earlier read of it', () => {
    const state = applyToolEffects(emptyToolSessionState(), [read('e.txt', 'h0', 1, 0)])
    expect(findUnchangedRead(state, 'e.txt', 'h0', { startLine: 1, endLine: 0 })).toEqual({ startLine: 1, endLine: 0 })
  })

  it('leaves state alone for effects that are not about files', () => {
    const state = emptyToolSessionState()
    expect(applyToolEffects(state, [{ type: 'todos_updated', todos: [] }, { type: 'skill_loaded', name: 's', path: 'p' }])).toBe(state)
  })
})

describe('read before edit', () => {
  it('refuses a file never read, and one changed since', () => {
    const state = applyToolEffects(emptyToolSessionState(), [read('a.ts', 'h1', 1, 5)])
    expect(checkEditable(state, 'b.ts', 'x')).toMatchObject({ ok: false, code: 'not_read' })
    const changed = checkEditable(state, 'a.ts', 'h9')
    expect(changed).toMatchObject({ ok: false, code: 'changed_since_read' })
    if (!changed.ok) expect(changed.reason).toContain('Read it again')
    expect(checkEditable(state, 'a.ts', 'h1')).toEqual({ ok: true })
  })
})
