/**
 * `npm run import`, `replay` and `proxy` as the user runs them: the scripts themselves, spawned, so what their
 * wrappers do with the exit code and the error (one line, no stack) is seen. The commands' own cases are tested
 * in-process (test/node/transcripts/cli.test.ts, test/node/replay/cli.test.ts, test/node/proxy/controller.test.ts).
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const home = mkdtempSync(join(tmpdir(), 'loupe-cli-scripts-'))
afterAll(() => rmSync(home, { recursive: true, force: true }))

function runScript(script: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', script), ...args], {
      cwd: ROOT,
      env: { ...process.env, LOUPE_HOME: home },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    proc.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    proc.on('error', reject)
    proc.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

describe('the command-line scripts', () => {
  it('end a missing file with one line naming it and exit 1, and bad arguments with exit 2', async () => {
    const missing = join(home, 'missing.jsonl')
    const [replay, imported, proxy] = await Promise.all([
      runScript('replay.ts', [missing]),
      runScript('import.ts', [missing, '--store']),
      runScript('proxy.ts', ['--prot', '8080']),
    ])
    expect(replay).toEqual({ code: 1, stdout: '', stderr: `replay: ${missing} does not exist\n` })
    expect(imported).toEqual({ code: 1, stdout: '', stderr: `import: ${missing} does not exist\n` })
    expect(proxy.code).toBe(2)
    expect(proxy.stdout).toBe('')
    expect(proxy.stderr).toMatch(/^unknown option --prot\nusage:/)
  }, 60_000)
})
