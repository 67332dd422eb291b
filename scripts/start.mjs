#!/usr/bin/env node
/**
 * `npm start`: builds the app, then opens the Electron window where Electron's binary is available; where it is
 * not (no network to download it, or a headless machine), says so in one line and starts browser mode instead.
 * `npm run web` (this script with --web) starts browser mode directly. Extra flags go to the host (--port N).
 */
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const args = process.argv.slice(2)
const webOnly = args.includes('--web') || process.env.LOUPE_WEB === '1'
const hostArgs = args.filter((a) => a !== '--web' && a !== '--no-build')

function run(cmd, cmdArgs, options = {}) {
  const result = spawnSync(cmd, cmdArgs, { cwd: root, stdio: 'inherit', ...options })
  return result.status ?? 1
}

function build() {
  if (args.includes('--no-build') && existsSync(join(root, 'out/main/server.js'))) return
  const electronVite = join(root, 'node_modules/electron-vite/bin/electron-vite.js')
  // The build's own output is noise for someone starting the app; show it only when it fails.
  const result = spawnSync(process.execPath, [electronVite, 'build'], { cwd: root, encoding: 'utf8' })
  if (result.status !== 0) {
    process.stderr.write(result.stdout + result.stderr)
    console.error('Loupe: the build failed (output above).')
    process.exit(1)
  }
}

/** The Electron executable if it is installed, or a one-line reason why not. Tries the download once. */
function findElectron() {
  const dir = join(root, 'node_modules/electron')
  if (!existsSync(join(dir, 'package.json'))) return { reason: 'the electron package is not installed' }
  const executable = () => {
    const pathFile = join(dir, 'path.txt')
    if (!existsSync(pathFile)) return null
    const file = join(process.env.ELECTRON_OVERRIDE_DIST_PATH ?? join(dir, 'dist'), readFileSync(pathFile, 'utf8').trim())
    return existsSync(file) ? file : null
  }
  let file = executable()
  if (!file) {
    // electron ≥ 42 downloads its binary on first use; try once, quietly, with a deadline.
    const attempt = spawnSync(process.execPath, [join(dir, 'install.js')], { cwd: dir, encoding: 'utf8', timeout: 120_000 })
    file = executable()
    if (!file) {
      const why = `${attempt.stderr ?? ''}${attempt.stdout ?? ''}`.match(/(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|fetch failed)[^\n]*/)?.[0]
      return { reason: `its binary could not be downloaded${why ? ` (${why.trim()})` : ''}` }
    }
  }
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return { reason: 'there is no display (DISPLAY is not set)' }
  }
  return { file }
}

function startBrowserMode() {
  const child = spawn(process.execPath, [join(root, 'out/main/server.js'), ...hostArgs], { cwd: root, stdio: 'inherit' })
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
  child.on('exit', (code) => process.exit(code ?? 0))
}

function startElectron(file) {
  const rebuild = join(root, 'scripts/electron-native.mjs')
  if (existsSync(rebuild)) run(process.execPath, [rebuild])
  const child = spawn(file, [root, ...hostArgs], { cwd: root, stdio: 'inherit' })
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
  child.on('exit', (code) => process.exit(code ?? 0))
}

build()
if (webOnly) {
  startBrowserMode()
} else {
  const electron = findElectron()
  if (electron.file) {
    startElectron(electron.file)
  } else {
    console.log(`Electron cannot run here: ${electron.reason}. Starting browser mode instead.`)
    startBrowserMode()
  }
}
