/** The focus field empties once the compaction it was for has made its checkpoint, and only then. */
import { describe, expect, it } from 'vitest'
import { focusAfterCheckpoints } from '../../../src-renderer/features/compaction/model/focus'

const cp = (id: string, focus: string | null) => ({ checkpoint: { id, focus } })

describe('the compaction focus field', () => {
  it('empties when a new checkpoint carries its focus (a dry run applied, Compact now, /compact)', () => {
    expect(focusAfterCheckpoints('the ledger', new Set(['c1']), [cp('c1', null), cp('c2', 'the ledger')])).toBe('')
    // The field as typed, the focus as sent (trimmed).
    expect(focusAfterCheckpoints('  the ledger ', new Set(), [cp('c2', 'the ledger')])).toBe('')
  })

  it('keeps its text when no new checkpoint came of it: failed, cancelled, nothing to compact, a discarded dry run', () => {
    expect(focusAfterCheckpoints('the ledger', new Set(['c1']), [cp('c1', null)])).toBe('the ledger')
  })

  it('keeps a focus the user typed since, and one an older checkpoint happened to share', () => {
    expect(focusAfterCheckpoints('the parser next', new Set(), [cp('c2', 'the ledger')])).toBe('the parser next')
    expect(focusAfterCheckpoints('the ledger', new Set(['c1']), [cp('c1', 'the ledger')])).toBe('the ledger')
    expect(focusAfterCheckpoints('the ledger', new Set(), [cp('c2', null)])).toBe('the ledger')
  })
})
