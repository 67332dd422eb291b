/**
 * The simulator against recorded real exchanges (test/fixtures/real/, see SOURCES.md): its SSE has the shape of
 * the recorded streams and parses the same way in the SDK, and for the recorded prompt-caching pair its usage
 * follows the real pattern (write, then read, with the same prefix and tail sizes).
 */
import Anthropic from '@anthropic-ai/sdk'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'
import { describe, expect, it } from 'vitest'
import { APP_TOOLS, withSimulator } from './helpers'

const fixtures = join(__dirname, '../fixtures/real')
type Event = { event: string; data: Record<string, unknown> }

/** Parses `event:`/`data:` SSE text (what the SDK does, minus the JSON typing). */
function parseSse(text: string): Event[] {
  return text
    .split(/\r?\n\r?\n/)
    .map((chunk) => chunk.trim())
    .filter((chunk) => chunk.length > 0)
    .map((chunk) => {
      const lines = chunk.split(/\r?\n/)
      const event = lines.find((l) => l.startsWith('event:'))?.slice(6).trim() ?? ''
      const data = lines.filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join('\n')
      return { event, data: JSON.parse(data) as Record<string, unknown> }
    })
}

function recordedLlmStream(name: string): string {
  const cassette = parse(readFileSync(join(fixtures, 'llm-anthropic', name), 'utf8')) as { interactions: Array<{ response: { body: { string: string } } }> }
  return cassette.interactions[0]!.response.body.string
}

function recordedVercel(name: string): Event[] {
  return readFileSync(join(fixtures, 'vercel-ai', name), 'utf8')
    .split('\n')
    .filter((l) => l.trim().length > 0)
    .map((l) => {
      const data = JSON.parse(l) as Record<string, unknown>
      return { event: String(data.type), data }
    })
}

/** The grammar of §3.1: message_start, blocks with dense indexes (start, deltas, stop), message_delta, message_stop. */
function checkGrammar(events: Event[]): void {
  const kinds = events.map((e) => e.event).filter((k) => k !== 'ping')
  expect(kinds[0]).toBe('message_start')
  expect(kinds.slice(-2)).toEqual(['message_delta', 'message_stop'])
  let open: number | null = null
  let next = 0
  for (const e of events) {
    expect(e.data.type).toBe(e.event)
    if (e.event === 'content_block_start') {
      expect(open).toBeNull()
      expect(e.data.index).toBe(next)
      open = next++
    } else if (e.event === 'content_block_delta') {
      expect(e.data.index).toBe(open)
    } else if (e.event === 'content_block_stop') {
      expect(e.data.index).toBe(open)
      open = null
    }
  }
  expect(open).toBeNull()
}

async function simulatorStream(baseUrl: string, body: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${baseUrl}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'x-api-key': 'k' },
    body: JSON.stringify({ ...body, stream: true }),
  })
  expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
  return res.text()
}

/** Hands recorded SSE text to the real SDK as if it came over the wire. */
async function sdkParse(sse: string): Promise<Anthropic.Messages.Message> {
  const client = new Anthropic({ apiKey: 'k', baseURL: 'http://recorded.invalid', maxRetries: 0, openTelemetry: false, fetch: async () => new Response(sse, { status: 200, headers: { 'content-type': 'text/event-stream' } }) })
  return client.messages.stream({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] }).finalMessage()
}

