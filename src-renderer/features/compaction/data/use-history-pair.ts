/**
 * The two histories a compaction card compares: what the last pass before the compaction sent, and what the first
 * pass after it sent (or, until that pass runs, what the checkpoint's view will send). For a dry run's draft, the
 * current history against the draft's. Loaded with `pass.list` and `pass.get`; entries come from the chat store.
 */
import { useEffect, useMemo, useState } from 'react'
import type { EntryView, PassDetailView, PassSummaryView } from '../../../../src-preload/contract'
import { call } from '../../../platform/client'
import type { CheckpointRecord, DraftView } from '../../../state/compaction'
import { messagesOfPass, messagesOfView, renderHistory, type EntryLike, type HistoryMessageIn, type HistoryText, type Mark } from '../model/history-text'

export interface HistoryPair {
  readonly before: HistoryText
  readonly after: HistoryText
  /** Whether the right side is the first pass's exact bytes or a preview from the entries. */
  readonly afterIsPreview: boolean
  readonly beforePassSeq: number | null
  readonly afterPassSeq: number | null
}

/** A draft's `summary`: the text the user has made of its summary, when edited (the after side shows it). */
type Subject = { kind: 'checkpoint'; record: CheckpointRecord } | { kind: 'draft'; draft: DraftView; summary?: string }

/** The head's blocks with the draft's summary replaced by the user's edit of it (the same block, the same place). */
function headWithSummary(head: DraftView['head'], original: string | null, edited: string | undefined): DraftView['head'] {
  if (head === null || original === null || edited === undefined || edited === original) return head
  return head.map((block) => {
    const at = block.text.indexOf(original)
    return at === -1 ? block : { ...block, text: block.text.slice(0, at) + edited + block.text.slice(at + original.length) }
  })
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null

async function detail(pass: PassSummaryView | undefined): Promise<PassDetailView | null> {
  return pass ? call('pass.get', { passId: pass.id }) : null
}

export function useHistoryPair(sessionId: string, subject: Subject | null, entries: ReadonlyArray<EntryView>): { pair: HistoryPair | null; error: string | null; loading: boolean } {
  const [state, setState] = useState<{ key: string; before: PassDetailView | null; after: PassDetailView | null } | null>(null)
  const [error, setError] = useState<string | null>(null)
  const key = subject ? (subject.kind === 'checkpoint' ? subject.record.checkpoint.id : subject.draft.draftId) : ''
  const at = subject?.kind === 'checkpoint' ? subject.record.checkpoint.at : null

  useEffect(() => {
    if (!subject) return
    let alive = true
    setError(null)
    void (async () => {
      try {
        const passes = (await call('pass.list', { sessionId })).filter((p) => p.kind === 'main' && p.status === 'done')
        const before = at === null ? passes.at(-1) : [...passes].reverse().find((p) => p.queuedAt < at)
        const after = at === null ? undefined : passes.find((p) => p.queuedAt >= at)
        const [b, a] = await Promise.all([detail(before), detail(after)])
        if (alive) setState({ key, before: b, after: a })
      } catch (err) {
        if (alive) setError(err instanceof Error ? err.message : String(err))
      }
    })()
    return () => {
      alive = false
    }
    // The subject changes identity with every list reload; its key and time are what matter. New entries mean a
    // new pass may have run (the checkpoint's first), so the pair is read again then.
  }, [sessionId, key, at, entries.length])

  const pair = useMemo((): HistoryPair | null => {
    if (!subject || !state || state.key !== key) return null
    const seqById = new Map(entries.map((e) => [e.id, e.seq]))
    const seqOf = (id: string) => seqById.get(id)
    const beforeMessages = state.before ? messagesOfPass(state.before.requestBody, state.before.segments) : []
    let summarised: (m: HistoryMessageIn, i: number) => boolean
    let trimmed: Set<string>
    let afterMessages: HistoryMessageIn[]
    let afterIsPreview = false
    if (subject.kind === 'checkpoint') {
      const c = subject.record.checkpoint as EntryView & Record<string, unknown>
      const replaced = isRecord(c.replaced) ? c.replaced : null
      const from = replaced && typeof replaced.fromEntryId === 'string' ? seqOf(replaced.fromEntryId) : undefined
      const to = replaced && typeof replaced.toEntryId === 'string' ? seqOf(replaced.toEntryId) : undefined
      summarised = (m, i) => {
        if (!replaced) return false
        const seqs = m.entryIds.map(seqOf).filter((x): x is number => x !== undefined)
        if (seqs.length === 0) return i === 0 // the first message (session context + first request) goes behind the head
        return from !== undefined && to !== undefined && seqs.every((s) => s >= from && s <= to)
      }
      trimmed = new Set((Array.isArray(c.trimmed) ? c.trimmed : []).flatMap((t) => (isRecord(t) && typeof t.entryId === 'string' ? [t.entryId] : [])))
      if (state.after) afterMessages = messagesOfPass(state.after.requestBody, state.after.segments)
      else {
        afterIsPreview = true
        const view = isRecord(c.view) ? c.view : {}
        const head = Array.isArray(view.head) ? (view.head as Array<{ text: string }>) : null
        const startSeq = typeof view.startEntryId === 'string' ? seqOf(view.startEntryId) : undefined
        const dropped = new Set(Array.isArray(view.dropped) ? (view.dropped as string[]) : [])
        const replacedMap = new Map((Array.isArray(view.replaced) ? view.replaced : []).flatMap((r) => (isRecord(r) ? [[String(r.entryId), String(r.content)] as const] : [])))
        const kept = entries.filter((e) => startSeq !== undefined && e.seq >= startSeq && !dropped.has(e.id)) as unknown as EntryLike[]
        afterMessages = messagesOfView(head, kept, replacedMap)
      }
    } else {
      const kept = new Set(subject.draft.keptEntryIds)
      summarised = (m, i) => (m.entryIds.length === 0 ? i === 0 : m.entryIds.every((id) => !kept.has(id)))
      trimmed = new Set(subject.draft.trimmed.map((t) => t.entryId))
      afterIsPreview = true
      const keptEntries = entries.filter((e) => kept.has(e.id)) as unknown as EntryLike[]
      afterMessages = messagesOfView(headWithSummary(subject.draft.head, subject.draft.summary, subject.summary), keptEntries, new Map())
    }
    const beforeMark = (m: HistoryMessageIn, i: number): Mark | null => (summarised(m, i) ? 'summarised' : m.entryIds.some((id) => trimmed.has(id)) ? 'trimmed' : null)
    const afterMark = (m: HistoryMessageIn, i: number): Mark | null => (m.kind === 'compaction_summary' || (i === 0 && m.entryIds.length === 0) ? 'summary' : m.entryIds.some((id) => trimmed.has(id)) ? 'trimmed' : null)
    return {
      before: renderHistory(beforeMessages, { markOf: beforeMark, seqOf }),
      after: renderHistory(afterMessages, { markOf: afterMark, seqOf }),
      afterIsPreview,
      beforePassSeq: state.before?.seq ?? null,
      afterPassSeq: state.after?.seq ?? null,
    }
  }, [subject, state, key, entries])

  return { pair, error, loading: subject !== null && (state === null || state.key !== key) && error === null }
}
