import Anthropic from '@anthropic-ai/sdk'
import { describe, expect, it } from 'vitest'
import { faultQueue } from '../../src-main/simulator/index'
import { APP_TOOLS, LONG_SYSTEM, sdk, withSimulator } from './helpers'

type Params = Anthropic.Messages.MessageCreateParamsNonStreaming

const base: Params = { model: 'claude-sonnet-4-6', max_tokens: 200, system: LONG_SYSTEM, tools: APP_TOOLS, messages: [{ role: 'user', content: 'hello' }] }

async function diagnose(client: Anthropic, params: Params, previous: string | null) {
  const msg = await client.messages.create({ ...params, diagnostics: { previous_message_id: previous } }, { headers: { 'anthropic-beta': 'cache-diagnosis-2026-04-07' } })
  return { id: msg.id, reason: msg.diagnostics === null ? null : msg.diagnostics.cache_miss_reason, usage: msg.usage }
}

describe('cache diagnostics (docs/reference/anthropic-api.md §6)', () => {
  it('reports the first divergence in the order model, system, tools, messages', async () => {
    await withSimulator({}, async (sim) => {
      const client = sdk(sim)
      const first = await diagnose(client, base, null)
      expect(first.reason).toBeNull()
      const appended = await diagnose(client, { ...base, messages: [...base.messages, { role: 'assistant', content: 'hi' }, { role: 'user', content: 'more' }] }, first.id)
      expect(appended.reason).toBeNull()
      const model = await diagnose(client, { ...base, model: 'claude-opus-4-6', system: 'other' }, first.id)
      expect(model.reason).toMatchObject({ type: 'model_changed' })
      const system = await diagnose(client, { ...base, system: `${LONG_SYSTEM} v2`, tools: APP_TOOLS.slice(1) }, first.id)
      expect(system.reason).toMatchObject({ type: 'system_changed' })
      const tools = await diagnose(client, { ...base, tools: APP_TOOLS.slice(1) }, first.id)
      expect(tools.reason).toMatchObject({ type: 'tools_changed' })
      const messages = await diagnose(client, { ...base, messages: [{ role: 'user', content: 'goodbye' }] }, first.id)
      expect(messages.reason).toMatchObject({ type: 'messages_changed' })
      const unavailable = await diagnose(client, { ...base, tool_choice: { type: 'any' } }, first.id)
      expect(unavailable.reason).toEqual({ type: 'unavailable' })
    })
  })

  it('estimates the tokens that could have been read from the first difference on', async () => {
    await withSimulator({}, async (sim) => {
      const client = sdk(sim)
      const first = await diagnose(client, base, null)
      const total = first.usage.input_tokens
      const messages = await diagnose(client, { ...base, messages: [{ role: 'user', content: 'goodbye' }] }, first.id)
      const system = await diagnose(client, { ...base, system: 'short' }, first.id)
      const missedMessages = (messages.reason as { cache_missed_input_tokens: number }).cache_missed_input_tokens
      const missedSystem = (system.reason as { cache_missed_input_tokens: number }).cache_missed_input_tokens
      expect(missedMessages).toBeGreaterThan(0)
      expect(missedSystem).toBeGreaterThan(missedMessages)
      expect(missedSystem).toBeLessThanOrEqual(total)
    })
  })

  it('says previous_message_not_found for an unknown id, and leaves the field out when not asked', async () => {
    await withSimulator({}, async (sim) => {
      const client = sdk(sim)
      expect((await diagnose(client, base, 'msg_01unknown')).reason).toEqual({ type: 'previous_message_not_found' })
      const plain = await client.messages.create(base)
      expect('diagnostics' in plain).toBe(false)
    })
  })
})

describe('faults from a configured plan', () => {
  it('hands out queued faults in order, then answers normally', async () => {
    const plan = faultQueue([{ kind: 'overloaded' }, { kind: 'rate_limit', retryAfterMs: 1, times: 2 }])
    await withSimulator({ faults: plan }, async (sim) => {
      const client = sdk(sim)
      await expect(client.messages.create(base)).rejects.toBeInstanceOf(Anthropic.InternalServerError)
      await expect(client.messages.create(base)).rejects.toBeInstanceOf(Anthropic.RateLimitError)
      await expect(client.messages.create(base)).rejects.toMatchObject({ status: 429 })
      expect(plan.remaining()).toBe(0)
      expect((await client.messages.create(base)).stop_reason).toBe('end_turn')
    })
  })

  it('the SDK retries a 429 itself when it may', async () => {
    await withSimulator({ faults: faultQueue([{ kind: 'rate_limit', retryAfterMs: 1 }]) }, async (sim) => {
      const msg = await sdk(sim, { maxRetries: 1 }).messages.create(base)
      expect(msg.stop_reason).toBe('end_turn')
    })
  })
})
