/**
 * Loading the passes list and keeping it live: `pass.list` for the session (or every session of its project),
 * then `pass.started`, `stream.delta` and `pass.completed` events as a turn runs, and a compaction's
 * `compaction.progressed` for its summary request.
 */
import { useEffect } from 'react'
import { call, client } from '../../../platform/client'
import { loadPassView } from './pass-view'
import { useInspectorStore, type ListedPass, type PassScope } from '../../../state/inspector'
import { useSessionsStore } from '../../../state/sessions'
import { useChatStore } from '../../../state/chat'

function projectOf(sessionId: string): string | null {
  const byProject = useSessionsStore.getState().byProject
  for (const [projectId, sessions] of Object.entries(byProject)) if (sessions.some((s) => s.id === sessionId)) return projectId
  return null
}

/**
 * The number of the latest read of the list. Reads overlap: the whole project's list (a session.list, then a
 * pass.list per session) takes longer than one session's, so after the user switches from the project back to the
 * session (or from one session to another and back), the older read can answer last. Only the latest read's answer
 * is shown, so the list is always the one the pane asks for.
 */
let latestRead = 0

export async function loadPasses(sessionId: string, scope: PassScope): Promise<void> {
  const read = ++latestRead
  const store = useInspectorStore.getState()
  store.passesLoading()
  try {
    const projectId = scope === 'project' ? projectOf(sessionId) : null
    if (!projectId) {
      const passes = await call('pass.list', { sessionId })
      if (read === latestRead) store.passesLoaded(sessionId, passes)
      await seedLive(sessionId, read)
      return
    }
    const sessions = await call('session.list', { projectId })
    const lists = await Promise.all(
      sessions.map(async (s) => (await call('pass.list', { sessionId: s.id })).map((p): ListedPass => ({ ...p, sessionTitle: s.title }))),
    )
    if (read === latestRead) store.passesLoaded(sessionId, lists.flat().sort((a, b) => a.queuedAt - b.queuedAt || a.seq - b.seq))
    await seedLive(sessionId, read)
  } catch (err) {
    if (read === latestRead) store.passesFailed(err instanceof Error ? err.message : String(err))
  }
}

/**
 * The pass in flight, asked for once the list is shown: a window that opens (or reloads) in the middle of a pass has
 * seen none of its events. Asked after the list, the answer describes the same moment or a later one, so a pass that
 * completed in between is in the list and not live. Without an answer the live row comes with the next pass.
 */
async function seedLive(sessionId: string, read: number): Promise<void> {
  const result = await client.request('pass.live', { sessionId })
  if (!result.ok || read !== latestRead) return
  if (result.value !== null) return useInspectorStore.getState().liveSeeded(sessionId, result.value, Date.now())
  // No main pass in flight; a running session may be writing a compaction's summary instead, which reports through
  // the compaction's progress: `compaction.list` holds it so far (asked only of a session that runs).
  const chat = useChatStore.getState().bySession[sessionId]
  if (!chat?.running && chat?.listedActivity !== 'running') return
  const compactions = await client.request('compaction.list', { sessionId })
  const live = compactions.ok ? compactions.value.live : null
  if (live === null || read !== latestRead || (live.stage !== 'summary_started' && live.stage !== 'summary_streaming')) return
  useInspectorStore.getState().summarySeeded(sessionId, live, chat?.model ?? '', Date.now())
}

/**
 * Starts fetching a pass the moment it is selected, from the list, the chat or a link: the store notifies
 * synchronously, before React renders, so the request is on its way a frame earlier than from an effect.
 */
let unsubscribeEagerLoad: (() => void) | null = null
function loadSelectedEagerly(): void {
  unsubscribeEagerLoad ??= useInspectorStore.subscribe((s, previous) => {
    if (s.selectedPassId && s.selectedPassId !== previous.selectedPassId && !s.liveSelected) void loadPassView(s.selectedPassId).catch(() => undefined)
  })
}

/**
 * Pass events reach the store from the inspector's first showing on, whether it is shown or not: a pass made while
 * another view is open (a compaction from its view) or in another session (the user looked elsewhere while a turn
 * ran) is then known when the inspector comes back, and the following and the live row go on from it.
 */
let passEventsFollowed = false
export function followPassEvents(): void {
  if (passEventsFollowed) return
  passEventsFollowed = true
  client.on('pass.started', (e) => useInspectorStore.getState().passStarted(e))
  client.on('stream.delta', (e) => useInspectorStore.getState().streamDeltaReceived(e))
  client.on('pass.completed', (e) => {
    // The whole project's list takes the passes of the project's other sessions too, as they are stored.
    const s = useInspectorStore.getState()
    const project = s.scope === 'project' && s.sessionId !== null && e.sessionId !== s.sessionId ? projectOf(s.sessionId) : null
    s.passCompleted(e, project !== null && projectOf(e.sessionId) === project)
  })
  // A compaction's summary request sends no pass.started: its progress starts and fills its live row. It is asked of
  // the session's model, which the chat knows.
  client.on('compaction.progressed', (e) => useInspectorStore.getState().compactionProgressed(e, useChatStore.getState().bySession[e.sessionId]?.model ?? ''))
  client.on('app.ready', () => useInspectorStore.getState().reconnected())
}

/** Shows a session's passes, and reads them again after a reconnect while shown. */
export function usePassesOf(sessionId: string): void {
  const scope = useInspectorStore((s) => s.scope)
  useEffect(() => {
    loadSelectedEagerly()
    followPassEvents()
    const store = useInspectorStore.getState()
    store.sessionShown(sessionId)
    void loadPasses(sessionId, scope)
    // After a reconnect the list may have missed events: read it again.
    return client.on('app.ready', () => void loadPasses(sessionId, scope))
  }, [sessionId, scope])
}
