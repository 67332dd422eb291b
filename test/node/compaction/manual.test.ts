/**
 * Manual compaction end to end (store, runtime, loop, the simulator as the model): `/compact <focus>` in the chat,
 * the summary request reading the cached prefix, the history starting at the checkpoint afterwards, "nothing to
 * compact", and a cancel during the summary stream that leaves the session unchanged byte for byte.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { holdSummaries, isSummaryRequest, openHarness, type Harness } from './harness'

const FILES = {
  'README.md': '# Demo\n\nThe API is versioned under /v2. Keep handlers small.\n',
  'src/api.ts': Array.from({ length: 150 }, (_, i) => `export function handler${i}() { return { version: 2, route: '/v2/items/${i}' } }`).join('\n'),
  'docs/notes.md': '# Notes\n\nDecision: the API returns JSON only.\n'.repeat(20),
}

/** Four turns, eight assistant turns: the first two (a read and a long search) are summarised. */
async function threeTurns(h: Harness): Promise<void> {
  expect(await h.send('read README.md')).toBe('end_turn')
  expect(await h.send('find "handler"')).toBe('end_turn')
  expect(await h.send('find "Decision"')).toBe('end_turn')
  expect(await h.send('read src/api.ts')).toBe('end_turn')
}

interface Pass {
  id: string
  kind: string
  status: string
  costUsd: number | null
  usage: { input_tokens: number; cache_read_input_tokens: number; cache_creation_input_tokens: number } | null
  messageId: string | null
}

