import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileSecretStore, memorySecretStore, SECRETS_FILE } from '../../../src-main/node/model/keys'
import { loadProjectConfig } from '../../../src-main/node/compaction/config'
import { FIFOS, mkfifo, releaseFifo, within } from '../tools/fifo'
import {
  DEFAULT_SETTINGS,
  openSettings,
  parseSettings,
  SettingsService,
  withCompaction,
  writeProjectCompaction,
  type ProjectSettingsError,
} from '../../../src-main/node/settings'

let base: string
beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'loupe-settings-')))
})
afterEach(() => rmSync(base, { recursive: true, force: true }))

const KEY = 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789-WXYZ'

describe('app settings in the data folder', () => {
  it('start from the defaults, persist every change, and read back after a restart', async () => {
    const first = await openSettings(base)
    expect(first.current()).toEqual(DEFAULT_SETTINGS)
    await first.update({ theme: 'dark', staticCacheTtl1h: true })
    await first.update({ defaultMode: 'plan', model: 'claude-opus-4-8' })
    const again = await openSettings(base)
    expect(again.current()).toEqual({ ...DEFAULT_SETTINGS, theme: 'dark', staticCacheTtl1h: true, defaultMode: 'plan', model: 'claude-opus-4-8' })
  })

  it('keep the valid values of a damaged file and name the rest', () => {
    expect(parseSettings('{ not json').problems[0]).toContain('does not parse')
    const parsed = parseSettings(JSON.stringify({ theme: 'purple', staticCacheTtl1h: true, somethingNew: 1 }))
    expect(parsed.settings).toEqual({ ...DEFAULT_SETTINGS, staticCacheTtl1h: true })
    expect(parsed.problems).toEqual([expect.stringContaining('theme')])
  })

  it.skipIf(!FIFOS)('start from the defaults when settings.json is a named pipe, without waiting on it', async () => {
    mkfifo(join(base, 'settings.json'))
    try {
      const store = await within(5_000, openSettings(base), 'opening the settings')
      expect(store.current()).toEqual(DEFAULT_SETTINGS)
      expect(store.problems()[0]).toContain('could not be read')
    } finally {
      releaseFifo(join(base, 'settings.json'))
    }
  })

  it('keep a damaged file as it was, beside the new one, when a change rewrites it', async () => {
    const damaged = '{"model": 5, "theme": "x"'
    writeFileSync(join(base, 'settings.json'), damaged)
    const store = await openSettings(base)
    await store.update({ theme: 'dark' })
    const kept = readdirSync(base).filter((n) => n.startsWith('settings.json.damaged-'))
    expect(kept).toHaveLength(1)
    expect(readFileSync(join(base, kept[0]!), 'utf8')).toBe(damaged)
    expect(store.problems().at(-1)).toContain(kept[0]!)
    await store.update({ theme: 'light' })
    expect(readdirSync(base).filter((n) => n.startsWith('settings.json.damaged-'))).toHaveLength(1)
  })

  it('keep both of two changes made at once, as two windows (or two quick clicks) make them', async () => {
    const store = await openSettings(base)
    await Promise.all([store.update({ defaultMode: 'plan' }), store.update({ model: 'claude-opus-4-8' })])
    expect(store.current()).toMatchObject({ defaultMode: 'plan', model: 'claude-opus-4-8' })
    expect(JSON.parse(readFileSync(join(base, 'settings.json'), 'utf8'))).toMatchObject({ defaultMode: 'plan', model: 'claude-opus-4-8' })
  })

  it('refuse an invalid value whole, leaving the file as it was', async () => {
    const store = await openSettings(base)
    await store.update({ theme: 'light' })
    await expect(store.update({ theme: 'neon' as never })).rejects.toThrow()
    expect(JSON.parse(readFileSync(join(base, 'settings.json'), 'utf8')).theme).toBe('light')
    expect(store.current().theme).toBe('light')
  })
})

