/** The Cache view's figures for an imported Claude Code session, from its recorded usage. */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openStore, type Store } from '../../../src-main/node/store'
import { transcriptCacheSummary } from '../../../src-main/node/cache/transcript-summary'
import { importTranscript } from '../../../src-main/node/transcripts/store-import'

const SPOTTER = join(__dirname, '../../fixtures/real/spotter')
let dir: string
let store: Store
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'loupe-transcript-summary-'))
  store = openStore(join(dir, 'loupe.db'))
})
afterAll(() => {
  store.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('transcriptCacheSummary', () => {
  it.each(['fa812bfe-b295-4cca-9c2f-fdf01028cb46', 'ae4a77f8-aedd-4bc1-888f-c94edc91af04', '4d5611e5-241a-462a-8d15-5122611a9569'])(
    '%s: the first request after a compaction loses nothing (it sends a new, shorter history by design)',
    async (name) => {
      const { sessionId } = await importTranscript(store, join(SPOTTER, `${name}.jsonl`), { now: 1 })
      const summary = transcriptCacheSummary(sessionId, store.passes.list(sessionId))
      const compaction = summary.byCause.find((c) => c.kind === 'compaction')
      if (compaction) expect(compaction.tokens).toBe(0)
      // No pass is said to have lost more than it sent.
      for (const p of store.passes.list(sessionId)) {
        const row = (summary as unknown as { passes: Array<{ passId: string; missTokens: number }> }).passes.find((r) => r.passId === p.id)
        const sent = p.usage ? p.usage.input_tokens + (p.usage.cache_read_input_tokens ?? 0) + (p.usage.cache_creation_input_tokens ?? 0) : 0
        if (row) expect(row.missTokens).toBeLessThanOrEqual(sent)
      }
    },
  )

  it('a request after a pause longer than every TTL loses nothing: no cache could have bridged it, and the best possible says so', async () => {
    const { sessionId } = await importTranscript(store, join(SPOTTER, '4d5611e5-241a-462a-8d15-5122611a9569.jsonl'), { now: 1 })
    const passes = store.passes.list(sessionId).filter((p) => p.usage !== null)
    const summary = transcriptCacheSummary(sessionId, passes)
    const startOf = (p: (typeof passes)[number]) => p.attempts[0]?.startedAt ?? p.queuedAt
    const afterLongPause = passes.filter((p, i) => i > 0 && startOf(p) - startOf(passes[i - 1]!) > 60 * 60_000)
    // The session has one: a 4.2-hour absence.
    expect(afterLongPause.length).toBeGreaterThan(0)
    for (const p of afterLongPause) {
      const row = summary.passes.find((r) => r.passId === p.id)!
      expect(row.missTokens).toBe(0)
      expect(row.missUsd).toBe(0)
      expect(row.summary).toContain('longer than any cache entry is kept (1 h at most)')
    }
    // What the totals say was lost is what lies between the cached share and the best possible, never more.
    expect(summary.totals.missTokens).toBeLessThanOrEqual(summary.totals.limitRead - summary.totals.read)
  })
})
