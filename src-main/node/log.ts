import type { Logger } from '../engine/ports'

type Level = 'debug' | 'info' | 'warn' | 'error'
const ORDER: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 }

/**
 * Logs one JSON line per message to stderr (stdout belongs to the command-line output, e.g. the URL to open).
 * `LOUPE_LOG=debug|info|warn|error` sets the level; the default is `warn` so a normal run prints only what matters.
 */
export function createLogger(level: Level = (process.env.LOUPE_LOG as Level | undefined) ?? 'warn'): Logger {
  const threshold = ORDER[level] ?? ORDER.warn
  const write = (lvl: Level) => (message: string, fields?: Record<string, unknown>) => {
    if (ORDER[lvl] < threshold) return
    process.stderr.write(JSON.stringify({ t: new Date().toISOString(), level: lvl, message, ...fields }) + '\n')
  }
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') }
}
