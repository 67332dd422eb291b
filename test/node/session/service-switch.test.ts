/**
 * A session that goes on after the service that answers changed (an API key saved or forgotten between two passes).
 * A thinking block's signature is the service's that wrote it, and a service refuses signatures it did not issue: the
 * answers the other service wrote go without their thinking blocks, and the conversation goes on.
 *
 * The simulator checks its own signatures as the API checks its own. The API here is a stand-in in front of the same
 * simulator that does what the real one does with signatures: it issues its own (so the simulator, as the offline
 * service, refuses them) and refuses, in the latest answer, any it did not issue.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { AssistantContentBlock, WireMessage, WireRequest } from '../../../src-main/engine/model/wire'
import type { ModelClient, ModelOutcome, ModelService } from '../../../src-main/engine/ports'
import { createApp, type App } from '../../../src-main/node/app'
import { createModelClient } from '../../../src-main/node/model/client'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator'
import { call, turnEnded } from '../../support/app'

/** The stand-in's signatures: another shape than the simulator's, wrapping it so the simulator can answer behind it. */
const API_MARK = 'EqQB'
const toApi = (signature: string) => API_MARK + Buffer.from(signature).toString('base64')
const fromApi = (signature: string) => Buffer.from(signature.slice(API_MARK.length), 'base64').toString()

function resign(content: ReadonlyArray<AssistantContentBlock>, sign: (signature: string) => string): AssistantContentBlock[] {
  return content.map((b) => (b.type === 'thinking' ? { ...b, signature: sign(b.signature) } : b))
}

/** The "Anthropic API": the simulator behind it, answering with signatures of the API's own. `sent`: what it was sent. */
function apiStandIn(behind: ModelClient): ModelClient & { readonly sent: WireRequest[] } {
  const sent: WireRequest[] = []
  return {
    sent,
    endpoint: { kind: 'anthropic', baseUrl: 'https://api.anthropic.com' },
    countTokens: (request) => behind.countTokens(request),
    async send(request: WireRequest, options): Promise<ModelOutcome> {
      sent.push(request)
      const latest = request.messages.findLastIndex((m) => m.role === 'assistant')
      const messages: WireMessage[] = []
      for (const [i, m] of request.messages.entries()) {
        if (m.role !== 'assistant') {
          messages.push(m)
          continue
        }
        const foreign = m.content.findIndex((b) => b.type === 'thinking' && !b.signature.startsWith(API_MARK))
        if (i === latest && foreign >= 0) {
          const message = `messages.${i}.content.${foreign}: Invalid \`signature\` in \`thinking\` block`
          return { ok: false, error: { kind: 'invalid_request', message, status: 400 }, partial: null, attempts: [], endpoint: this.endpoint }
        }
        messages.push({ ...m, content: resign(m.content, (s) => (s.startsWith(API_MARK) ? fromApi(s) : s)) })
      }
      const outcome = { ...(await behind.send({ ...request, messages }, options)), endpoint: this.endpoint }
      return outcome.ok ? { ...outcome, message: { ...outcome.message, content: resign(outcome.message.content, toApi) } } : outcome
    },
  }
}

interface Body {
  readonly messages: ReadonlyArray<{ role: string; content: ReadonlyArray<{ type: string; signature?: string }> }>
}

const thinkingSent = (body: Body) => body.messages.flatMap((m) => m.content.filter((b) => b.type === 'thinking').map((b) => b.signature!))

