/**
 * `npm run web [-- --port N]` ends here (through scripts/start.mjs): starts the browser host and prints the URL
 * to open, with its token, on a line of its own. `LOUPE_HOME` sets the data folder.
 */
import { join } from 'node:path'
import { browserDataDir } from '../node/data-dir'
import { startBrowserHost } from './host'

function parsePort(argv: ReadonlyArray<string>): number {
  const i = argv.indexOf('--port')
  const raw = i >= 0 ? argv[i + 1] : argv.find((a) => a.startsWith('--port='))?.slice('--port='.length)
  if (raw === undefined) return 0
  const port = Number(raw)
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`--port takes a number from 0 to 65535 (got "${raw}")`)
    process.exit(2)
  }
  return port
}

async function main(): Promise<void> {
  const dataDir = browserDataDir()
  // Built layout: out/main/server.js serves out/renderer.
  const rendererDir = process.env.LOUPE_RENDERER_DIR ?? join(__dirname, '../renderer')
  const host = await startBrowserHost({ port: parsePort(process.argv.slice(2)), dataDir, rendererDir })
  console.log(`Loupe (browser mode), data in ${dataDir}. Open this URL in Chromium:`)
  console.log(host.url)
  const stop = () => {
    void host.close().finally(() => process.exit(0))
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
  // A promise nobody awaited that fails is a bug, and Node would end the process for it: every session's run and
  // every window with it. It is logged and the host goes on, as the Electron host's main process does.
  process.on('unhandledRejection', (reason) => {
    console.error(`Loupe: an operation failed with nobody to tell: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`)
  })
}

main().catch((err: Error) => {
  console.error(`Loupe could not start: ${err.message}`)
  process.exit(1)
})
