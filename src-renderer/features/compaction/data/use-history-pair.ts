/**
 * Loads the two passes a compaction card compares (`pass.list`, `pass.get`): the last main pass before it and the
 * first after it; model/history-pair.ts makes the marked texts from them and the chat store's entries.
 */
import { useEffect, useMemo, useState } from 'react'
import type { EntryView, PassDetailView, PassSummaryView } from '../../../../src-preload/contract'
import { call } from '../../../platform/client'
import { historyPair, type HistoryPair, type PairSubject } from '../model/history-pair'
import type { EntryLike } from '../model/history-text'

export type { HistoryPair }

async function detail(pass: PassSummaryView | undefined): Promise<PassDetailView | null> {
  return pass ? call('pass.get', { passId: pass.id }) : null
}

export function useHistoryPair(sessionId: string, subject: PairSubject | null, entries: ReadonlyArray<EntryView>): { pair: HistoryPair | null; error: string | null; loading: boolean } {
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
    return historyPair(subject, state.before, state.after, entries as unknown as ReadonlyArray<EntryLike>)
  }, [subject, state, key, entries])

  return { pair, error, loading: subject !== null && (state === null || state.key !== key) && error === null }
}
