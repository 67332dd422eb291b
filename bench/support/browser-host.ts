/**
 * The built browser host (`out/main/server.js`, or `LOUPE_OUT_DIR`'s) as the browser benchmarks run it: a child
 * process on a free loopback port with its own data folder, and a way to let a page go quiet between measurements.
 */
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import type { Page } from 'playwright-core'
import WebSocket from 'ws'

/** The built app: out/ (npm run build); LOUPE_OUT_DIR points elsewhere, e.g. at a build of another checkout. */
export const outDir = process.env.LOUPE_OUT_DIR ?? join(__dirname, '..', '..', 'out')

export async function startBrowserHost(home: string, env: NodeJS.ProcessEnv = {}): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [join(outDir, 'main/server.js'), '--port', '0'], { env: { ...process.env, LOUPE_HOME: home, ...env }, stdio: ['ignore', 'pipe', 'inherit'] })
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => line.startsWith('http://') && resolve(line.trim()))
    child.once('exit', (code) => reject(new Error(`host exited ${code}`)))
  })
  return {
    url,
    stop: async () => {
      if (child.exitCode !== null) return
      const exited = new Promise((r) => child.once('exit', r))
      child.kill('SIGTERM')
      await exited
    },
  }
}

/**
 * Waits until the page has had idle time twice: each measurement starts from a quiet page, as when a user clicks,
 * not while the previous one's trailing work (hashing, background tokenizing) still runs.
 */
export async function settle(page: Page): Promise<void> {
  await page.evaluate(async () => {
    for (let i = 0; i < 2; i++) await new Promise<void>((resolve) => requestIdleCallback(() => resolve(), { timeout: 1000 }))
  })
}

export interface ContractHost {
  readonly url: string
  call<T>(name: string, input: unknown): Promise<T>
  /** Sends a message and resolves when its turn has ended. */
  turn(sessionId: string, text: string): Promise<void>
  stop(): Promise<void>
}

/** The built host at instant pace, with a contract connection that can wait for a turn to end. */
export async function startContractHost(home: string): Promise<ContractHost> {
  const host = await startBrowserHost(home, { LOUPE_SIM_PACE: 'instant' })
  const url = host.url
  const [base, token] = url.split('/#token=') as [string, string]
  const ws = new WebSocket(`${base.replace('http', 'ws')}/rpc?token=${token}`, { origin: base })
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
  let id = 0
  const answers = new Map<number, (result: { ok: boolean; value?: unknown; error?: { message: string } }) => void>()
  const ended = new Map<string, () => void>()
  ws.on('message', (data) => {
    const frame = JSON.parse(data.toString()) as { kind: string; id?: number; name?: string; payload?: { sessionId?: string }; result?: { ok: boolean; value?: unknown } }
    if (frame.kind === 'response' && frame.id !== undefined) answers.get(frame.id)?.(frame.result!)
    if (frame.kind === 'event' && frame.name === 'turn.ended' && frame.payload?.sessionId) ended.get(frame.payload.sessionId)?.()
  })
  const call = async <T>(name: string, input: unknown): Promise<T> => {
    const n = ++id
    const result = await new Promise<{ ok: boolean; value?: unknown; error?: { message: string } }>((resolve) => {
      answers.set(n, resolve)
      ws.send(JSON.stringify({ kind: 'request', id: n, name, input }))
    })
    answers.delete(n)
    if (!result.ok) throw new Error(`${name}: ${result.error?.message}`)
    return result.value as T
  }
  return {
    url,
    call,
    async turn(sessionId, text) {
      const done = new Promise<void>((resolve) => ended.set(sessionId, resolve))
      await call('run.start', { sessionId, text })
      await done
    },
    async stop() {
      ws.close()
      await host.stop()
    },
  }
}
