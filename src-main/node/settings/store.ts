/**
 * Reads and writes `<dataDir>/settings.json`. A missing file means the defaults; a file that does not parse, or a
 * value out of range, means the default for that value and a problem to show — never a crash at start. Writes are
 * atomic (temporary file + rename), so a crash leaves the old settings or the new ones.
 */
import { join } from 'node:path'
import { writeFileAtomic } from '../fs/atomic-write'
import { lockKey, withLock } from '../fs/path-lock'
import { readRegularFile } from '../fs/regular-file'
import { AppSettingsSchema, DEFAULT_SETTINGS, SETTINGS_FILE, type AppSettings } from './schema'

export interface SettingsStore {
  /** The settings in effect (read once at start, then kept in step with every change). */
  current(): AppSettings
  /** What was wrong with the file at start, if anything. */
  problems(): ReadonlyArray<string>
  /** Applies a change, writes the file, and returns the settings in effect. Invalid values are refused whole. */
  update(patch: Partial<AppSettings>): Promise<AppSettings>
  /** Called after every change (the composition root hands the model choice to new sessions). */
  subscribe(listener: (settings: AppSettings) => void): () => void
}

/** Keeps each valid value of a parsed file and drops the rest (with a problem each). */
export function parseSettings(text: string): { settings: AppSettings; problems: string[] } {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (err) {
    return { settings: DEFAULT_SETTINGS, problems: [`${SETTINGS_FILE} does not parse (${err instanceof Error ? err.message : String(err)}); using the defaults`] }
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { settings: DEFAULT_SETTINGS, problems: [`${SETTINGS_FILE} is not an object; using the defaults`] }
  const problems: string[] = []
  const out: Record<string, unknown> = { ...DEFAULT_SETTINGS }
  const shape = AppSettingsSchema.shape
  for (const [key, value] of Object.entries(raw)) {
    if (!(key in shape)) continue // a setting this version does not know (a newer version wrote it): ignored
    const parsed = shape[key as keyof typeof shape].safeParse(value)
    if (parsed.success) out[key] = parsed.data
    else problems.push(`${key} in ${SETTINGS_FILE} is not valid (${JSON.stringify(value)}); using the default`)
  }
  return { settings: out as AppSettings, problems }
}

export async function openSettings(dataDir: string): Promise<SettingsStore> {
  const path = join(dataDir, SETTINGS_FILE)
  let loaded: { settings: AppSettings; problems: string[] }
  // A file with problems is kept as it was, beside the new one, before the first change rewrites it: what did not
  // parse may be the user's hand-edited values.
  let damaged: string | null = null
  try {
    // A regular file of at most 1 MB: a FIFO or a device put in its place must not hold the start.
    const text = (await readRegularFile(path, { maxBytes: 1024 * 1024 })).toString('utf8')
    loaded = parseSettings(text)
    if (loaded.problems.length > 0) damaged = text
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    loaded = { settings: DEFAULT_SETTINGS, problems: code === 'ENOENT' ? [] : [`${SETTINGS_FILE} could not be read (${code ?? String(err)}); using the defaults`] }
  }
  let settings = loaded.settings
  const listeners = new Set<(s: AppSettings) => void>()
  // Changes are written one after another, in the order they were made, under the file's lock (fs/path-lock.ts),
  // so two quick changes cannot land in the wrong order. The key is found once, so each change joins the queue as it
  // is made.
  const key = await lockKey(path)
  return {
    current: () => settings,
    problems: () => loaded.problems,
    async update(patch) {
      // Refused whole before anything is queued; merged once the changes before it are in, so two quick changes
      // (two windows, or two settings changed in a row) both stay instead of the second writing over the first.
      AppSettingsSchema.parse({ ...settings, ...patch })
      return withLock(key, async () => {
        const next = AppSettingsSchema.parse({ ...settings, ...patch })
        if (damaged !== null) {
          const kept = `${path}.damaged-${Date.now()}`
          await writeFileAtomic(kept, damaged)
          loaded = { ...loaded, problems: [...loaded.problems, `the file as it was is kept in ${kept}`] }
          damaged = null
        }
        await writeFileAtomic(path, `${JSON.stringify(next, null, 2)}\n`)
        settings = next
        for (const l of listeners) l(settings)
        return settings
      })
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}
