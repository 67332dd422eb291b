import { API_KEY_MAX_INPUT, API_KEY_RULE, type RequestInput, type SettingsViewData } from '../../../src-preload/contract'
import { client } from '../../platform/client'
import { useSettingsStore, type Theme } from '../../state/settings'
import { applyTheme } from './theme'

// The project whose compaction settings the view asks for, and the number of the latest read. Reads overlap: a
// project picked while a save's echo ("settings.changed") is on its way starts a read for the new project while the
// echo starts one for the old. Only the latest read's answer is shown, and an echo reads the wanted project, so the
// form never shows one project's values under another's name.
let wantedProjectId: string | null = null
let latestRead = 0

/** The project whose settings were last asked for (null: the app's settings only). */
export const wantedProject = (): string | null => wantedProjectId

/** Reads the settings (with a project's compaction settings when one is open); without an argument, for the project
 * last asked for. */
export async function loadSettings(projectId: string | null = wantedProjectId): Promise<void> {
  wantedProjectId = projectId
  const read = ++latestRead
  const store = useSettingsStore.getState()
  store.settingsLoading()
  const edits = store.themeEdits
  const result = await client.request('settings.get', projectId ? { projectId } : {})
  if (read !== latestRead) return // a later read answers instead
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
  store.savingStarted()
  const edits = store.themeEdits
  const readsBefore = latestRead
  const result = await client.request('settings.set', input)
  if (!result.ok) {
    store.settingsFailed(`Not saved: ${result.error.message}`)
    return false
  }
  // The answer carries the project only when the change was to it. Read again when it does not (the view keeps
  // showing its project), when another project was picked meanwhile, or when a read started since would otherwise
  // answer after this one with older values.
  const answered = result.value.project?.projectId ?? null
  if (latestRead !== readsBefore || (wantedProjectId !== null && answered !== wantedProjectId)) await loadSettings()
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
  await loadSettings()
  return null
}