describe('simulator SSE against recorded streams', () => {
  const recordedText = parseSse(recordedLlmStream('test_stream_events_text.yaml'))
  const recordedTool = parseSse(recordedLlmStream('test_fixed_version_tool_chain_regression.yaml'))
  const recordedThinking = parseSse(recordedLlmStream('test_thinking_prompt.yaml'))

  it('the recorded streams follow the grammar the checks use', () => {
    for (const events of [recordedText, recordedTool, recordedThinking, recordedVercel('anthropic-text.chunks.txt'), recordedVercel('anthropic-json-tool.1.chunks.txt')]) checkGrammar(events)
  })

  it('has the same event grammar and the same usage fields as the recorded text stream', async () => {
    await withSimulator({}, async (sim) => {
      const ours = parseSse(await simulatorStream(sim.baseUrl, { model: 'claude-haiku-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'Say just hello' }] }))
      checkGrammar(ours)
      const start = (events: Event[]) => (events[0]!.data.message as { usage: object }).usage
      expect(Object.keys(start(ours)).sort()).toEqual(Object.keys(start(recordedText)).sort())
      const delta = (events: Event[]) => (events.find((e) => e.event === 'message_delta')!.data.usage as object)
      expect(Object.keys(delta(ours)).sort()).toEqual(Object.keys(delta(recordedText)).sort())
      const messageKeys = (events: Event[]) => Object.keys(events[0]!.data.message as object).sort()
      expect(messageKeys(ours)).toEqual(messageKeys(recordedText))
      expect(ours.some((e) => e.event === 'ping')).toBe(true)
    })
  })

  it('streams tool calls and thinking in the recorded block shapes', async () => {
    await withSimulator({}, async (sim) => {
      const ours = parseSse(await simulatorStream(sim.baseUrl, { model: 'claude-sonnet-4-5', max_tokens: 4000, thinking: { type: 'enabled', budget_tokens: 1024 }, tools: APP_TOOLS, messages: [{ role: 'user', content: 'run npm test' }] }))
      checkGrammar(ours)
      const starts = (events: Event[]) => events.filter((e) => e.event === 'content_block_start').map((e) => e.data.content_block as Record<string, unknown>)
      const recordedThinkingStart = starts(recordedThinking).find((b) => b.type === 'thinking')!
      const ourThinkingStart = starts(ours).find((b) => b.type === 'thinking')!
      expect(Object.keys(ourThinkingStart).sort()).toEqual(Object.keys(recordedThinkingStart).sort())
      const deltaTypes = (events: Event[]) => [...new Set(events.filter((e) => e.event === 'content_block_delta').map((e) => (e.data.delta as { type: string }).type))].sort()
      expect(deltaTypes(ours)).toEqual(expect.arrayContaining(deltaTypes(recordedThinking)))
      const firstToolDelta = ours.find((e) => e.event === 'content_block_delta' && (e.data.delta as { type: string }).type === 'input_json_delta')
      expect((firstToolDelta!.data.delta as { partial_json: string }).partial_json).toBe('')
      expect(Object.keys(starts(ours).find((b) => b.type === 'tool_use')!)).toEqual(expect.arrayContaining(['id', 'name', 'input', 'type']))
    })
  })

  it('the SDK parses our stream into the same message shape as a recorded one', async () => {
    const recorded = await sdkParse(recordedLlmStream('test_thinking_prompt.yaml'))
    await withSimulator({}, async (sim) => {
      const ours = await sdkParse(await simulatorStream(sim.baseUrl, { model: 'claude-sonnet-4-5', max_tokens: 4000, thinking: { type: 'enabled', budget_tokens: 1024 }, messages: [{ role: 'user', content: 'Two names for a pet pelican, be brief' }] }))
      expect(ours.content.map((b) => b.type)).toEqual(recorded.content.map((b) => b.type))
      expect(Object.keys(ours.usage).sort()).toEqual(Object.keys(recorded.usage).sort())
      expect(ours.stop_reason).toBe(recorded.stop_reason)
    })
  })
})

describe('the recorded prompt-caching pair (pydantic-ai test_anthropic_cache_real_api.yaml)', () => {
  type Interaction = { request: { parsed_body: Record<string, unknown> }; response: { parsed_body: { usage: Record<string, number> } } }
  const cassette = parse(readFileSync(join(fixtures, 'pydantic-ai/test_anthropic_cache_real_api.yaml'), 'utf8')) as { interactions: Interaction[] }
  const [first, second] = cassette.interactions as [Interaction, Interaction]

  async function replay(baseUrl: string, interaction: Interaction) {
    const res = await fetch(`${baseUrl}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'x-api-key': 'k' }, body: JSON.stringify(interaction.request.parsed_body) })
    expect(res.status).toBe(200)
    return ((await res.json()) as { usage: Record<string, number> & { cache_creation: Record<string, number> } }).usage
  }

  it('writes the prefix on a cold cache, then reads exactly what the real API read', async () => {
    await withSimulator({}, async (sim) => {
      const real1 = first.response.parsed_body.usage
      const real2 = second.response.parsed_body.usage
      const cold = await replay(sim.baseUrl, first)
      // The recording was made with a warm cache (read 1111); on a cold cache the same prefix is written instead.
      expect(cold.cache_creation_input_tokens).toBe(real1.cache_read_input_tokens)
      expect(cold.cache_read_input_tokens).toBe(0)
      expect(cold.input_tokens).toBe(real1.input_tokens)
      const warm = await replay(sim.baseUrl, first)
      expect(warm.cache_read_input_tokens).toBe(real1.cache_read_input_tokens)
      expect(warm.cache_creation_input_tokens).toBe(real1.cache_creation_input_tokens)
      expect(warm.input_tokens).toBe(real1.input_tokens)
      const next = await replay(sim.baseUrl, second)
      // Second request of the pair: read the earlier prefix through the lookback, write the new turn.
      expect(next.cache_read_input_tokens).toBe(real2.cache_read_input_tokens)
      expect(next.input_tokens).toBe(real2.input_tokens)
      expect(next.cache_creation.ephemeral_5m_input_tokens).toBe(next.cache_creation_input_tokens)
      expect(next.cache_creation_input_tokens).toBeGreaterThan(0.85 * real2.cache_creation_input_tokens!)
      expect(next.cache_creation_input_tokens).toBeLessThan(1.15 * real2.cache_creation_input_tokens!)
    })
  })
})
