/**
 * Browser mode's connection to its host, as the page shows it (src-renderer/platform/socket-transport.ts,
 * features/shell/connection.ts): a host that goes away is said at once, a turn that was running is no longer shown
 * as running, what is asked meanwhile fails with a reason, and a host restarted on the same port (with a new token)
 * is said plainly instead of being retried for ever. A connection that drops while the host runs on is made again,
 * and the page reads what it shows again. A page opened without the host's key says so, not that the host restarted.
 *
 * The page's failed attempts to reconnect are reported by Chromium as console errors; those alone are expected here.
 */
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page, WebSocketRoute } from '@playwright/test'
import { expect, openApp, openProjectWithSession, startHost, test } from './fixtures'

const EXPECTED_ERRORS = /WebSocket connection to .* failed|Failed to load resource: net::ERR_CONNECTION_REFUSED/

function forgetExpectedErrors(errors: string[]): void {
  const unexpected = errors.filter((e) => !EXPECTED_ERRORS.test(e))
  errors.splice(0, errors.length, ...unexpected)
}

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-e2e-connection-'))
  writeFileSync(join(dir, 'greet.ts'), 'export const greet = () => "hello"\n')
  return dir
}

/** Starts a turn that stays running: in build mode, the edit waits for the user's approval. */
async function startWaitingTurn(page: Page): Promise<void> {
  await page.getByLabel('Message').fill('replace "hello" with "goodbye" in greet.ts')
  await page.getByLabel('Message').press('Enter')
  await expect(page.getByRole('group', { name: 'Approval needed' })).toContainText('Edit greet.ts')
  await expect(page.getByRole('button', { name: 'Stop (Esc)' })).toBeVisible()
}

test('a host that stops is said at once, what is asked meanwhile fails, and a restarted host refusing the page is said plainly', async ({ page, pageErrors }) => {
  const dir = project()
  const first = await startHost()
  let second: Awaited<ReturnType<typeof startHost>> | null = null
  try {
    await openApp(page, first.url)
    await expect(page.getByTestId('connection')).toHaveText('connected')
    await openProjectWithSession(page, dir)
    // The inspector would load its editor for the turn's pass, which fails as the host dies under it: kept closed.
    await page.getByRole('button', { name: 'Collapse the inspector' }).click()
    await startWaitingTurn(page)

    // The host process dies (no goodbye on the socket).
    first.child.kill('SIGKILL')
    await expect(page.getByTestId('connection')).toHaveText('reconnecting…')
    await expect(page.getByTestId('connection-notice')).toContainText('Connection to Loupe lost — reconnecting…')
    // The turn is no longer shown as running: nothing of it can be heard, and Stop could not reach it.
    await expect(page.getByRole('button', { name: 'Stop (Esc)' })).toHaveCount(0)
    await expect(page.getByRole('group', { name: 'Approval needed' })).toHaveCount(0)
    await expect(page.locator('.chat-error')).toContainText('whether this turn is still running is unknown')
    // A message sent meanwhile fails with the reason instead of waiting for ever.
    await page.getByLabel('Message').fill('are you there?')
    await page.getByRole('button', { name: 'Send' }).click()
    await expect(page.locator('.chat-error')).toContainText('Not connected to Loupe')
    await expect(page.getByLabel('Message')).toHaveValue('are you there?')

    // Restarted on the same port, on the same data folder: it has a new token, which this page does not hold.
    second = await startHost({ LOUPE_HOME: first.dataDir }, Number(new URL(first.baseUrl).port))
    await expect(page.getByTestId('connection')).toHaveText('disconnected')
    await expect(page.getByTestId('connection-notice')).toContainText('host was restarted')
    await expect(page.getByTestId('connection-notice')).toContainText('Open the new URL')
    // The message that failed no longer says to try again once connected: that will not happen.
    await expect(page.locator('.chat-error')).toContainText('no longer accepts this page')
    await expect(page.locator('.chat-error')).not.toContainText('Try again once')
    // The edit that waited for its approval has no result, and nothing is known to be waiting for one.
    await expect(page.locator('.tool-call[data-tool="edit_file"]')).toHaveAttribute('data-status', 'no-result')
    await page.screenshot({ path: 'e2e/screenshots/connection-refused.png' })

    // Reloaded, the page holds nothing the host said and is refused from its first attempt: it says the restart, and
    // nothing that would read as a host holding no projects.
    await page.reload()
    await expect(page.getByTestId('connection-notice')).toContainText('host was restarted')
    await expect(page.getByTestId('connection')).toHaveText('disconnected')
    await expect(page.getByText('No projects yet')).toHaveCount(0)
    await expect(page.getByRole('tab')).toHaveCount(0)
    await page.screenshot({ path: 'e2e/screenshots/connection-refused-reloaded.png' })

    // Opening the URL it printed is all it takes.
    await openApp(page, second.url)
    await expect(page.getByTestId('connection')).toHaveText('connected')
    await expect(page.getByTestId('connection-notice')).toHaveCount(0)
  } finally {
    forgetExpectedErrors(pageErrors)
    await page.goto('about:blank')
    await second?.stop()
    await first.stop()
    rmSync(dir, { recursive: true, force: true })
  }
})

