/**
 * A message that by itself fills the model's context window is refused at run.start with a clear error: it never
 * enters the conversation, so the session is not left with a request every later pass would repeat and the API
 * refuse ("prompt is too long").
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createApp, type App } from '../../../src-main/node/app'

let app: App | null = null
let dir = ''
afterEach(async () => {
  await app?.close()
  rmSync(dir, { recursive: true, force: true })
})

async function call<T>(name: string, input: unknown): Promise<T> {
  const r = await app!.dispatch(name, input)
  if (!r.ok) throw new Error(`${name}: ${r.error.code}: ${r.error.message}`)
  return r.value as T
}

describe('a message too large for the context window', () => {
  it('is refused before it is sent, and the session goes on', async () => {
    dir = mkdtempSync(join(tmpdir(), 'loupe-too-large-'))
    writeFileSync(join(dir, 'README.md'), '# Demo\n')
    process.env.LOUPE_SIM_PACE = 'instant'
    app = await createApp({ host: 'browser', dataDir: join(dir, '.home'), loupeHome: join(dir, '.home'), homeDir: dir })
    // Claude Haiku 4.5 has a 200,000-token window.
    await call('settings.set', { app: { model: 'claude-haiku-4-5' } })
    const project = await call<{ id: string }>('project.open', { path: dir })
    const { id: sessionId } = await call<{ id: string }>('session.create', { projectId: project.id })

    const huge = '1234567890 '.repeat(80_000)
    await expect(call('run.start', { sessionId, text: huge })).rejects.toThrow(
      /^run\.start: invalid_input: This message is about 220,000 tokens \(880,000 characters\): with the tools and instructions it cannot fit in claude-haiku-4-5's 200,000-token context window\./,
    )
    const { entries } = await call<{ entries: Array<{ kind: string }> }>('session.get', { sessionId })
    expect(entries.filter((e) => e.kind === 'user_message')).toHaveLength(0)
    expect(await call<unknown[]>('pass.list', { sessionId })).toHaveLength(0)

    // A message that fits goes out as usual.
    const ended = new Promise<string>((resolve) => {
      const off = app!.events.subscribe((name, payload) => {
        if (name === 'turn.ended') {
          off()
          resolve((payload as { reason: string }).reason)
        }
      })
    })
    await call('run.start', { sessionId, text: 'read README.md' })
    expect(await ended).toBe('end_turn')
  })
})
