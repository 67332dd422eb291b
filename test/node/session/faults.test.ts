/**
 * The session runtime against the real simulator with faults injected: a reset mid-stream is retried by the
 * client; a 529 storm outlasts the retries and ends the turn with a retryable failure, after which a retry works;
 * Esc in the middle of a (slow) stream keeps the partial text. The session stays valid and every committed pass
 * re-assembles to the bytes the server received.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { unansweredToolUses } from '../../../src-main/engine/conversation/history'
import type { Entry } from '../../../src-main/engine/conversation/entries'
import { createApp, type App } from '../../../src-main/node/app'
import { createModelClient } from '../../../src-main/node/model/client'
import { costUsd, DEFAULT_MODEL_ID } from '../../../src-main/node/model/models'
import { sha256Hex } from '../../../src-main/node/store/blobs'
import { faultQueue, startSimulator, type Fault, type Pace } from '../../../src-main/simulator'

let cleanup: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn()
  cleanup = []
})

async function setup(faults: ReadonlyArray<Fault & { times?: number }>, pace: Pace = 'instant') {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-faults-'))
  writeFileSync(join(dir, 'README.md'), '# Faults\n\nA project for fault tests.\n')
  const queue = faultQueue(faults)
  const simulator = await startSimulator({ pace, faults: queue })
  // Short waits between retries keep the test fast; the retry rules themselves are the client's.
  const client = createModelClient({ baseUrl: simulator.baseUrl, apiKey: 'test', kind: 'simulator', streamRetryDelayMs: () => 1 })
  const app: App = await createApp({
    host: 'browser',
    dataDir: join(dir, '.home'),
    loupeHome: join(dir, '.home'),
    homeDir: dir,
    endpoint: { client, kind: 'simulator', label: 'Offline simulator', model: DEFAULT_MODEL_ID, close: () => simulator.close() },
  })
  cleanup.push(() => app.close(), () => rmSync(dir, { recursive: true, force: true }))
  const call = async <T>(name: string, input: unknown): Promise<T> => {
    const r = await app.dispatch(name, input)
    if (!r.ok) throw new Error(`${name}: ${r.error.message}`)
    return r.value as T
  }
  const project = await call<{ id: string }>('project.open', { path: dir })
  const { id: sessionId } = await call<{ id: string }>('session.create', { projectId: project.id })
  const turn = async (start: () => Promise<unknown>): Promise<string> => {
    const ended = new Promise<string>((resolve) => {
      const off = app.events.subscribe((name, p) => {
        if (name === 'turn.ended') {
          off()
          resolve((p as { reason: string }).reason)
        }
      })
    })
    await start()
    return ended
  }
  const check = () => {
    const store = app.services.store
    const entries = store.entries.list(sessionId) as Entry[]
    expect(unansweredToolUses(entries)).toEqual([])
    for (const p of store.passes.list(sessionId)) expect(sha256Hex(store.passes.requestBody(p.id))).toBe(p.requestSha256)
    return { entries, passes: store.passes.list(sessionId) }
  }
  return { app, call, sessionId, turn, check, queue }
}

describe('the loop against the simulator with faults', () => {
  it('recovers from a connection reset mid-stream, recording both attempts', async () => {
    const s = await setup([{ kind: 'reset', afterEvents: 3 }])
    expect(await s.turn(() => s.call('run.start', { sessionId: s.sessionId, text: 'read README.md' }))).toBe('end_turn')
    const { passes } = s.check()
    expect(passes.every((p) => p.status === 'done')).toBe(true)
    expect(passes[0]!.attempts.length).toBe(2)
    expect(passes[0]!.attempts[0]!.error).not.toBeNull()
  })

  it("bills both attempts of a pass whose stream broke after streaming part of an answer: the pass's cost is their sum", async () => {
    // Fifteen events in: message_start, a text block and a dozen of its deltas have streamed when the connection drops.
    const s = await setup([{ kind: 'reset', afterEvents: 15 }])
    expect(await s.turn(() => s.call('run.start', { sessionId: s.sessionId, text: 'Tell me about this project in detail, please.' }))).toBe('end_turn')
    const pass = s.check().passes[0]!
    expect(pass.attempts.map((a) => a.status)).toEqual([200, 200])
    const [broken, answered] = pass.attempts
    // The broken attempt was billed for its prompt (it wrote the cache the retry then read) and the output it streamed.
    expect(broken!.usage!.cache_creation_input_tokens).toBeGreaterThan(0)
    expect(broken!.usage!.output_tokens).toBeGreaterThan(1)
    expect(answered!.usage).toEqual(pass.usage)
    expect(answered!.usage!.cache_read_input_tokens).toBeGreaterThan(0)
    expect(answered!.costUsd).toBeCloseTo(costUsd(pass.model, pass.usage!)!, 12)
    expect(pass.costUsd).toBeCloseTo(broken!.costUsd! + answered!.costUsd!, 12)
    expect(pass.costUsd!).toBeGreaterThan(costUsd(pass.model, pass.usage!)!)
  })

  it('ends the turn with a retryable failure after a 529 storm, and a retry completes it', async () => {
    const s = await setup([{ kind: 'overloaded', times: 3 }])
    expect(await s.turn(() => s.call('run.start', { sessionId: s.sessionId, text: 'list the files' }))).toBe('error')
    const failed = s.check()
    expect(failed.entries.some((e) => e.kind === 'turn_failed' && e.retryable)).toBe(true)
    expect(failed.passes[0]!.status).toBe('failed')
    expect(failed.passes[0]!.attempts.map((a) => a.status)).toEqual([529, 529, 529])
    // The storm lasted three requests, all spent by the failed pass (the SDK's two retries included).
    expect(await s.turn(() => s.call('run.retry', { sessionId: s.sessionId }))).toBe('end_turn')
    const after = s.check()
    expect(after.passes.at(-1)!.status).toBe('done')
    expect(after.entries.filter((e) => e.kind === 'user_message')).toHaveLength(1)
  }, 60_000)

  it('a retry after a stream that broke partway sends the request again without what it streamed, and the answer is the retry\'s alone', async () => {
    // Every attempt of the first pass breaks after some of its answer has streamed (the client's own retries too).
    const s = await setup([{ kind: 'stream_error', afterEvents: 12, times: 3 }])
    expect(await s.turn(() => s.call('run.start', { sessionId: s.sessionId, text: 'Tell me about this project in detail, please.' }))).toBe('error')
    const failed = s.check()
    const partial = failed.entries.find((e) => e.kind === 'assistant_message')
    expect(partial?.kind === 'assistant_message' && partial.partial).toBe(true)
    expect(partial?.kind === 'assistant_message' && partial.content.some((b) => b.type === 'text' && b.text.trim() !== '')).toBe(true)
    // Sent last, the partial answer would be a prefill, which the model refuses (Sonnet 4.6 takes none).
    expect(await s.turn(() => s.call('run.retry', { sessionId: s.sessionId }))).toBe('end_turn')
    const after = s.check()
    const retried = after.passes[failed.passes.length]!
    expect(retried.status).toBe('done')
    const body = JSON.parse(s.app.services.store.passes.requestBody(retried.id)) as { messages: Array<{ role: string }> }
    expect(body.messages.map((m) => m.role)).toEqual(['user'])
    // A message after it sends the retry's answer alone, not the broken one's start merged into it.
    expect(await s.turn(() => s.call('run.start', { sessionId: s.sessionId, text: 'thanks' }))).toBe('end_turn')
    const next = JSON.parse(s.app.services.store.passes.requestBody(s.check().passes.at(-1)!.id)) as { messages: Array<{ role: string; content: unknown }> }
    const answer = after.entries.filter((e) => e.kind === 'assistant_message')[1]!
    expect(answer.kind === 'assistant_message' && answer.partial).toBe(false)
    expect(next.messages[1]).toEqual({ role: 'assistant', content: answer.kind === 'assistant_message' ? answer.content.filter((b) => b.type !== 'text' || b.text.trim() !== '') : null })
  }, 60_000)

  it('ends a turn the store refuses to record with the reason in the turn.ended event, and the app keeps serving', async () => {
    const s = await setup([])
    const ended = new Promise<{ reason: string; unrecorded?: string }>((resolve) => {
      const off = s.app.events.subscribe((name, p) => {
        if (name === 'turn.ended') {
          off()
          resolve(p as { reason: string; unrecorded?: string })
        }
      })
    })
    // Every write now fails as on a read-only or locked database file.
    s.app.services.store.db.pragma('query_only = ON')
    await s.call('run.start', { sessionId: s.sessionId, text: 'read README.md' })
    const end = await ended
    expect(end.reason).toBe('error')
    expect(end.unrecorded).toMatch(/^Loupe failed while running the turn: .*readonly.*\. The session could not be written to either, so this is not kept in it: .*readonly/)
    // The process is still up and the session still answers; once the store takes writes again, so do turns.
    expect((await s.call<{ entries: unknown[] }>('session.get', { sessionId: s.sessionId })).entries).toEqual([])
    s.app.services.store.db.pragma('query_only = OFF')
    expect(await s.turn(() => s.call('run.start', { sessionId: s.sessionId, text: 'read README.md' }))).toBe('end_turn')
  })

  it('keeps the partial answer when the user stops a slow stream', async () => {
    const s = await setup([], 'realistic')
    const firstDelta = new Promise<void>((resolve) => s.app.events.subscribe((name) => name === 'stream.delta' && resolve()))
    const ended = s.turn(() => s.call('run.start', { sessionId: s.sessionId, text: 'Tell me about this project in detail, please.' }))
    await firstDelta
    await s.call('run.cancel', { sessionId: s.sessionId })
    expect(await ended).toBe('cancelled')
    const { entries, passes } = s.check()
    expect(passes.at(-1)!.status).toBe('cancelled')
    const partial = entries.filter((e) => e.kind === 'assistant_message').at(-1)
    if (partial?.kind === 'assistant_message') expect(partial.partial).toBe(true)
  }, 60_000)
})
