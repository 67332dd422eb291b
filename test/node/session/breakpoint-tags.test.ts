/**
 * Each stored segment names the breakpoint it carries in its own request: the message that was the newest tail (BP4)
 * in one pass is the previous tail (BP3) in the next, and the inspector labels it from what was stored.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { call, simulatorApp, turnEnded, type SimulatorApp } from '../../support/app'

let rig: SimulatorApp | null = null
afterEach(async () => {
  await rig?.close()
  rig = null
})

it('stores the breakpoint tag each marked message carries in that request', async () => {
  rig = await simulatorApp({ seed: 'breakpoint-tags' })
  const root = join(rig.dir, 'project')
  mkdirSync(root)
  writeFileSync(join(root, 'README.md'), '# Demo\n')
  const project = await call<{ id: string }>(rig.app, 'project.open', { path: root })
  const session = await call<{ id: string }>(rig.app, 'session.create', { projectId: project.id })
  const ended = turnEnded(rig.app, session.id)
  await call(rig.app, 'run.start', { sessionId: session.id, text: 'read README.md' })
  expect(await ended).toBe('end_turn')

  const passes = await call<Array<{ id: string }>>(rig.app, 'pass.list', { sessionId: session.id })
  const tags = []
  for (const p of passes) {
    const detail = await call<{ segments: Array<{ path: string; breakpoint: string | null }> }>(rig.app, 'pass.get', { passId: p.id })
    tags.push(detail.segments.filter((s) => s.path.startsWith('messages') && s.breakpoint !== null).map((s) => `${s.path}:${s.breakpoint}`))
  }
  expect(tags).toEqual([['messages[0]:newest_tail'], ['messages[0]:previous_tail', 'messages[2]:newest_tail']])
})
