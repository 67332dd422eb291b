import { client } from '../../platform/client'
import { useSessionsStore } from '../../state/sessions'

export async function loadSessions(projectId: string): Promise<void> {
  const result = await client.request('session.list', { projectId })
  if (result.ok) useSessionsStore.getState().sessionsLoaded(projectId, result.value)
  else useSessionsStore.getState().failed(result.error.message)
}

export async function createSession(projectId: string): Promise<void> {
  const result = await client.request('session.create', { projectId })
  if (result.ok) useSessionsStore.getState().sessionCreated(result.value)
  else useSessionsStore.getState().failed(result.error.message)
}
