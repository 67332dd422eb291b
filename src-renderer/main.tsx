import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { client } from './platform/client'
import { AppShell } from './features/shell/AppShell'
import { loadProjects } from './features/projects/actions'
import { useAppStore } from './state/app'
import './ui/theme.css'

/**
 * Every contract event is also re-dispatched as a DOM event (`loupe:event`), and the root element carries
 * `data-app-ready`: the e2e suite waits on these, never on sleeps.
 */
function announce(name: string, payload: unknown): void {
  window.dispatchEvent(new CustomEvent('loupe:event', { detail: { name, payload } }))
}

client.on('app.ready', (payload) => {
  document.documentElement.dataset.appReady = 'true'
  useAppStore.getState().appReady()
  void (async () => {
    const info = await client.request('app.info', {})
    if (info.ok) useAppStore.getState().infoLoaded(info.value)
    await loadProjects().catch((err: Error) => useAppStore.getState().failed(err.message))
    announce('app.ready', payload)
  })()
})
for (const name of ['project.opened', 'session.created'] as const) client.on(name, (payload) => announce(name, payload))

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppShell />
  </StrictMode>,
)
