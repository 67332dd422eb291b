#!/usr/bin/env node
/** `npm run test:e2e`: the Playwright suite in Chromium against the built browser host. */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { findChromium, HOW_TO_GET_CHROMIUM } from './chromium.cjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const chromium = findChromium()
if (!chromium) {
  console.error(HOW_TO_GET_CHROMIUM)
  process.exit(1)
}
if (!existsSync(join(root, 'out/main/server.js'))) {
  console.error('The app is not built: run `npm run build` first (npm test does it for you).')
  process.exit(1)
}
const result = spawnSync(process.execPath, [join(root, 'node_modules/@playwright/test/cli.js'), 'test', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, PLAYWRIGHT_CHROMIUM_PATH: chromium },
})
process.exit(result.status ?? 1)
