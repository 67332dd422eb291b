/**
 * A message that by itself fills the model's context window is refused at run.start with a clear error: it never
 * enters the conversation, so the session is not left with a request every later pass would repeat and the API
 * refuse ("prompt is too long").
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { call, simulatorApp, turnEnded, type SimulatorApp } from '../../support/app'

let running: SimulatorApp | null = null
afterEach(async () => {
  await running?.close()
  running = null
})

describe('a message too large for the context window', () => {
  it('is refused before it is sent, and the session goes on', async () => {
    // Claude Haiku 4.5 has a 200,000-token window.
    running = await simulatorApp({ seed: 'too-large', model: 'claude-haiku-4-5' })
    const { app, dir } = running
    const root = join(dir, 'demo')
    mkdirSync(root)
    writeFileSync(join(root, 'README.md'), '# Demo\n')
    const project = await call<{ id: string }>(app, 'project.open', { path: root })
    const { id: sessionId } = await call<{ id: string }>(app, 'session.create', { projectId: project.id })

    const huge = '1234567890 '.repeat(80_000)
    await expect(call(app, 'run.start', { sessionId, text: huge })).rejects.toThrow(
      /^run\.start: invalid_input This message is about 220,000 tokens \(880,000 characters\): with the tools and instructions it cannot fit in claude-haiku-4-5's 200,000-token context window\./,
    )
    const { entries } = await call<{ entries: Array<{ kind: string }> }>(app, 'session.get', { sessionId })
    expect(entries.filter((e) => e.kind === 'user_message')).toHaveLength(0)
    expect(await call<unknown[]>(app, 'pass.list', { sessionId })).toHaveLength(0)

    // A message that fits goes out as usual.
    const ended = turnEnded(app, sessionId)
    await call(app, 'run.start', { sessionId, text: 'read README.md' })
    expect(await ended).toBe('end_turn')
  })
})
