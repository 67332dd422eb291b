/**
 * A compaction's progress through the whole app (runtime, session manager, event hub) against the simulator: the
 * `compaction.progressed` events of the summary stream carry its text, in order and bounded, and the text they
 * rebuild is what the model streamed — the summary the checkpoint keeps, with its wrappers.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { extractSummary, SUMMARY_PROGRESS_MAX_CHARS } from '../../../src-main/engine/compaction'
import type { ModelClient } from '../../../src-main/engine/ports'
import { isSummaryRequest, openHarness, type Harness } from './harness'

const FILES = {
  'README.md': `# Demo\n\n${'The API is versioned under /v2. Keep handlers small. '.repeat(40)}\n`,
  'src/api.ts': Array.from({ length: 150 }, (_, i) => `export function handler${i}() { return { version: 2, route: '/v2/items/${i}' } }`).join('\n'),
}

describe('compaction progress', () => {
  let h: Harness
  afterEach(async () => h?.close())

  it('carries the summary text as it streams, in order and bounded, ending with what the model wrote', async () => {
    // Records the summary stream's text exactly as the client delivered it.
    const streamed: string[] = []
    const record = (client: ModelClient): ModelClient => ({
      endpoint: client.endpoint,
      countTokens: (r) => client.countTokens(r),
      send(request, options) {
        if (!isSummaryRequest(request as never)) return client.send(request, options)
        return client.send(request, {
          ...options,
          onEvent: (e) => {
            if (e.type === 'text_delta') streamed.push(e.text)
            options.onEvent?.(e)
          },
        })
      },
    })
    h = await openHarness({ files: FILES, wrap: record })
    expect(await h.send('read README.md')).toBe('end_turn')
    expect(await h.send('find "handler"')).toBe('end_turn')
    expect(await h.send('read src/api.ts')).toBe('end_turn')
    const from = h.events.length
    expect(await h.send('/compact the API routes')).toBe('compacted')

    const events = h.events.slice(from).filter((e) => e.name.startsWith('compaction.'))
    const names = events.map((e) => (e.name === 'compaction.progressed' ? `progressed:${e.payload.stage}` : e.name))
    const firstStreaming = names.indexOf('progressed:summary_streaming')
    expect(names.indexOf('progressed:summary_started')).toBeLessThan(firstStreaming)
    expect(names.lastIndexOf('progressed:summary_streaming')).toBeLessThan(names.indexOf('progressed:summary_finished'))
    expect(names.indexOf('progressed:summary_finished')).toBeLessThan(names.indexOf('compaction.applied'))

    const full = streamed.join('')
    expect(full.length).toBeGreaterThan(0)
    const pieces = events.filter((e) => e.name === 'compaction.progressed' && e.payload.stage === 'summary_streaming').map((e) => e.payload)
    let end = 0
    // The model thinks first (thinking is on by default): that progress is a count, with no text.
    const thinking = pieces.filter((p) => p.text === '')
    expect(thinking.length).toBeGreaterThan(0)
    for (const p of thinking) expect(p).toMatchObject({ textOffset: 0, outputChars: 0, thinkingChars: expect.any(Number) })
    expect(thinking.at(-1)!.thinkingChars).toBeGreaterThan(0)
    for (const p of pieces.filter((q) => q.text !== '')) {
      expect(p).toMatchObject({ sessionId: h.sessionId, compactionId: events[0]!.payload.compactionId, stream: 1, form: expect.any(String) })
      const text = p.text as string
      const offset = p.textOffset as number
      expect(text.length).toBeLessThanOrEqual(SUMMARY_PROGRESS_MAX_CHARS)
      // In order: each piece starts where the one before ended, or later when a burst sent only its tail.
      expect(offset).toBeGreaterThanOrEqual(end)
      expect(full.slice(offset, offset + text.length)).toBe(text)
      end = offset + text.length
      expect(p.outputChars).toBe(end)
      expect(p.outputTokens).toBe(Math.ceil(end / 4))
    }
    expect(end).toBe(full.length)

    // What streamed is the summary the checkpoint keeps (before its wrappers were taken off).
    const checkpoint = h.entries().at(-1) as Record<string, unknown>
    expect(checkpoint.kind).toBe('checkpoint')
    expect(extractSummary(full)).toBe(checkpoint.summary)
  })
})
