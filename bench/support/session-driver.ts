/**
 * Drives a real Loupe session (createApp: the store on a temporary SQLite file, the loop, the tools, the SDK
 * client) against an in-process simulator, turn after turn, for the benchmarks.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ModelClient } from '../../src-main/engine/ports'
import { createApp, type App } from '../../src-main/node/app'
import { createModelClient } from '../../src-main/node/model/client'
import type { ModelEndpoint } from '../../src-main/node/model/endpoint'
import { DEFAULT_MODEL_ID } from '../../src-main/node/model/models'
import { startSimulator, type FaultPlan } from '../../src-main/simulator'

export interface Driver {
  readonly app: App
  readonly sessionId: string
  readonly dir: string
  readonly dataDir: string
  /** Milliseconds spent inside the model client, per pass, in order. */
  readonly modelMs: number[]
  /** Wall-clock times at which each pass was committed. */
  readonly committedAt: number[]
  turn(text: string): Promise<string>
  close(): Promise<void>
}

/** A project of `files` text files of about `bytesPerFile` bytes each, named file0.txt … */
export function makeProject(dir: string, files: number, bytesPerFile: number): void {
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'README.md'), '# Bench project\n\nFiles to read, one per turn.\n')
  for (let i = 0; i < files; i++) {
    const lines: string[] = []
    for (let n = 0; lines.join('\n').length < bytesPerFile; n++) lines.push(`line ${n} of file ${i}: the quick brown fox jumps over the lazy dog ${(i * 7919 + n) % 1000}`)
    writeFileSync(join(dir, `file${i}.txt`), lines.join('\n') + '\n')
  }
}

export async function startDriver(options: { files?: number; bytesPerFile?: number; faults?: FaultPlan; model?: string } = {}): Promise<Driver> {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-bench-session-'))
  const projectDir = join(dir, 'project')
  const dataDir = join(dir, 'home')
  makeProject(projectDir, options.files ?? 10, options.bytesPerFile ?? 2000)
  const simulator = await startSimulator({ pace: 'instant', ...(options.faults ? { faults: options.faults } : {}) })
  const inner = createModelClient({ baseUrl: simulator.baseUrl, apiKey: 'bench', kind: 'simulator', streamRetryDelayMs: () => 5 })
  const modelMs: number[] = []
  const client: ModelClient = {
    endpoint: inner.endpoint,
    countTokens: (r) => inner.countTokens(r),
    async send(request, opts) {
      const t0 = performance.now()
      try {
        return await inner.send(request, opts)
      } finally {
        modelMs.push(performance.now() - t0)
      }
    },
  }
  const endpoint: ModelEndpoint = { client, kind: 'simulator', label: 'Offline simulator', model: options.model ?? DEFAULT_MODEL_ID, close: () => simulator.close() }
  const app = await createApp({ host: 'browser', dataDir, loupeHome: dataDir, homeDir: dir, endpoint })
  const call = async <T>(name: string, input: unknown): Promise<T> => {
    const r = await app.dispatch(name, input)
    if (!r.ok) throw new Error(`${name}: ${r.error.message}`)
    return r.value as T
  }
  const project = await call<{ id: string }>('project.open', { path: projectDir })
  const session = await call<{ id: string }>('session.create', { projectId: project.id })
  await call('session.setMode', { sessionId: session.id, mode: 'auto' })
  const committedAt: number[] = []
  app.events.subscribe((name) => {
    if (name === 'pass.completed') committedAt.push(performance.now())
  })
  return {
    app,
    sessionId: session.id,
    dir,
    dataDir,
    modelMs,
    committedAt,
    async turn(text) {
      const ended = new Promise<string>((resolve) => {
        const off = app.events.subscribe((name, p) => {
          if (name === 'turn.ended') {
            off()
            resolve((p as { reason: string }).reason)
          }
        })
      })
      await call('run.start', { sessionId: session.id, text })
      return ended
    },
    async close() {
      await app.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/**
 * The loop's own time per pass, everything but the model: each pass's cycle (from the previous commit, or its turn's
 * start, to this commit) minus the time spent inside the model client. `turnStarts`: when each turn was sent.
 */
export function passOverheads(driver: Pick<Driver, 'committedAt' | 'modelMs'>, turnStarts: ReadonlyArray<number>): number[] {
  const overhead: number[] = []
  let turn = 0
  for (let i = 0; i < driver.committedAt.length; i++) {
    const previous = i > 0 ? driver.committedAt[i - 1]! : turnStarts[0]!
    while (turn + 1 < turnStarts.length && turnStarts[turn + 1]! < driver.committedAt[i]!) turn++
    const start = Math.max(previous, turnStarts[turn]!)
    overhead.push(driver.committedAt[i]! - start - (driver.modelMs[i] ?? 0))
  }
  return overhead
}