describe('manual compaction', () => {
  let h: Harness
  afterEach(async () => h?.close())

  it('/compact with a focus writes a checkpoint whose summary request read the cached prefix, and the next pass starts from it', async () => {
    h = await openHarness({ files: FILES })
    await threeTurns(h)
    const before = await h.call<Pass[]>('pass.list', { sessionId: h.sessionId })
    expect(await h.send('/compact keep the API decisions')).toBe('compacted')

    const checkpoint = h.entries().at(-1) as Record<string, any>
    expect(checkpoint.kind).toBe('checkpoint')
    expect(checkpoint.trigger).toBe('manual')
    expect(checkpoint.focus).toBe('keep the API decisions')
    expect(checkpoint.stage).toBe('summary')
    expect(checkpoint.summary).toContain('Focus: keep the API decisions')
    expect(checkpoint.summary).not.toContain('<analysis>')
    expect(checkpoint.view.head[0].text).toContain('read README.md')
    expect(checkpoint.summaryPassIds).toHaveLength(1)
    expect(checkpoint.costUsd).toBeGreaterThan(0)
    expect(checkpoint.tokens.after.estimated).toBeLessThan(checkpoint.tokens.before.estimated)
    // No user message was recorded for the command: it is not a request to the model.
    expect(h.entries().filter((e) => e.kind === 'user_message')).toHaveLength(4)

    const passes = await h.call<Pass[]>('pass.list', { sessionId: h.sessionId })
    const summary = passes.at(-1)!
    expect(summary.kind).toBe('summary')
    expect(summary.status).toBe('done')
    expect(summary.id).toBe(checkpoint.summaryPassIds[0])
    // The prefix was a cache read, not a fresh write.
    const u = summary.usage!
    const total = u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens
    expect(u.cache_read_input_tokens / total).toBeGreaterThan(0.8)
    const lastMain = before.at(-1)!.usage!
    expect(u.cache_read_input_tokens).toBeGreaterThan(lastMain.cache_read_input_tokens * 0.5)
    const detail = await h.call<{ requestBody: string }>('pass.get', { passId: summary.id })
    const body = JSON.parse(detail.requestBody)
    expect(body.tools.map((t: { name: string }) => t.name)).toContain('compact')
    expect(isSummaryRequest(body)).toBe(true)
    // It continues the conversation: the API's cache diagnostics compare it with the last pass, as the attribution
    // does, and the two agree.
    expect(body.diagnostics).toEqual({ previous_message_id: before.at(-1)!.messageId })
    expect((summary as unknown as { attribution: { diagnostics: { disagree: boolean; api: unknown } } }).attribution.diagnostics).toMatchObject({ disagree: false })

    // The next pass sends the head first, and the session block was frozen again at the checkpoint.
    expect(checkpoint.reinjected.files).toEqual([{ path: 'README.md', tokens: expect.any(Number), offered: 'content' }])
    expect(await h.send('read README.md and src/api.ts')).toBe('end_turn')
    const after = await h.call<Pass[]>('pass.list', { sessionId: h.sessionId })
    const next = await h.call<{ requestBody: string; plan: { sessionOrigin: { kind: string; entryId: string } }; attribution: { cause: { kind: string; label: string } } }>('pass.get', { passId: after[after.length - 2]!.id })
    // At its limit, and its cause says why all of the conversation was written again.
    expect(next.attribution.cause).toEqual({ kind: 'none', label: expect.stringContaining('starts again from the compaction summary') })
    const sent = JSON.parse(next.requestBody)
    expect(JSON.stringify(sent.messages[0])).toContain('Compacted at the user')
    expect(JSON.stringify(sent.messages)).not.toContain('Decision: the API returns JSON only.\\n# Notes')
    expect(next.plan.sessionOrigin).toEqual({ kind: 'checkpoint', entryId: checkpoint.id })
    // The dedup memory was cleared at the checkpoint: src/api.ts comes back whole; README.md was offered back in
    // the head, so its read is answered "unchanged".
    const results = h.entries().filter((e) => e.kind === 'tool_result').slice(-2)
    expect(String(results[0]!.content)).toMatch(/unchanged/i)
    expect(String(results[1]!.content)).toContain('handler149')

    const listed = await h.call<{ checkpoints: Array<{ checkpoint: { id: string }; realTokensAfter: number | null; passes: unknown[] }> }>('compaction.list', { sessionId: h.sessionId })
    expect(listed.checkpoints).toHaveLength(1)
    expect(listed.checkpoints[0]!.realTokensAfter).toBeGreaterThan(0)
    expect(listed.checkpoints[0]!.passes).toHaveLength(1)
  })

  it('on a model whose minimum is over the tools and system, the first pass after a compaction says the conversation starts again from the summary, and what is left is too short to cache', async () => {
    h = await openHarness({ files: FILES, model: 'claude-opus-4-6' })
    await threeTurns(h)
    expect(await h.send('/compact keep the API decisions')).toBe('compacted')
    expect(await h.send('read README.md')).toBe('end_turn')
    const after = await h.call<Pass[]>('pass.list', { sessionId: h.sessionId })
    const first = after.findIndex((p) => p.kind === 'summary') + 1
    const next = await h.call<{ attribution: { outcome: string; cause: { kind: string; label: string }; miss: { tokens: number } } }>('pass.get', { passId: after[first]!.id })
    // Nothing could be read (lost nothing): the tools and system alone are under Opus 4.6's 4,096 tokens, and the
    // rest of the prompt is the new history. The cause says that, not a "new tail" of a few tokens.
    expect(next.attribution.outcome).toBe('miss')
    expect(next.attribution.miss.tokens).toBe(0)
    expect(next.attribution.cause.kind).toBe('below_minimum')
    expect(next.attribution.cause.label).toMatch(/^prefix below the minimum: the conversation starts again from the compaction summary, so only the tools and system could have been read, and their [\d,]+ tokens are under claude-opus-4-6's minimum of 4,096$/)
  })

  it('answers "nothing to compact" when there are not more than keepSteps assistant turns', async () => {
    h = await openHarness({ files: FILES })
    expect(await h.send('read README.md')).toBe('end_turn')
    expect(await h.send('/compact')).toBe('nothing_to_compact')
    const notice = h.entries().at(-1)!
    expect(notice.kind).toBe('notice')
    expect(String(notice.text)).toMatch(/^Nothing to compact/)
    expect(h.entries().some((e) => e.kind === 'checkpoint')).toBe(false)
  })

  it('answers "nothing to compact" in a session with no message yet, from the chat and from the Compaction view', async () => {
    h = await openHarness({ files: FILES })
    expect(await h.send('/compact')).toBe('nothing_to_compact')
    const notice = h.entries().at(-1)!
    expect(notice.kind).toBe('notice')
    expect(String(notice.text)).toMatch(/^Nothing to compact yet/)
    expect(h.entries().some((e) => e.kind === 'turn_failed')).toBe(false)
    expect(await h.call<{ status: string }>('compaction.run', { sessionId: h.sessionId, dryRun: true })).toMatchObject({ status: 'nothing_to_compact' })
  })

  it('leaves the conversation unchanged byte for byte when the summary stream is cancelled, says so in the chat, and records the cancelled pass', async () => {
    h = await openHarness({ files: FILES, wrap: holdSummaries(5000) })
    await threeTurns(h)
    const db = h.app.services.store.db
    const snapshot = () => ({
      entries: JSON.stringify(db.prepare('SELECT id, seq, at, kind, body FROM entries WHERE session_id = ? ORDER BY seq').all(h.sessionId)),
      state: db.prepare('SELECT state FROM sessions WHERE id = ?').pluck().get(h.sessionId) as string,
    })
    const before = snapshot()
    const streaming = h.next('compaction.progressed', (p) => p.stage === 'summary_streaming')
    const ended = h.next('turn.ended')
    await h.call('run.start', { sessionId: h.sessionId, text: '/compact keep the API decisions' })
    await streaming
    expect(await h.call('compaction.cancel', { sessionId: h.sessionId })).toEqual({ cancelled: true })
    expect((await ended).reason).toBe('cancelled')
    // One notice, which the model never sees, says so in the chat, with the command as typed; nothing else moved.
    const notice = h.entries().at(-1)!
    expect(notice).toMatchObject({ kind: 'notice', source: 'compaction', level: 'info', text: 'You cancelled “/compact keep the API decisions”: the conversation is exactly as it was.' })
    db.prepare('DELETE FROM entries WHERE id = ?').run(notice.id)
    expect(snapshot()).toEqual(before)
    const passes = await h.call<Pass[]>('pass.list', { sessionId: h.sessionId })
    expect(passes.at(-1)).toMatchObject({ kind: 'summary', status: 'cancelled' })
    expect(passes.at(-1)!.costUsd).toBeGreaterThan(0)
    expect(h.events.some((e) => e.name === 'compaction.failed' && e.payload.reason === 'cancelled')).toBe(true)
  })

  it('after a checkpoint, the tools and system read alone are placed by counts of their own, however the conversation before counted', async () => {
    // The first message is text that counts at about a token a character, four times the engine's estimate: every
    // count scaled from the first passes' usage is skewed by it. The system blocks' sizes, counted as the first pass
    // went out, place the read after the checkpoint where it ends (it was `unexplained`, read "at no breakpoint").
    h = await openHarness({ files: { ...FILES, 'CLAUDE.md': '# Rules\n\n' + 'Use tabs. '.repeat(10) + '\n' } })
    expect(await h.send('read README.md ' + '世界'.repeat(3000))).toBe('end_turn')
    await threeTurns(h)
    expect(await h.send('/compact keep the API decisions')).toBe('compacted')
    expect(await h.send('read README.md')).toBe('end_turn')
    expect(await h.send('read src/api.ts')).toBe('end_turn')

    const passes = await h.call<Array<Pass & { seq: number }>>('pass.list', { sessionId: h.sessionId })
    const attributions = await Promise.all(passes.map(async (p) => ({ kind: p.kind, ...(await h.call<{ attribution: { cause: { kind: string; label: string }; agrees: boolean; actual: { readPath: string | null } } }>('pass.get', { passId: p.id })).attribution })))
    expect(attributions.filter((a) => a.cause.kind === 'unexplained' || !a.agrees).map((a) => a.cause.label)).toEqual([])
    const summaryAt = attributions.findIndex((a) => a.kind === 'summary')
    expect(attributions[summaryAt + 1]!.actual.readPath).toBe('system[1]')
  })

  it('after a compaction refused, another one and the pass after it are predicted as the service read them: the system blocks read alone are placed where they end', async () => {
    // Two system blocks (CLAUDE.md gives the session block): after the checkpoint the pass reads both and nothing
    // after, a prefix no usage has measured, ~50 tokens apart.
    h = await openHarness({ files: { ...FILES, 'CLAUDE.md': '# Rules\n\nBe terse.\n' } })
    await threeTurns(h)
    const dry = await h.call<{ status: string; draft: { draftId: string } }>('compaction.run', { sessionId: h.sessionId, focus: 'keep the API decisions', dryRun: true })
    expect(dry.status).toBe('draft')
    const refused = await h.call<{ status: string; message: string }>('compaction.apply', { sessionId: h.sessionId, draftId: dry.draft.draftId, summary: 'a summary longer than the conversation '.repeat(20_000) })
    expect(refused).toMatchObject({ status: 'refused', message: expect.stringContaining('would not shrink') })
    expect(await h.send('/compact keep the API decisions')).toBe('compacted')
    expect(await h.send('read README.md')).toBe('end_turn')

    const passes = await h.call<Array<Pass & { seq: number }>>('pass.list', { sessionId: h.sessionId })
    expect(passes.filter((p) => p.kind === 'summary')).toHaveLength(2)
    const attributions = await Promise.all(passes.map(async (p) => ({ seq: p.seq, kind: p.kind, ...(await h.call<{ attribution: { cause: { kind: string }; agrees: boolean } }>('pass.get', { passId: p.id })).attribution })))
    expect(attributions.filter((a) => a.cause.kind === 'unexplained' || !a.agrees)).toEqual([])
    // The first pass after the checkpoint read the tools and both system blocks, as predicted.
    const after = await h.call<{ attribution: { prediction: { readPath: string }; actual: { readPath: string } } }>('pass.get', { passId: passes.at(-2)!.id })
    expect(after.attribution.actual.readPath).toBe('system[1]')
    expect(after.attribution.prediction.readPath).toBe('system[1]')
  })
})
