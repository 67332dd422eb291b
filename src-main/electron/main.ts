/**
 * The Electron host: one window, the renderer served from a custom `loupe://` scheme out of the built files, and
 * the contract over IPC. The Electron host's items of the security checklist (docs/security.md) are set here,
 * except the preload's (src-preload/index.ts), its build (electron.vite.config.ts) and input parsing
 * (src-main/rpc/dispatch.ts). Besides the preload, this is the only folder in the project that imports electron.
 */
import { app, BrowserWindow, dialog, ipcMain, net, protocol, session, shell, type IpcMainInvokeEvent } from 'electron'
import { existsSync } from 'node:fs'
import { join, normalize, sep } from 'node:path'
import { pathToFileURL } from 'node:url'
import { IPC_EVENT_CHANNEL, IPC_REQUEST_CHANNEL, type Result } from '../../src-preload/contract'
import { createApp, type App } from '../node/app'
import { contentSecurityPolicy } from '../node/csp'
import { createLogger } from '../node/log'
import { safeStorageSecretStore } from './secrets'

const SCHEME = 'loupe'
const APP_ORIGIN = `${SCHEME}://app`
const rendererDir = join(__dirname, '../renderer')
const preloadFile = join(__dirname, '../preload/index.cjs')
const log = createLogger()

const CSP = contentSecurityPolicy()

// Must run before `ready`: a standard, secure scheme gets a real origin (loupe://app), so relative URLs, workers
// and the CSP behave as on https.
protocol.registerSchemesAsPrivileged([{ scheme: SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }])

/** Only frames of our own scheme may call the contract (docs/security.md: "IPC handlers check the sender frame"). */
function isTrustedSender(event: IpcMainInvokeEvent): boolean {
  const frame = event.senderFrame
  return frame !== null && frame.url.startsWith(`${APP_ORIGIN}/`)
}

function serveRenderer(): void {
  protocol.handle(SCHEME, async (request) => {
    const url = new URL(request.url)
    if (url.host !== 'app') return new Response('Not found', { status: 404 })
    const relative = normalize(decodeURIComponent(url.pathname === '/' ? '/index.html' : url.pathname)).replace(/^([/\\])+/, '')
    const file = join(rendererDir, relative)
    if (!file.startsWith(rendererDir + sep) || !existsSync(file)) return new Response('Not found', { status: 404 })
    const response = await net.fetch(pathToFileURL(file).toString())
    const headers = new Headers(response.headers)
    headers.set('Content-Security-Policy', CSP)
    headers.set('X-Content-Type-Options', 'nosniff')
    return new Response(response.body, { status: response.status, headers })
  })
}

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1400,
    height: 900,
    title: 'Loupe',
    show: false,
    webPreferences: {
      preload: preloadFile,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
    },
  })
  win.once('ready-to-show', () => win.show())
  // No navigation away from the app, no new windows: links to the web open in the user's browser instead.
  win.webContents.on('will-navigate', (event, url) => {
    if (!url.startsWith(`${APP_ORIGIN}/`)) event.preventDefault()
  })
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (url.startsWith('https://')) void shell.openExternal(url)
    return { action: 'deny' }
  })
  // The renderer asks before it is closed or reloaded with unsaved edits in the Files view or an edited dry-run
  // summary not applied (its beforeunload); Chromium's own prompt does not show in Electron, so the question is asked
  // here, and leaving is the user's call. The renderer does not say which it holds, so the dialog names both.
  win.webContents.on('will-prevent-unload', (event) => {
    const choice = dialog.showMessageBoxSync(win, {
      type: 'question',
      buttons: ['Leave', 'Stay'],
      defaultId: 1,
      cancelId: 1,
      title: 'Unsaved edits',
      message: "This window holds edits that are not saved: to instruction or memory files, or to a dry run's summary.",
      detail: 'Leave and the edits are lost. Stay to save or revert them in the Files view, or to apply or copy the summary in the Compaction view.',
    })
    if (choice === 0) event.preventDefault()
  })
  void win.loadURL(`${APP_ORIGIN}/index.html`)
  return win
}

async function main(): Promise<void> {
  await app.whenReady()
  // Deny every permission request (camera, notifications, …): the app needs none.
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false))
  session.defaultSession.setPermissionCheckHandler(() => false)
  serveRenderer()

  const nativeBinding = join(app.getAppPath(), '.electron-native', 'better_sqlite3.node')
  let loupe: App
  let win: BrowserWindow | null = null
  loupe = await createApp({
    host: 'electron',
    dataDir: app.getPath('userData'),
    secrets: safeStorageSecretStore(app.getPath('userData')),
    log,
    ...(existsSync(nativeBinding) ? { sqliteNativeBinding: nativeBinding } : {}),
    pickFolder: async () => {
      const options = { properties: ['openDirectory' as const] }
      const picked = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options)
      return picked.canceled ? null : (picked.filePaths[0] ?? null)
    },
    // A session export is one JSON file (session.export): saved where the user says, or picked to import.
    pickFile: async ({ purpose, defaultPath }) => {
      const filters = [{ name: 'Loupe session', extensions: ['json'] }]
      if (purpose === 'export') {
        const options = { title: 'Export the session to', filters, ...(defaultPath ? { defaultPath } : {}) }
        const picked = win ? await dialog.showSaveDialog(win, options) : await dialog.showSaveDialog(options)
        return picked.canceled || !picked.filePath ? null : picked.filePath
      }
      const options = { title: 'Import a session from', filters, properties: ['openFile' as const] }
      const picked = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options)
      return picked.canceled ? null : (picked.filePaths[0] ?? null)
    },
  })

  ipcMain.handle(IPC_REQUEST_CHANNEL, async (event, name: unknown, input: unknown): Promise<Result<unknown>> => {
    if (!isTrustedSender(event)) {
      log.warn('ipc refused: untrusted sender', { url: event.senderFrame?.url })
      return { ok: false, error: { code: 'permission_denied', message: 'Untrusted sender' } }
    }
    return loupe.dispatch(name, input)
  })
  loupe.events.subscribe((name, payload) => {
    if (win && !win.isDestroyed()) win.webContents.send(IPC_EVENT_CHANNEL, name, payload)
  })

  win = createWindow()
  win.webContents.on('did-finish-load', () => {
    win?.webContents.send(IPC_EVENT_CHANNEL, 'app.ready', { at: Date.now(), host: 'electron' })
  })
  app.on('window-all-closed', () => {
    void loupe.close().finally(() => app.quit())
  })
}

void main().catch((err: Error) => {
  log.error('Loupe failed to start', { error: err.stack })
  app.exit(1)
})
