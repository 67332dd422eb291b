/**
 * Thinking through the real session runtime and the contract, against the simulator (docs/decisions/0010-thinking.md):
 * adaptive thinking on the models that offer it by default, its blocks sent back unchanged with their signatures,
 * the cache reading across them; the setting switched off at the next pass (one re-keyed pass, explained); and no
 * thinking on a model that only takes a fixed budget.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { PassAttribution } from '../../../src-main/engine/cache'
import type { App } from '../../../src-main/node/app'
import { thinkingFor } from '../../../src-main/node/model/models'
import { call, simulatorApp, turnEnded, type SimulatorApp } from '../../support/app'

interface Body {
  readonly max_tokens: number
  readonly thinking?: { type: string }
  readonly messages: ReadonlyArray<{ role: string; content: ReadonlyArray<{ type: string; thinking?: string; signature?: string }> }>
}

describe('thinking in the session runtime', () => {
  let rig: SimulatorApp
  let app: App
  let sessionId: string

  async function open(model: string): Promise<void> {
    rig = await simulatorApp({ seed: 'thinking', model })
    app = rig.app
    const root = join(rig.dir, 'shop')
    mkdirSync(root)
    writeFileSync(join(root, 'README.md'), '# Shop\n\nA small shop.\n' + 'Totals are integer cents. '.repeat(60))
    const project = await call<{ id: string }>(app, 'project.open', { path: root })
    sessionId = (await call<{ id: string }>(app, 'session.create', { projectId: project.id })).id
  }
  afterEach(async () => {
    await rig.close()
  })

  async function turn(text: string): Promise<void> {
    const ended = turnEnded(app, sessionId)
    await call(app, 'run.start', { sessionId, text })
    expect(await ended).toBe('end_turn')
  }
  const passes = () => app.services.store.passes.list(sessionId).filter((p) => p.kind === 'main')
  const body = (id: string): Body => JSON.parse(app.services.store.passes.requestBody(id)) as Body

  it('thinks on Sonnet 4.6 by default, sends the thinking back unchanged, and reads the cache across it', async () => {
    await open('claude-sonnet-4-6')
    await turn('read README.md')
    const [first, second] = passes()
    expect(body(first!.id)).toMatchObject({ thinking: { type: 'adaptive', display: 'summarized' }, max_tokens: 32_000 })
    // The first answer thought before calling the tool; the pass with the tool result carries it back as it came.
    const answered = body(second!.id).messages[1]!
    const thought = answered.content.find((b) => b.type === 'thinking')!
    expect(thought.thinking!.length).toBeGreaterThan(0)
    expect(thought.signature!.length).toBeGreaterThan(0)

    await turn('and what does it say about totals?')
    const third = passes()[2]!
    expect(body(third.id).messages[1]).toEqual(answered)
    expect(third.attribution as PassAttribution).toMatchObject({ outcome: 'full', agrees: true, cause: { kind: 'none' } })
  })

  it('stops thinking at the next pass when the setting is switched off: one re-keyed pass, explained', async () => {
    await open('claude-sonnet-4-6')
    await turn('read README.md')
    await call(app, 'settings.set', { app: { thinking: false } })
    await turn('thanks')
    const off = passes().at(-1)!
    const sent = body(off.id)
    expect(sent.thinking).toBeUndefined()
    expect(sent.max_tokens).toBe(8192)
    // The thinking setting salts the messages: tools and system are read, the messages written again.
    expect(off.attribution as PassAttribution).toMatchObject({ agrees: true, cause: { kind: 'changed_block', what: { kind: 'settings' } } })
    await turn('and again')
    expect(passes().at(-1)!.attribution as PassAttribution).toMatchObject({ outcome: 'full', agrees: true, cause: { kind: 'none' } })
  })

  it('asks for the thinking summarised on a model that omits it by default (Opus 4.8), so it can be read', async () => {
    await open('claude-opus-4-8')
    await turn('read README.md')
    const answered = body(passes()[1]!.id).messages[1]!
    expect(answered.content.find((b) => b.type === 'thinking')!.thinking!.length).toBeGreaterThan(0)
  })

  it('sends no thinking to a model that only takes a fixed budget (Haiku 4.5)', async () => {
    await open('claude-haiku-4-5')
    await turn('read README.md')
    for (const p of passes()) expect(body(p.id).thinking).toBeUndefined()
  })
})

describe('thinkingFor', () => {
  it('follows the model: off turns off a model that thinks unless told, and cannot stop one that always thinks (§8)', () => {
    const adaptive = { type: 'adaptive', display: 'summarized' }
    expect(thinkingFor('claude-sonnet-4-6', true)).toEqual(adaptive)
    expect(thinkingFor('claude-sonnet-4-6', false)).toBeNull()
    expect(thinkingFor('claude-opus-5', false)).toEqual({ type: 'disabled' })
    expect(thinkingFor('claude-opus-5-5', false)).toEqual(adaptive)
    expect(thinkingFor('claude-haiku-4-5', true)).toBeNull()
    expect(thinkingFor('a-model-nobody-knows', true)).toBeNull()
  })
})
