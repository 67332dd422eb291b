/**
 * Where the Anthropic API key comes from: `ANTHROPIC_API_KEY` first, else a SecretStore. The browser host stores
 * it in `<dataDir>/secrets.json` with owner-only permissions (0600); the Electron host plugs in a store backed by
 * `safeStorage` through the same interface. The key is handed to the SDK client and nowhere else: it never
 * reaches the renderer, the database, a log, or a recorded request (capture.ts strips auth headers).
 */
import { chmod, rename, rm, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { readRegularFile } from '../fs/regular-file'
import { makeFolders } from '../fs/make-folders'

export interface SecretStore {
  get(): Promise<string | null>
  /** Stores the key, or forgets it when given null. */
  set(key: string | null): Promise<void>
  /** Why the last `get` found no key in a store that holds something (a file that does not parse), for Settings. */
  problem?(): string | null
}

export type KeySource = 'env' | 'store'

export interface ResolvedKey {
  readonly key: string
  readonly source: KeySource
}

export const SECRETS_FILE = 'secrets.json'
const OWNER_ONLY = 0o600

interface SecretsFile {
  readonly anthropicApiKey?: string
}

/** The browser host's store: `<dataDir>/secrets.json`, written atomically with mode 0600. */
export function fileSecretStore(dataDir: string): SecretStore {
  const path = join(dataDir, SECRETS_FILE)
  // A file that cannot be read or parsed is a problem to show, not a reason not to start: the app runs on the
  // simulator (or the environment's key) until a key is set again, which replaces the file.
  let problem: string | null = null
  return {
    async get() {
      problem = null
      let text: string
      try {
        // A regular file of at most 64 kB: a FIFO or a device put in its place must not hold the start.
        text = (await readRegularFile(path, { maxBytes: 64 * 1024 })).toString('utf8')
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code
        if (code === 'ENOENT') return null
        problem = `${path} could not be read (${code ?? String(err)}); no API key was loaded from it`
        return null
      }
      let parsed: unknown
      try {
        parsed = JSON.parse(text)
      } catch {
        parsed = undefined
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        problem = `${path} does not parse as JSON; no API key was loaded from it (setting a key in Settings replaces the file)`
        return null
      }
      const value = (parsed as SecretsFile).anthropicApiKey
      const key = typeof value === 'string' ? value.trim() : ''
      return key.length > 0 ? key : null
    },
    problem: () => problem,
    async set(key) {
      if (key === null) {
        await rm(path, { force: true })
        return
      }
      await makeFolders(dirname(path))
      const temp = `${path}.${process.pid}.tmp`
      // The mode is given at creation so the key is never readable by others, not even for a moment.
      await writeFile(temp, `${JSON.stringify({ anthropicApiKey: key.trim() } satisfies SecretsFile)}\n`, { mode: OWNER_ONLY })
      await chmod(temp, OWNER_ONLY)
      await rename(temp, path)
    },
  }
}

/** An in-memory store, for tests and for hosts that must not persist the key. */
export function memorySecretStore(initial: string | null = null): SecretStore {
  let value = initial
  return {
    get: async () => value,
    set: async (key) => {
      value = key
    },
  }
}

/** The key to use, or null when none is configured (the app then runs on the embedded simulator). */
export async function resolveApiKey(options: { readonly env?: Readonly<Record<string, string | undefined>>; readonly store?: SecretStore }): Promise<ResolvedKey | null> {
  const fromEnv = options.env?.ANTHROPIC_API_KEY?.trim()
  if (fromEnv) return { key: fromEnv, source: 'env' }
  const stored = await options.store?.get()
  return stored ? { key: stored, source: 'store' } : null
}
