/**
 * Real compactions (docs/compaction.md "Real compactions, replayed"): the three large Claude Code sessions in
 * test/fixtures/real/spotter/ each contain one compaction, with the token count before it and the summary Claude Code
 * wrote. Each conversation is replayed up to its compaction point through Loupe's compaction, with the simulator as
 * the model, and compared: tokens before and after, and whether every user request and every file path edited before
 * the split appears in Loupe's summary (those after the split are kept verbatim). The figures are printed for
 * docs/compaction.md.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { coverage, editedPaths, userRequests } from '../../../src-main/engine/compaction'
import { importSessionText, reconstructPass } from '../../../src-main/engine/transcripts'
import { createModelClient } from '../../../src-main/node/model/client'
import { nodeHasher } from '../../../src-main/node/hasher'
import { replayCompaction, replaySession } from '../../../src-main/node/compaction/real-compactions'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator'
import { readFixture, SPOTTER_SESSIONS } from '../../engine/transcripts/fixtures'

describe('replay of real compactions', () => {
  let simulator: RunningSimulator
  beforeAll(async () => {
    simulator = await startSimulator({ pace: 'instant', seed: 'replay' })
  })
  afterAll(async () => simulator.close())

  for (const name of SPOTTER_SESSIONS) {
    it(`compacts ${name.slice(0, 8)} keeping every request and edited path before the split`, async () => {
      const session = importSessionText(readFixture('spotter', `${name}.jsonl`).text)
      const checkpoint = session.checkpoints.find((c) => c.kind === 'compact')!
      expect(checkpoint.requestBefore).not.toBeNull()
      const request = session.requests[checkpoint.requestBefore!]!
      const messages = reconstructPass(session, request).messages
      const client = createModelClient({ baseUrl: simulator.baseUrl, apiKey: 'sk-test', kind: 'simulator', maxRetries: 0, cacheDiagnostics: false })
      const root = session.cwd ?? '/'
      const setup = { messages, client, model: 'claude-sonnet-4-6', hasher: nodeHasher, clock: { now: () => Date.now() }, root }
      const result = await replayCompaction(setup)
      const { entries } = replaySession(setup)
      const at = entries.findIndex((e) => e.id === result.draft.splitEntryId)
      const summarised = entries.slice(0, at)
      const ours = coverage(result.summary, userRequests(summarised), editedPaths(summarised), root)
      const theirs = coverage(checkpoint.summary ?? '', userRequests(entries), editedPaths(entries), root)
      const figures = {
        session: name.slice(0, 8),
        claudeCode: { trigger: checkpoint.trigger, preTokens: checkpoint.preTokens, contextAfter: checkpoint.contextTokensAfter, summaryChars: checkpoint.summary?.length ?? 0, requests: `${theirs.requests.kept}/${theirs.requests.total}`, editedPaths: `${theirs.paths.kept}/${theirs.paths.total}` },
        loupe: {
          form: result.draft.form,
          tokensBefore: result.tokensBefore,
          tokensAfter: result.tokensAfter,
          ratio: Math.round((result.tokensAfter / result.tokensBefore) * 1000) / 1000,
          summaryChars: result.summary.length,
          keptSteps: result.draft.keptSteps,
          requests: `${ours.requests.kept}/${ours.requests.total}`,
          editedPaths: `${ours.paths.kept}/${ours.paths.total}`,
          costUsd: Math.round(result.costUsd * 1e4) / 1e4,
          summaryCacheRead: result.summaryUsage[0]?.cache_read_input_tokens ?? 0,
        },
      }
      console.log(`replay ${JSON.stringify(figures)}`)

      expect(ours.requests.missing).toEqual([])
      expect(ours.paths.missing).toEqual([])
      expect(ours.requests.total).toBeGreaterThan(0)
      expect(result.tokensAfter).toBeLessThan(result.tokensBefore / 2)
      // The summary request read the session's cached prefix.
      expect(result.summaryUsage[0]!.cache_read_input_tokens).toBeGreaterThan(result.tokensBefore / 2)
    }, 120_000)
  }
})
