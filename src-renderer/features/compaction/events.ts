/**
 * Keeps the compaction store in step with the session's compaction events, wherever the user is in the app: a
 * compaction started from the chat (/compact) shows its progress in the Compaction view too.
 */
import { client } from '../../platform/client'
import { useCompactionStore } from '../../state/compaction'
import { useSessionsStore } from '../../state/sessions'
import { useSettingsStore } from '../../state/settings'
import { loadCompactions } from './actions'

export function connectCompactionEvents(): void {
  const store = () => useCompactionStore.getState()
  const known = (sessionId: string) => store().bySession[sessionId]?.loaded === true
  // The session the app shows (not whichever session's card the store holds open): only its new cards open.
  const shown = (sessionId: string) => useSessionsStore.getState().selectedId === sessionId
  client.on('compaction.started', (e) => store().compactionStarted(e, Date.now()))
  client.on('compaction.progressed', (e) => store().compactionProgressed(e))
  client.on('compaction.drafted', (e) => store().compactionDrafted(e, shown(e.sessionId)))
  client.on('compaction.applied', (e) => {
    store().compactionApplied(e, shown(e.sessionId))
    if (known(e.sessionId)) void loadCompactions(e.sessionId)
  })
  client.on('compaction.failed', (e) => store().compactionFailed(e))
  // A dry run the conversation moves past can no longer be applied: its card says so as soon as it happens, not
  // when Apply is pressed. The main process decides (compaction.list's `stale`); read again until it says so.
  client.on('entries.appended', (e) => {
    const s = store().bySession[e.sessionId]
    if (s?.loaded && s.drafts.some((d) => d.stale !== true)) void loadCompactions(e.sessionId)
  })
  // "Nothing to compact yet" or "cancelled" no longer holds once the conversation has moved on: a new run clears it.
  client.on('run.started', (e) => store().runStarted(e.sessionId))
  // A note the Compaction view has shown ("nothing to compact yet") has been read once the user leaves the
  // view or its session: coming back, it is not said again.
  useSettingsStore.subscribe((s, prev) => {
    if (prev.view === 'compaction' && s.view !== 'compaction') store().shownNotesCleared()
  })
  useSessionsStore.subscribe((s, prev) => {
    if (s.selectedId !== prev.selectedId) store().shownNotesCleared()
  })
  // The real size after a checkpoint is known once its first pass has run.
  client.on('turn.ended', (e) => {
    if (known(e.sessionId)) void loadCompactions(e.sessionId)
  })
}
