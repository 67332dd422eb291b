import { API_KEY_MAX_INPUT, API_KEY_RULE, type RequestInput, type SettingsViewData } from '../../../src-preload/contract'
import { client } from '../../platform/client'
import { useSettingsStore, type Theme } from '../../state/settings'
import { applyTheme } from './theme'

/** Reads the settings (with a project's compaction settings when one is open). */
export async function loadSettings(projectId: string | null): Promise<void> {
  const store = useSettingsStore.getState()
  store.settingsLoading()
  const edits = store.themeEdits
  const result = await client.request('settings.get', projectId ? { projectId } : {})
  if (!result.ok) return store.settingsFailed(`Could not read the settings: ${result.error.message}`)
  loaded(result.value, edits)
}

/** Takes an answer; the theme follows it unless the user chose another one while it was on its way. */
function loaded(data: SettingsViewData, edits: number): void {
  useSettingsStore.getState().settingsLoaded(data, edits)
  applyTheme(useSettingsStore.getState().theme)
}

/** Writes a change; the answer is the settings as they now are. */
export async function saveSettings(input: RequestInput<'settings.set'>): Promise<boolean> {
  const store = useSettingsStore.getState()
  const projectId = store.data?.project?.projectId ?? null
  store.savingStarted()
  const edits = store.themeEdits
  const result = await client.request('settings.set', input)
  if (!result.ok) {
    store.settingsFailed(`Not saved: ${result.error.message}`)
    return false
  }
  // The answer carries the project only when the change did; read it again so the view keeps showing it.
  if (projectId && !result.value.project) await loadSettings(projectId)
  else loaded(result.value, edits)
  return true
}

export async function chooseTheme(theme: Theme): Promise<void> {
  useSettingsStore.getState().themeChosen(theme)
  applyTheme(theme)
  await saveSettings({ app: { theme } })
}

export async function setApiKey(key: string | null): Promise<string | null> {
  // A paste longer than the contract takes would be refused with a validator's message; say the rule instead.
  if (key !== null && key.length > API_KEY_MAX_INPUT) return API_KEY_RULE
  const result = await client.request('settings.setApiKey', { key })
  if (!result.ok) return result.error.message
  await loadSettings(useSettingsStore.getState().data?.project?.projectId ?? null)
  return null
}
