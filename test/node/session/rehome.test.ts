/**
 * A session imported into a project at another folder than the one it was recorded in: its frozen prompt named the
 * old folder while its tools ran in the new one. It is read again in its new folder, and says so.
 */
import { mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { call, simulatorApp, turnEnded, type SimulatorApp } from '../../support/app'

let running: SimulatorApp | null = null
afterEach(async () => {
  await running?.close()
  running = null
})

it('reads an imported session again in its new folder before its next pass, and says so', async () => {
  running = await simulatorApp({ seed: 'rehome' })
  const { app, dir } = running
  const folder = (name: string) => {
    const root = join(dir, name)
    mkdirSync(root)
    writeFileSync(join(root, 'README.md'), `# ${name}\n`)
    return root
  }
  const first = await call<{ id: string; root: string }>(app, 'project.open', { path: folder('first') })
  const second = await call<{ id: string; root: string }>(app, 'project.open', { path: folder('second') })
  const { id: sessionId } = await call<{ id: string }>(app, 'session.create', { projectId: first.id })
  let ended = turnEnded(app, sessionId)
  await call(app, 'run.start', { sessionId, text: 'list the root' })
  await ended
  const exported = await call<{ path: string }>(app, 'session.export', { sessionId })
  await call(app, 'session.delete', { sessionId })
  await call(app, 'session.import', { projectId: second.id, path: exported.path })

  ended = turnEnded(app, sessionId)
  await call(app, 'run.start', { sessionId, text: 'list the root' })
  await ended
  const passes = await call<Array<{ id: string; kind: string }>>(app, 'pass.list', { sessionId })
  const last = JSON.parse(app.services.store.passes.requestBody(passes.filter((p) => p.kind === 'main').at(-1)!.id)) as { system: Array<{ text: string }>; messages: unknown[] }
  const prompt = JSON.stringify(last)
  expect(prompt).toContain(`The working root is ${second.root}`)
  expect(prompt).not.toContain(`The working root is ${first.root}`)
  const entries = (await call<{ entries: Array<{ kind: string; text?: string }> }>(app, 'session.get', { sessionId })).entries
  expect(entries.filter((e) => e.kind === 'notice').map((e) => e.text)).toEqual([
    `This session was recorded in ${first.root}; it now works in ${second.root}. Its instructions, memory and project context were read again here, so the next pass writes its prompt afresh.`,
  ])
})

it('does not read a session again at every turn when its folder is reached through a link', async () => {
  running = await simulatorApp({ seed: 'rehome-link' })
  const { app, dir } = running
  const root = join(dir, 'here')
  mkdirSync(root)
  writeFileSync(join(root, 'README.md'), '# here\n')
  const project = await call<{ id: string }>(app, 'project.open', { path: root })
  // The folder moves, and its old path, the project's, becomes a link to where it is now.
  renameSync(root, join(dir, 'moved'))
  symlinkSync(join(dir, 'moved'), root)
  const { id: sessionId } = await call<{ id: string }>(app, 'session.create', { projectId: project.id })
  for (const text of ['list the root', 'read README.md', 'list the root']) {
    const ended = turnEnded(app, sessionId)
    await call(app, 'run.start', { sessionId, text })
    await ended
  }
  const entries = (await call<{ entries: Array<{ kind: string }> }>(app, 'session.get', { sessionId })).entries
  expect(entries.filter((e) => e.kind === 'notice')).toEqual([])
  const passes = await call<Array<{ kind: string; cache?: unknown }>>(app, 'pass.list', { sessionId })
  expect(passes.filter((p) => p.kind === 'main').length).toBeGreaterThanOrEqual(3)
})
