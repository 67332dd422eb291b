/**
 * A tool call the model was writing when its output ran out (`max_tokens`): the service sends it with its input cut
 * where it stopped, and the simulator does as the service does. Run, it would write half a file; it is not run, its
 * result tells the model why, and the turn goes on.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Responder } from '../../../src-main/simulator'
import { cutToolInput } from '../../../src-main/simulator/compose'
import { call, demoSession, sendAndWait, simulatorApp, type SimulatorApp } from '../../support/app'

const LONG = 'The notes go on. '.repeat(20_000)

/** Writes a file far longer than a pass's output limit, then, told the call was cut, says so. */
const writesTooMuch: Responder = {
  respond: ({ request }) => {
    const last = request.messages.at(-1)!
    const result = last.content.find((b) => b.type === 'tool_result')
    return result
      ? { content: [{ type: 'text', text: 'The file is too long for one call; I will write it in parts.' }] }
      : { content: [{ type: 'text', text: 'Writing the notes.' }, { type: 'tool_use', name: 'write_file', input: { path: 'notes.md', content: LONG } }] }
  },
}

let running: SimulatorApp | null = null
afterEach(async () => {
  await running?.close()
  running = null
})

describe('a tool call cut off by the output limit', () => {
  it('is not run: nothing is written, its result says why, and the turn goes on', async () => {
    running = await simulatorApp({ seed: 'cut-off-call', responder: writesTooMuch })
    const { app } = running
    const { root, sessionId } = await demoSession(running)
    await call(app, 'session.setMode', { sessionId, mode: 'auto' })
    expect(await sendAndWait(app, sessionId, 'write the notes')).toBe('end_turn')

    expect(existsSync(join(root, 'notes.md'))).toBe(false)
    type Row = { kind: string; content?: unknown; outcome?: string; stopReason?: string; isError?: boolean }
    const { entries } = await call<{ entries: Row[] }>(app, 'session.entries', { sessionId, beforeSeq: Number.MAX_SAFE_INTEGER })
    const cut = entries.find((e) => e.kind === 'assistant_message')!
    expect(cut.stopReason).toBe('max_tokens')
    // What arrived of the call: its path, written whole; its text was being written when the output ran out.
    const [, use] = cut.content as Array<{ type: string; input?: Record<string, unknown> }>
    expect(use).toMatchObject({ type: 'tool_use', input: { path: 'notes.md' } })
    expect(use!.input!.content).toBeUndefined()
    const result = entries.find((e) => e.kind === 'tool_result')!
    expect(result).toMatchObject({ outcome: 'invalid', isError: true })
    expect(result.content).toMatch(/^Not run: your answer reached the output limit of [\d,]+ tokens while writing this write_file call/)
    expect(entries.filter((e) => e.kind === 'assistant_message').at(-1)!.content).toEqual([{ type: 'text', text: 'The file is too long for one call; I will write it in parts.' }])
  })
})

describe("the simulator's cut tool call", () => {
  it('streams its input as far as it was written, and holds the keys written whole', () => {
    const input = { path: 'a "quoted" name.md', content: 'line one\nline "two"\n'.repeat(200) }
    const cut = cutToolInput(input, 60)
    expect(JSON.stringify(input).startsWith(cut.json)).toBe(true)
    expect(cut.json.length).toBeGreaterThan(JSON.stringify({ path: input.path }).length)
    expect(cut.input).toEqual({ path: input.path })
    expect(cutToolInput(input, 100_000)).toEqual({ json: JSON.stringify(input), input })
  })
})
