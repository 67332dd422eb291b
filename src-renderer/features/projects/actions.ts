import { call, client } from '../../platform/client'
import { useProjectsStore } from '../../state/projects'
import { loadSessions } from '../sessions/actions'

export async function loadProjects(): Promise<void> {
  const projects = await call('project.list', {})
  useProjectsStore.getState().projectsLoaded(projects)
  const selected = useProjectsStore.getState().selectedId
  if (selected) await loadSessions(selected)
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
  await loadSessions(id)
}
