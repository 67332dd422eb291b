import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { ModelOutcome, ModelStreamEvent } from '../../../src-main/engine/ports'
import type { WireRequest, WireTool } from '../../../src-main/engine/model/wire'
import { createModelClient, sdkRetryOf, type ModelClientOptions } from '../../../src-main/node/model/client'
import { BODY_HASH_HEADER, startSimulator, type RunningSimulator, type SimulatorOptions } from '../../../src-main/simulator/index'

const KEY = 'sk-sim-secret-key-1234567890'
const MODEL = 'claude-sonnet-4-6'

const TOOLS: WireTool[] = [
  { name: 'read_file', description: 'Read a file', input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
  { name: 'list_dir', description: 'List a folder', input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
]

function request(text: string, extra: Partial<WireRequest> = {}): WireRequest {
  return { model: MODEL, max_tokens: 2000, tools: TOOLS, messages: [{ role: 'user', content: [{ type: 'text', text }] }], ...extra }
}

async function withClient<T>(sim: SimulatorOptions, options: Partial<ModelClientOptions>, run: (client: ReturnType<typeof createModelClient>, sim: RunningSimulator) => Promise<T>): Promise<T> {
  const running = await startSimulator({ seed: 'client', ...sim })
  try {
    const client = createModelClient({ baseUrl: running.baseUrl, apiKey: KEY, kind: 'simulator', streamRetryDelayMs: () => 1, ...options })
    return await run(client, running)
  } finally {
    await running.close()
  }
}

function ok(outcome: ModelOutcome): Extract<ModelOutcome, { ok: true }> {
  if (!outcome.ok) throw new Error(`expected success, got ${outcome.error.kind}: ${outcome.error.message}`)
  return outcome
}

describe('ModelClient over the SDK, against the simulator', () => {
  it('streams a pass: events in order, the message, usage and one captured attempt', async () => {
    await withClient({}, {}, async (client, sim) => {
      const events: ModelStreamEvent[] = []
      const outcome = ok(await client.send(request('list the root'), { onEvent: (e) => events.push(e) }))
      expect(client.endpoint).toEqual({ kind: 'simulator', baseUrl: sim.baseUrl })
      expect(events[0]).toMatchObject({ type: 'message_started', messageId: outcome.message.id })
      expect(events.filter((e) => e.type === 'block_started').map((e) => (e.type === 'block_started' ? e.kind : ''))).toEqual(['text', 'tool_use'])
      expect(events.filter((e) => e.type === 'text_delta').map((e) => (e.type === 'text_delta' ? e.text : '')).join('')).toBe((outcome.message.content[0] as { text: string }).text)
      expect(outcome.message.stop_reason).toBe('tool_use')
      expect(outcome.message.content[1]).toMatchObject({ type: 'tool_use', name: 'list_dir', input: { path: '.' } })
      expect(outcome.message.usage.input_tokens).toBeGreaterThan(0)
      expect(outcome.attempts).toHaveLength(1)
      const attempt = outcome.attempts[0]!
      expect(attempt.status).toBe(200)
      expect(attempt.requestId).toMatch(/^req_/)
      expect(attempt.responseBody.startsWith('event: message_start\n')).toBe(true)
      expect(attempt.responseBody.trimEnd().endsWith('data: {"type":"message_stop"}')).toBe(true)
      expect(JSON.parse(attempt.requestBody)).toMatchObject({ model: MODEL, stream: true, messages: request('x').messages.map(() => expect.anything()) })
    })
  })

  it('captures the request body byte for byte as the server received it, and never the key', async () => {
    await withClient({}, {}, async (client) => {
      const tricky = 'naïve café — 日本語 🙂 "quotes" \\ backslash \u2028 line sep'
      const outcome = ok(await client.send(request(tricky), {}))
      const attempt = outcome.attempts[0]!
      const sent = createHash('sha256').update(Buffer.from(attempt.requestBody, 'utf8')).digest('hex')
      expect(attempt.responseHeaders[BODY_HASH_HEADER]).toBe(sent)
      expect(attempt.requestHeaders['anthropic-version']).toBe('2026-10-21')
      expect(attempt.requestHeaders.authorization).toBeUndefined()
      expect(attempt.requestHeaders['x-api-key']).toBeUndefined()
      expect(JSON.stringify(outcome)).not.toContain(KEY)
    })
  })

  it('runs a tool round trip and answers from the result', async () => {
    await withClient({}, {}, async (client) => {
      const first = ok(await client.send(request('read README.md'), {}))
      const call = first.message.content.find((b) => b.type === 'tool_use')
      if (call?.type !== 'tool_use') throw new Error('no tool call')
      const second = ok(
        await client.send(
          {
            ...request('read README.md'),
            messages: [
              { role: 'user', content: [{ type: 'text', text: 'read README.md' }] },
              { role: 'assistant', content: first.message.content },
              { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: '# Title\nBody' }] },
            ],
          },
          {},
        ),
      )
      expect(second.message.stop_reason).toBe('end_turn')
      expect((second.message.content[0] as { text: string }).text).toContain('# Title')
    })
  })

  it('keeps thinking blocks with their signatures, and the service accepts them sent back unchanged', async () => {
    await withClient({}, {}, async (client) => {
      const thinking = { type: 'enabled' as const, budget_tokens: 1024 }
      const events: ModelStreamEvent[] = []
      const first = ok(await client.send(request('list the root', { model: 'claude-haiku-4-5', thinking }), { onEvent: (e) => events.push(e) }))
      const block = first.message.content[0]
      expect(block?.type).toBe('thinking')
      expect(block?.type === 'thinking' && block.signature.length).toBeGreaterThan(10)
      expect(events.some((e) => e.type === 'thinking_delta')).toBe(true)
      const call = first.message.content.find((b) => b.type === 'tool_use')
      if (call?.type !== 'tool_use') throw new Error('no tool call')
      const messages: WireRequest['messages'] = [
        { role: 'user', content: [{ type: 'text', text: 'list the root' }] },
        { role: 'assistant', content: first.message.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: 'a.ts' }] },
      ]
      expect(ok(await client.send({ ...request('x', { model: 'claude-haiku-4-5', thinking }), messages }, {})).message.stop_reason).toBe('end_turn')
      const edited = messages.map((m, i) => (i === 1 && m.role === 'assistant' ? { ...m, content: m.content.map((b) => (b.type === 'thinking' ? { ...b, thinking: 'changed' } : b)) } : m)) as WireRequest['messages']
      const refused = await client.send({ ...request('x', { model: 'claude-haiku-4-5', thinking }), messages: edited }, {})
      expect(refused.ok).toBe(false)
      if (!refused.ok) expect(refused.error.kind).toBe('invalid_request')
    })
  })

  it('aborts through the signal and keeps the partial text', async () => {
    await withClient({ pace: 'realistic' }, {}, async (client) => {
      const controller = new AbortController()
      const outcome = await client.send(request('hello'), { signal: controller.signal, onEvent: (e) => e.type === 'text_delta' && controller.abort() })
      expect(outcome.ok).toBe(false)
      if (outcome.ok) return
      expect(outcome.error.kind).toBe('aborted')
      expect(outcome.partial?.content[0]).toMatchObject({ type: 'text' })
      expect(outcome.attempts).toHaveLength(1)
    })
  })

  it("a stopped stream's pass counts the output that had arrived, not message_start's placeholder of 1", async () => {
    await withClient({ pace: 'realistic' }, {}, async (client) => {
      const controller = new AbortController()
      let streamed = ''
      let deltas = 0
      const onEvent = (e: ModelStreamEvent) => {
        if (e.type === 'text_delta' || e.type === 'thinking_delta') streamed += e.type === 'text_delta' ? e.text : e.thinking
        if ((e.type === 'text_delta' || e.type === 'thinking_delta') && ++deltas === 6) controller.abort()
      }
      const outcome = await client.send(request('hello', { thinking: { type: 'adaptive' } }), { signal: controller.signal, onEvent })
      expect(outcome.ok).toBe(false)
      if (outcome.ok) return
      expect(outcome.partial?.usage.output_tokens).toBeGreaterThanOrEqual(Math.ceil(streamed.length / 4))
      expect(outcome.partial?.usage.output_tokens).toBeGreaterThan(1)
      expect(outcome.partial?.usage.input_tokens).toBeGreaterThan(0)
    })
  })

  it('counts tokens with the service counter', async () => {
    await withClient({}, {}, async (client) => {
      const r = request('hello there')
      const count = await client.countTokens(r)
      const u = ok(await client.send(r, {})).message.usage
      expect(count).toBe(u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens)
    })
  })
})

