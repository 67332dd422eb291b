import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { fileSecretStore, memorySecretStore, resolveApiKey, SECRETS_FILE } from '../../../src-main/node/model/keys'
import { openModelAccess, SIMULATOR_LABEL } from '../../../src-main/node/model/connect'
import { FIFOS, mkfifo, releaseFifo, within } from '../tools/fifo'

let dir = ''
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loupe-keys-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('API key resolution', () => {
  it('prefers ANTHROPIC_API_KEY, then the store, else none', async () => {
    const store = memorySecretStore('sk-stored')
    expect(await resolveApiKey({ env: { ANTHROPIC_API_KEY: ' sk-env ' }, store })).toEqual({ key: 'sk-env', source: 'env' })
    expect(await resolveApiKey({ env: {}, store })).toEqual({ key: 'sk-stored', source: 'store' })
    expect(await resolveApiKey({ env: { ANTHROPIC_API_KEY: '' }, store: memorySecretStore() })).toBeNull()
  })

  it('writes secrets.json with owner-only permissions, reads it back, and forgets it', async () => {
    const store = fileSecretStore(join(dir, 'data'))
    expect(await store.get()).toBeNull()
    await store.set('sk-file')
    const path = join(dir, 'data', SECRETS_FILE)
    expect((await stat(path)).mode & 0o777).toBe(0o600)
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({ anthropicApiKey: 'sk-file' })
    expect(await store.get()).toBe('sk-file')
    await store.set(null)
    expect(await store.get()).toBeNull()
  })

  it('treats an empty stored key as none', async () => {
    await writeFile(join(dir, SECRETS_FILE), '{"anthropicApiKey":"  "}')
    expect(await fileSecretStore(dir).get()).toBeNull()
  })

  it.skipIf(!FIFOS)('reads no key from a secrets.json that is a named pipe, without waiting on it', async () => {
    mkfifo(join(dir, SECRETS_FILE))
    const store = fileSecretStore(dir)
    try {
      expect(await within(5_000, store.get(), 'reading secrets.json')).toBeNull()
      expect(store.problem?.()).toMatch(/could not be read/)
    } finally {
      releaseFifo(join(dir, SECRETS_FILE))
    }
  })

  it('reads no key from a secrets.json that does not parse, says why, and replaces it when a key is set', async () => {
    await writeFile(join(dir, SECRETS_FILE), Buffer.from([0xff, 0xfe, 0x20, 0x67, 0x61]))
    const store = fileSecretStore(dir)
    expect(await store.get()).toBeNull()
    expect(store.problem?.()).toMatch(/secrets\.json does not parse/)
    await writeFile(join(dir, SECRETS_FILE), '["sk-in-an-array"]')
    expect(await store.get()).toBeNull()
    expect(store.problem?.()).toMatch(/does not parse/)
    await store.set('sk-again')
    expect(await store.get()).toBe('sk-again')
    expect(store.problem?.()).toBeNull()
  })
})

describe('openModelAccess: the embedded default', () => {
  it('starts the offline simulator when no key is configured, and answers through it', async () => {
    const access = await openModelAccess({ env: {}, store: memorySecretStore(), simulatorPace: 'instant' })
    try {
      expect(access.label).toBe(SIMULATOR_LABEL)
      expect(access.client.endpoint.kind).toBe('simulator')
      expect(access.client.endpoint.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      const outcome = await access.client.send({ model: 'claude-sonnet-4-6', max_tokens: 200, messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }] }, {})
      expect(outcome.ok).toBe(true)
    } finally {
      await access.close()
    }
  })

  it('uses the real API when a key is configured, without starting anything', async () => {
    const access = await openModelAccess({ env: { ANTHROPIC_API_KEY: 'sk-real' } })
    expect(access.client.endpoint).toEqual({ kind: 'anthropic', baseUrl: 'https://api.anthropic.com' })
    expect(access.keySource).toBe('env')
    expect(JSON.stringify(access)).not.toContain('sk-real')
    await access.close()
  })
})
