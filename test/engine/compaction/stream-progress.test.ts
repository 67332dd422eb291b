/**
 * The summary as it forms: `summary_streaming` progress carries the summary's text in order, at most one progress
 * per interval of the (fake) clock plus the first and the last, each piece bounded, and a new stream (a retried
 * attempt) starting its text again; through `runCompaction`, the pieces are the summary pass's text.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  DEFAULT_COMPACTION_SETTINGS,
  runCompaction,
  summaryStreamMeter,
  SUMMARY_PROGRESS_INTERVAL_MS,
  SUMMARY_PROGRESS_MAX_CHARS,
  type CompactionProgress,
  type SummaryStreamingProgress,
} from '../../../src-main/engine/compaction'
import type { ModelClient, ModelOutcome, ModelStreamEvent } from '../../../src-main/engine/ports'
import { FakeSession, fakeLog, fakePlanner, ZERO_USAGE } from './fakes'

/** Rebuilds a stream's text from its progress: each piece must start at or after the end of the one before. */
function replay(progress: ReadonlyArray<SummaryStreamingProgress>): { text: string; gaps: number } {
  let text = ''
  let gaps = 0
  for (const p of progress) {
    expect(p.textOffset).toBeGreaterThanOrEqual(text.length)
    if (p.textOffset > text.length) gaps++
    text = text.padEnd(p.textOffset, '\u0000') + p.text
    expect(p.outputChars).toBe(text.length)
    expect(p.outputTokens).toBe(Math.ceil(p.outputChars / 4))
  }
  return { text, gaps }
}

describe('summaryStreamMeter', () => {
  it('sends the text in order, bounded, at most once per interval besides the first and the last', () => {
    const delta = fc.record({ text: fc.string({ minLength: 0, maxLength: 700, unit: fc.constantFrom('a', 'b', ' ', '\n', 'é', '🙂') }), waitMs: fc.integer({ min: 0, max: 250 }) })
    fc.assert(
      fc.property(fc.array(delta, { minLength: 1, maxLength: 80 }), fc.integer({ min: 2, max: 3000 }), (deltas, maxChars) => {
        let now = 0
        const out: SummaryStreamingProgress[] = []
        const meter = summaryStreamMeter({ clock: { now: () => now }, form: 'cut', nextStream: () => 1, emit: (p) => out.push(p), maxChars })
        meter.onEvent({ type: 'message_started', messageId: 'm', model: 'x' })
        meter.onEvent({ type: 'block_started', index: 0, kind: 'text' })
        for (const d of deltas) {
          now += d.waitMs
          meter.onEvent({ type: 'text_delta', index: 0, text: d.text })
        }
        meter.flush()
        const full = deltas.map((d) => d.text).join('')
        if (full === '') {
          expect(out).toEqual([])
          return
        }
        for (const p of out) {
          expect(p).toMatchObject({ stage: 'summary_streaming', form: 'cut', stream: 1 })
          expect(p.text.length).toBeGreaterThan(0)
          expect(p.text.length).toBeLessThanOrEqual(maxChars)
          // Each piece is the stream's own text at the offset it names.
          expect(full.slice(p.textOffset, p.textOffset + p.text.length)).toBe(p.text)
        }
        const rebuilt = replay(out)
        expect(rebuilt.text.length).toBe(full.length)
        expect(out.at(-1)!.outputChars).toBe(full.length)
        // Nothing is left out unless a piece was longer than the bound.
        if (rebuilt.gaps === 0) expect(rebuilt.text).toBe(full)
        // Throttled: besides the first and the final flush, one progress per interval of the clock at most.
        expect(out.length).toBeLessThanOrEqual(2 + Math.floor(now / SUMMARY_PROGRESS_INTERVAL_MS))
      }),
      { numRuns: 200 },
    )
  })

  it('coalesces a burst into the first delta and one final progress, keeping the last characters of a long one', () => {
    const out: SummaryStreamingProgress[] = []
    const meter = summaryStreamMeter({ clock: { now: () => 0 }, form: 'upto', nextStream: () => 1, emit: (p) => out.push(p) })
    meter.onEvent({ type: 'message_started', messageId: 'm', model: 'x' })
    const words = Array.from({ length: 2000 }, (_, i) => `w${i} `)
    for (const w of words) meter.onEvent({ type: 'text_delta', index: 0, text: w })
    meter.flush()
    const full = words.join('')
    expect(out).toHaveLength(2)
    expect(out[0]).toMatchObject({ text: 'w0 ', textOffset: 0 })
    expect(out[1]!.text).toHaveLength(SUMMARY_PROGRESS_MAX_CHARS)
    expect(out[1]!.text).toBe(full.slice(-SUMMARY_PROGRESS_MAX_CHARS))
    expect(out[1]!.textOffset).toBe(full.length - SUMMARY_PROGRESS_MAX_CHARS)
    expect(out[1]!.outputChars).toBe(full.length)
  })

  it('starts a new stream at offset 0 when a new message begins (a retry), and counts thinking without showing it', () => {
    let streams = 0
    const out: SummaryStreamingProgress[] = []
    let now = 0
    const meter = summaryStreamMeter({ clock: { now: () => now }, form: 'cut', nextStream: () => ++streams, emit: (p) => out.push(p) })
    meter.onEvent({ type: 'message_started', messageId: 'a', model: 'x' })
    meter.onEvent({ type: 'thinking_delta', index: 0, thinking: 'not the summary' })
    meter.onEvent({ type: 'text_delta', index: 1, text: 'First attempt, cut ' })
    now += 1000
    meter.onEvent({ type: 'text_delta', index: 1, text: 'short.' })
    meter.onEvent({ type: 'message_started', messageId: 'b', model: 'x' })
    meter.onEvent({ type: 'text_delta', index: 0, text: 'Second attempt.' })
    meter.flush()
    // The thinking goes out at once as a count with no text; the text that follows within the interval waits.
    expect(out.map((p) => [p.stream, p.textOffset, p.text, p.thinkingChars])).toEqual([
      [1, 0, '', 15],
      [1, 0, 'First attempt, cut short.', 15],
      [2, 0, 'Second attempt.', 0],
    ])
  })
})

