/** The Cache view's empty state: what it says before it has figures to show (src-renderer/features/cache/model/empty.ts). */
import { describe, expect, it } from 'vitest'
import { cacheEmptyState } from '../../../src-renderer/features/cache/model/empty'

const usage = { input_tokens: 3, output_tokens: 40, cache_read_input_tokens: 0, cache_creation_input_tokens: 2600 }
const answered = { status: 'done' as const, usage }
const failed = { status: 'failed' as const, usage: null }
const stopped = { status: 'cancelled' as const, usage: null }

describe('the Cache view before any figure', () => {
  it('a session with no pass says so, and what to do', () => {
    const empty = cacheEmptyState([])
    expect(empty).toMatchObject({ kind: 'no_pass', title: 'No pass yet' })
    expect(empty!.body).toMatch(/^Send a message in the chat/)
    // A first pass on its way: said, instead of asking for a message already sent.
    expect(cacheEmptyState([], true)!.body).toMatch(/^The first pass is on its way/)
  })

  it('passes none of which was answered with usage: no pass answered yet, and why', () => {
    expect(cacheEmptyState([failed])).toMatchObject({ kind: 'none_answered', title: 'No pass answered yet' })
    expect(cacheEmptyState([failed])!.body).toMatch(/^1 pass was sent, and it got no answer .*\(it failed before/)
    expect(cacheEmptyState([failed, failed])!.body).toMatch(/^2 passes were sent, .*\(each failed before/)
    expect(cacheEmptyState([stopped])!.body).toMatch(/\(it was stopped before/)
    expect(cacheEmptyState([failed, stopped])!.body).toMatch(/\(each failed or was stopped before/)
    expect(cacheEmptyState([failed], true)!.body).toMatch(/The pass on its way now may be the first\.$/)
  })

  it('one pass answered is enough for the figures, whatever the others did', () => {
    expect(cacheEmptyState([answered])).toBeNull()
    expect(cacheEmptyState([failed, answered])).toBeNull()
    // A stopped pass the service had already reported usage for has figures too.
    expect(cacheEmptyState([{ status: 'cancelled', usage }])).toBeNull()
  })
})
