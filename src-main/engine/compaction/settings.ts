/**
 * Compaction settings (docs/design.md §7; docs/compaction.md "When it runs"), per project in `.loupe/config.toml`
 * `[compaction]`.
 */

/** Compact when the context reaches this share of the model's window. */
export const COMPACT_THRESHOLD = 0.8
/** Stage 1 stops when the context is at or below this share of the window. */
export const COMPACT_TARGET = 0.6
/** The last assistant turns kept whole after a summary. */
export const KEEP_STEPS = 4
/** Stage 1 cuts tool results longer than this many characters … */
export const TRIM_ABOVE_CHARS = 1000
/** … to this many, plus a note. */
export const TRIM_KEEP_CHARS = 200
/**
 * Files offered back after a compaction: the most recently read, at most 5, 5,000 tokens each, 50,000 in all
 * (the figures Claude Code uses, docs/reference/peers.md §2.1).
 */
export const REOFFER_MAX_FILES = 5
export const REOFFER_FILE_TOKENS = 5000
export const REOFFER_TOTAL_TOKENS = 50_000
/** Automatic compaction stops for the session after this many failures in a row. */
export const MAX_CONSECUTIVE_FAILURES = 3
/** Pins re-injected into the head message may take at most this many characters in all. */
export const PIN_REINJECT_MAX_CHARS = 8000
/** Output allowed for a summary (capped by the model's own maximum). */
export const SUMMARY_MAX_TOKENS = 16_000

export interface CompactionSettings {
  /** Automatic compaction on (manual and the model's tool work either way). */
  readonly auto: boolean
  readonly threshold: number
  readonly target: number
  readonly keepSteps: number
  readonly trimAboveChars: number
  readonly trimKeepChars: number
  /** Overrides the model's context window (tokens), e.g. to compact a 1M-window model at 200k. */
  readonly windowTokens: number | null
  readonly reofferMaxFiles: number
  readonly reofferFileTokens: number
  readonly reofferTotalTokens: number
}

export const DEFAULT_COMPACTION_SETTINGS: CompactionSettings = {
  auto: true,
  threshold: COMPACT_THRESHOLD,
  target: COMPACT_TARGET,
  keepSteps: KEEP_STEPS,
  trimAboveChars: TRIM_ABOVE_CHARS,
  trimKeepChars: TRIM_KEEP_CHARS,
  windowTokens: null,
  reofferMaxFiles: REOFFER_MAX_FILES,
  reofferFileTokens: REOFFER_FILE_TOKENS,
  reofferTotalTokens: REOFFER_TOTAL_TOKENS,
}

export interface SettingsProblem {
  readonly key: string
  readonly message: string
}

/**
 * Settings from a partial object (a parsed config file): unknown or out-of-range values are reported and replaced
 * by the default, never thrown.
 */
export function resolveSettings(raw: Readonly<Record<string, unknown>>): { settings: CompactionSettings; problems: SettingsProblem[] } {
  const problems: SettingsProblem[] = []
  const out: Record<string, unknown> = { ...DEFAULT_COMPACTION_SETTINGS }
  const ratio = (key: string, name: keyof CompactionSettings) => {
    const v = raw[key]
    if (v === undefined) return
    if (typeof v === 'number' && v > 0 && v < 1) out[name] = v
    else problems.push({ key, message: `${key} must be a number between 0 and 1 (got ${JSON.stringify(v)})` })
  }
  const count = (key: string, name: keyof CompactionSettings, min: number, max: number) => {
    const v = raw[key]
    if (v === undefined) return
    if (typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max) out[name] = v
    else problems.push({ key, message: `${key} must be a whole number from ${min} to ${max} (got ${JSON.stringify(v)})` })
  }
  if (raw.auto !== undefined) {
    if (typeof raw.auto === 'boolean') out.auto = raw.auto
    else problems.push({ key: 'auto', message: `auto must be true or false (got ${JSON.stringify(raw.auto)})` })
  }
  ratio('threshold', 'threshold')
  ratio('target', 'target')
  count('keep_steps', 'keepSteps', 1, 100)
  count('trim_above_chars', 'trimAboveChars', 200, 1_000_000)
  count('trim_keep_chars', 'trimKeepChars', 0, 100_000)
  count('window', 'windowTokens', 1000, 10_000_000)
  count('reoffer_max_files', 'reofferMaxFiles', 0, 50)
  count('reoffer_file_tokens', 'reofferFileTokens', 0, 1_000_000)
  count('reoffer_total_tokens', 'reofferTotalTokens', 0, 10_000_000)
  const known = new Set(['auto', 'threshold', 'target', 'keep_steps', 'trim_above_chars', 'trim_keep_chars', 'window', 'reoffer_max_files', 'reoffer_file_tokens', 'reoffer_total_tokens'])
  for (const key of Object.keys(raw)) if (!known.has(key)) problems.push({ key, message: `unknown setting ${key}` })
  const settings = out as unknown as CompactionSettings
  if (settings.target >= settings.threshold) {
    problems.push({ key: 'target', message: `target (${settings.target}) must be below threshold (${settings.threshold})` })
    return { settings: { ...settings, target: DEFAULT_COMPACTION_SETTINGS.target, threshold: DEFAULT_COMPACTION_SETTINGS.threshold }, problems }
  }
  if (settings.trimKeepChars >= settings.trimAboveChars) {
    problems.push({ key: 'trim_keep_chars', message: 'trim_keep_chars must be below trim_above_chars' })
    return { settings: { ...settings, trimKeepChars: DEFAULT_COMPACTION_SETTINGS.trimKeepChars, trimAboveChars: DEFAULT_COMPACTION_SETTINGS.trimAboveChars }, problems }
  }
  return { settings, problems }
}
