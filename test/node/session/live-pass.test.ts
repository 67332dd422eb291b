/**
 * The pass in flight as the host tells it (`pass.live`, and `livePass` in `session.get`) to a window that opens or
 * reloads in the middle of it: its number and model, when it started and first streamed, and what `stream.delta`
 * sent so far, merged; null between passes. The whole app against the simulator, the model client wrapped to hold the
 * stream of the main pass open until the test releases it.
 */
import { afterEach, describe, expect, it } from 'vitest'
import type { ModelClient, ModelOutcome } from '../../../src-main/engine/ports'
import { isSummaryRequest, openHarness, type Harness } from '../compaction/harness'

interface LivePass {
  passNumber: number
  model: string
  startedAt: number
  firstDeltaAt: number | null
  events: Array<{ type: string; index?: number; text?: string }>
}

/** Streams "Reading the " then "README first." and waits for `release` before answering as the simulator would. */
function holdingFirstPass(release: Promise<void>) {
  let held = false
  return (client: ModelClient): ModelClient => ({
    endpoint: client.endpoint,
    countTokens: (r) => client.countTokens(r),
    async send(request, options): Promise<ModelOutcome> {
      if (held || isSummaryRequest(request as never)) return client.send(request, options)
      held = true
      options.onEvent?.({ type: 'message_started', messageId: 'msg_live', model: request.model })
      options.onEvent?.({ type: 'block_started', index: 0, kind: 'text' })
      options.onEvent?.({ type: 'text_delta', index: 0, text: 'Reading the ' })
      options.onEvent?.({ type: 'text_delta', index: 0, text: 'README first.' })
      await release
      return client.send(request, options)
    },
  })
}

describe('the pass in flight', () => {
  let h: Harness
  afterEach(async () => h?.close())

  it('is told with what it streamed so far while it runs, and is null once it is stored', async () => {
    let release = () => {}
    const released = new Promise<void>((r) => (release = r))
    h = await openHarness({ wrap: holdingFirstPass(released) })
    expect(await h.call('pass.live', { sessionId: h.sessionId })).toBeNull()

    const streamed = h.next('stream.delta')
    const ended = h.next('turn.ended')
    await h.call('run.start', { sessionId: h.sessionId, text: 'read README.md' })
    await streamed
    const live = await h.call<LivePass>('pass.live', { sessionId: h.sessionId })
    expect(live).toMatchObject({ passNumber: 1, model: 'claude-sonnet-4-6' })
    expect(live.firstDeltaAt).toBeGreaterThanOrEqual(live.startedAt)
    // The two text deltas, as stream.delta sent them: one merged delta after the block's start.
    expect(live.events.filter((e) => e.type === 'text_delta')).toEqual([{ type: 'text_delta', index: 0, text: 'Reading the README first.' }])
    expect(live.events.map((e) => e.type)).toEqual(['message_started', 'block_started', 'text_delta'])
    // session.get carries the same, for the chat.
    const state = await h.call<{ running: boolean; livePass: LivePass | null }>('session.get', { sessionId: h.sessionId })
    expect(state.running).toBe(true)
    expect(state.livePass).toEqual(live)

    release()
    expect((await ended).reason).toBe('end_turn')
    expect(await h.call('pass.live', { sessionId: h.sessionId })).toBeNull()
    expect((await h.call<{ livePass: LivePass | null }>('session.get', { sessionId: h.sessionId })).livePass).toBeNull()
  })

  it('refuses a session that does not exist', async () => {
    h = await openHarness()
    await expect(h.call('pass.live', { sessionId: 'ses_missing' })).rejects.toThrow(/No session ses_missing/)
  })
})
