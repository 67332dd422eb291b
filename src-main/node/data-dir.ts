import { homedir } from 'node:os'
import { join, resolve } from 'node:path'

/**
 * Where the browser host keeps its data: `LOUPE_HOME` if set, else `~/.loupe`. (The Electron host uses
 * Electron's `userData` folder instead.) The database is `loupe.db` inside it.
 */
export function browserDataDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.LOUPE_HOME ? resolve(env.LOUPE_HOME) : join(homedir(), '.loupe')
}

export function databaseFile(dataDir: string): string {
  return join(dataDir, 'loupe.db')
}
