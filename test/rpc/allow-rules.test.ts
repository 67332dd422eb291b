/**
 * The "always allow" rules a session holds, through the contract: an approval answered "always" grants one, which
 * `session.rules` lists; `session.revokeRule` removes it, notes it in the conversation, and the next such call is
 * asked about again.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { call, simulatorApp, turnEnded, type SimulatorApp } from '../support/app'

describe('always-allow rules', () => {
  let rig: SimulatorApp
  afterEach(async () => {
    await rig.close()
  })

  it('are listed once granted, and a removed one makes the next such call ask again', async () => {
    rig = await simulatorApp({ seed: 'allow-rules' })
    const { app } = rig
    const root = join(rig.dir, 'greeter')
    mkdirSync(root)
    writeFileSync(join(root, 'greet.ts'), 'export const greet = () => "hello"\n')
    const project = await call<{ id: string }>(app, 'project.open', { path: root })
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
