/**
 * The simulator's cache pre-warm, as docs/reference/anthropic-api.md §2.1 and §5.1 describe it: `max_tokens: 0`,
 * not streamed, no forced tool choice, no `thinking.type: "enabled"`, no `output_config.format`; it reads and writes
 * the cache at the request's breakpoints and answers with no content, `stop_reason: "max_tokens"` and no output
 * tokens. The app's client sends it with `prewarm`.
 */
import Anthropic from '@anthropic-ai/sdk'
import { describe, expect, it } from 'vitest'
import { createModelClient } from '../../../src-main/node/model/client'
import type { WireRequest } from '../../../src-main/engine/model/wire'
import { APP_TOOLS, LONG_SYSTEM, manualClock, sdk, withSimulator } from '../../simulator/helpers'

const MODEL = 'claude-sonnet-4-6'
const system = [{ type: 'text' as const, text: LONG_SYSTEM, cache_control: { type: 'ephemeral' as const, ttl: '1h' as const } }]

describe('the simulator\'s cache pre-warm', () => {
  it('writes the cache and generates nothing; the app\'s client sends it without streaming', async () => {
    const clock = manualClock()
    let asked = 0
    await withSimulator({ clock, responder: { respond: () => (asked++, { content: [{ type: 'text', text: 'Hello.' }] }) } }, async (sim) => {
      const client = createModelClient({ baseUrl: sim.baseUrl, apiKey: 'sk-sim-test', kind: 'simulator', maxRetries: 0, clock })
      const request: WireRequest = { model: MODEL, max_tokens: 0, system, messages: [{ role: 'user', content: [{ type: 'text', text: 'warm' }] }] }
      const warm = await client.prewarm!(request, {})
      expect(warm.ok).toBe(true)
      if (!warm.ok) return
      expect(warm.message).toMatchObject({ content: [], stop_reason: 'max_tokens' })
      expect(warm.message.usage).toMatchObject({ output_tokens: 0, cache_read_input_tokens: 0, cache_creation: { ephemeral_1h_input_tokens: expect.any(Number) } })
      expect(warm.message.usage.cache_creation_input_tokens).toBeGreaterThan(0)
      expect(asked).toBe(0)
      expect(warm.attempts).toHaveLength(1)
      expect(JSON.parse(warm.attempts[0]!.requestBody)).toMatchObject({ max_tokens: 0, stream: false })
      // An hour is the entry's TTL: 59 minutes later it is read whole.
      clock.advance(59 * 60_000)
      const real = await sdk(sim).messages.create({ model: MODEL, max_tokens: 100, system, messages: [{ role: 'user', content: 'hello' }] })
      expect(real.usage.cache_read_input_tokens).toBe(warm.message.usage.cache_creation_input_tokens)
    })
  })

  it('refuses what a pre-warm may not carry', async () => {
    await withSimulator({}, async (sim) => {
      const client = sdk(sim)
      const base = { model: MODEL, max_tokens: 0, system, tools: APP_TOOLS, messages: [{ role: 'user' as const, content: 'warm' }] }
      const refused = async (params: object): Promise<string> => {
        try {
          await client.messages.create(params as Anthropic.Messages.MessageCreateParamsNonStreaming)
        } catch (err) {
          expect(err).toBeInstanceOf(Anthropic.BadRequestError)
          return (err as Error).message
        }
        throw new Error('accepted')
      }
      expect(await refused({ ...base, tool_choice: { type: 'any' } })).toContain('forced tool_choice')
      expect(await refused({ ...base, tool_choice: { type: 'tool', name: 'read_file' } })).toContain('forced tool_choice')
      expect(await refused({ ...base, thinking: { type: 'enabled', budget_tokens: 1024 } })).toContain('thinking of type enabled')
      expect(await refused({ ...base, output_config: { format: { type: 'json_schema', schema: { type: 'object' } } } })).toContain('output_config.format')
      expect(await refused({ ...base, stream: true })).toContain('non-streaming')
      // Claude 4.6+ refuse a conversation that ends with the assistant, pre-warm or not (§2.3).
      expect(await refused({ ...base, messages: [...base.messages, { role: 'assistant', content: 'Sure.' }] })).toContain('prefill')
      // Adaptive thinking and tool_choice auto are allowed.
      const ok = await client.messages.create({ ...base, thinking: { type: 'adaptive' }, tool_choice: { type: 'auto' } } as Anthropic.Messages.MessageCreateParamsNonStreaming)
      expect(ok.content).toEqual([])
    })
  })
})
