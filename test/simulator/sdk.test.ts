import Anthropic from '@anthropic-ai/sdk'
import { describe, expect, it } from 'vitest'
import { APP_TOOLS, LONG_SYSTEM, manualClock, sdk, withSimulator } from './helpers'

const MODEL = 'claude-sonnet-4-6'

describe('the real SDK against the simulator', () => {
  it('answers a non-streaming request with a tool call, usage and a request id', async () => {
    await withSimulator({}, async (sim) => {
      const msg = await sdk(sim).messages.create({ model: MODEL, max_tokens: 1000, tools: APP_TOOLS, messages: [{ role: 'user', content: 'read package.json please' }] })
      expect(msg.stop_reason).toBe('tool_use')
      const call = msg.content.find((b) => b.type === 'tool_use')
      expect(call).toMatchObject({ name: 'read_file', input: { path: 'package.json' } })
      expect(msg.id).toMatch(/^msg_01/)
      expect(msg._request_id).toMatch(/^req_011C/)
      expect(msg.usage.input_tokens).toBeGreaterThan(0)
      expect(msg.usage.output_tokens).toBeGreaterThan(0)
    })
  })

  it('streams thinking, text and a tool call that the SDK accumulates, and accepts the thinking echoed back', async () => {
    await withSimulator({}, async (sim) => {
      const client = sdk(sim)
      const order: string[] = []
      const stream = client.messages.stream({ model: 'claude-haiku-4-5', max_tokens: 4000, thinking: { type: 'enabled', budget_tokens: 1024 }, tools: APP_TOOLS, messages: [{ role: 'user', content: 'list the root' }] })
      stream.on('streamEvent', (e) => order.push(e.type))
      const final = await stream.finalMessage()
      expect(order[0]).toBe('message_start')
      expect(order.at(-1)).toBe('message_stop')
      expect(final.content.map((b) => b.type)).toEqual(['thinking', 'text', 'tool_use'])
      const thinking = final.content[0] as Anthropic.Messages.ThinkingBlock
      expect(thinking.signature.length).toBeGreaterThan(10)
      const call = final.content[2] as Anthropic.Messages.ToolUseBlock
      expect(call.input).toEqual({ path: '.' })
      const next = await client.messages.create({
        model: 'claude-haiku-4-5',
        max_tokens: 4000,
        thinking: { type: 'enabled', budget_tokens: 1024 },
        tools: APP_TOOLS,
        messages: [
          { role: 'user', content: 'list the root' },
          { role: 'assistant', content: final.content },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: 'README.md\nsrc/\npackage.json' }] },
        ],
      })
      expect(next.stop_reason).toBe('end_turn')
      const text = next.content.find((b) => b.type === 'text')
      expect(text?.type === 'text' && text.text).toContain('`README.md`')
    })
  })

  it('refuses a modified thinking block in the latest assistant message', async () => {
    await withSimulator({}, async (sim) => {
      const client = sdk(sim)
      const first = await client.messages.create({ model: 'claude-haiku-4-5', max_tokens: 4000, thinking: { type: 'enabled', budget_tokens: 1024 }, tools: APP_TOOLS, messages: [{ role: 'user', content: 'list the root' }] })
      const call = first.content.find((b) => b.type === 'tool_use') as Anthropic.Messages.ToolUseBlock
      const forged = first.content.map((b) => (b.type === 'thinking' ? { ...b, thinking: `${b.thinking} (edited)` } : b))
      const attempt = client.messages.create({
        model: 'claude-haiku-4-5',
        max_tokens: 4000,
        thinking: { type: 'enabled', budget_tokens: 1024 },
        tools: APP_TOOLS,
        messages: [{ role: 'user', content: 'list the root' }, { role: 'assistant', content: forged }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: 'a' }] }],
      })
      await expect(attempt).rejects.toMatchObject({ status: 400, message: expect.stringContaining('Invalid `signature` in `thinking` block') })
    })
  })

  it('runs a tool round trip to a grounded answer that quotes the file', async () => {
    await withSimulator({}, async (sim) => {
      const client = sdk(sim)
      const messages: Anthropic.Messages.MessageParam[] = [{ role: 'user', content: 'What does src/main.ts do?' }]
      const files: Record<string, string> = { 'src/main.ts': 'import { app } from "./app"\n\napp.start()\n' }
      for (let pass = 0; pass < 4; pass++) {
        const msg = await client.messages.stream({ model: MODEL, max_tokens: 2000, tools: APP_TOOLS, messages }).finalMessage()
        messages.push({ role: 'assistant', content: msg.content })
        if (msg.stop_reason !== 'tool_use') break
        const results = msg.content.filter((b): b is Anthropic.Messages.ToolUseBlock => b.type === 'tool_use').map((b) => ({ type: 'tool_result' as const, tool_use_id: b.id, content: files[(b.input as { path: string }).path] ?? 'not found' }))
        messages.push({ role: 'user', content: results })
      }
      const last = messages.at(-1)!
      const text = (last.content as Anthropic.Messages.ContentBlock[]).find((b) => b.type === 'text')
      expect(text?.type === 'text' && text.text).toContain('app.start()')
      expect(messages).toHaveLength(4)
    })
  })

  it('counts tokens with the same counter the usage uses', async () => {
    await withSimulator({}, async (sim) => {
      const client = sdk(sim)
      const params = { model: MODEL, system: LONG_SYSTEM, tools: APP_TOOLS, messages: [{ role: 'user' as const, content: 'hello there' }] }
      const { input_tokens } = await client.messages.countTokens(params)
      const msg = await client.messages.create({ ...params, max_tokens: 500 })
      const u = msg.usage
      expect(input_tokens).toBe(u.input_tokens + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0))
    })
  })

  it('writes the cache on the first pass, reads it on the second, and misses after the TTL', async () => {
    const clock = manualClock()
    await withSimulator({ clock }, async (sim) => {
      const client = sdk(sim)
      const params = { model: MODEL, max_tokens: 500, system: [{ type: 'text' as const, text: LONG_SYSTEM, cache_control: { type: 'ephemeral' as const } }], messages: [{ role: 'user' as const, content: 'hello' }] }
      const first = await client.messages.create(params)
      expect(first.usage.cache_creation_input_tokens).toBeGreaterThan(1024)
      expect(first.usage.cache_read_input_tokens).toBe(0)
      clock.advance(4 * 60_000)
      const second = await client.messages.create(params)
      expect(second.usage.cache_read_input_tokens).toBe(first.usage.cache_creation_input_tokens)
      expect(second.usage.cache_creation_input_tokens).toBe(0)
      clock.advance(5 * 60_000 + 1)
      const third = await client.messages.create(params)
      expect(third.usage.cache_read_input_tokens).toBe(0)
      expect(third.usage.cache_creation_input_tokens).toBe(first.usage.cache_creation_input_tokens)
    })
  })

  it('pre-warms with max_tokens 0: no content, stop_reason max_tokens, the cache written', async () => {
    await withSimulator({}, async (sim) => {
      const client = sdk(sim)
      const system = [{ type: 'text' as const, text: LONG_SYSTEM, cache_control: { type: 'ephemeral' as const } }]
      const warm = await client.messages.create({ model: MODEL, max_tokens: 0, system, messages: [{ role: 'user', content: 'warm' }] })
      expect(warm.content).toEqual([])
      expect(warm.stop_reason).toBe('max_tokens')
      expect(warm.usage.output_tokens).toBe(0)
      const real = await client.messages.create({ model: MODEL, max_tokens: 100, system, messages: [{ role: 'user', content: 'hello' }] })
      expect(real.usage.cache_read_input_tokens).toBe(warm.usage.cache_creation_input_tokens)
    })
  })

  it('stops at a stop sequence and at max_tokens', async () => {
    await withSimulator({}, async (sim) => {
      const client = sdk(sim)
      const stopped = await client.messages.create({ model: MODEL, max_tokens: 500, stop_sequences: ['Things I understand'], messages: [{ role: 'user', content: 'hello' }] })
      expect(stopped.stop_reason).toBe('stop_sequence')
      expect(stopped.stop_sequence).toBe('Things I understand')
      const short = await client.messages.create({ model: MODEL, max_tokens: 5, messages: [{ role: 'user', content: 'hello' }] })
      expect(short.stop_reason).toBe('max_tokens')
      expect(short.usage.output_tokens).toBeLessThanOrEqual(5)
    })
  })

  it('stops where the context window fills, as model_context_window_exceeded, when the prompt plus max_tokens pass it', async () => {
    await withSimulator({}, async (sim) => {
      const client = sdk(sim)
      // Claude Haiku 4.5: a 200,000-token window. A prompt a few tokens short of it leaves less room than max_tokens.
      const model = 'claude-haiku-4-5'
      const window = 200_000
      const prompt = (units: number) => ({ model, messages: [{ role: 'user' as const, content: `${'lorem '.repeat(units)}\nhello` }] })
      const base = (await client.messages.countTokens(prompt(0))).input_tokens
      const perThousand = (await client.messages.countTokens(prompt(1000))).input_tokens - base
      let units = Math.floor(((window - 8 - base) * 1000) / perThousand)
      let input = (await client.messages.countTokens(prompt(units))).input_tokens
      while (input > window - 2) input = (await client.messages.countTokens(prompt(--units))).input_tokens
      const room = window - input
      expect(room).toBeGreaterThanOrEqual(2)
      expect(room).toBeLessThan(40)

      const filled = await client.messages.create({ ...prompt(units), max_tokens: 1000 })
      expect(filled.stop_reason).toBe('model_context_window_exceeded')
      expect(filled.usage.input_tokens + (filled.usage.cache_read_input_tokens ?? 0) + (filled.usage.cache_creation_input_tokens ?? 0)).toBe(input)
      expect(filled.usage.output_tokens).toBeLessThanOrEqual(room)
      // The same prompt with max_tokens inside the room stops at max_tokens, as before.
      const limited = await client.messages.create({ ...prompt(units), max_tokens: 1 })
      expect(limited.stop_reason).toBe('max_tokens')
      // Streamed, as the app asks: the same stop reason in message_delta.
      const streamed = await client.messages.stream({ ...prompt(units), max_tokens: 1000 }).finalMessage()
      expect(streamed.stop_reason).toBe('model_context_window_exceeded')
    })
  }, 30_000)

  it('lists models and answers 404 for an unknown one', async () => {
    await withSimulator({}, async (sim) => {
      const client = sdk(sim)
      const page = await client.models.list()
      expect(page.data.map((m) => m.id)).toContain(MODEL)
      await expect(client.messages.create({ model: 'claude-nope', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] })).rejects.toBeInstanceOf(Anthropic.NotFoundError)
    })
  })

  it('aborts a stream through the signal', async () => {
    await withSimulator({ pace: 'realistic' }, async (sim) => {
      const controller = new AbortController()
      const stream = sdk(sim).messages.stream({ model: MODEL, max_tokens: 1000, messages: [{ role: 'user', content: 'hello' }] }, { signal: controller.signal })
      stream.on('text', () => controller.abort())
      await expect(stream.finalMessage()).rejects.toBeInstanceOf(Anthropic.APIUserAbortError)
      expect(stream.aborted).toBe(true)
    })
  })
})

