/**
 * The compaction settings form (SettingsView.tsx) as data: what the user typed is kept as text while they edit
 * (clearing a field leaves it empty, not "0"), and checked against the limits the main process applies — the
 * contract's `ProjectCompactionSchema` (threshold and target above 0 and below 1, steps a whole number from 1 to
 * 100), and the target below the threshold (`resolveSettings` in src-main/engine/compaction/settings.ts). The form
 * shows the two shares as percentages of the window.
 */
import { ProjectCompactionSchema } from '../../../src-preload/contract'

export interface CompactionValues {
  readonly auto: boolean
  readonly threshold: number
  readonly target: number
  readonly keepSteps: number
}

/** The form as typed. */
export interface CompactionDraft {
  readonly auto: boolean
  readonly threshold: string
  readonly target: string
  readonly keepSteps: string
}

export type DraftField = 'threshold' | 'target' | 'keepSteps'

/**
 * Each field's label, shown and given to assistive technology alike (its accessible name): the unit is part of it,
 * so a screen reader says what the number counts, as the page does.
 */
export const FIELD_LABELS: Readonly<Record<DraftField, string>> = { threshold: 'Threshold (% of the window)', target: 'Target (% of the window)', keepSteps: 'Steps kept whole' }

export interface CheckedDraft {
  /** The values to save, or null while any field is invalid. */
  readonly values: CompactionValues | null
  /** What is wrong with each invalid field, in words. */
  readonly problems: Partial<Record<DraftField, string>>
}

/** 0.8 → "80", 0.855 → "85.5" (no float noise: 0.07 → "7", not "7.000000000000001"). */
export function percentText(share: number): string {
  return String(Number((share * 100).toFixed(4)))
}

export function draftOf(values: CompactionValues): CompactionDraft {
  return { auto: values.auto, threshold: percentText(values.threshold), target: percentText(values.target), keepSteps: String(values.keepSteps) }
}

/** A number as typed, or null when the text is not one (empty, "abc", "1e"). */
function typedNumber(text: string): number | null {
  const t = text.trim()
  if (t === '') return null
  const n = Number(t)
  return Number.isFinite(n) ? n : null
}

const fields = ProjectCompactionSchema.shape

/**
 * Checks the form. A share left as `saved` shows it keeps its exact saved value (0.123456 shows as "12.3456" and
 * stays 0.123456).
 */
export function checkDraft(draft: CompactionDraft, saved?: CompactionValues): CheckedDraft {
  const problems: Partial<Record<DraftField, string>> = {}
  const share = (field: 'threshold' | 'target', name: string): number | null => {
    if (saved && draft[field] === percentText(saved[field])) return saved[field]
    const percent = typedNumber(draft[field])
    if (percent === null) {
      problems[field] = `Enter the ${name} as a percentage of the window, e.g. ${field === 'threshold' ? 80 : 60}.`
      return null
    }
    // 99.9 / 100 is 0.9990000000000001 in floating point: rounded to 12 digits it is the 0.999 the user meant.
    const value = Number((percent / 100).toPrecision(12))
    if (!fields[field].safeParse(value).success) {
      problems[field] = `The ${name} must be above 0% and below 100% of the window.`
      return null
    }
    return value
  }
  const threshold = share('threshold', 'threshold')
  const target = share('target', 'target')
  if (threshold !== null && target !== null && target >= threshold) {
    problems.target = `The target must be below the threshold (${percentText(threshold)} %): compaction stops there.`
  }
  const steps = typedNumber(draft.keepSteps)
  if (steps === null || !fields.keepSteps.safeParse(steps).success) problems.keepSteps = 'Steps kept whole must be a whole number from 1 to 100.'

  const valid = Object.keys(problems).length === 0
  return { values: valid ? { auto: draft.auto, threshold: threshold!, target: target!, keepSteps: steps! } : null, problems }
}

/** True when the checked values differ from what is saved (an invalid form is never "changed": it cannot be saved). */
export function changedFrom(saved: CompactionValues, values: CompactionValues | null): boolean {
  return values !== null && (values.auto !== saved.auto || values.threshold !== saved.threshold || values.target !== saved.target || values.keepSteps !== saved.keepSteps)
}

/**
 * True when the form no longer holds what is saved, valid or not: the note that the values were saved then goes.
 * Not `changedFrom`, which says whether there is something to save: a form with an invalid field has nothing to save,
 * yet it is not what was saved either (saved values are always valid).
 */
export function differsFromSaved(saved: CompactionValues, values: CompactionValues | null): boolean {
  return values === null || changedFrom(saved, values)
}
