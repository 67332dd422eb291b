/**
 * What a compaction's card says, from a checkpoint's record or a dry run's draft: how it was triggered, its focus,
 * the sizes before → after (model/sizes.ts), what it cost, what stage 1 trimmed, what was offered again, the pins.
 */
import type { CheckpointRecord, DraftView } from '../../../state/compaction'
import { checkpointSizes, draftSizes, type Sizes } from './sizes'

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null
const num = (v: unknown): number | null => (typeof v === 'number' ? v : null)

export interface CardFacts {
  readonly trigger: string
  readonly stage: string
  readonly focus: string | null
  /** Before and after on one basis: the context the next pass sends (model/sizes.ts). */
  readonly sizes: Sizes
  readonly costUsd: number | null
  readonly trims: number
  readonly trimmedChars: number
  readonly files: number
  readonly sessionBlockReread: boolean
  readonly pins: ReadonlyArray<{ pinId: string; status: string }>
  readonly edited: boolean
  /** A dry run the conversation moved past: it can no longer be applied. */
  readonly stale: boolean
}

export function checkpointFacts(record: CheckpointRecord): CardFacts {
  const c = record.checkpoint as Record<string, unknown>
  const trimmed = Array.isArray(c.trimmed) ? c.trimmed.filter(isRecord) : []
  const reinjected = isRecord(c.reinjected) ? c.reinjected : {}
  return {
    trigger: String(c.trigger ?? 'manual'),
    stage: String(c.stage ?? 'summary'),
    focus: typeof c.focus === 'string' ? c.focus : null,
    sizes: checkpointSizes(record),
    costUsd: num(c.costUsd),
    trims: trimmed.length,
    trimmedChars: trimmed.reduce((s, t) => s + ((num(t.chars) ?? 0) - (num(t.keptChars) ?? 0)), 0),
    files: Array.isArray(reinjected.files) ? reinjected.files.length : 0,
    sessionBlockReread: isRecord(reinjected.sessionBlock),
    pins: Array.isArray(reinjected.pins) ? reinjected.pins.filter(isRecord).map((p) => ({ pinId: String(p.pinId), status: String(p.status) })) : [],
    edited: c.summaryEdited === true,
    stale: false,
  }
}

/**
 * A dry run's card. `editedSummary` is the user's text of its summary (the store's `summaryEdits`), absent when they
 * have not changed it: the card's size after is then the size with their edits, the figure the detail gives, and the
 * card says the summary was edited.
 */
export function draftFacts(draft: DraftView, editedSummary?: string): CardFacts {
  return {
    trigger: draft.trigger,
    stage: draft.stage,
    focus: draft.focus,
    sizes: draftSizes(draft, editedSummary?.length),
    costUsd: draft.costUsd,
    trims: draft.trimmed.length,
    trimmedChars: draft.trimmed.reduce((s, t) => s + t.chars - t.keptChars, 0),
    files: draft.files.length,
    sessionBlockReread: true,
    pins: draft.pins,
    edited: editedSummary !== undefined,
    stale: draft.stale === true,
  }
}
