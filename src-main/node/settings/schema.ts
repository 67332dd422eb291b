/**
 * The app's own settings (docs/inspector.md "Settings"), kept in `<dataDir>/settings.json`. Per-project compaction
 * settings live with the project (project.ts); the API key lives in the host's secret storage (api-key.ts), never
 * here.
 */
import { z } from 'zod'
import { DEFAULT_PERMISSION_MODE } from '../../engine/tools/permissions'

export const ThemeSchema = z.enum(['light', 'dark', 'system'])
export type Theme = z.infer<typeof ThemeSchema>

export const AppSettingsSchema = z.object({
  /** The model new sessions start with; null means the app's default (or LOUPE_MODEL). */
  model: z.string().min(1).max(200).nullable(),
  /** Cache the static prefix (tools and system[0]) for one hour instead of five minutes (a 2× write, §5.5). */
  staticCacheTtl1h: z.boolean(),
  /** The permission mode new sessions start in. */
  defaultMode: z.enum(['plan', 'build', 'auto']),
  /**
   * Keep the cache warm through idle gaps: one `max_tokens: 0` pre-warm before the 5-minute entry expires
   * (docs/decisions/0009-cache-keep-warm.md). On by default.
   */
  keepCacheWarm: z.boolean(),
  /** Adaptive thinking on the models that offer it (docs/decisions/0010-thinking.md). On by default. */
  thinking: z.boolean(),
  theme: ThemeSchema,
})
export type AppSettings = z.infer<typeof AppSettingsSchema>

export const DEFAULT_SETTINGS: AppSettings = {
  model: null,
  staticCacheTtl1h: false,
  defaultMode: DEFAULT_PERMISSION_MODE,
  keepCacheWarm: true,
  thinking: true,
  theme: 'system',
}

export const SETTINGS_FILE = 'settings.json'
