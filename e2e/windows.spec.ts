/**
 * Two windows on one host, as a user with two windows open has them: what one does, the other follows — a project
 * opened, the theme, a file made in the Files view (once saved), the capture proxy started and stopped, compaction settings saved
 * (the other window's form shows them, so its next save does not undo them).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { chooseTheme, expect, openApp, test } from './fixtures'

test('a second window follows what the first one does', async ({ app, host }) => {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-e2e-windows-'))
  writeFileSync(join(dir, 'README.md'), '# Two windows\n')
  const other = await app.context().newPage()
  try {
    await openApp(other, host.url)
    const projects = (page: typeof app) => page.getByRole('navigation', { name: 'Projects' })

    // A project opened in one window is listed in the other.
    await app.getByLabel('Folder path').fill(dir)
    await app.getByRole('button', { name: 'Open folder' }).click()
    await expect(projects(other).getByText(basename(dir), { exact: true })).toBeVisible()

    // The theme chosen in one is the other's too.
    await chooseTheme(app, 'dark')
    await expect(other.locator('html[data-theme="dark"]')).toHaveCount(1)
    await chooseTheme(app, 'system')
    await expect(other.locator('html[data-theme]')).toHaveCount(0)

    // A memory file made in one window's Files view appears in the other's, once it is saved: started, it is a draft
    // of its starting text, priced like any edit, and nothing is on disk yet.
    await projects(other).getByText(basename(dir), { exact: true }).click()
    await other.getByRole('tab', { name: 'Files' }).click()
    await app.getByRole('tab', { name: 'Files' }).click()
    const memory = '.loupe/memory.md'
    await expect(other.locator(`[data-path="${memory}"]`)).toHaveCount(0)
    await app.getByRole('button', { name: '+ Project memory (.loupe/memory.md)' }).click()
    await expect(app.getByTestId('open-path')).toHaveText(memory)
    // Started to be written in: the keyboard is in its editor.
    await expect.poll(() => app.getByTestId('file-editor').evaluate((el) => el.contains(document.activeElement))).toBe(true)
    await app.keyboard.press('Control+End')
    await app.keyboard.type('- Prices are integer cents.')
    await app.screenshot({ path: 'e2e/screenshots/windows-new-memory-draft.png' })
    expect(existsSync(join(dir, memory))).toBe(false)
    await app.getByTestId('save-file').click()
    await expect(app.getByTestId('save-status')).toContainText('Saved')
    expect(readFileSync(join(dir, memory), 'utf8')).toBe('# Project memory\n\n- Prices are integer cents.')
    await expect(other.locator(`[data-path="${memory}"]`)).toHaveCount(1)

    // Compaction settings saved in one window show in the other's form; its own save then keeps them.
    await app.getByRole('tab', { name: 'Settings' }).click()
    await other.getByRole('tab', { name: 'Settings' }).click()
    await app.getByRole('spinbutton', { name: 'Threshold' }).fill('70')
    await app.getByRole('button', { name: 'Save compaction settings' }).click()
    await expect(other.getByRole('spinbutton', { name: 'Threshold' })).toHaveValue('70')
    await other.getByRole('spinbutton', { name: 'Steps kept whole' }).fill('5')
    await other.getByRole('button', { name: 'Save compaction settings' }).click()
    await expect(app.getByRole('spinbutton', { name: 'Steps kept whole' })).toHaveValue('5')
    const config = readFileSync(join(dir, '.loupe', 'config.toml'), 'utf8')
    expect(config).toMatch(/threshold = 0\.7\b/)
    expect(config).toMatch(/keep_steps = 5\b/)

    // The proxy started in one window shows as running in the other's panel, and as stopped once stopped.
    await app.getByRole('button', { name: 'Claude Code sessions & proxy…' }).click()
    await other.getByRole('button', { name: 'Claude Code sessions & proxy…' }).click()
    const panel = (page: typeof app) => page.getByRole('dialog', { name: 'Claude Code sessions' })
    await panel(app).getByRole('button', { name: 'Start the proxy' }).click()
    await expect(panel(other).getByRole('button', { name: 'Stop the proxy' })).toBeVisible()
    await panel(app).getByRole('button', { name: 'Stop the proxy' }).click()
    await expect(panel(other).getByRole('button', { name: 'Start the proxy' })).toBeVisible()
    await expect(panel(other).getByTestId('proxy-url')).toHaveCount(0)
  } finally {
    await other.close()
    rmSync(dir, { recursive: true, force: true })
  }
})
