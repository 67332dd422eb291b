import { client } from '../../platform/client'
import { useProjectsStore } from '../../state/projects'
import { useSessionsStore } from '../../state/sessions'
import { useSettingsStore } from '../../state/settings'
import { useTranscriptsStore } from '../../state/transcripts'
import { loadProjects, selectProject } from '../projects/actions'
import type { CacheSummaryView, Session } from '../../../src-preload/contract'
import { continuationsOf } from './continuations'

const store = () => useTranscriptsStore.getState()
const folderInput = () => (store().folder === null ? {} : { folder: store().folder! })

/** The newest listing asked for: an older one answering after it (the default folder's, asked as the panel opened) is dropped. */
let listingRequest = 0

export async function listTranscripts(): Promise<void> {
  const asked = ++listingRequest
  store().listingStarted()
  const result = await client.request('transcripts.list', folderInput())
  if (asked !== listingRequest) return
  if (!result.ok) return store().listingFailed(`Could not list the sessions: ${result.error.message}`)
  store().listingLoaded(result.value)
}

export async function openPanel(): Promise<void> {
  store().panelOpened()
  await Promise.all([listTranscripts(), refreshProxy()])
}

/** Shows an imported session in the app: its project, then the session (the chat and the inspector follow). */
export async function openImported(projectId: string, sessionId: string): Promise<void> {
  await loadProjects()
  if (!useProjectsStore.getState().projects.some((p) => p.id === projectId)) return
  await selectProject(projectId)
  useSessionsStore.getState().sessionSelected(sessionId)
  // The inspector sits beside the chat: from another view, the chat comes back with it.
  useSettingsStore.getState().viewChosen('chat')
  store().panelClosed()
}

/**
 * The number of the session whose totals were last asked for (its Totals button, or its import, which shows them).
 * Reads and imports overlap: only the session picked last has its totals shown, so a session picked before, whose
 * answer comes last, does not take its place.
 */
let latestPick = 0

export async function showTotals(path: string, sessionId: string): Promise<void> {
  const asked = ++latestPick
  const result = await client.request('transcripts.totals', { sessionId })
  if (asked !== latestPick) return
  if (!result.ok) return store().failed(`Could not read the totals: ${result.error.message}`)
  store().totalsShown(path, result.value)
}

/** Imports one file; true once it is imported and listed again (false: refused, and the panel says why). */
export async function importOne(path: string): Promise<boolean> {
  const asked = ++latestPick
  store().importStarted(path)
  const result = await client.request('transcripts.import', { path, ...folderInput() })
  store().importFinished(path)
  // The service's message names the file already.
  if (!result.ok) {
    store().failed(`Could not import: ${result.error.message}`)
    return false
  }
  if (asked === latestPick) store().totalsShown(path, result.value.totals)
  await Promise.all([listTranscripts(), loadProjects()])
  return true
}

export async function importAll(): Promise<void> {
  store().importStarted('*')
  const result = await client.request('transcripts.importAll', folderInput())
  store().importFinished('*')
  if (!result.ok) return store().failed(`Could not import the sessions: ${result.error.message}`)
  // Listed again first: a new listing clears the error, and the failures must stay on screen.
  await Promise.all([listTranscripts(), loadProjects()])
  const failed = result.value.failed
  if (failed.length > 0) store().failed(`${failed.length === 1 ? 'One session' : `${failed.length} sessions`} could not be imported: ${failed[0]!.message}${failed.length > 1 ? ` (and ${failed.length - 1} more)` : ''}`)
}

export async function refreshProxy(): Promise<void> {
  const result = await client.request('proxy.status', {})
  if (result.ok) store().proxyUpdated(result.value)
}

export async function toggleProxy(port: number | null): Promise<void> {
  store().proxyChanging()
  const running = store().proxy?.running ?? false
  const result = running ? await client.request('proxy.stop', {}) : await client.request('proxy.start', port === null ? {} : { port })
  // The proxy's own messages name it already ("The capture proxy could not listen …"): said once.
  if (!result.ok) return store().failed(/capture proxy/i.test(result.error.message) ? result.error.message : `The capture proxy: ${result.error.message}`)
  store().proxyUpdated(result.value)
  if (!running) await loadProjects()
}

/**
 * The Loupe sessions continued from an imported one, newest first, read from every open project: a conversation may
 * have been continued into another project than the one it was filed under (its working folder not on this
 * machine). A project whose list cannot be read is left out.
 */
export async function findContinuations(importedSessionId: string): Promise<Session[]> {
  const projects = useProjectsStore.getState().projects
  const lists = await Promise.all(
    projects.map(async (p) => {
      const result = await client.request('session.list', { projectId: p.id })
      return result.ok ? result.value : []
    }),
  )
  return continuationsOf(importedSessionId, lists)
}

/** The Cache view's figures for an imported session, which the dialog's miss line agrees with; null if unreadable. */
export async function readCacheFigures(sessionId: string): Promise<CacheSummaryView | null> {
  const result = await client.request('session.cacheSummary', { sessionId })
  return result.ok ? result.value : null
}
