/** A real browser host (HTTP + WebSocket on 127.0.0.1) in a temporary folder, with a stand-in renderer page. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startBrowserHost, type BrowserHost } from '../../src-main/server/host'

export interface TestHost {
  readonly host: BrowserHost
  /** Closes the host and removes its folder. */
  close(): Promise<void>
}

export async function startTestHost(prefix: string): Promise<TestHost> {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  mkdirSync(join(dir, 'renderer'))
  writeFileSync(join(dir, 'renderer', 'index.html'), '<!doctype html><title>t</title>')
  const host = await startBrowserHost({ port: 0, dataDir: join(dir, 'home'), rendererDir: join(dir, 'renderer'), homeDir: dir })
  return {
    host,
    async close() {
      await host.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
