/** Model ids named by their display names in causes and notes (src-renderer/features/inspector/model/model-names.ts). */
import { describe, expect, it } from 'vitest'
import { modelName, modelNameOr, modelNameParts, withModelNames } from '../../../src-renderer/features/inspector/model/model-names'

// As settings.get answers them (src-main/node/model/models.ts).
const MODELS = [
  { id: 'claude-sonnet-4-5', label: 'Claude Sonnet 4.5' },
  { id: 'claude-sonnet-4-6', label: 'Claude Sonnet 4.6' },
  { id: 'claude-opus-4-6', label: 'Claude Opus 4.6' },
  { id: 'claude-haiku-4-5', label: 'Claude Haiku 4.5' },
]

describe('model names', () => {
  it('names a model by its label without "Claude", dated ids too', () => {
    expect(modelName('claude-sonnet-4-5', MODELS)).toBe('Sonnet 4.5')
    expect(modelName('claude-sonnet-4-5-20250929', MODELS)).toBe('Sonnet 4.5')
    expect(modelName('claude-3-5-sonnet-20241022', MODELS)).toBeNull()
    expect(modelName('claude-sonnet-4-5', null)).toBeNull()
    expect(modelNameOr('claude-3-5-sonnet-20241022', MODELS)).toBe('claude-3-5-sonnet-20241022')
    expect(modelNameOr('claude-opus-4-6', MODELS)).toBe('Opus 4.6')
  })

  it('cuts a cause where it names a model, keeping the id of each', () => {
    expect(modelNameParts('model changed: claude-sonnet-4-5-20250929 → claude-opus-4-6 (the cache is per model)', MODELS)).toEqual([
      'model changed: ',
      { id: 'claude-sonnet-4-5-20250929', name: 'Sonnet 4.5' },
      ' → ',
      { id: 'claude-opus-4-6', name: 'Opus 4.6' },
      ' (the cache is per model)',
    ])
    // A possessive is not part of the id.
    expect(modelNameParts("the 2,514 tokens before the new tail are under claude-haiku-4-5's minimum of 4,096", MODELS)).toEqual([
      'the 2,514 tokens before the new tail are under ',
      { id: 'claude-haiku-4-5', name: 'Haiku 4.5' },
      "'s minimum of 4,096",
    ])
    expect(modelNameParts('Model: claude-opus-4-6', MODELS)).toEqual(['Model: ', { id: 'claude-opus-4-6', name: 'Opus 4.6' }])
  })

  it('leaves an unknown id, a text with none, and every text before the table is read, as they are', () => {
    expect(modelNameParts('model changed: claude-3-5-sonnet-20241022 → claude-sonnet-4-6', MODELS)).toEqual([
      'model changed: claude-3-5-sonnet-20241022 → ',
      { id: 'claude-sonnet-4-6', name: 'Sonnet 4.6' },
    ])
    expect(modelNameParts('only the new tail paid', MODELS)).toEqual(['only the new tail paid'])
    expect(modelNameParts('model changed: claude-sonnet-4-5 → claude-opus-4-6', null)).toEqual(['model changed: claude-sonnet-4-5 → claude-opus-4-6'])
    expect(modelNameParts('', MODELS)).toEqual([])
    // Not inside a longer word.
    expect(modelNameParts('see my-claude-opus-4-6 notes', MODELS)).toEqual(['see my-claude-opus-4-6 notes'])
  })

  it('writes a tooltip with the names, and the ids beside them when asked', () => {
    const cause = 'model changed: claude-sonnet-4-5-20250929 → claude-opus-4-6 (the cache is per model)'
    expect(withModelNames(cause, MODELS)).toBe('model changed: Sonnet 4.5 → Opus 4.6 (the cache is per model)')
    expect(withModelNames(cause, MODELS, true)).toBe('model changed: Sonnet 4.5 (claude-sonnet-4-5-20250929) → Opus 4.6 (claude-opus-4-6) (the cache is per model)')
  })
})
