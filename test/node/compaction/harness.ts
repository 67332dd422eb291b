/**
 * A whole app (store, runtime, loop) on a temporary project, talking to the in-process simulator through the real
 * model client; the client can be wrapped to hold or fail summary requests. Events are recorded so tests wait on
 * what the app says, never on time.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { Usage } from '../../../src-main/engine/model/wire'
import type { ModelClient, ModelOutcome } from '../../../src-main/engine/ports'
import { createApp, type App } from '../../../src-main/node/app'
import { createModelClient } from '../../../src-main/node/model/client'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator'

export interface RecordedEvent {
  readonly name: string
  readonly payload: Record<string, unknown>
}

export interface Harness {
  readonly dir: string
  readonly app: App
  readonly sessionId: string
  readonly events: RecordedEvent[]
  call<T>(name: string, input: Record<string, unknown>): Promise<T>
  /** Sends a chat message and waits for its run to end; resolves with the reason. */
  send(text: string): Promise<string>
  /** Resolves with the next event of that name (for this session) that matches. */
  next(name: string, match?: (payload: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>
  entries(): Array<Record<string, unknown> & { id: string; kind: string; seq: number }>
  close(): Promise<void>
}

export const SUMMARY_MARK = 'Loupe asks for a summary of the conversation so far'

export function isSummaryRequest(body: { messages: ReadonlyArray<{ content: ReadonlyArray<{ type: string; text?: string }> }> }): boolean {
  const last = body.messages.at(-1)
  return last?.content.some((b) => b.type === 'text' && (b.text ?? '').startsWith(SUMMARY_MARK)) ?? false
}

/**
 * Wraps a client so that every summary request streams its first words and then holds, until it is aborted, as a
 * long summary would while the user cancels. `cacheRead`: the cache read its partial usage reports.
 */
export function holdSummaries(cacheRead = 0): (client: ModelClient) => ModelClient {
  return (client) => ({
    endpoint: client.endpoint,
    countTokens: (r) => client.countTokens(r),
    async send(request, options): Promise<ModelOutcome> {
      if (!isSummaryRequest(request as never)) return client.send(request, options)
      options.onEvent?.({ type: 'message_started', messageId: 'msg_hold', model: request.model })
      options.onEvent?.({ type: 'block_started', index: 0, kind: 'text' })
      options.onEvent?.({ type: 'text_delta', index: 0, text: '1. User requests:' })
      await new Promise<void>((resolve) => options.signal?.addEventListener('abort', () => resolve(), { once: true }))
      const usage: Usage = { input_tokens: 3, output_tokens: 4, cache_read_input_tokens: cacheRead, cache_creation_input_tokens: cacheRead > 0 ? 10 : 0 }
      return { ok: false, error: { kind: 'aborted', message: 'The request was aborted.', status: null }, partial: { id: 'msg_hold', model: request.model, content: [{ type: 'text', text: '1. User requests:' }], stop_reason: null, usage }, attempts: [] }
    },
  })
}

export async function openHarness(options: { files?: Record<string, string>; wrap?: (client: ModelClient) => ModelClient; model?: string } = {}): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-compact-'))
  const root = join(dir, 'project')
  const files = options.files ?? { 'README.md': '# Demo\n\nA small project for compaction tests.\n' }
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  mkdirSync(root, { recursive: true })
  const simulator: RunningSimulator = await startSimulator({ pace: 'instant', seed: 'compaction' })
  const base = createModelClient({ baseUrl: simulator.baseUrl, apiKey: 'sk-test', kind: 'simulator', maxRetries: 0 })
  const client = options.wrap ? options.wrap(base) : base
  const home = join(dir, 'home')
  const app = await createApp({
    host: 'browser',
    dataDir: home,
    loupeHome: home,
    homeDir: dir,
    endpoint: { client, kind: 'simulator', label: 'Offline simulator', model: options.model ?? 'claude-sonnet-4-6', close: () => simulator.close() },
  })
  const events: RecordedEvent[] = []
  const waiters: Array<{ name: string; match: (p: Record<string, unknown>) => boolean; resolve: (p: Record<string, unknown>) => void }> = []
  app.events.subscribe((name, payload) => {
    const p = payload as Record<string, unknown>
    events.push({ name, payload: p })
    for (const w of [...waiters]) {
      if (w.name === name && w.match(p)) {
        waiters.splice(waiters.indexOf(w), 1)
        w.resolve(p)
      }
    }
  })
  const call = async <T>(name: string, input: Record<string, unknown>): Promise<T> => {
    const result = await app.dispatch(name, input)
    if (!result.ok) throw new Error(`${name}: ${result.error.code} ${result.error.message}`)
    return result.value as T
  }
  const project = await call<{ id: string }>('project.open', { path: root })
  const session = await call<{ id: string }>('session.create', { projectId: project.id })
  const next = (name: string, match: (p: Record<string, unknown>) => boolean = () => true) =>
    new Promise<Record<string, unknown>>((resolve) => waiters.push({ name, match: (p) => p.sessionId === session.id && match(p), resolve }))
  return {
    dir: root,
    app,
    sessionId: session.id,
    events,
    call,
    next,
    async send(text) {
      const ended = next('turn.ended')
      await call('run.start', { sessionId: session.id, text })
      return String((await ended).reason)
    },
    entries() {
      return app.services.store.entries.list(session.id) as unknown as Array<Record<string, unknown> & { id: string; kind: string; seq: number }>
    },
    async close() {
      await app.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
