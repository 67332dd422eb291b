/** A dry run's card and its detail give one size after: with the user's edits to the summary once there are some. */
import { describe, expect, it } from 'vitest'
import type { DraftView } from '../../../src-renderer/state/compaction'
import { draftFacts } from '../../../src-renderer/features/compaction/model/card-facts'
import { draftSizes, sizesExplained } from '../../../src-renderer/features/compaction/model/sizes'

// The reviewer's dry run: 5,195 tokens before (measured), the summary's estimate on the real count's scale after.
const draft = {
  draftId: 'd1',
  trigger: 'manual',
  stage: 'summary',
  focus: 'the price.ts edit',
  summary: 'x'.repeat(2_000),
  costUsd: 0.0169,
  trimmed: [],
  files: [],
  pins: [],
  notes: [],
  tokens: { before: { real: 5_195, estimated: 5_000 }, after: { estimated: 3_710 }, targetTokens: 120_000, windowTokens: 200_000 },
} as unknown as DraftView

describe("a dry run's card", () => {
  it('gives the size with the edits the detail gives, and says the summary was edited', () => {
    const edited = `MY EDIT: keep the rename. ${'x'.repeat(2_000)}`
    const card = draftFacts(draft, edited)
    // The detail's figure (Detail.tsx): the draft's sizes with the summary as it stands in the editor.
    expect(card.sizes).toEqual(draftSizes(draft, edited.length))
    expect(card.sizes.after.tokens).toBeGreaterThan(draftSizes(draft).after.tokens)
    expect(card.edited).toBe(true)
    expect(sizesExplained(card.sizes, true, card.edited)).toContain(`After, ≈${card.sizes.after.tokens.toLocaleString('en-US')} tokens with your edits to the summary: estimated on the same scale if it is applied`)
  })

  it('without edits, gives the model\'s summary size and says nothing of edits', () => {
    const card = draftFacts(draft)
    expect(card.sizes).toEqual(draftSizes(draft, draft.summary!.length))
    expect(card.edited).toBe(false)
    expect(sizesExplained(card.sizes, true, card.edited)).not.toContain('edits')
  })
})