describe('per-project compaction settings in .loupe/config.toml', () => {
  it('creates the table in a new file, and the runtime reads the values back', async () => {
    const root = join(base, 'project')
    mkdirSync(root)
    await writeProjectCompaction(root, { auto: true, threshold: 0.7, target: 0.5, keepSteps: 6 })
    const config = await loadProjectConfig(root)
    expect(config.settings).toMatchObject({ auto: true, threshold: 0.7, target: 0.5, keepSteps: 6 })
    expect(config.problems).toEqual([])
  })

  it('rewrites only the keys it sets: comments, other keys and other tables stay as written', () => {
    const text = ['# team settings', '[compaction]', 'threshold = 0.8 # of the window', 'window = 200000', '', '[extensions]', 'memory = "file"', ''].join('\n')
    const next = withCompaction(text, { auto: false, threshold: 0.75, target: 0.55, keepSteps: 3 })
    expect(next).toBe(
      ['# team settings', '[compaction]', 'threshold = 0.75 # of the window', 'window = 200000', 'auto = false', 'target = 0.55', 'keep_steps = 3', '', '[extensions]', 'memory = "file"', ''].join('\n'),
    )
  })

  it('keeps a byte-order mark the config file starts with: only the [compaction] table changes', async () => {
    const root = join(base, 'project')
    mkdirSync(join(root, '.loupe'), { recursive: true })
    writeFileSync(join(root, '.loupe/config.toml'), '\uFEFF# team settings\n[compaction]\nthreshold = 0.8\n')
    await writeProjectCompaction(root, { auto: true, threshold: 0.75, target: 0.5, keepSteps: 4 })
    const bytes = readFileSync(join(root, '.loupe/config.toml'))
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    expect(bytes.subarray(3).toString('utf8')).toBe('# team settings\n[compaction]\nthreshold = 0.75\nauto = true\ntarget = 0.5\nkeep_steps = 4\n')
  })

  it('refuses values the runtime would not accept (target above threshold), writing nothing', async () => {
    const root = join(base, 'project')
    mkdirSync(root)
    await expect(writeProjectCompaction(root, { auto: true, threshold: 0.5, target: 0.7, keepSteps: 4 })).rejects.toMatchObject({ code: 'invalid_input' })
    expect(() => readFileSync(join(root, '.loupe/config.toml'))).toThrow()
  })

  it('refuses a config file that links out of the project', async () => {
    const root = join(base, 'project')
    mkdirSync(join(root, '.loupe'), { recursive: true })
    writeFileSync(join(base, 'elsewhere.toml'), '# not yours\n')
    symlinkSync(join(base, 'elsewhere.toml'), join(root, '.loupe/config.toml'))
    const err = (await writeProjectCompaction(root, { auto: true, threshold: 0.8, target: 0.6, keepSteps: 4 }).catch((e: unknown) => e)) as ProjectSettingsError
    expect(err.code).toBe('permission_denied')
    expect(readFileSync(join(base, 'elsewhere.toml'), 'utf8')).toBe('# not yours\n')
  })
})

describe('the API key', () => {
  const service = async (env: Record<string, string> = {}) => {
    const secrets = memorySecretStore()
    const svc = new SettingsService({
      store: await openSettings(base),
      secrets,
      env,
      endpoint: { kind: 'simulator', label: 'Offline simulator', model: 'claude-sonnet-4-6' },
      dataDir: base,
      loupeHome: base,
    })
    return { svc, secrets }
  }

  it('is stored through the secret store and only ever answered as a hint', async () => {
    const { svc, secrets } = await service()
    const status = await svc.setApiKey(`  ${KEY}\n`)
    expect(await secrets.get()).toBe(KEY)
    expect(status).toEqual({ configured: true, source: 'store', hint: '…WXYZ', restartNeeded: true })
    const view = await svc.view(null)
    expect(JSON.stringify(view)).not.toContain(KEY.slice(0, 20))
    expect(view.apiKey.hint).toBe('…WXYZ')
  })

  it('refuses something that is not a key, and forgets the key with null', async () => {
    const { svc, secrets } = await service()
    await expect(svc.setApiKey('not a key')).rejects.toThrow('printable')
    await svc.setApiKey(KEY)
    const cleared = await svc.setApiKey(null)
    expect(cleared.configured).toBe(false)
    expect(await secrets.get()).toBeNull()
  })

  it('starts without a key when secrets.json does not parse, and says so among the problems', async () => {
    writeFileSync(join(base, SECRETS_FILE), '{"anthropicApiKey": "sk-ant-cut-short')
    const svc = new SettingsService({
      store: await openSettings(base),
      secrets: fileSecretStore(base),
      env: {},
      endpoint: { kind: 'simulator', label: 'Offline simulator', model: 'claude-sonnet-4-6' },
      dataDir: base,
      loupeHome: base,
    })
    const view = await svc.view(null)
    expect(view.apiKey.configured).toBe(false)
    expect(view.problems).toEqual([expect.stringContaining('secrets.json does not parse')])
  })

  it('says an environment key is the one in effect', async () => {
    const { svc } = await service({ ANTHROPIC_API_KEY: 'sk-ant-from-the-environment-0000-ENVK' })
    const view = await svc.view(null)
    expect(view.apiKey).toMatchObject({ configured: true, source: 'env', hint: '…ENVK', restartNeeded: false })
  })

  it('offers the model table with windows and prices, and refuses an unknown model', async () => {
    const { svc } = await service()
    const view = await svc.view(null)
    const sonnet = view.models.find((m) => m.id === 'claude-sonnet-4-6')!
    expect(sonnet).toMatchObject({ contextWindow: 1_000_000, prices: { input: 3, output: 15, cacheRead: 0.3 } })
    await expect(svc.update({ model: 'gpt-nothing' }, null)).rejects.toThrow('Unknown model')
    await svc.update({ model: 'claude-opus-4-8' }, null)
    expect(svc.effectiveModel()).toBe('claude-opus-4-8')
  })
})
