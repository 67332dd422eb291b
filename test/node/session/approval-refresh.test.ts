/**
 * An approval's change preview follows its file on disk while the approval waits (engine/loop/turn.ts
 * watchWhileAsked, the node executor's watchPreview): the real runtime, a real folder, a real watch.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { call, simulatorApp, turnEnded, type SimulatorApp } from '../../support/app'

describe('an approval whose file changes on disk while it waits', () => {
  let rig: SimulatorApp
  afterEach(async () => {
    await rig.close()
  })

  it('is asked again with the preview made from the file as it is now, in every window', async () => {
    rig = await simulatorApp({ seed: 'approval-refresh' })
    const { app } = rig
    const root = join(rig.dir, 'greeter')
    mkdirSync(root)
    writeFileSync(join(root, 'greet.ts'), 'export const greet = () => "hello"\n')
    const project = await call<{ id: string }>(app, 'project.open', { path: root })
    const session = await call<{ id: string }>(app, 'session.create', { projectId: project.id })
    const asked: Array<{ preview?: { note: string | null; refused?: true; hunks: unknown[] } }> = []
    let onAsked: () => void = () => {}
    app.events.subscribe((name, payload) => {
      if (name !== 'approval.requested') return
      asked.push((payload as { request: (typeof asked)[number] }).request)
      onAsked()
    })
    const nextAsk = () => new Promise<void>((resolve) => (onAsked = resolve))
    const first = nextAsk()
    const ended = turnEnded(app, session.id)
    await call(app, 'run.start', { sessionId: session.id, text: 'replace "hello" with "goodbye" in greet.ts' })
    await first
    expect(asked[0]!.preview!.hunks.length).toBeGreaterThan(0)

    // The file edited: asked again, and the call will now refuse (the agent read the file before asking).
    const second = nextAsk()
    writeFileSync(join(root, 'greet.ts'), 'export const greet = () => "hello"\n// Said at the door.\n')
    await second
    expect(asked).toHaveLength(2)
    expect(asked[1]!.preview).toMatchObject({ refused: true, hunks: [] })
    // A window opened now is asked the question as it stands.
    const state = await call<{ pendingApprovals: Array<{ toolUseId: string; request: unknown }> }>(app, 'session.get', { sessionId: session.id })
    expect(state.pendingApprovals.map((p) => p.request)).toEqual([asked[1]])

    await call(app, 'approval.answer', { sessionId: session.id, toolUseId: state.pendingApprovals[0]!.toolUseId, answer: { kind: 'deny' } })
    expect(await ended).toBe('end_turn')
  })
})
