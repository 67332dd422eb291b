import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { client, onStoreLost } from './platform/client'
import { AppShell } from './features/shell/AppShell'
import { loadProjects, projectGone } from './features/projects/actions'
import { useAppStore } from './state/app'
import { useChatStore } from './state/chat'
import { useSessionsStore } from './state/sessions'
import { useProjectsStore } from './state/projects'
import { rememberPlace } from './state/last-place'
import './ui/theme.css'
import { connectCompactionEvents } from './features/compaction/events'
import { installShortcuts } from './features/palette/shortcuts'
import { installFocusFallback } from './features/shell/focus-fallback'
import { connectConnectionEvents } from './features/shell/connection'
import { applyTheme } from './features/settings/theme'
import { connectSettingsEvents } from './features/settings/events'
import { loadSettings } from './features/settings/actions'
import { useSettingsStore } from './state/settings'
import { unsavedCount, useFilesStore } from './state/files'
import { editedSummaryCount, useCompactionStore } from './state/compaction'
import { reloadListing } from './features/files/actions'
import { runEnded } from './features/chat/actions'
import { sessionGone } from './features/sessions/actions'

// Unsaved edits in the Files view and edited dry-run summaries live only in this page: closing or reloading it asks
// first (decisions 0012 and 0072; the Electron host asks through its own dialog, src-main/electron/main.ts). A
// message draft does not ask: it is cheap to retype.
window.addEventListener('beforeunload', (event) => {
  if (unsavedCount(useFilesStore.getState()) + editedSummaryCount(useCompactionStore.getState()) > 0) event.preventDefault()
})

// The theme remembered from last time, before the first paint (the main process's copy arrives with settings.get).
applyTheme(useSettingsStore.getState().theme)

/**
 * Every contract event is also re-dispatched as a DOM event (`loupe:event`), and the root element carries
 * `data-app-ready`: the e2e suite waits on these, never on sleeps.
 */
function announce(name: string, payload: unknown): void {
  window.dispatchEvent(new CustomEvent('loupe:event', { detail: { name, payload } }))
}

onStoreLost((message) => useAppStore.getState().storeLostSaid(message))

client.on('app.ready', (payload) => {
  document.documentElement.dataset.appReady = 'true'
  useAppStore.getState().appReady()
  // The theme as the main process keeps it, and the model table's prices (the Cache view's saving). The models' names
  // need no answer: the renderer has them from its first paint (src-preload/models.ts).
  void loadSettings()
  void (async () => {
    const info = await client.request('app.info', {})
    if (info.ok) useAppStore.getState().infoLoaded(info.value)
    await loadProjects().catch((err: Error) => useAppStore.getState().failed(err.message))
    rememberPlace()
    announce('app.ready', payload)
  })()
})
for (const name of ['project.opened', 'project.removed', 'session.created', 'session.renamed', 'session.deleted', 'run.started', 'pass.started', 'pass.completed', 'entries.appended', 'approval.requested', 'approval.answered', 'turn.ended', 'tool.started', 'tool.finished', 'compaction.started', 'compaction.progressed', 'compaction.drafted', 'compaction.applied', 'compaction.failed', 'endpoint.changed'] as const) {
  client.on(name, (payload) => announce(name, payload))
}

// The sessions list follows what other windows do to it; this window's own changes come with their answers too.
const sessions = () => useSessionsStore.getState()
client.on('project.opened', (p) => useProjectsStore.getState().projectAppeared(p))
client.on('project.removed', (p) => projectGone(p.projectId))
// The Files view's listing follows a save or a file made in another window (its sizes, a new memory file).
client.on('files.changed', (e) => {
  if (useFilesStore.getState().projectId === e.projectId) void reloadListing(e.projectId)
})
client.on('session.created', (s) => sessions().sessionAppeared(s))
client.on('session.renamed', (s) => sessions().sessionRenamed(s))
client.on('session.deleted', (p) => sessionGone(p.sessionId, p.replacedBy))
// What the store counts as a session's activity, so the list orders as a new one would: entries written (the store
// moves the session's time with them), and a pass the proxy captured (which writes no entry).
client.on('entries.appended', (p) => {
  const last = p.entries.reduce((newest, e) => Math.max(newest, e.at), Number.NEGATIVE_INFINITY)
  if (last > Number.NEGATIVE_INFINITY) sessions().sessionWrittenTo(p.sessionId, last)
})
client.on('pass.completed', (p) => {
  if (p.pass.source === 'proxy') sessions().sessionWrittenTo(p.sessionId, p.pass.doneAt ?? p.pass.queuedAt)
})

// The chat store follows the session's events; the store of record is the main process.
const chat = () => useChatStore.getState()
client.on('run.started', (p) => chat().runStarted(p.sessionId))
client.on('pass.started', (p) => chat().passStarted(p.sessionId))
client.on('stream.delta', (p) => chat().streamed(p.sessionId, p.events as never))
client.on('entries.appended', (p) => chat().entriesAppended(p.sessionId, p.entries as never, p.seqs))
client.on('approval.requested', (p) => chat().approvalRequested(p.sessionId, { toolUseId: p.toolUseId, request: p.request as never }))
client.on('tool.started', (p) => chat().toolStarted(p.sessionId, p.toolUseId))
client.on('tool.finished', (p) => chat().toolFinished(p.sessionId, p.toolUseId))
client.on('approval.answered', (p) => chat().approvalAnswered(p.sessionId, p.toolUseId))
client.on('turn.ended', (p) => {
  chat().turnEnded(p.sessionId)
  runEnded(p.runId, p.reason)
  if (p.unrecorded !== undefined) chat().failed(p.sessionId, p.unrecorded)
})
connectConnectionEvents()
connectCompactionEvents()
connectSettingsEvents()
installShortcuts()
installFocusFallback()

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppShell />
  </StrictMode>,
)
