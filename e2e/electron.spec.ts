import { _electron as electron, expect, test } from '@playwright/test'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** The Electron executable, or null where its binary is not installed (as on machines without network). */
function electronExecutable(): string | null {
  const pathFile = join('node_modules/electron/path.txt')
  if (!existsSync(pathFile)) return null
  const file = join('node_modules/electron/dist', readFileSync(pathFile, 'utf8').trim())
  return existsSync(file) ? file : null
}

const executable = electronExecutable()

test('electron host: opens a project and creates a session', async () => {
  test.skip(!executable, 'Electron binary not installed here (node_modules/electron/path.txt missing); the browser-host specs cover the same flow')
  const dataDir = mkdtempSync(join(tmpdir(), 'loupe-e2e-electron-'))
  const projectDir = mkdtempSync(join(tmpdir(), 'loupe-e2e-project-'))
  const app = await electron.launch({ executablePath: executable!, args: ['.', `--user-data-dir=${dataDir}`] })
  try {
    const page = await app.firstWindow()
    await expect(page.locator('html[data-app-ready="true"]')).toHaveCount(1)
    await page.getByLabel('Folder path').fill(projectDir)
    await page.getByRole('button', { name: 'Open folder' }).click()
    await page.getByRole('button', { name: '+ New session' }).click()
    await expect(page.getByRole('list', { name: 'Sessions' }).getByRole('button')).toHaveCount(1)
    await page.screenshot({ path: 'e2e/screenshots/electron-shell.png' })
  } finally {
    await app.close()
    rmSync(dataDir, { recursive: true, force: true })
    rmSync(projectDir, { recursive: true, force: true })
  }
})

test("electron host: a session's export file is chosen in the native dialogs, for the export and for the import", async () => {
  test.skip(!executable, 'Electron binary not installed here (node_modules/electron/path.txt missing); test/rpc/dispatch.test.ts covers the request')
  const dataDir = mkdtempSync(join(tmpdir(), 'loupe-e2e-electron-'))
  const projectDir = mkdtempSync(join(tmpdir(), 'loupe-e2e-project-'))
  const file = join(projectDir, 'exported-session.json')
  const app = await electron.launch({ executablePath: executable!, args: ['.', `--user-data-dir=${dataDir}`] })
  try {
    // The native dialogs answer as a user choosing `file` would: a test cannot click in them.
    await app.evaluate(({ dialog }, chosen) => {
      dialog.showSaveDialog = (async () => ({ canceled: false, filePath: chosen })) as never
      dialog.showOpenDialog = (async () => ({ canceled: false, filePaths: [chosen] })) as never
    }, file)
    const page = await app.firstWindow()
    await expect(page.locator('html[data-app-ready="true"]')).toHaveCount(1)
    await page.getByLabel('Folder path').fill(projectDir)
    await page.getByRole('button', { name: 'Open folder' }).click()
    await page.getByRole('button', { name: '+ New session' }).click()
    await expect(page.getByLabel('Message')).toBeVisible()

    await page.keyboard.press('Control+k')
    await page.getByLabel('Type a command').fill('export this session')
    await page.keyboard.press('Enter')
    const exporting = page.getByRole('dialog', { name: /^Export(ed)? “/ })
    await exporting.getByRole('button', { name: 'Browse…' }).click()
    await expect(exporting.getByLabel('Save to')).toHaveValue(file)
    await exporting.getByRole('button', { name: 'Export' }).click()
    await expect(exporting.getByRole('status')).toContainText('written')
    expect(existsSync(file)).toBe(true)
    await exporting.getByRole('button', { name: 'Close' }).click()

    await page.keyboard.press('Control+k')
    await page.getByLabel('Type a command').fill('import a session')
    await page.keyboard.press('Enter')
    const importing = page.getByRole('dialog', { name: /^Import a session into / })
    await importing.getByRole('button', { name: 'Browse…' }).click()
    await expect(importing.getByLabel('File')).toHaveValue(file)
    await importing.getByRole('button', { name: 'Import' }).click()
    // Exported from this Loupe, it is here already: opened where it is.
    await expect(page.getByRole('dialog', { name: /^Already here/ })).toBeVisible()
    await page.screenshot({ path: 'e2e/screenshots/electron-transfer.png' })
  } finally {
    await app.close()
    rmSync(dataDir, { recursive: true, force: true })
    rmSync(projectDir, { recursive: true, force: true })
  }
})
