/**
 * Playwright fixtures: each test gets its own browser host (`node out/main/server.js`) with a temporary
 * LOUPE_HOME, and a page opened on its URL that has received `app.ready`. Waits are on app events, never sleeps.
 */
import { test as base, expect, type Page } from '@playwright/test'
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'

export interface BrowserHostProcess {
  readonly url: string
  readonly baseUrl: string
  readonly token: string
  readonly dataDir: string
}

export async function startHost(env: NodeJS.ProcessEnv = {}): Promise<BrowserHostProcess & { child: ChildProcess; stop(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'loupe-e2e-home-'))
  const child = spawn(process.execPath, ['out/main/server.js', '--port', '0'], {
    env: { ...process.env, LOUPE_HOME: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()))
  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! })
    lines.on('line', (line) => {
      if (/^http:\/\/127\.0\.0\.1:\d+\/#token=/.test(line)) resolve(line.trim())
    })
    child.once('exit', (code) => reject(new Error(`browser host exited (${code}) before printing its URL:\n${stderr}`)))
  })
  const [baseUrl, token] = url.split('/#token=') as [string, string]
  return {
    url,
    baseUrl,
    token,
    dataDir,
    child,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r))
        child.kill('SIGTERM')
        await exited
      }
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** Resolves when the page has received `app.ready` and loaded its first data. */
export async function openApp(page: Page, url: string): Promise<void> {
  await page.goto(url)
  await expect(page.locator('html[data-app-ready="true"]')).toHaveCount(1)
}

export const test = base.extend<{ host: BrowserHostProcess; app: Page }>({
  host: async ({}, use) => {
    const host = await startHost()
    await use(host)
    await host.stop()
  },
  app: async ({ page, host }, use) => {
    await openApp(page, host.url)
    await use(page)
  },
})

export { expect }