describe('a session that goes on after the service changed', () => {
  let sim: RunningSimulator
  let app: App
  let dir: string
  afterEach(async () => {
    await app.close()
    await sim.close()
    rmSync(dir, { recursive: true, force: true })
  })

  async function open(): Promise<{ sessionId: string; use: (service: ModelService) => void; api: ReturnType<typeof apiStandIn> }> {
    dir = mkdtempSync(join(tmpdir(), 'loupe-service-switch-'))
    sim = await startSimulator({ seed: 'service-switch' })
    const offline = createModelClient({ baseUrl: sim.baseUrl, apiKey: 'sk-sim-test', kind: 'simulator', maxRetries: 0 })
    const api = apiStandIn(offline)
    let current: ModelClient = offline
    // One client for the app's life, each call going to what answers now (as node/model/connect.ts hands out).
    const client: ModelClient = {
      get endpoint() {
        return current.endpoint
      },
      send: (request, options) => current.send(request, options),
      countTokens: (request) => current.countTokens(request),
    }
    app = await createApp({
      host: 'browser',
      dataDir: join(dir, '.home'),
      loupeHome: join(dir, '.home'),
      homeDir: dir,
      endpoint: { client, kind: 'simulator', label: 'Offline simulator', model: 'claude-sonnet-4-6', close: async () => {} },
    })
    const root = join(dir, 'shop')
    mkdirSync(root)
    writeFileSync(join(root, 'README.md'), '# Shop\n\nA small shop. Totals are integer cents.\n')
    writeFileSync(join(root, 'greet.ts'), 'export const greet = () => "hello"\n')
    const project = await call<{ id: string }>(app, 'project.open', { path: root })
    const sessionId = (await call<{ id: string }>(app, 'session.create', { projectId: project.id })).id
    return { sessionId, api, use: (service) => void (current = service === 'simulator' ? offline : api) }
  }

  async function turn(sessionId: string, text: string): Promise<string> {
    const ended = turnEnded(app, sessionId)
    await call(app, 'run.start', { sessionId, text })
    return ended
  }
  /** What the simulator was sent last, as stored. */
  const lastBody = (sessionId: string): Body => JSON.parse(app.services.store.passes.requestBody(app.services.store.passes.list(sessionId).filter((p) => p.kind === 'main').at(-1)!.id)) as Body

  it('offline first, then with a key: the offline answers go to the API without their thinking, and the turn goes on', async () => {
    const { sessionId, use, api } = await open()
    expect(await turn(sessionId, 'read README.md')).toBe('end_turn')
    const offline = thinkingSent(lastBody(sessionId))
    expect(offline.length).toBeGreaterThan(0)

    use('anthropic')
    expect(await turn(sessionId, 'what does it say about totals?')).toBe('end_turn')
    // The offline answers went without their thinking, first pass and last.
    for (const request of api.sent) expect(thinkingSent(request).some((s) => offline.includes(s))).toBe(false)
    expect(thinkingSent(api.sent[0]!)).toEqual([])
    const entries = app.services.store.entries.list(sessionId)
    expect(entries.filter((e) => e.kind === 'assistant_message').map((e) => e.kind === 'assistant_message' && e.service)).toContain('anthropic')
  })

  it('with a key first, then offline: the API\'s answers go to the simulator without their thinking, and back again with it', async () => {
    const { sessionId, use, api } = await open()
    use('anthropic')
    expect(await turn(sessionId, 'read README.md')).toBe('end_turn')
    // The API's own answer went back to it whole within the turn (the pass with the tool result).
    const apiSignatures = thinkingSent(api.sent.at(-1)!)
    expect(apiSignatures.length).toBeGreaterThan(0)
    expect(apiSignatures.every((s) => s.startsWith(API_MARK))).toBe(true)

    use('simulator')
    expect(await turn(sessionId, 'what does it say about totals?')).toBe('end_turn')
    expect(thinkingSent(lastBody(sessionId)).some((s) => s.startsWith(API_MARK))).toBe(false)

    // Back on the API: its own answers go whole again, the simulator's without their thinking.
    const before = api.sent.length
    use('anthropic')
    expect(await turn(sessionId, 'thanks')).toBe('end_turn')
    const sent = thinkingSent(api.sent[before]!)
    expect(sent.every((s) => s.startsWith(API_MARK))).toBe(true)
    for (const signature of apiSignatures) expect(sent).toContain(signature)
  })

  it('a key saved while a turn waits on an approval: the turn\'s later answers are the API\'s, and going back offline after it works', async () => {
    const { sessionId, use, api } = await open()
    const asked = new Promise<string>((resolve) => {
      const off = app.events.subscribe((name, payload) => {
        if (name !== 'approval.requested') return
        off()
        resolve((payload as { toolUseId: string }).toolUseId)
      })
    })
    const ended = turnEnded(app, sessionId)
    await call(app, 'run.start', { sessionId, text: 'replace "hello" with "goodbye" in greet.ts' })
    const toolUseId = await asked
    // The key is saved in Settings while the edit waits: the rest of the turn goes to the API.
    use('anthropic')
    await call(app, 'approval.answer', { sessionId, toolUseId, answer: { kind: 'once' } })
    expect(await ended).toBe('end_turn')
    expect(api.sent.length).toBeGreaterThan(0)
    const services = app.services.store.entries.list(sessionId).flatMap((e) => (e.kind === 'assistant_message' ? [e.service] : []))
    expect(services[0]).toBe('simulator')
    expect(services.at(-1)).toBe('anthropic')

    // Offline again: the API's answer, the latest, goes without its thinking, and the simulator takes the pass.
    use('simulator')
    expect(await turn(sessionId, 'thanks')).toBe('end_turn')
    expect(thinkingSent(lastBody(sessionId)).some((s) => s.startsWith(API_MARK))).toBe(false)
  })
})
