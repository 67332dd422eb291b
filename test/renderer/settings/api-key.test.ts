/**
 * Settings' API key field under Node, with the contract's client replaced: a paste too long for the contract is
 * answered with the key rule the host gives for any other malformed key, not with a validator's message.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest'

const asked: Array<{ name: string; input: unknown }> = []
vi.mock('../../../src-renderer/platform/client', () => ({
  client: {
    request: (name: string, input: unknown) => {
      asked.push({ name, input })
      if (name === 'settings.setApiKey') return Promise.resolve({ ok: false, error: { code: 'invalid_input', message: 'settings.setApiKey: key: Too big: expected string to have <=1000 characters' } })
      return Promise.resolve({ ok: false, error: { code: 'internal', message: `no answer for ${name}` } })
    },
    on: () => () => {},
  },
}))

const { setApiKey } = await import('../../../src-renderer/features/settings/actions')

beforeEach(() => {
  asked.length = 0
})

describe('setApiKey', () => {
  it('answers a 2,000-character paste with the key rule, and sends nothing', async () => {
    expect(await setApiKey(`sk-ant-api03-${'x'.repeat(2000)}`)).toBe('An API key is 20 to 400 printable characters without spaces (Anthropic keys start with sk-ant-).')
    expect(asked).toEqual([])
  })

  it('sends a key of ordinary length to the host, which judges it', async () => {
    await setApiKey('ab')
    expect(asked).toEqual([{ name: 'settings.setApiKey', input: { key: 'ab' } }])
  })
})
