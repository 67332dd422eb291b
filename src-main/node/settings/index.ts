/**
 * Settings (docs/inspector.md "Settings"): the app's own in `<dataDir>/settings.json`, each project's compaction
 * settings in its `.loupe/config.toml`, the API key in the host's secret storage (shown as a hint only).
 */
export { AppSettingsSchema, DEFAULT_SETTINGS, SETTINGS_FILE, ThemeSchema } from './schema'
export type { AppSettings, Theme } from './schema'
export { openSettings, parseSettings } from './store'
export type { SettingsStore } from './store'
export { readProjectCompaction, writeProjectCompaction, withCompaction, ProjectSettingsError } from './project'
export type { ProjectCompaction, ProjectCompactionView } from './project'
export { keyStatus, keyProblem, hintOf } from './api-key'
export type { KeyStatus } from './api-key'
export { SettingsService, SettingsValueError, MODEL_ROWS } from './service'
export type { SettingsView, ModelRow, SettingsServiceDeps } from './service'