describe('ModelClient: faults and retries (every attempt recorded)', () => {
  const faulted = (fault: string, maxRetries = 2) =>
    withClient({}, { maxRetries, defaultHeaders: { 'x-sim-fault': `${fault}; id=${Math.random()}` } }, (client) => client.send(request('hello'), {}))

  it('429 with retry-after: the SDK waits and retries, and succeeds', async () => {
    const outcome = ok(await faulted('rate_limit; times=1; retry_after_ms=5'))
    expect(outcome.attempts.map((a) => a.status)).toEqual([429, 200])
    expect(outcome.attempts[0]!.responseHeaders['retry-after-ms']).toBe('5')
    expect(outcome.attempts[0]!.error?.kind).toBe('rate_limited')
    expect(outcome.attempts[1]!.requestHeaders['x-stainless-retry-count']).toBe('1')
  })

  it('says, before each wait the SDK takes on a refused request, why and for how long: none after the last', async () => {
    const events: ModelStreamEvent[] = []
    const headers = { 'x-sim-fault': `rate_limit; times=9; retry_after_ms=5; id=${Math.random()}` }
    const outcome = await withClient({}, { maxRetries: 2, defaultHeaders: headers }, (client) => client.send(request('hello'), { onEvent: (e) => events.push(e) }))
    expect(outcome.ok).toBe(false)
    const retrying = events.filter((e) => e.type === 'retrying')
    expect(retrying).toEqual([1, 2].map((retry) => ({ type: 'retrying', kind: 'rate_limited', message: expect.stringMatching(/^rate_limit_error: ./), retry, retries: 2, status: 429, waitMs: 5 })))
    // A refusal the SDK does not retry says nothing of a wait.
    const none: ModelStreamEvent[] = []
    await withClient({}, { maxRetries: 2 }, (client) => client.send(request('hello', { model: 'claude-nonexistent-1' }), { onEvent: (e) => none.push(e) }))
    expect(none.filter((e) => e.type === 'retrying')).toEqual([])
  })

  it('reads the wait of a retry-after given as a date, as the SDK does', () => {
    const refused = { startedAt: 0, firstByteAt: 5, endedAt: Date.parse('Wed, 02 Dec 2026 18:00:00 GMT'), status: 429, requestId: null, requestBody: '{}', requestHeaders: {}, responseBody: '', error: { kind: 'rate_limited', message: 'HTTP 429' } }
    expect(sdkRetryOf({ ...refused, responseHeaders: { 'retry-after': 'Wed, 02 Dec 2026 18:00:30 GMT' } }, 2)).toMatchObject({ status: 429, waitMs: 30_000, retry: 1 })
    expect(sdkRetryOf({ ...refused, responseHeaders: { 'retry-after': '12' } }, 2)).toMatchObject({ waitMs: 12_000 })
    expect(sdkRetryOf({ ...refused, responseHeaders: {} }, 2)).toMatchObject({ waitMs: null })
    expect(sdkRetryOf({ ...refused, responseHeaders: { 'x-should-retry': 'false' } }, 2)).toBeNull()
    expect(sdkRetryOf({ ...refused, requestHeaders: { 'x-stainless-retry-count': '2' }, responseHeaders: {} }, 2)).toBeNull()
  })

  it('429 every time: gives up after maxRetries with rate_limited', async () => {
    const outcome = await faulted('rate_limit; times=9', 2)
    expect(outcome.ok).toBe(false)
    if (outcome.ok) return
    expect(outcome.error).toMatchObject({ kind: 'rate_limited', status: 429 })
    expect(outcome.attempts).toHaveLength(3)
  })

  it('529 overloaded (x-should-retry: true) and 500 are retried', async () => {
    const overloaded = ok(await faulted('overloaded; times=1'))
    expect(overloaded.attempts.map((a) => a.status)).toEqual([529, 200])
    expect(overloaded.attempts[0]!.responseHeaders['x-should-retry']).toBe('true')
    const server = ok(await faulted('server_error; times=1'))
    expect(server.attempts.map((a) => a.status)).toEqual([500, 200])
  })

  it('a connection reset mid-stream is retried by the client', async () => {
    const outcome = ok(await faulted('reset; times=1; after_events=4'))
    expect(outcome.attempts).toHaveLength(2)
    expect(outcome.attempts[0]!.error?.kind).toBe('connection')
    expect(outcome.attempts[0]!.responseBody).toContain('event: message_start')
  })

  it('a reset with no retries left fails as connection, keeping what streamed', async () => {
    const outcome = await faulted('reset; times=1; after_events=4', 0)
    expect(outcome.ok).toBe(false)
    if (outcome.ok) return
    expect(outcome.error.kind).toBe('connection')
    expect(outcome.partial?.content[0]).toMatchObject({ type: 'text' })
  })

  it('a stream that stops before message_stop is retried as incomplete', async () => {
    const outcome = ok(await faulted('truncate; times=1; after_events=99'))
    expect(outcome.attempts.map((a) => a.error?.kind ?? 'ok')).toEqual(['incomplete_stream', 'ok'])
    expect(outcome.attempts[0]!.responseBody).not.toContain('message_stop')
  })

  it('an error event inside a 200 stream is retried', async () => {
    const outcome = ok(await faulted('stream_error; times=1; after_events=2'))
    expect(outcome.attempts.map((a) => a.error?.kind ?? 'ok')).toEqual(['overloaded', 'ok'])
  })

  it('malformed JSON in the stream fails without a retry', async () => {
    const outcome = await faulted('malformed; times=1; after_events=3')
    expect(outcome.ok).toBe(false)
    if (outcome.ok) return
    expect(outcome.error.kind).toBe('unknown')
    expect(outcome.attempts).toHaveLength(1)
  })

  it('a slow first byte still answers; past the timeout it is a connection error', async () => {
    expect(ok(await faulted('slow_first_byte; times=1; delay_ms=20')).attempts).toHaveLength(1)
    const timedOut = await withClient({}, { maxRetries: 0, timeoutMs: 100, defaultHeaders: { 'x-sim-fault': 'slow_first_byte; delay_ms=3000' } }, (client) => client.send(request('hello'), {}))
    expect(timedOut.ok).toBe(false)
    if (!timedOut.ok) expect(timedOut.error.kind).toBe('connection')
  })

  it('a stream that goes silent after its 200 is given up after the idle time and retried as a connection failure', async () => {
    const started = Date.now()
    const events: ModelStreamEvent[] = []
    const send = (client: ReturnType<typeof createModelClient>) => client.send(request('hello'), { onEvent: (e) => events.push(e) })
    const outcome = ok(await withClient({}, { streamIdleTimeoutMs: 50, defaultHeaders: { 'x-sim-fault': `stall; times=1; after_events=4; id=${Math.random()}` } }, send))
    expect(Date.now() - started).toBeLessThan(10_000)
    expect(outcome.attempts.map((a) => a.status)).toEqual([200, 200])
    const stalled = outcome.attempts[0]!
    expect(stalled.error?.kind).toBe('connection')
    expect(stalled.error?.message).toMatch(/^Nothing arrived for 50 ms after the service had begun to answer, so the stream was given up: the connection had stalled/)
    expect(stalled.responseBody).toContain('event: message_start')
    expect(outcome.attempts[1]!.error).toBeNull()
    // The stream says it starts over, and why, between the two attempts' messages.
    const retrying = events.findIndex((e) => e.type === 'retrying')
    expect(events[retrying]).toEqual({ type: 'retrying', kind: 'connection', message: stalled.error!.message, retry: 1, retries: 2 })
    expect(events.findIndex((e) => e.type === 'message_started')).toBeLessThan(retrying)
    expect(events.findLastIndex((e) => e.type === 'message_started')).toBeGreaterThan(retrying)
  })

  it('a stalled stream with no retries left fails as a connection failure that says it stalled, keeping what streamed', async () => {
    const outcome = await withClient({}, { maxRetries: 0, streamIdleTimeoutMs: 50, defaultHeaders: { 'x-sim-fault': `stall; after_events=5; id=${Math.random()}` } }, (client) => client.send(request('hello'), {}))
    expect(outcome.ok).toBe(false)
    if (outcome.ok) return
    expect(outcome.error).toMatchObject({ kind: 'connection', status: null })
    expect(outcome.error.message).toMatch(/the connection had stalled/)
    expect(outcome.partial?.content[0]).toMatchObject({ type: 'text' })
    expect(outcome.attempts).toHaveLength(1)
  })

  it('a 400 is not retried and says invalid_request', async () => {
    await withClient({}, {}, async (client) => {
      const outcome = await client.send({ ...request('x'), model: 'claude-sonnet-4-6', max_tokens: 999_999 }, {})
      expect(outcome.ok).toBe(false)
      if (outcome.ok) return
      expect(outcome.error).toMatchObject({ kind: 'invalid_request', status: 400 })
      // The service's words, not the status and the raw JSON body.
      expect(outcome.error.message).toMatch(/^invalid_request_error: \S/)
      expect(outcome.error.message).not.toContain('{')
      expect(outcome.attempts).toHaveLength(1)
    })
  })
})

