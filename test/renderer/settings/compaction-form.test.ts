/** The compaction settings form: text while typing, checked against the limits the main process applies. */
import { describe, expect, it } from 'vitest'
import { ProjectCompactionSchema } from '../../../src-preload/contract'
import { changedFrom, checkDraft, differsFromSaved, draftOf, FIELD_LABELS, percentText } from '../../../src-renderer/features/settings/compaction-form'

const saved = { auto: true, threshold: 0.8, target: 0.6, keepSteps: 4 }
const draft = draftOf(saved)

describe('compaction form', () => {
  it('labels each field with what its number counts, the name assistive technology reads too', () => {
    expect(FIELD_LABELS).toEqual({ threshold: 'Threshold (% of the window)', target: 'Target (% of the window)', keepSteps: 'Steps kept whole' })
  })

  it('shows the saved values as text, the shares as percentages without float noise', () => {
    expect(draft).toEqual({ auto: true, threshold: '80', target: '60', keepSteps: '4' })
    expect(percentText(0.07)).toBe('7')
    expect(percentText(0.855)).toBe('85.5')
  })

  it('gives the values to save when every field is valid, and says whether they differ from the saved ones', () => {
    expect(checkDraft(draft, saved)).toEqual({ values: saved, problems: {} })
    expect(changedFrom(saved, checkDraft(draft, saved).values)).toBe(false)
    const edited = checkDraft({ ...draft, threshold: '85.5', keepSteps: '2' }, saved)
    expect(edited.values).toEqual({ auto: true, threshold: 0.855, target: 0.6, keepSteps: 2 })
    expect(changedFrom(saved, edited.values)).toBe(true)
  })

  it('keeps a saved share with more digits than it shows exactly as it was', () => {
    const precise = { ...saved, threshold: 0.123456789, target: 0.1 }
    const checked = checkDraft(draftOf(precise), precise)
    expect(checked.values?.threshold).toBe(0.123456789)
    expect(changedFrom(precise, checked.values)).toBe(false)
  })

  it('refuses an empty field, with a message, and gives nothing to save', () => {
    const checked = checkDraft({ ...draft, threshold: '' }, saved)
    expect(checked.values).toBeNull()
    expect(checked.problems.threshold).toMatch(/Enter the threshold as a percentage/)
    expect(changedFrom(saved, checked.values)).toBe(false)
  })

  it('refuses what the main process refuses: a share at or past 0 % or 100 %, steps outside 1–100 or not whole', () => {
    for (const threshold of ['0', '100', '150', '-5']) expect(checkDraft({ ...draft, threshold }).problems.threshold).toMatch(/above 0% and below 100%/)
    for (const keepSteps of ['0', '101', '2.5', 'x', '']) expect(checkDraft({ ...draft, keepSteps }).problems.keepSteps).toMatch(/whole number from 1 to 100/)
    expect(checkDraft({ ...draft, threshold: '99.9', target: '0.1', keepSteps: '100' }).values).toEqual({ auto: true, threshold: 0.999, target: 0.001, keepSteps: 100 })
  })

  it('refuses a target at or above the threshold', () => {
    expect(checkDraft({ ...draft, target: '80' }).problems).toEqual({ target: expect.stringMatching(/below the threshold \(80 %\)/) })
    expect(checkDraft({ ...draft, target: '90' }).values).toBeNull()
  })

  it("agrees with the contract's schema on every value it accepts", () => {
    for (const t of ['0.5', '5', '50', '99.5']) {
      const values = checkDraft({ ...draft, threshold: t, target: '0.1' }).values
      expect(values).not.toBeNull()
      expect(ProjectCompactionSchema.safeParse(values).success).toBe(true)
    }
  })

  it('no longer holds what was saved once a field is invalid, though it has nothing to save', () => {
    const cleared = checkDraft({ ...draft, threshold: '', target: '', keepSteps: '' }, saved)
    expect(changedFrom(saved, cleared.values)).toBe(false)
    // The "Saved" note speaks of the values on screen: with the fields cleared it would sit beside "Correct the fields".
    expect(differsFromSaved(saved, cleared.values)).toBe(true)
    expect(differsFromSaved(saved, checkDraft(draft, saved).values)).toBe(false)
    expect(differsFromSaved(saved, checkDraft({ ...draft, keepSteps: '5' }, saved).values)).toBe(true)
  })
})
