import type { Session } from '../../../src-preload/contract'
import { client } from '../../platform/client'
import { useChatStore } from '../../state/chat'
import { useDraftsStore } from '../../state/drafts'
import { useInspectorStore } from '../../state/inspector'
import { useSessionsStore, withStarted } from '../../state/sessions'
import { useProjectsStore } from '../../state/projects'
import { selectProject } from '../projects/actions'
import { loadPasses } from '../inspector/data/passes'

export async function loadSessions(projectId: string): Promise<void> {
  const askedAt = Date.now()
  const result = await client.request('session.list', { projectId })
  if (!result.ok) return useSessionsStore.getState().failed(result.error.message, projectId)
  // What a session is doing belongs to the chat store, which follows it from the events from here on.
  useChatStore.getState().activityListed(result.value.map((s) => ({ sessionId: s.id, activity: s.activity ?? null })))
  useSessionsStore.getState().sessionsLoaded(projectId, result.value.map(({ activity: _, ...session }) => session), askedAt)
}

/** Creates a session and selects it; null when the main process refused. */
export async function createSession(projectId: string): Promise<Session | null> {
  const result = await client.request('session.create', { projectId })
  if (!result.ok) {
    useSessionsStore.getState().failed(result.error.message, projectId)
    return null
  }
  useSessionsStore.getState().sessionCreated(result.value)
  return result.value
}

/*
 * The store follows each answer at once; the events session.renamed and session.deleted (main.tsx) carry the same
 * change to every other window.
 */

/**
 * Renames a session; an empty or unchanged name leaves it as it was. False when the host did not take the name (the
 * connection was down): the rename is still under way, its field open with what was typed, and the error says why.
 */
export async function renameSession(session: Session, title: string): Promise<boolean> {
  const store = useSessionsStore.getState()
  const trimmed = title.trim()
  if (!trimmed || trimmed === session.title) {
    store.renameEnded()
    return true
  }
  const result = await client.request('session.rename', { sessionId: session.id, title: trimmed })
  if (!result.ok) {
    useSessionsStore.getState().failed(`Could not rename the session: ${result.error.message}`)
    return false
  }
  useSessionsStore.getState().sessionRenamed(result.value)
  refreshProjectPasses()
  return true
}

/** Deletes a session with its entries and passes (the user has confirmed), and forgets what the renderer held of it. */
export async function deleteSession(sessionId: string): Promise<boolean> {
  const result = await client.request('session.delete', { sessionId })
  if (!result.ok) {
    useSessionsStore.getState().failed(`Could not delete the session: ${result.error.message}`)
    return false
  }
  sessionGone(sessionId)
  return true
}

/**
 * Forgets what this window held of a deleted session and the sessions it started (the store deletes them with it):
 * its row, its chat, its draft; the whole-project passes list is read again. `replacedBy`: the session shown in its
 * place when it was shown (a grown Claude Code file imported again). For a delete here and one heard of by event.
 */
export function sessionGone(sessionId: string, replacedBy?: string): void {
  // Read before the delete: the rows it drops name the sessions to forget.
  const gone = withStarted(useSessionsStore.getState(), sessionId)
  useSessionsStore.getState().sessionDeleted(sessionId, replacedBy)
  for (const id of gone) {
    useChatStore.getState().sessionForgotten(id)
    useDraftsStore.getState().sessionForgotten(id)
  }
  refreshProjectPasses()
}

/** Writes a session to one JSON file (`session.export`): where it went and its size, or why not. */
export async function exportSession(sessionId: string, path: string): Promise<{ ok: true; path: string; bytes: number; replaced: boolean } | { ok: false; error: string }> {
  const result = await client.request('session.export', { sessionId, ...(path.trim() ? { path: path.trim() } : {}) })
  return result.ok ? { ok: true, ...result.value } : { ok: false, error: result.error.message }
}

/**
 * The host's file dialog (Electron's) for an export's file: the path chosen, null when cancelled, or why it could
 * not be shown. The browser host has none, and its dialogs offer no Browse button.
 */
export async function pickTransferFile(purpose: 'export' | 'import', defaultPath: string): Promise<{ ok: true; path: string | null } | { ok: false; error: string }> {
  const result = await client.request('session.pickFile', { purpose, ...(defaultPath.trim() ? { defaultPath: defaultPath.trim() } : {}) })
  return result.ok ? { ok: true, path: result.value.path } : { ok: false, error: result.error.message }
}

/**
 * Reads an exported session into a project and opens it; why not, when the file is not one. A session the store has
 * already (imported before, or exported from this Loupe) is opened where it is, in its own project.
 */
export async function importSession(projectId: string, path: string): Promise<{ ok: true; session: Session; alreadyPresent: boolean } | { ok: false; error: string }> {
  const result = await client.request('session.import', { projectId, path: path.trim() })
  if (!result.ok) return { ok: false, error: result.error.message }
  const { alreadyPresent, ...session } = result.value
  if (session.projectId !== useProjectsStore.getState().selectedId) await selectProject(session.projectId)
  useSessionsStore.getState().sessionCreated(session)
  return { ok: true, session, alreadyPresent: alreadyPresent === true }
}

/** The inspector's whole-project list names each pass's session: read it again after a session was renamed or deleted. */
function refreshProjectPasses(): void {
  const inspector = useInspectorStore.getState()
  const shown = useSessionsStore.getState().selectedId
  if (inspector.scope === 'project' && inspector.sessionId !== null && inspector.sessionId === shown) void loadPasses(shown, 'project')
}
