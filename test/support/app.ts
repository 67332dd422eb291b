/** Driving a real app (createApp) through its contract from a node test. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { Clock } from '../../src-main/engine/ports'
import { createApp, type App } from '../../src-main/node/app'
import { createModelClient } from '../../src-main/node/model/client'
import type { Scheduler } from '../../src-main/node/session/keep-warm'
import type { FaultPlan } from '../../src-main/simulator/faults'
import { startSimulator, type Responder, type RunningSimulator } from '../../src-main/simulator/index'

/** Dispatches a request and returns its value; a typed error fails the test with its code and message. */
export async function call<T>(app: App, name: string, input: unknown): Promise<T> {
  const result = await app.dispatch(name, input)
  if (!result.ok) throw new Error(`${name}: ${result.error.code} ${result.error.message}`)
  return result.value as T
}

/** Resolves with the reason of the session's next `turn.ended`. Call before the request that starts the turn. */
export function turnEnded(app: App, sessionId: string): Promise<string> {
  return new Promise((resolve) => {
    const off = app.events.subscribe((name, payload) => {
      const p = payload as { sessionId: string; reason: string }
      if (name === 'turn.ended' && p.sessionId === sessionId) {
        off()
        resolve(p.reason)
      }
    })
  })
}

/** Sends a chat message to the session and waits for its run to end: resolves with the reason ('end_turn', 'compacted'). */
export async function sendAndWait(app: App, sessionId: string, text: string): Promise<string> {
  const ended = turnEnded(app, sessionId)
  await call(app, 'run.start', { sessionId, text })
  return ended
}

/** A real app in the browser host, answered by a simulator, its data folder in a fresh temporary folder. */
export interface SimulatorApp {
  readonly app: App
  readonly sim: RunningSimulator
  /** The temporary folder: the app's data folder is `.home` in it, and tests put their projects beside it. */
  readonly dir: string
  /** Closes the app and the simulator, and removes the folder; a second call does nothing. */
  close(): Promise<void>
}

export async function simulatorApp(options: { readonly seed: string; readonly model?: string; readonly clock?: Clock; readonly scheduler?: Scheduler; readonly faults?: FaultPlan; readonly responder?: Responder }): Promise<SimulatorApp> {
  const dir = mkdtempSync(join(tmpdir(), `loupe-${options.seed}-`))
  const clock = options.clock
  const sim = await startSimulator({ seed: options.seed, ...(clock ? { clock } : {}), ...(options.faults ? { faults: options.faults } : {}), ...(options.responder ? { responder: options.responder } : {}) })
  const client = createModelClient({ baseUrl: sim.baseUrl, apiKey: 'sk-sim-test', kind: 'simulator', maxRetries: 0, ...(clock ? { clock } : {}) })
  const app = await createApp({
    host: 'browser',
    dataDir: join(dir, '.home'),
    loupeHome: join(dir, '.home'),
    homeDir: dir,
    ...(clock ? { clock } : {}),
    ...(options.scheduler ? { scheduler: options.scheduler } : {}),
    endpoint: { client, kind: 'simulator', label: 'Offline simulator', model: options.model ?? 'claude-sonnet-4-6', close: async () => {} },
  })
  let closed = false
  return {
    app,
    sim,
    dir,
    close: async () => {
      if (closed) return
      closed = true
      await app.close()
      await sim.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/**
 * A project folder `demo` in the app's temporary folder holding `files` (a README when none are given), opened, and a
 * new session in it: its root and the session's id.
 */
export async function demoSession(running: SimulatorApp, files: Readonly<Record<string, string>> = { 'README.md': '# Demo\n' }): Promise<{ root: string; sessionId: string }> {
  const root = join(running.dir, 'demo')
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  mkdirSync(root, { recursive: true })
  const project = await call<{ id: string }>(running.app, 'project.open', { path: root })
  const { id: sessionId } = await call<{ id: string }>(running.app, 'session.create', { projectId: project.id })
  return { root, sessionId }
}

/**
 * A fault plan for the simulator that answers the next Messages request with a 500 once `failNext()` was called: the
 * pass then fails with no response (count_tokens and other requests pass).
 */
export function failNextMessages(): FaultPlan & { failNext(): void } {
  let armed = false
  return {
    failNext: () => void (armed = true),
    next: ({ method, path }) => {
      if (method !== 'POST' || !path.startsWith('/v1/messages') || path.includes('count_tokens') || !armed) return null
      armed = false
      return { kind: 'server_error' }
    },
  }
}
