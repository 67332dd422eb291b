/**
 * Model ids named by their display names in causes and notes (src-renderer/features/inspector/model/model-names.ts),
 * from the app's model list (src-preload/models.ts), with no settings read.
 */
import { describe, expect, it } from 'vitest'
import { modelName, modelNameOr, modelNameParts, withModelNames } from '../../../src-renderer/features/inspector/model/model-names'

describe('model names', () => {
  it('names a model by its label without "Claude", dated ids too', () => {
    expect(modelName('claude-sonnet-4-5')).toBe('Sonnet 4.5')
    expect(modelName('claude-sonnet-4-5-20250929')).toBe('Sonnet 4.5')
    expect(modelName('claude-3-5-sonnet-20241022')).toBeNull()
    expect(modelNameOr('claude-3-5-sonnet-20241022')).toBe('claude-3-5-sonnet-20241022')
    expect(modelNameOr('claude-opus-4-6')).toBe('Opus 4.6')
  })

  it('cuts a cause where it names a model, keeping the id of each', () => {
    expect(modelNameParts('model changed: claude-sonnet-4-5-20250929 → claude-opus-4-6 (the cache is per model)')).toEqual([
      'model changed: ',
      { id: 'claude-sonnet-4-5-20250929', name: 'Sonnet 4.5' },
      ' → ',
      { id: 'claude-opus-4-6', name: 'Opus 4.6' },
      ' (the cache is per model)',
    ])
    // A possessive is not part of the id.
    expect(modelNameParts("the 2,514 tokens before the new tail are under claude-haiku-4-5's minimum of 4,096")).toEqual([
      'the 2,514 tokens before the new tail are under ',
      { id: 'claude-haiku-4-5', name: 'Haiku 4.5' },
      "'s minimum of 4,096",
    ])
    expect(modelNameParts('Model: claude-opus-4-6')).toEqual(['Model: ', { id: 'claude-opus-4-6', name: 'Opus 4.6' }])
  })

  it('leaves an unknown id and a text with none as they are', () => {
    expect(modelNameParts('model changed: claude-3-5-sonnet-20241022 → claude-sonnet-4-6')).toEqual([
      'model changed: claude-3-5-sonnet-20241022 → ',
      { id: 'claude-sonnet-4-6', name: 'Sonnet 4.6' },
    ])
    expect(modelNameParts('only the new tail paid')).toEqual(['only the new tail paid'])
    expect(modelNameParts('')).toEqual([])
    // Not inside a longer word.
    expect(modelNameParts('see my-claude-opus-4-6 notes')).toEqual(['see my-claude-opus-4-6 notes'])
  })

  it('writes a tooltip with the names, and the ids beside them when asked', () => {
    const cause = 'model changed: claude-sonnet-4-5-20250929 → claude-opus-4-6 (the cache is per model)'
    expect(withModelNames(cause)).toBe('model changed: Sonnet 4.5 → Opus 4.6 (the cache is per model)')
    expect(withModelNames(cause, true)).toBe('model changed: Sonnet 4.5 (claude-sonnet-4-5-20250929) → Opus 4.6 (claude-opus-4-6) (the cache is per model)')
  })
})
