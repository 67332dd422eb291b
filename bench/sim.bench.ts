/**
 * Simulator throughput (docs/simulator.md "Figures"): passes per second for a 150k-token request that hits
 * the cache, streamed and read to the end, and the time to the first SSE byte (p50). Goal: the simulator is never
 * the bottleneck of a test (> 50 passes/s).
 */
import { percentile, round, type Bench } from './bench'
import { createModelClient } from '../src-main/node/model/client'
import { startSimulator } from '../src-main/simulator/index'

const TARGET_TOKENS = 150_000
const PASSES = 60
const HEADERS = { 'content-type': 'application/json', 'anthropic-version': '2026-10-21', 'x-api-key': 'sk-bench' }

/** A request of about 150k tokens: a long system prompt and a long history, cached at the system and the tail. */
function bigRequest(): Record<string, unknown> {
  const paragraph = 'The engine builds each pass from stable sections first and volatile ones last, so the prefix stays cached. '
  const system = [{ type: 'text', text: paragraph.repeat(900), cache_control: { type: 'ephemeral', ttl: '1h' } }]
  const messages = Array.from({ length: 60 }, (_, i) => ({
    role: i % 2 === 0 ? 'user' : 'assistant',
    content: [{ type: 'text', text: `Turn ${i}. ${paragraph.repeat(115)}`, ...(i === 58 ? { cache_control: { type: 'ephemeral' } } : {}) }],
  }))
  messages.push({ role: 'user', content: [{ type: 'text', text: 'hello' }] })
  return { model: 'claude-sonnet-4-6', max_tokens: 1024, system, messages, stream: true }
}

const bench: Bench = {
  figures: ['sim.passes_per_s', 'sim.ttfb_p50_ms'],
  async run() {
    const sim = await startSimulator({ pace: 'instant', seed: 'bench' })
    try {
      const body = JSON.stringify(bigRequest())
      const count = (await (await fetch(`${sim.baseUrl}/v1/messages/count_tokens`, { method: 'POST', headers: HEADERS, body })).json()) as { input_tokens: number }
      const pass = async (): Promise<{ ttfbMs: number; read: number }> => {
        const start = performance.now()
        const res = await fetch(`${sim.baseUrl}/v1/messages`, { method: 'POST', headers: HEADERS, body })
        const reader = res.body!.getReader()
        let ttfbMs = -1
        let text = ''
        const decoder = new TextDecoder()
        for (;;) {
          const { done, value } = await reader.read()
          if (done) break
          if (ttfbMs < 0) ttfbMs = performance.now() - start
          text += decoder.decode(value, { stream: true })
        }
        const read = Number(/"cache_read_input_tokens":(\d+)/.exec(text)?.[1] ?? 0)
        return { ttfbMs, read }
      }
      await pass() // writes the cache
      const ttfbs: number[] = []
      let hits = 0
      const started = performance.now()
      for (let i = 0; i < PASSES; i++) {
        const { ttfbMs, read } = await pass()
        ttfbs.push(ttfbMs)
        if (read > 0) hits++
      }
      const perSecond = PASSES / ((performance.now() - started) / 1000)

      // The same passes through the app's own client (SDK + wire capture), for context in the note.
      const client = createModelClient({ baseUrl: sim.baseUrl, apiKey: 'sk-bench', kind: 'simulator' })
      const wire = JSON.parse(body) as Parameters<typeof client.send>[0]
      const clientStart = performance.now()
      const clientPasses = 20
      for (let i = 0; i < clientPasses; i++) await client.send(wire, {})
      const clientPerSecond = clientPasses / ((performance.now() - clientStart) / 1000)

      return [
        {
          name: 'sim.passes_per_s',
          value: round(perSecond, 1),
          unit: 'passes/s',
          goal: '> 50',
          note: `${count.input_tokens} input tokens per pass (target ${TARGET_TOKENS}), ${hits}/${PASSES} cache hits, streamed with fetch; through the SDK client with wire capture: ${round(clientPerSecond, 1)} passes/s`,
        },
        { name: 'sim.ttfb_p50_ms', value: round(percentile(ttfbs, 50), 2), unit: 'ms', note: `p95 ${round(percentile(ttfbs, 95), 2)} ms; time from request start to the first SSE body byte` },
      ]
    } finally {
      await sim.close()
    }
  },
}

export default bench