describe('request checks, with the API error shapes', () => {
  async function raw(baseUrl: string, headers: Record<string, string>, body: unknown, path = '/v1/messages') {
    const res = await fetch(`${baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
    return { status: res.status, requestId: res.headers.get('request-id'), body: (await res.json()) as { type: string; error: { type: string; message: string }; request_id: string } }
  }
  const ok = { 'anthropic-version': '2026-10-21', 'x-api-key': 'k' }
  const body = { model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }

  it('requires a key, a version, and known betas', async () => {
    await withSimulator({}, async (sim) => {
      const noKey = await raw(sim.baseUrl, { 'anthropic-version': '2026-10-21' }, body)
      expect(noKey.status).toBe(401)
      expect(noKey.body.error.type).toBe('authentication_error')
      expect(noKey.body.request_id).toBe(noKey.requestId)
      const noVersion = await raw(sim.baseUrl, { authorization: 'Bearer k' }, body)
      expect(noVersion.body.error.message).toBe('anthropic-version: header is required')
      const oldVersion = await raw(sim.baseUrl, { ...ok, 'anthropic-version': '2023-06-01' }, { ...body, temperature: 1 })
      expect(oldVersion.status).toBe(200)
      const beta = await raw(sim.baseUrl, { ...ok, 'anthropic-beta': 'invalid-beta-name' }, body)
      expect(beta.body.error.message).toContain('Unexpected value(s) `invalid-beta-name`')
    })
  })

  it('validates the body like the API', async () => {
    await withSimulator({}, async (sim) => {
      const cases: Array<[unknown, string]> = [
        [{ ...body, temperature: 1 }, 'temperature: Extra inputs are not permitted'],
        [{ ...body, messages: undefined }, 'messages: Field required'],
        [{ ...body, messages: [{ role: 'user', content: [{ type: 'text', text: '' }] }] }, 'messages: text content blocks must be non-empty'],
        [{ ...body, messages: [{ role: 'user', content: [{ type: 'text', text: ' \n\t' }] }] }, 'messages: text content blocks must contain non-whitespace text'],
        [{ ...body, messages: [{ role: 'user', content: 'q' }, { role: 'assistant', content: [{ type: 'text', text: '\n\n' }, { type: 'tool_use', id: 'toolu_1', name: 'bash', input: {} }] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'r' }] }] }, 'messages: text content blocks must contain non-whitespace text'],
        [{ ...body, max_tokens: 999999 }, 'max_tokens: 999999 > 128000, which is the maximum allowed number of output tokens for claude-sonnet-4-6'],
        [{ ...body, messages: [{ role: 'user', content: 'q' }, { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: {} }] }, { role: 'user', content: 'no result' }] }, '`tool_use` ids were found without `tool_result` blocks immediately after: toolu_1'],
        [{ ...body, messages: [{ role: 'user', content: 'q' }, { role: 'assistant', content: 'prefill' }] }, 'This model does not support assistant message prefill. The conversation must end with a user message.'],
        [{ ...body, messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_x', content: 'r' }] }] }, 'unexpected `tool_use_id` found in `tool_result` blocks: toolu_x'],
      ]
      for (const [input, message] of cases) {
        const res = await raw(sim.baseUrl, ok, input)
        expect(res.status, message).toBe(400)
        expect(res.body.error.type).toBe('invalid_request_error')
        expect(res.body.error.message).toContain(message)
      }
    })
  })

  it('refuses a prompt longer than the context window', async () => {
    await withSimulator({}, async (sim) => {
      const res = await raw(sim.baseUrl, ok, { ...body, model: 'claude-haiku-4-5', messages: [{ role: 'user', content: 'word '.repeat(210_000) }] })
      expect(res.body.error.message).toMatch(/^prompt is too long: \d+ tokens > 200000 maximum$/)
    })
  })

  it('answers unknown routes with 404 and a request id', async () => {
    await withSimulator({}, async (sim) => {
      const res = await raw(sim.baseUrl, ok, body, '/v1/complete')
      expect(res.status).toBe(404)
      expect(res.requestId).toMatch(/^req_/)
    })
  })
})
