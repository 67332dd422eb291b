#!/usr/bin/env node
/**
 * Builds better-sqlite3 for Electron's ABI into .electron-native/better_sqlite3.node, leaving node_modules built
 * for Node (which the tests and browser mode use). The Electron host loads that file through better-sqlite3's
 * `nativeBinding` option. Needs the network (Electron's headers); does nothing when the file already exists.
 * See docs/decisions/0002-better-sqlite3-two-abis.md.
 */
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const target = join(root, '.electron-native/better_sqlite3.node')
if (existsSync(target) && !process.argv.includes('--force')) process.exit(0)

const electronVersion = JSON.parse(readFileSync(join(root, 'node_modules/electron/package.json'), 'utf8')).version
const work = join(tmpdir(), `loupe-sqlite-electron-${process.pid}`)
cpSync(join(root, 'node_modules/better-sqlite3'), work, { recursive: true, filter: (src) => !src.includes(`${'build'}/Release/obj`) })
const nodeGyp = join(dirname(process.execPath), '../lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js')
const env = { ...process.env }
// npm's `nodedir` setting would make node-gyp build against Node's headers instead of Electron's.
delete env.npm_config_nodedir
console.log(`Building better-sqlite3 for Electron ${electronVersion} (once)…`)
const result = spawnSync(
  process.execPath,
  [existsSync(nodeGyp) ? nodeGyp : 'node-gyp', 'rebuild', '--release', `--target=${electronVersion}`, '--runtime=electron', '--dist-url=https://electronjs.org/headers'],
  { cwd: work, stdio: 'inherit', env },
)
if (result.status === 0) {
  mkdirSync(dirname(target), { recursive: true })
  cpSync(join(work, 'build/Release/better_sqlite3.node'), target)
  console.log(`Wrote ${target}`)
} else {
  console.error('Could not build better-sqlite3 for Electron; the window will fail to open its database.')
}
rmSync(work, { recursive: true, force: true })
process.exit(result.status ?? 1)
