/**
 * Keeps the app in step with what answers: when an API key set or removed in Settings (in this window or another)
 * switches between the offline simulator and the API, the shell's model badge and the Settings view follow; when
 * settings are saved in any window, this one reads them again (its theme, its open forms).
 */
import { client } from '../../platform/client'
import { useAppStore } from '../../state/app'
import { useSettingsStore } from '../../state/settings'
import { loadSettings, wantedProject } from './actions'

export function connectSettingsEvents(): void {
  // Saved in any window (this one's answer has it already; reading again is harmless): the theme and the forms follow.
  client.on('settings.changed', (e) => {
    // Only the project the view asks for matters (the one shown may be a project just left, its answer on the way).
    if (e.projectId === null || e.projectId === wantedProject()) void loadSettings()
  })
  client.on('endpoint.changed', (model) => {
    const app = useAppStore.getState()
    if (app.info) app.infoLoaded({ ...app.info, model })
    const settings = useSettingsStore.getState()
    if (settings.data) void loadSettings()
  })
}
