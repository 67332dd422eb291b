/**
 * An instruction file edited on disk mid-session: the next user message carries a "changed" note, the frozen
 * session block keeps its bytes (so the cache is not busted silently), and the change is noted once.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
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
  if (!r.ok) throw new Error(`${name}: ${r.error.message}`)
  return r.value as T
}

async function turn(sessionId: string, text: string): Promise<void> {
  const ended = new Promise<void>((resolve) => {
    const off = app!.events.subscribe((name) => {
      if (name === 'turn.ended') {
        off()
        resolve()
      }
    })
  })
  await call('run.start', { sessionId, text })
  await ended
}

describe('instruction files changed mid-session', () => {
  it('travel as a note after the breakpoints, once, and leave the frozen block alone', async () => {
    dir = mkdtempSync(join(tmpdir(), 'loupe-changed-'))
    writeFileSync(join(dir, 'AGENTS.md'), '# Rules\n\nUse tabs.\n')
    process.env.LOUPE_SIM_PACE = 'instant'
    app = await createApp({ host: 'browser', dataDir: join(dir, '.home'), loupeHome: join(dir, '.home'), homeDir: dir })
    const project = await call<{ id: string }>('project.open', { path: dir })
    const { id: sessionId } = await call<{ id: string }>('session.create', { projectId: project.id })
    await turn(sessionId, 'list the files')
    writeFileSync(join(dir, 'AGENTS.md'), '# Rules\n\nUse spaces, never tabs.\n')
    await turn(sessionId, 'list the files again')
    await turn(sessionId, 'and once more')

    const { entries } = await call<{ entries: Array<{ kind: string; notes?: Array<{ kind: string; path: string; change: string }> }> }>('session.get', { sessionId })
    const users = entries.filter((e) => e.kind === 'user_message')
    expect(users.map((u) => (u.notes ?? []).map((n) => `${n.kind} ${n.path} ${n.change}`))).toEqual([[], ['file_changed AGENTS.md modified'], []])

    const passes = await call<Array<{ id: string }>>('pass.list', { sessionId })
    const bodies = await Promise.all(passes.map((p) => call<{ requestBody: string }>('pass.get', { passId: p.id })))
    const systems = bodies.map((b) => JSON.stringify((JSON.parse(b.requestBody) as { system: unknown }).system))
    expect(new Set(systems).size).toBe(1)
    expect(systems[0]).toContain('Use tabs.')
    expect(bodies.at(-1)!.requestBody).toContain('AGENTS.md')
  })

  it('a nested instruction file that cannot be read is said in the conversation, once, not dropped unseen', async () => {
    dir = mkdtempSync(join(tmpdir(), 'loupe-nested-skipped-'))
    mkdirSync(join(dir, 'sub', 'pkg'), { recursive: true })
    writeFileSync(join(dir, 'sub', 'AGENTS.md'), '# Sub\n\nKeep it small.\n')
    // A NUL byte: binary, so the reader skips it.
    writeFileSync(join(dir, 'sub', 'pkg', 'CLAUDE.md'), '# Pkg\n\u0000binary\n')
    writeFileSync(join(dir, 'sub', 'pkg', 'index.ts'), 'export const x = 1\n')
    process.env.LOUPE_SIM_PACE = 'instant'
    app = await createApp({ host: 'browser', dataDir: join(dir, '.home'), loupeHome: join(dir, '.home'), homeDir: dir })
    const project = await call<{ id: string }>('project.open', { path: dir })
    const { id: sessionId } = await call<{ id: string }>('session.create', { projectId: project.id })
    await turn(sessionId, 'read sub/pkg/index.ts')
    await turn(sessionId, 'read sub/pkg/index.ts again')

    const { entries } = await call<{ entries: Array<{ kind: string; source?: string; level?: string; text?: string }> }>('session.get', { sessionId })
    const skipped = entries.filter((e) => e.kind === 'notice' && e.source === 'nested_instructions')
    expect(skipped).toHaveLength(1)
    expect(skipped[0]).toMatchObject({ level: 'warning' })
    expect(skipped[0]!.text).toMatch(/^An instruction file the agent would have followed here: sub\/pkg\/CLAUDE\.md was not read: .*binary/)
    // The readable one is delivered to the model as before.
    const passes = await call<Array<{ id: string }>>('pass.list', { sessionId })
    const bodies = await Promise.all(passes.map((p) => call<{ requestBody: string }>('pass.get', { passId: p.id })))
    expect(bodies.some((b) => b.requestBody.includes('Keep it small.'))).toBe(true)
  })
})
