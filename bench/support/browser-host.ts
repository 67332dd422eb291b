/**
 * The built browser host (`out/main/server.js`, or `LOUPE_OUT_DIR`'s) as the browser benchmarks run it: a child
 * process on a free loopback port with its own data folder, and a way to let a page go quiet between measurements.
 */
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import type { Page } from 'playwright-core'

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
