/**
 * Automatic compaction and the model's `compact` tool, end to end: auto fires at the start of a pass on the real
 * count of the last response and the turn goes on; three failures in a row stop it for the session with a visible
 * message; the model's call schedules a compaction that runs before its next pass.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { ModelClient, ModelOutcome } from '../../../src-main/engine/ports'
import { holdSummaries, isSummaryRequest, openHarness, type Harness } from './harness'

const API = Array.from({ length: 150 }, (_, i) => `export function handler${i}() { return { version: 2, route: '/v2/items/${i}' } }`).join('\n')

function files(config: string): Record<string, string> {
  return { 'README.md': '# Demo\n\nThe API is versioned under /v2.\n', 'src/api.ts': API, 'package.json': '{ "name": "demo", "scripts": { "test": "vitest" } }\n', '.loupe/config.toml': config }
}

const failSummaries = (client: ModelClient): ModelClient => ({
  endpoint: client.endpoint,
  countTokens: (r) => client.countTokens(r),
  async send(request, options): Promise<ModelOutcome> {
    if (!isSummaryRequest(request as never)) return client.send(request, options)
    return { ok: false, error: { kind: 'server_error', message: 'Internal server error', status: 500 }, partial: null, attempts: [] }
  },
})

describe('automatic compaction', () => {
  let h: Harness
  afterEach(async () => h?.close())

  it('fires at the start of a pass when the real count reaches the threshold, and the turn goes on', async () => {
    h = await openHarness({ files: files('[compaction]\nwindow = 8000\n') })
    const turns = ['read README.md', 'find "handler"', 'find "version"', 'read src/api.ts', 'read package.json']
    for (const text of turns) {
      expect(await h.send(text)).toBe('end_turn')
      if (h.entries().some((e) => e.kind === 'checkpoint')) break
    }
    const checkpoint = h.entries().find((e) => e.kind === 'checkpoint') as Record<string, any>
    expect(checkpoint).toBeDefined()
    expect(checkpoint.trigger).toBe('auto')
    // Decided on the real count of the last response, which was at or above 0.8 of the window.
    expect(checkpoint.tokens.before.real).toBeGreaterThanOrEqual(6400)
    expect(checkpoint.trimmed.length).toBeGreaterThan(0)
    // The turn went on after the checkpoint: an assistant message followed it.
    const after = h.entries().slice(h.entries().findIndex((e) => e.id === checkpoint.id))
    expect(after.some((e) => e.kind === 'assistant_message')).toBe(true)
    const passes = await h.call<Array<{ kind: string; usage: { input_tokens: number; cache_read_input_tokens: number; cache_creation_input_tokens: number } | null; queuedAt: number }>>('pass.list', { sessionId: h.sessionId })
    const first = passes.find((p) => p.kind === 'main' && p.queuedAt >= (checkpoint.at as number))!
    const u = first.usage!
    expect(u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens).toBeLessThan(checkpoint.tokens.before.real)
  })

  it('stops for the session after three failures in a row, with a visible message', async () => {
    h = await openHarness({ files: files(''), wrap: failSummaries })
    for (const text of ['read README.md', 'find "handler"', 'read src/api.ts']) await h.send(text)
    // The project's settings are read at every turn: from now on the context is over the threshold, and stage 1
    // alone can never reach the target, so every attempt needs a summary, and every summary fails.
    writeFileSync(join(h.dir, '.loupe/config.toml'), '[compaction]\nwindow = 3000\n')
    for (const text of ['read package.json', 'read README.md', 'read src/api.ts', 'read package.json']) await h.send(text)
    const entries = h.entries()
    const notices = entries.filter((e) => e.kind === 'notice').map((e) => String(e.text))
    expect(notices.filter((t) => t.startsWith('Automatic compaction did not run'))).toHaveLength(3)
    const off = entries.find((e) => e.kind === 'notice' && String(e.text).startsWith('Automatic compaction is off for this session after 3 failures'))!
    expect(off).toBeDefined()
    const passes = await h.call<Array<{ kind: string; status: string; queuedAt: number }>>('pass.list', { sessionId: h.sessionId })
    const summaries = passes.filter((p) => p.kind === 'summary')
    expect(summaries.length).toBeGreaterThan(0)
    expect(summaries.every((p) => p.status === 'failed')).toBe(true)
    // Nothing was tried after automatic compaction stopped, though the context stayed above the threshold.
    expect(summaries.every((p) => p.queuedAt <= (off.at as number))).toBe(true)
    expect(passes.filter((p) => p.kind === 'main' && p.queuedAt > (off.at as number)).length).toBeGreaterThan(1)
    expect(entries.some((e) => e.kind === 'checkpoint')).toBe(false)
    // Every failed attempt left the session valid: the turns went on.
    expect(h.entries().filter((e) => e.kind === 'turn_ended').every((e) => e.reason === 'end_turn')).toBe(true)
  })

  it('never compacts twice without a pass between', async () => {
    h = await openHarness({ files: files('[compaction]\nwindow = 3000\n'), wrap: failSummaries })
    await h.send('read README.md')
    await h.send('read src/api.ts')
    const passes = await h.call<Array<{ kind: string; seq: number }>>('pass.list', { sessionId: h.sessionId })
    // Each summary attempt follows a main pass: no two summary passes in a row.
    for (let i = 1; i < passes.length; i++) expect(passes[i - 1]!.kind === 'summary' && passes[i]!.kind === 'summary').toBe(false)
  })
})

describe("the model's compact tool", () => {
  let h: Harness
  afterEach(async () => h?.close())

  it('schedules a compaction that runs before the next pass, with its focus', async () => {
    h = await openHarness({ files: files('') })
    for (const text of ['read README.md', 'read src/api.ts', 'find "handler"', 'read package.json', 'find "version"']) expect(await h.send(text)).toBe('end_turn')
    expect(await h.send('compact the conversation, focus on handlers')).toBe('end_turn')
    const result = h.entries().find((e) => e.kind === 'tool_result' && e.toolName === 'compact')!
    expect(String(result.content)).toMatch(/^Compaction scheduled/)
    const checkpoint = h.entries().find((e) => e.kind === 'checkpoint') as Record<string, any>
    expect(checkpoint.trigger).toBe('tool')
    expect(checkpoint.focus).toBe('handlers')
    expect(checkpoint.stage).toBe('summary')
    expect(checkpoint.summary).toContain('Focus: handlers')
    expect(checkpoint.seq).toBeGreaterThan(result.seq)
    // The compact call and its result are kept whole after the head.
    const detail = await h.call<Array<{ id: string; kind: string }>>('pass.list', { sessionId: h.sessionId })
    const last = await h.call<{ requestBody: string }>('pass.get', { passId: detail.at(-1)!.id })
    const body = JSON.parse(last.requestBody)
    expect(JSON.stringify(body.messages[0])).toContain('Compacted at the model')
    expect(JSON.stringify(body.messages)).toContain('Compaction scheduled')
  })

  describe('cancelled by the user', () => {
    /** Three turns at the default window, then a window the context is well over: the next pass compacts. */
    async function overThreshold(): Promise<void> {
      h = await openHarness({ files: files(''), wrap: holdSummaries() })
      for (const text of ['read README.md', 'find "handler"', 'read src/api.ts']) expect(await h.send(text)).toBe('end_turn')
      writeFileSync(join(h.dir, '.loupe/config.toml'), '[compaction]\nwindow = 3000\n')
    }
    const summaryStreaming = () => h.next('compaction.progressed', (p) => p.stage === 'summary_streaming')

    it('ends alone: the turn goes on uncompacted, and it is not begun again before the next message', async () => {
      await overThreshold()
      const cancelledAt = h.entries().length
      const streaming = summaryStreaming()
      const ended = h.next('turn.ended')
      await h.call('run.start', { sessionId: h.sessionId, text: 'read package.json' })
      await streaming
      expect(await h.call('compaction.cancel', { sessionId: h.sessionId })).toEqual({ cancelled: true })
      // The turn read the file and answered: two passes, neither preceded by another compaction.
      expect((await ended).reason).toBe('end_turn')
      const turn = h.entries().slice(cancelledAt)
      expect(turn.some((e) => e.kind === 'checkpoint')).toBe(false)
      expect(turn.filter((e) => e.kind === 'assistant_message').length).toBeGreaterThanOrEqual(2)
      const notice = turn.find((e) => e.kind === 'notice')!
      expect(String(notice.text)).toMatch(/^You cancelled the automatic compaction: this turn goes on uncompacted, its context at \d+% of the window\./)
      const summaries = () => h.call<Array<{ kind: string; status: string }>>('pass.list', { sessionId: h.sessionId }).then((ps) => ps.filter((p) => p.kind === 'summary'))
      expect(await summaries()).toEqual([expect.objectContaining({ status: 'cancelled' })])
      // A cancel is not a failure: nothing counts towards turning automatic compaction off.
      expect(turn.some((e) => e.kind === 'notice' && String(e.text).startsWith('Automatic compaction did not run'))).toBe(false)

      // The next message tries again; the chat's Stop during it stops the turn, compaction and all.
      const again = summaryStreaming()
      const stopped = h.next('turn.ended')
      await h.call('run.start', { sessionId: h.sessionId, text: 'read README.md' })
      await again
      expect(await h.call('run.cancel', { sessionId: h.sessionId })).toEqual({ cancelled: true })
      expect((await stopped).reason).toBe('cancelled')
      expect(await summaries()).toHaveLength(2)
    })

    it('answers that nothing was cancelled when no compaction runs, and leaves a turn running alone', async () => {
      h = await openHarness({ files: files('') })
      expect(await h.call('compaction.cancel', { sessionId: h.sessionId })).toEqual({ cancelled: false })
      const started = h.next('pass.started')
      const ended = h.next('turn.ended')
      await h.call('run.start', { sessionId: h.sessionId, text: 'read README.md' })
      await started
      expect(await h.call('compaction.cancel', { sessionId: h.sessionId })).toEqual({ cancelled: false })
      expect((await ended).reason).toBe('end_turn')
    })
  })
})
