/**
 * An answer's text block of only line breaks, as models send one before a tool call: kept in the session as it came,
 * left out of what the next pass sends (the service refuses it, and the simulator does as the service does), so the
 * turn goes on instead of failing on this pass and every later one.
 */
import { afterEach, describe, expect, it } from 'vitest'
import type { Responder } from '../../../src-main/simulator'
import { call, demoSession, sendAndWait, simulatorApp, type SimulatorApp } from '../../support/app'

/** Answers "\n\n" and a list_dir call, then, once the call's result is back, a sentence. */
const blankBeforeCall: Responder = {
  respond: ({ request }) => {
    const last = request.messages.at(-1)!
    const answered = last.content.some((b) => b.type === 'tool_result')
    return answered
      ? { content: [{ type: 'text', text: 'The folder holds README.md.' }] }
      : { content: [{ type: 'text', text: '\n\n' }, { type: 'tool_use', name: 'list_dir', input: { path: '.' } }] }
  },
}

let running: SimulatorApp | null = null
afterEach(async () => {
  await running?.close()
  running = null
})

describe('an answer with a blank text block before its tool call', () => {
  it('is kept as it came and left out of the next pass, which the service then answers', async () => {
    running = await simulatorApp({ seed: 'blank-text', responder: blankBeforeCall })
    const { app } = running
    const { sessionId } = await demoSession(running)
    expect(await sendAndWait(app, sessionId, 'what is in this folder?')).toBe('end_turn')

    const { entries } = await call<{ entries: Array<{ kind: string; content?: Array<{ type: string; text?: string }> }> }>(app, 'session.entries', { sessionId, beforeSeq: Number.MAX_SAFE_INTEGER })
    const answers = entries.filter((e) => e.kind === 'assistant_message')
    expect(answers[0]!.content![0]).toEqual({ type: 'text', text: '\n\n' })
    expect(answers.at(-1)!.content).toEqual([{ type: 'text', text: 'The folder holds README.md.' }])
    const passes = await call<Array<{ id: string; kind: string; status: string }>>(app, 'pass.list', { sessionId })
    const main = passes.filter((p) => p.kind === 'main')
    expect(main.map((p) => p.status)).toEqual(['done', 'done'])
    const second = await call<{ requestBody: string }>(app, 'pass.get', { passId: main[1]!.id })
    const sent = JSON.parse(second.requestBody) as { messages: Array<{ role: string; content: Array<{ type: string }> }> }
    expect(sent.messages[1]!.content.map((b) => b.type)).toEqual(['tool_use'])
  })
})