describe('ModelClient: cache diagnostics', () => {
  it('sends the beta and previous_message_id, and returns the cache miss reason', async () => {
    await withClient({}, {}, async (client) => {
      const system = [{ type: 'text' as const, text: 'You are Loupe. '.repeat(300), cache_control: { type: 'ephemeral' as const } }]
      const first = ok(await client.send(request('hello', { system }), {}))
      expect(first.cacheMissReason).toBeNull()
      expect(first.attempts[0]!.requestHeaders['anthropic-beta']).toBe('cache-diagnosis-2026-04-07')
      expect(JSON.parse(first.attempts[0]!.requestBody).diagnostics).toEqual({ previous_message_id: null })
      const same = ok(await client.send(request('hello', { system }), { previousMessageId: first.message.id }))
      expect(same.cacheMissReason).toBeNull()
      const changed = ok(await client.send(request('hello', { system: [{ type: 'text', text: 'You are Loupe, changed. '.repeat(300) }] }), { previousMessageId: same.message.id }))
      expect(changed.cacheMissReason).toMatchObject({ type: 'system_changed' })
      expect((changed.cacheMissReason as { cache_missed_input_tokens: number }).cache_missed_input_tokens).toBeGreaterThan(0)
      const unknown = ok(await client.send(request('hello'), { previousMessageId: 'msg_01nothere' }))
      expect(unknown.cacheMissReason).toEqual({ type: 'previous_message_not_found' })
    })
  })

  it('are left off, for the client\'s life, once what answers refuses them (a gateway that does not know the beta)', async () => {
    const sent: Array<{ beta: string | null; diagnostics: boolean }> = []
    // A gateway in front of the API that refuses a field it does not know, as LiteLLM-style proxies do.
    const gateway = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const body = typeof init?.body === 'string' ? init.body : ''
      const beta = new Headers(init?.headers).get('anthropic-beta')
      if (String(input).includes('/v1/messages') && !String(input).includes('count_tokens')) sent.push({ beta, diagnostics: body.includes('"diagnostics"') })
      if (body.includes('"diagnostics"')) {
        const error = { type: 'error', error: { type: 'invalid_request_error', message: 'diagnostics: Extra inputs are not permitted' } }
        return new Response(JSON.stringify(error), { status: 400, headers: { 'content-type': 'application/json' } })
      }
      return fetch(input, init)
    }
    await withClient({}, { fetch: gateway }, async (client) => {
      // Two passes sent at once (two sessions): the one refused after the other's refusal is sent again too.
      const both = await Promise.all([client.send(request('one'), {}), client.send(request('two'), {})])
      expect(both.map((o) => o.ok)).toEqual([true, true])
      sent.length = 0
      const first = ok(await client.send(request('hello'), { previousMessageId: 'msg_x' }))
      expect('cacheMissReason' in first).toBe(false)
      // The refused attempts are recorded, each beside the pass sent without them; after them, none carries them.
      expect(both.map((o) => o.attempts.map((a) => a.status))).toEqual([[400, 200], [400, 200]])
      expect(first.attempts.map((a) => a.status)).toEqual([200])
      ok(await client.send(request('hello again'), { previousMessageId: first.message.id }))
      expect(sent).toEqual([
        { beta: null, diagnostics: false },
        { beta: null, diagnostics: false },
      ])
    })
  })

  it('can be turned off', async () => {
    await withClient({}, { cacheDiagnostics: false }, async (client) => {
      const outcome = ok(await client.send(request('hello'), { previousMessageId: 'msg_x' }))
      expect('cacheMissReason' in outcome).toBe(false)
      expect(JSON.parse(outcome.attempts[0]!.requestBody).diagnostics).toBeUndefined()
    })
  })
})
