/**
 * Crash safety: a process running a scripted 50-pass session is killed with SIGKILL at random points, 20 times.
 * Each time the database reopens intact, every committed pass re-assembles to its captured bytes, every assistant
 * entry names a committed pass, and the session runs another turn (the loop closes any tool call left open).
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { describe, expect, it } from 'vitest'
import { createApp } from '../../../src-main/node/app'
import { openStore } from '../../../src-main/node/store'
import { sha256Hex } from '../../../src-main/node/store/blobs'

const RUNS = 20
const child = join(__dirname, 'crash-child.ts')

/** Deterministic "random" kill points, so a failure can be reproduced. */
function killPoint(run: number): { afterPasses: number; delayMs: number } {
  const x = Math.sin(run * 12.9898 + 78.233) * 43758.5453
  const r = x - Math.floor(x)
  return { afterPasses: 1 + Math.floor(r * 45), delayMs: Math.floor((r * 1000) % 15) }
}

async function runAndKill(dataDir: string, projectDir: string, afterPasses: number, delayMs: number): Promise<number> {
  const proc = spawn(process.execPath, ['--import', 'tsx', child, dataDir, projectDir], { stdio: ['ignore', 'pipe', 'pipe'] })
  let seen = 0
  let stderr = ''
  proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: proc.stdout }).on('line', (line) => {
      const m = /^passes (\d+)$/.exec(line)
      if (m) seen = Number(m[1])
      if ((m && seen >= afterPasses) || line === 'done') {
        setTimeout(() => proc.kill('SIGKILL'), delayMs)
      }
    })
    proc.once('exit', (code, signal) => (signal === 'SIGKILL' || code === 0 ? resolve() : reject(new Error(`child failed (${code}): ${stderr}`))))
  })
  return seen
}

function checkStore(dataDir: string): { passes: number; sessionId: string } {
  const store = openStore(join(dataDir, 'loupe.db'))
  try {
    expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok')
    const [project] = store.projects.list()
    const [session] = store.sessions.listByProject(project!.id)
    const entries = store.entries.list(session!.id)
    expect(entries.map((e) => e.seq)).toEqual(entries.map((_, i) => i + 1))
    const passes = store.passes.list(session!.id)
    const passIds = new Set(passes.map((p) => p.id))
    for (const p of passes) expect(sha256Hex(store.passes.requestBody(p.id))).toBe(p.requestSha256)
    for (const e of entries) if (e.kind === 'assistant_message') expect(passIds.has(e.passId)).toBe(true)
    return { passes: passes.length, sessionId: session!.id }
  } finally {
    store.close()
  }
}

describe('crash safety', () => {
  it(`reopens valid after ${RUNS} SIGKILLs at random points of a 50-pass session`, async () => {
    const summary: string[] = []
    for (let run = 0; run < RUNS; run++) {
      const dir = mkdtempSync(join(tmpdir(), 'loupe-crash-'))
      const dataDir = join(dir, 'home')
      const projectDir = join(dir, 'project')
      try {
        const { mkdirSync } = await import('node:fs')
        mkdirSync(projectDir)
        writeFileSync(join(projectDir, 'README.md'), '# Crash\n\nSays hello.\n')
        writeFileSync(join(projectDir, 'notes.txt'), 'hello\n')
        const { afterPasses, delayMs } = killPoint(run)
        const seen = await runAndKill(dataDir, projectDir, afterPasses, delayMs)
        const { passes, sessionId } = checkStore(dataDir)
        // Everything the child saw committed is still there (a kill may land after one more commit).
        expect(passes).toBeGreaterThanOrEqual(seen)
        summary.push(`${afterPasses}+${delayMs}ms→${passes}`)

        // The session goes on: a new turn runs and ends normally.
        process.env.LOUPE_SIM_PACE = 'instant'
        const app = await createApp({ host: 'browser', dataDir, loupeHome: dataDir, homeDir: projectDir })
        try {
          const ended = new Promise<string>((resolve) => app.events.subscribe((name, p) => name === 'turn.ended' && resolve((p as { reason: string }).reason)))
          const started = await app.dispatch('run.start', { sessionId, text: 'list the files' })
          expect(started.ok).toBe(true)
          expect(await ended).toBe('end_turn')
        } finally {
          await app.close()
        }
        checkStore(dataDir)
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    }
    expect(summary).toHaveLength(RUNS)
  }, 300_000)
})