describe('runCompaction streams the summary text as progress', () => {
  it('in order, before the pass is finished, and the pieces are the summary the draft holds', async () => {
    const session = new FakeSession()
    for (let i = 0; i < 5; i++) {
      session.user(`request ${i}: ${'please look at src/app.ts '.repeat(30)}`)
      session.step([{ name: 'read_file', input: { path: `src/f${i}.ts` }, result: `contents ${i} `.repeat(200) }])
      session.reply(`done ${i}`)
    }
    const summary = Array.from({ length: 400 }, (_, i) => `Point ${i}: the user asked for step ${i}.\n`).join('')
    let now = 0
    const pieces = summary.match(/[^ ]+ ?/g)!
    const model: ModelClient = {
      endpoint: { kind: 'simulator', baseUrl: 'http://fake' },
      countTokens: async () => 0,
      async send(request, options): Promise<ModelOutcome> {
        const emit = (e: ModelStreamEvent) => options.onEvent?.(e)
        emit({ type: 'message_started', messageId: 'msg_s', model: request.model })
        emit({ type: 'block_started', index: 0, kind: 'text' })
        for (const piece of pieces) {
          now += 7 // the fake clock moves; nothing waits
          emit({ type: 'text_delta', index: 0, text: piece })
        }
        emit({ type: 'block_stopped', index: 0 })
        const attempt = { startedAt: 0, firstByteAt: 1, endedAt: 2, status: 200, requestId: 'req', requestBody: '{}', requestHeaders: {}, responseHeaders: {}, responseBody: '', error: null }
        return { ok: true, message: { id: 'msg_s', model: request.model, content: [{ type: 'text', text: summary }], stop_reason: 'end_turn', usage: { ...ZERO_USAGE, output_tokens: 3000 } }, attempts: [attempt] }
      },
    }
    const progress: CompactionProgress[] = []
    const result = await runCompaction(
      { model, log: fakeLog(), planner: fakePlanner(), clock: { now: () => now }, priceUsd: () => 0, onProgress: (p) => progress.push(p) },
      { entries: session.entries, previousTailIndex: null, settings: { ...DEFAULT_COMPACTION_SETTINGS, keepSteps: 1 }, windowTokens: 200_000, realTokens: null, model: 'claude-sonnet-4-6', maxOutputTokens: 8000, root: '/p', origin: { kind: 'session_start' } },
      { trigger: 'manual', focus: null, instructions: null, upto: null, forceSummary: true },
      new AbortController().signal,
    )
    expect(result.status).toBe('draft')
    const stages = progress.map((p) => p.stage)
    const streaming = progress.filter((p): p is SummaryStreamingProgress => p.stage === 'summary_streaming')
    expect(stages.indexOf('summary_started')).toBeLessThan(stages.indexOf('summary_streaming'))
    expect(stages.lastIndexOf('summary_streaming')).toBeLessThan(stages.indexOf('summary_finished'))
    // Throttled: far fewer progress events than deltas, each piece bounded.
    expect(streaming.length).toBeGreaterThan(2)
    expect(streaming.length).toBeLessThan(pieces.length / 4)
    for (const p of streaming) expect(p.text.length).toBeLessThanOrEqual(SUMMARY_PROGRESS_MAX_CHARS)
    const rebuilt = replay(streaming)
    expect(rebuilt.gaps).toBe(0)
    expect(rebuilt.text).toBe(summary)
    expect(result.status === 'draft' && result.draft.summary).toBe(summary.trim())
  })
})
