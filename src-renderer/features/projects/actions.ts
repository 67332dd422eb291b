import { call, client } from '../../platform/client'
import { rememberedPlace } from '../../state/last-place'
import { useProjectsStore } from '../../state/projects'
import { useSessionsStore } from '../../state/sessions'
import { loadSessions } from '../sessions/actions'

/** Lists the projects and opens the place the window showed last (state/last-place.ts), else the first project. */
export async function loadProjects(): Promise<void> {
  const projects = await call('project.list', {})
  const last = rememberedPlace()
  useProjectsStore.getState().projectsLoaded(projects)
  if (last.projectId !== null && projects.some((p) => p.id === last.projectId)) useProjectsStore.getState().projectSelected(last.projectId)
  const selected = useProjectsStore.getState().selectedId
  if (selected) {
    await loadSessions(selected)
    const sessions = useSessionsStore.getState()
    if (last.sessionId !== null && sessions.selectedId === null && (sessions.byProject[selected] ?? []).some((s) => s.id === last.sessionId)) sessions.sessionSelected(last.sessionId)
  }
}

export async function openProject(path: string): Promise<void> {
  const store = useProjectsStore.getState()
  if (!path.trim()) {
    store.openFailed('Type the path of a folder to open')
    return
  }
  store.openStarted()
  const result = await client.request('project.open', { path: path.trim() })
  if (!result.ok) {
    useProjectsStore.getState().openFailed(result.error.message)
    return
  }
  useProjectsStore.getState().projectOpened(result.value)
  await loadSessions(result.value.id)
}

export async function pickAndOpenProject(): Promise<void> {
  const result = await client.request('project.pickFolder', {})
  if (!result.ok) {
    useProjectsStore.getState().openFailed(result.error.message)
    return
  }
  if (result.value.path) await openProject(result.value.path)
}

export async function selectProject(id: string): Promise<void> {
  useProjectsStore.getState().projectSelected(id)
  await Promise.all([loadSessions(id), refreshProjects()])
}

/**
 * Reads the projects again, keeping the selection: whether a folder is gone from disk is read when they are listed,
 * and a folder renamed while the window is open shows as gone when the user comes back to its project.
 */
export async function refreshProjects(): Promise<void> {
  const result = await client.request('project.list', {})
  if (result.ok) useProjectsStore.getState().projectsLoaded(result.value)
}

/**
 * Takes a project out of the list (project.remove): nothing is deleted, and opening its folder again lists it again
 * with its sessions. The next project is shown when it was the one shown; the answer's error, when there is one (a
 * turn running there), is said where opening a folder says its own.
 */
export async function removeProject(id: string): Promise<void> {
  const wasSelected = useProjectsStore.getState().selectedId === id
  const result = await client.request('project.remove', { projectId: id })
  if (!result.ok) return useProjectsStore.getState().openFailed(result.error.message)
  projectGone(id, wasSelected)
}

/** A project left the list (here, or the event from another window): the next one's sessions are read when it is shown. */
export function projectGone(id: string, wasSelected = useProjectsStore.getState().selectedId === id): void {
  useProjectsStore.getState().projectRemoved(id)
  if (!wasSelected) return
  useSessionsStore.getState().sessionSelected(null)
  const next = useProjectsStore.getState().selectedId
  if (next !== null) void loadSessions(next)
}
