/**
 * bash and Loupe's data folder (the deny list, docs/tools.md): a command that names the folder where the app keeps its
 * sessions and API key is refused in auto mode, through a real app answered by the simulator, whose data folder is
 * `.home` in the test's folder (also the home folder, so `~/.home` names it).
 */
import { afterEach, describe, expect, it } from 'vitest'
import { call, demoSession, simulatorApp, turnEnded, type SimulatorApp } from '../../support/app'

let running: SimulatorApp | null = null
afterEach(async () => {
  await running?.close()
  running = null
})

type Entry = { kind: string; outcome?: string; content?: unknown }

describe("bash and Loupe's data folder", () => {
  it('refuses a command naming the data folder in auto mode, and runs one that does not', async () => {
    running = await simulatorApp({ seed: 'data-folder' })
    const { app } = running
    const { sessionId } = await demoSession(running)
    await call(app, 'session.setMode', { sessionId, mode: 'auto' })
    const send = async (text: string) => {
      const ended = turnEnded(app, sessionId)
      await call(app, 'run.start', { sessionId, text })
      return ended
    }
    const lastResult = async () => (await call<{ entries: Entry[] }>(app, 'session.get', { sessionId })).entries.findLast((e) => e.kind === 'tool_result')!

    expect(await send('run `cat ~/.home/secrets.json`')).toBe('end_turn')
    const refused = await lastResult()
    expect(refused.outcome).toBe('blocked')
    expect(JSON.stringify(refused.content)).toContain("Loupe's data folder (~/.home)")

    expect(await send('run `cat README.md`')).toBe('end_turn')
    const ran = await lastResult()
    expect(ran.outcome).toBe('ran')
    expect(JSON.stringify(ran.content)).toContain('# Demo')
  })
})
