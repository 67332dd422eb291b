/**
 * The two histories a compaction card compares, as marked text: what the last pass before the compaction sent, and
 * what the first pass after it sent (or, until that pass runs, what the checkpoint's view will send). For a dry
 * run's draft, the current history against the draft's. Pure: the passes are given, already loaded.
 */
import type { CheckpointRecord, DraftView } from '../../../state/compaction'
import { messagesOfPass, messagesOfView, renderHistory, type EntryLike, type HistoryMessageIn, type HistoryText, type Mark } from './history-text'

export interface HistoryPair {
  readonly before: HistoryText
  readonly after: HistoryText
  /** Whether the right side is the first pass's exact bytes or a preview from the entries. */
  readonly afterIsPreview: boolean
  readonly beforePassSeq: number | null
  readonly afterPassSeq: number | null
}

/** A draft's `summary`: the text the user has made of its summary, when edited (the after side shows it). */
export type PairSubject = { kind: 'checkpoint'; record: CheckpointRecord } | { kind: 'draft'; draft: DraftView; summary?: string }

/** A pass as `pass.get` gives it: its exact request body and the provenance of its segments. */
export interface PassText {
  readonly seq: number
  readonly requestBody: string
  readonly segments: ReadonlyArray<{ path: string; provenance: unknown }>
}

/** The head's blocks with the draft's summary replaced by the user's edit of it (the same block, the same place). */
function headWithSummary(head: DraftView['head'], original: string | null, edited: string | undefined): DraftView['head'] {
  if (head === null || original === null || edited === undefined || edited === original) return head
  return head.map((block) => {
    const at = block.text.indexOf(original)
    return at === -1 ? block : { ...block, text: block.text.slice(0, at) + edited + block.text.slice(at + original.length) }
  })
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null

export function historyPair(subject: PairSubject, beforePass: PassText | null, afterPass: PassText | null, entries: ReadonlyArray<EntryLike>): HistoryPair {
  const seqById = new Map(entries.map((e) => [e.id, e.seq]))
  const seqOf = (id: string) => seqById.get(id)
  const beforeMessages = beforePass ? messagesOfPass(beforePass.requestBody, beforePass.segments) : []
  // The session context is frozen for the session's life: the preview's messages[0] carries the blocks the pass
  // before sent, as the next pass will (without them, the diff would read as if the compaction dropped them).
  const preamble = beforeMessages[0]?.preamble ?? []
  let summarised: (m: HistoryMessageIn, i: number) => boolean
  let trimmed: Set<string>
  let afterMessages: HistoryMessageIn[]
  let afterIsPreview = false
  if (subject.kind === 'checkpoint') {
    const c = subject.record.checkpoint as unknown as Record<string, unknown>
    const replaced = isRecord(c.replaced) ? c.replaced : null
    const from = replaced && typeof replaced.fromEntryId === 'string' ? seqOf(replaced.fromEntryId) : undefined
    const to = replaced && typeof replaced.toEntryId === 'string' ? seqOf(replaced.toEntryId) : undefined
    summarised = (m, i) => {
      if (!replaced) return false
      const seqs = m.entryIds.map(seqOf).filter((x): x is number => x !== undefined)
      if (seqs.length === 0) return i === 0 // an earlier head (or the first request) goes behind the new head
      return from !== undefined && to !== undefined && seqs.every((s) => s >= from && s <= to)
    }
    trimmed = new Set((Array.isArray(c.trimmed) ? c.trimmed : []).flatMap((t) => (isRecord(t) && typeof t.entryId === 'string' ? [t.entryId] : [])))
    if (afterPass) afterMessages = messagesOfPass(afterPass.requestBody, afterPass.segments)
    else {
      afterIsPreview = true
      const view = isRecord(c.view) ? c.view : {}
      const head = Array.isArray(view.head) ? (view.head as Array<{ text: string }>) : null
      const startSeq = typeof view.startEntryId === 'string' ? seqOf(view.startEntryId) : undefined
      const dropped = new Set(Array.isArray(view.dropped) ? (view.dropped as string[]) : [])
      const replacedMap = new Map((Array.isArray(view.replaced) ? view.replaced : []).flatMap((r) => (isRecord(r) ? [[String(r.entryId), String(r.content)] as const] : [])))
      const kept = entries.filter((e) => startSeq !== undefined && e.seq >= startSeq && !dropped.has(e.id))
      afterMessages = messagesOfView(head, kept, replacedMap, preamble)
    }
  } else {
    const kept = new Set(subject.draft.keptEntryIds)
    summarised = (m, i) => (m.entryIds.length === 0 ? i === 0 : m.entryIds.every((id) => !kept.has(id)))
    trimmed = new Set(subject.draft.trimmed.map((t) => t.entryId))
    afterIsPreview = true
    const keptEntries = entries.filter((e) => kept.has(e.id))
    afterMessages = messagesOfView(headWithSummary(subject.draft.head, subject.draft.summary, subject.summary), keptEntries, new Map(), preamble)
  }
  const beforeMark = (m: HistoryMessageIn, i: number): Mark | null => (summarised(m, i) ? 'summarised' : m.entryIds.some((id) => trimmed.has(id)) ? 'trimmed' : null)
  const afterMark = (m: HistoryMessageIn, i: number): Mark | null => (m.kind === 'compaction_summary' || (i === 0 && m.entryIds.length === 0) ? 'summary' : m.entryIds.some((id) => trimmed.has(id)) ? 'trimmed' : null)
  return {
    before: renderHistory(beforeMessages, { markOf: beforeMark, seqOf }),
    after: renderHistory(afterMessages, { markOf: afterMark, seqOf }),
    afterIsPreview,
    beforePassSeq: beforePass?.seq ?? null,
    afterPassSeq: afterPass?.seq ?? null,
  }
}
