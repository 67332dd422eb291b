/** The detail pane says it is loading the editor only when it has a card to show in it. */
import { describe, expect, it } from 'vitest'
import { detailPane } from '../../../src-renderer/features/compaction/model/detail-pane'

describe('the compaction detail pane', () => {
  it('with no card open, shows the empty state whether or not the editor has loaded', () => {
    expect(detailPane(false, { draft: false, checkpoint: false })).toBe('empty')
    expect(detailPane(true, { draft: false, checkpoint: false })).toBe('empty')
  })

  it('with a card open, waits for the editor, then shows the card (a dry run before a checkpoint)', () => {
    expect(detailPane(false, { draft: true, checkpoint: false })).toBe('loading')
    expect(detailPane(false, { draft: false, checkpoint: true })).toBe('loading')
    expect(detailPane(true, { draft: true, checkpoint: false })).toBe('draft')
    expect(detailPane(true, { draft: false, checkpoint: true })).toBe('checkpoint')
  })
})
