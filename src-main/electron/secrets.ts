/**
 * The Electron host's secret store: the API key encrypted with the OS keychain through `safeStorage`, kept as
 * `secrets.bin` in the user-data folder (owner-only). Where the OS offers no encryption (`isEncryptionAvailable()`
 * is false, e.g. Linux without a keyring), saving a key is refused rather than written in the clear.
 */
import { safeStorage } from 'electron'
import { readFile, rename, rm, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { SecretStore } from '../node/model/keys'
import { makeFolders } from '../node/fs/make-folders'

export function safeStorageSecretStore(userDataDir: string): SecretStore {
  const path = join(userDataDir, 'secrets.bin')
  return {
    async get() {
      try {
        const data = await readFile(path)
        return safeStorage.decryptString(data).trim() || null
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
        throw err
      }
    },
    async set(key) {
      if (key === null) {
        await rm(path, { force: true })
        return
      }
      if (!safeStorage.isEncryptionAvailable()) throw new Error('This system offers no keychain to encrypt the API key; set ANTHROPIC_API_KEY instead')
      await makeFolders(dirname(path))
      const temp = `${path}.${process.pid}.tmp`
      await writeFile(temp, safeStorage.encryptString(key.trim()), { mode: 0o600 })
      await rename(temp, path)
    },
  }
}
