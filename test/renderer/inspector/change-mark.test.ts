import { describe, expect, it } from 'vitest'
import { changeMarkText } from '../../../src-renderer/features/inspector/model/change-mark'
import type { FirstChange } from '../../../src-renderer/features/inspector/model/first-change'

const block = (change: 'changed' | 'added' | 'removed' | 'settings'): FirstChange => ({ kind: 'block', identical: 41, index: 41, path: 'messages[27]', label: 'synthetic', change, tokensAfter: 100 })
const full = { outcome: 'full' }
const miss = { outcome: 'miss' }
const partial = { outcome: 'partial' }
const noResponse = { outcome: null, cause: { kind: 'no_response' } }

describe('the diff mark at the first change', () => {
  it('says a changed block changed, whatever the cache did (a compaction rewrites a message it keeps)', () => {
    expect(changeMarkText(block('changed'), full)).toBe('▼ messages[27]: changed since the pass before')
    expect(changeMarkText(block('changed'), miss)).toBe('▼ messages[27]: changed since the pass before; nothing was read from the cache')
    expect(changeMarkText(block('changed'), partial)).toBe('▼ messages[27]: changed since the pass before; this is where the cache stopped')
    expect(changeMarkText(block('changed'), noResponse)).toBe('▼ messages[27]: changed since the pass before; this request got no response, so it read nothing')
  })

  it('says new only of a block that is new', () => {
    expect(changeMarkText(block('added'), full)).toBe('▼ messages[27]: new since the pass before')
    expect(changeMarkText(block('added'), partial)).toBe('▼ messages[27]: new since the pass before; this is where the cache stopped')
    for (const change of ['changed', 'removed', 'settings'] as const) for (const a of [full, miss, partial, noResponse, null]) expect(changeMarkText(block(change), a)).not.toContain('new')
  })

  it('says a removed block is no longer sent', () => {
    expect(changeMarkText(block('removed'), full)).toBe('▼ messages[27]: not sent in this pass; everything before it was read from the cache')
    expect(changeMarkText(block('removed'), miss)).toBe('▼ messages[27]: not sent in this pass; nothing was read from the cache')
  })

  it('names a model change, and marks nothing when nothing changed', () => {
    const model: FirstChange = { kind: 'model', identical: 0, from: 'a', to: 'b', tokensAfter: 1 }
    expect(changeMarkText(model, miss)).toBe('The model changed: this is where the cache stopped')
    // Switched back: the pass read what its model kept, so the top is not where the cache stopped.
    expect(changeMarkText(model, partial)).toBe('The model changed: nothing the pass before left cached is read; what this pass read, its model kept from its own earlier passes')
    expect(changeMarkText({ kind: 'identical', identical: 3 }, full)).toBeNull()
  })
})
