/**
 * The "always allow" rules a session holds, through the contract: an approval answered "always" grants one, which
 * `session.rules` lists; `session.revokeRule` removes it, notes it in the conversation, and the next such call is
 * asked about again.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { call, simulatorApp, turnEnded, type SimulatorApp } from '../support/app'

/** A project holding greet.ts in `rig`'s folder, opened. */
async function greeterProject(rig: SimulatorApp): Promise<{ id: string }> {
  const root = join(rig.dir, 'greeter')
  mkdirSync(root)
  writeFileSync(join(root, 'greet.ts'), 'export const greet = () => "hello"\n')
  return call<{ id: string }>(rig.app, 'project.open', { path: root })
}

describe('always-allow rules', () => {
  let rig: SimulatorApp
  afterEach(async () => {
    await rig.close()
  })

  it('are listed once granted, and a removed one makes the next such call ask again', async () => {
    rig = await simulatorApp({ seed: 'allow-rules' })
    const { app } = rig
    const project = await greeterProject(rig)
    const { id: sessionId } = await call<{ id: string }>(app, 'session.create', { projectId: project.id })
    const asked: Array<{ toolUseId: string; request: { suggestedRules: Array<{ tool: string; pattern: string }> } }> = []
    let heard: () => void = () => {}
    app.events.subscribe((name, payload) => {
      if (name !== 'approval.requested') return
      asked.push(payload as (typeof asked)[number])
      heard()
    })
    /** Resolves once the n-th question has been asked. */
    const until = (n: number) => new Promise<void>((resolve) => (asked.length >= n ? resolve() : (heard = () => asked.length >= n && resolve())))

    expect(await call(app, 'session.rules', { sessionId })).toEqual({ allow: [] })
    let ended = turnEnded(app, sessionId)
    await call(app, 'run.start', { sessionId, text: 'replace "hello" with "goodbye" in greet.ts' })
    await until(1)
    const rule = asked[0]!.request.suggestedRules[0]!
    await call(app, 'approval.answer', { sessionId, toolUseId: asked[0]!.toolUseId, answer: { kind: 'always', rules: [rule] } })
    expect(await ended).toBe('end_turn')
    expect(await call(app, 'session.rules', { sessionId })).toEqual({ allow: [rule] })

    // Allowed now: the next edit runs without asking.
    ended = turnEnded(app, sessionId)
    await call(app, 'run.start', { sessionId, text: 'replace "goodbye" with "bye" in greet.ts' })
    expect(await ended).toBe('end_turn')
    expect(asked).toHaveLength(1)

    expect(await call(app, 'session.revokeRule', { sessionId, rule })).toEqual({ allow: [] })
    const state = await call<{ entries: Array<{ kind: string; source?: string; text?: string }> }>(app, 'session.get', { sessionId })
    expect(state.entries.at(-1)).toMatchObject({ kind: 'notice', source: 'permissions', text: expect.stringContaining(`No longer always allowed: ${rule.tool} ${rule.pattern}`) })
    expect(await app.dispatch('session.revokeRule', { sessionId, rule })).toMatchObject({ ok: false, error: { code: 'not_found' } })

    // Asked again.
    ended = turnEnded(app, sessionId)
    await call(app, 'run.start', { sessionId, text: 'replace "bye" with "hi" in greet.ts' })
    await until(2)
    expect(asked).toHaveLength(2)
    await call(app, 'approval.answer', { sessionId, toolUseId: asked[1]!.toolUseId, answer: { kind: 'deny' } })
    expect(await ended).toBe('end_turn')
  })
})

describe('a rule that names a tool', () => {
  let rig: SimulatorApp
  afterEach(async () => {
    await rig.close()
  })

  /** A project holding greet.ts, and a session in it whose stored state is `state` (as another version left it). */
  async function sessionWithState(state: unknown): Promise<{ app: SimulatorApp['app']; sessionId: string }> {
    rig = await simulatorApp({ seed: 'allow-rules-tools' })
    const { app } = rig
    const project = await greeterProject(rig)
    // Written before anything reads the session: the runtime starts from it, as after a restart.
    const { id: sessionId } = app.services.store.sessions.create(project.id, 'kept rules', Date.now())
    app.services.store.sessions.saveState(sessionId, JSON.stringify(state))
    return { app, sessionId }
  }

  it('is refused through the contract unless the agent has that tool, with the tools it has named', async () => {
    const { app, sessionId } = await sessionWithState({ version: 1, rules: { allow: [{ tool: 'bash', pattern: 'npm test' }], deny: [] } })
    const tools = 'bash, compact, edit_file, glob, grep, list_dir, read_file, remember, skill, todo_write, write_file'
    expect(await app.dispatch('session.revokeRule', { sessionId, rule: { tool: 'web_fetch', pattern: '*' } })).toEqual({
      ok: false,
      error: { code: 'invalid_input', message: `session.revokeRule: rule.tool: the tool must be one of ${tools}` },
    })
    const always = await app.dispatch('approval.answer', { sessionId, toolUseId: 'toolu_1', answer: { kind: 'always', rules: [{ tool: 'Bash', pattern: '*' }] } })
    expect(always).toEqual({ ok: false, error: { code: 'invalid_input', message: `approval.answer: answer.rules.0.tool: the tool must be one of ${tools}` } })
    // Nothing changed.
    expect(await call(app, 'session.rules', { sessionId })).toEqual({ allow: [{ tool: 'bash', pattern: 'npm test' }] })
  })

  it('kept in a session for a tool this build does not have is left out when the session is read, and the others still allow', async () => {
    const stored = {
      version: 1,
      rules: {
        allow: [{ tool: 'web_fetch', pattern: '*' }, { tool: 'edit_file', pattern: '**' }, 'bash *', { tool: 'bash' }, null, { tool: 'bash', pattern: 'npm test' }],
        deny: { tool: 'bash' },
      },
    }
    const { app, sessionId } = await sessionWithState(stored)
    expect(await call(app, 'session.rules', { sessionId })).toEqual({ allow: [{ tool: 'edit_file', pattern: '**' }, { tool: 'bash', pattern: 'npm test' }] })
    expect(await app.dispatch('session.get', { sessionId })).toMatchObject({ ok: true })

    // The edit rule kept still lets the edit through without asking.
    let asked = 0
    app.events.subscribe((name) => void (name === 'approval.requested' && asked++))
    const ended = turnEnded(app, sessionId)
    await call(app, 'run.start', { sessionId, text: 'replace "hello" with "goodbye" in greet.ts' })
    expect(await ended).toBe('end_turn')
    expect(asked).toBe(0)
    expect(readFileSync(join(rig.dir, 'greeter', 'greet.ts'), 'utf8')).toContain('goodbye')

    // And it is revoked as any other; what is saved from now on holds only the rules this build can use.
    expect(await call(app, 'session.revokeRule', { sessionId, rule: { tool: 'edit_file', pattern: '**' } })).toEqual({ allow: [{ tool: 'bash', pattern: 'npm test' }] })
    expect(JSON.parse(app.services.store.sessions.state(sessionId)).rules).toEqual({ allow: [{ tool: 'bash', pattern: 'npm test' }], deny: [] })
  })
})
