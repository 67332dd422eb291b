/**
 * Where the user was, the project and the session, kept across a reload (in localStorage, as the inspector's layout
 * is): the window comes back to the session it showed, with its approval or its running turn, instead of the first
 * project. Ids only; nothing of the session's content.
 */
import { useProjectsStore } from './projects'
import { useSessionsStore } from './sessions'

const PROJECT_KEY = 'loupe.lastProject'
const SESSION_KEY = 'loupe.lastSession'

function read(key: string): string | null {
  try {
    return localStorage.getItem(key)
  } catch {
    return null
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key)
    else localStorage.setItem(key, value)
  } catch {
    // Storage refused (a private window, a full quota): the next load starts from the first project.
  }
}

export function rememberedPlace(): { readonly projectId: string | null; readonly sessionId: string | null } {
  return { projectId: read(PROJECT_KEY), sessionId: read(SESSION_KEY) }
}

let remembering = false

/** Keeps the remembered place current as the selection changes, from the first call on (after the place is restored). */
export function rememberPlace(): void {
  if (remembering) return
  remembering = true
  useProjectsStore.subscribe((s, before) => s.selectedId !== before.selectedId && write(PROJECT_KEY, s.selectedId))
  useSessionsStore.subscribe((s, before) => s.selectedId !== before.selectedId && write(SESSION_KEY, s.selectedId))
}
