/**
 * Keeps the app in step with what answers: when an API key set or removed in Settings (in this window or another)
 * switches between the offline simulator and the API, the shell's model badge and the Settings view follow.
 */
import { client } from '../../platform/client'
import { useAppStore } from '../../state/app'
import { useSettingsStore } from '../../state/settings'
import { loadSettings } from './actions'

export function connectSettingsEvents(): void {
  client.on('endpoint.changed', (model) => {
    const app = useAppStore.getState()
    if (app.info) app.infoLoaded({ ...app.info, model })
    const settings = useSettingsStore.getState()
    if (settings.data) void loadSettings(settings.data.project?.projectId ?? null)
  })
}