test('a connection that drops while the host runs on is made again, and the page reads the open session again', async ({ page, pageErrors, host }) => {
  const dir = project()
  // Every connection goes through the test, which can drop it and hold the next ones off, as a host that does not
  // answer would: its page does not load either (an attempt that fails while the host answers is a refusal).
  let live: WebSocketRoute | null = null
  let holding = false
  await page.routeWebSocket(/\/rpc\?/, (ws) => {
    if (holding) return void ws.close({ code: 4000, reason: 'held off by the test' })
    live = ws
    ws.connectToServer()
  })
  await page.route(
    (url) => url.pathname === '/',
    (route) => (holding ? route.abort('connectionrefused') : route.continue()),
  )
  try {
    await openApp(page, host.url)
    await openProjectWithSession(page, dir)
    await startWaitingTurn(page)

    holding = true
    await live!.close({ code: 4000, reason: 'dropped by the test' })
    await expect(page.getByTestId('connection')).toHaveText('reconnecting…')
    await expect(page.getByRole('group', { name: 'Approval needed' })).toHaveCount(0)
    await expect(page.locator('.chat-error')).toContainText('whether this turn is still running is unknown')

    // Back: the turn is still waiting for its approval in the host, and the page says so again.
    holding = false
    await expect(page.getByTestId('connection')).toHaveText('connected')
    await expect(page.getByTestId('connection-notice')).toHaveCount(0)
    await expect(page.getByRole('group', { name: 'Approval needed' })).toContainText('Edit greet.ts')
    await expect(page.getByRole('button', { name: 'Stop (Esc)' })).toBeVisible()
    await expect(page.locator('.chat-error')).toHaveCount(0)
    await expect(page.getByRole('list', { name: 'Sessions' }).getByRole('button')).toHaveCount(1)
  } finally {
    forgetExpectedErrors(pageErrors)
    rmSync(dir, { recursive: true, force: true })
  }
})

test('a page opened from a working window\'s address bar, without the key, says so and shows nothing of an empty host', async ({ app, host }) => {
  const dir = project()
  const other = await app.context().newPage()
  try {
    // A working window, on the Files view (remembered for the next page, as a user's last view is).
    await app.getByLabel('Folder path').fill(dir)
    await app.getByRole('button', { name: 'Open folder' }).click()
    await expect(app.locator('button.project.selected')).toHaveAttribute('title', realpathSync(dir))
    await app.getByRole('tab', { name: 'Files' }).click()
    // Its address bar leaves the key out (decision 0001), so that is what a copy of it opens.
    const addressBar = app.url()
    expect(addressBar).toBe(`${host.baseUrl}/`)

    await other.goto(addressBar)
    const notice = other.getByTestId('connection-notice')
    await expect(notice).toContainText('This page was opened without its access key')
    await expect(notice).toContainText('open the URL the host printed when it started')
    await expect(notice).toContainText('duplicate a tab where Loupe is open')
    await expect(notice).not.toContainText('restarted')
    await expect(other.getByTestId('connection')).toHaveText('not connected')
    // Nothing that would read as a host holding nothing: no projects list, no view, no tab chosen.
    await expect(other.getByText('No projects yet')).toHaveCount(0)
    await expect(other.getByText('Open a project to begin')).toHaveCount(0)
    await expect(other.getByRole('tab')).toHaveCount(0)
    await other.screenshot({ path: 'e2e/screenshots/connection-without-key.png' })
    // The first window was never affected.
    await expect(app.getByTestId('connection')).toHaveText('connected')

    // Given the key in the same tab (only the fragment changes), it loads itself again and is let in.
    await openApp(other, host.url)
    await expect(other.getByTestId('connection')).toHaveText('connected')
    await expect(other.getByRole('navigation', { name: 'Projects' }).locator('button.project')).toHaveCount(1)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
