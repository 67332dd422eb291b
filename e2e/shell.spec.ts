import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { appEvent, CTRL_L, ENTER, expect, openProjectWithSession, pressThenType, test } from './fixtures'

test('opens a project folder, creates a session and lists it', async ({ app, host }) => {
  const projectDir = mkdtempSync(join(tmpdir(), 'loupe-e2e-project-'))
  writeFileSync(join(projectDir, 'README.md'), '# demo\n')
  try {
    await expect(app.getByText('Open a project to begin')).toBeVisible()
    await expect(app.getByText('Offline simulator')).toBeVisible()

    const opened = appEvent(app, 'project.opened')
    await app.getByLabel('Folder path').fill(projectDir)
    await app.getByRole('button', { name: 'Open folder' }).click()
    await opened
    const name = projectDir.split('/').pop()!
    await expect(app.getByRole('navigation', { name: 'Projects' }).getByText(name, { exact: true })).toBeVisible()

    await app.getByRole('button', { name: '+ New session' }).click()
    const sessions = app.getByRole('list', { name: 'Sessions' }).getByRole('button')
    await expect(sessions).toHaveCount(1)
    await expect(app.getByRole('region', { name: 'Session' })).toBeVisible()
    // The page's outline starts at the view's own heading, not in the sidebar.
    expect(await app.getByRole('heading').first().evaluate((h) => h.tagName)).toBe('H1')

    // The session survives a reload: it came from the store, not from the page's memory.
    await app.reload()
    await expect(app.locator('html[data-app-ready="true"]')).toHaveCount(1)
    await app.getByRole('navigation', { name: 'Projects' }).getByText(name, { exact: true }).click()
    await expect(app.getByRole('list', { name: 'Sessions' }).getByRole('button')).toHaveCount(1)
    await app.getByRole('list', { name: 'Sessions' }).getByRole('button').first().click()
    await app.screenshot({ path: 'e2e/screenshots/shell-project-session.png' })
    void host
  } finally {
    rmSync(projectDir, { recursive: true, force: true })
  }
})

test('explains why a path cannot be opened', async ({ app }) => {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-e2e-bad-'))
  const file = join(dir, 'a-file.txt')
  writeFileSync(file, 'x')
  mkdirSync(join(dir, 'sub'))
  try {
    const input = app.getByLabel('Folder path')
    const open = app.getByRole('button', { name: 'Open folder' })
    await input.fill(join(dir, 'does-not-exist'))
    await open.click()
    await expect(app.getByRole('alert')).toContainText('No folder at')
    await input.fill(file)
    await open.click()
    await expect(app.getByRole('alert')).toContainText('is a file, not a folder')
    await input.fill('relative/path')
    await open.click()
    await expect(app.getByRole('alert')).toContainText('absolute path')
    // The refusal is of the path typed: editing it takes the refusal away.
    await input.press('End')
    await input.press('Backspace')
    await expect(app.getByRole('alert')).toHaveCount(0)
    await input.fill('relative/path')
    await open.click()
    await expect(app.getByRole('alert')).toContainText('absolute path')
    // And the app still works after the errors.
    await input.fill(join(dir, 'sub'))
    await open.click()
    await expect(app.getByRole('alert')).toHaveCount(0)
    await expect(app.getByRole('navigation', { name: 'Projects' }).getByText('sub', { exact: true })).toBeVisible()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('refuses a WebSocket without the token or from another origin', async ({ host }) => {
  const { WebSocket } = await import('ws')
  const wsUrl = host.baseUrl.replace('http://', 'ws://') + '/rpc'
  const statusOf = (url: string, origin: string) =>
    new Promise<number>((resolve) => {
      const ws = new WebSocket(url, { origin })
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0))
      ws.on('open', () => {
        ws.close()
        resolve(101)
      })
      ws.on('error', () => resolve(-1))
    })
  expect(await statusOf(wsUrl, host.baseUrl)).toBe(401)
  expect(await statusOf(`${wsUrl}?token=wrong`, host.baseUrl)).toBe(401)
  expect(await statusOf(`${wsUrl}?token=${host.token}`, 'http://evil.example')).toBe(403)
  expect(await statusOf(`${wsUrl}?token=${host.token}`, host.baseUrl)).toBe(101)
})

test('the palette keeps the keyboard, and a resting pointer does not choose its command', async ({ app }) => {
  // The pointer rests where the palette's list will open.
  await app.keyboard.press('Control+k')
  const box = await app.getByTestId('palette').locator('li').nth(3).boundingBox()
  await app.keyboard.press('Escape')
  await expect(app.getByTestId('palette')).toHaveCount(0)
  await app.mouse.move(box!.x + box!.width / 2, box!.y + box!.height / 2)

  await app.keyboard.press('Control+k')
  await expect(app.getByTestId('palette').locator('li').first()).toHaveAttribute('aria-selected', 'true')
  // Something behind the dialog takes focus while it is open: the palette takes it back.
  await app.getByLabel('Folder path').evaluate((el: HTMLElement) => el.focus())
  await expect(app.getByLabel('Type a command')).toBeFocused()
  // Tab and Shift+Tab keep it in the dialog; after a click in its list, Esc still closes it.
  await app.keyboard.press('Tab')
  await app.keyboard.press('Tab')
  await expect(app.getByLabel('Type a command')).toBeFocused()
  await app.keyboard.press('Shift+Tab')
  await expect(app.getByLabel('Type a command')).toBeFocused()
  await app.getByTestId('palette').locator('#palette-list').evaluate((el: HTMLElement) => el.focus())
  await app.keyboard.press('Escape')
  await expect(app.getByTestId('palette')).toHaveCount(0)
  await app.keyboard.press('Control+k')
  await app.keyboard.type('theme dark')
  await expect(app.getByTestId('palette').locator('li[aria-selected="true"]')).toContainText('Theme: dark')
  await app.keyboard.press('Enter')
  await expect(app.getByTestId('palette')).toHaveCount(0)
  await expect(app.locator('html[data-theme="dark"]')).toHaveCount(1)
})

test('says once, above every view, that nothing can be saved when the store file was deleted under the app', async ({ app, host }) => {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-e2e-lost-'))
  try {
    await app.getByLabel('Folder path').fill(dir)
    await app.getByRole('button', { name: 'Open folder' }).click()
    await expect(app.getByRole('button', { name: '+ New session' })).toBeVisible()
    for (const suffix of ['', '-wal', '-shm']) rmSync(join(host.dataDir, `loupe.db${suffix}`), { force: true })
    // The next request finds it gone: a new session cannot be saved, and the app says why, once, at the top.
    await app.getByRole('button', { name: '+ New session' }).click()
    const banner = app.getByTestId('store-lost')
    await expect(banner).toContainText(/^Loupe's store, .*loupe\.db, was deleted while Loupe was running; nothing more can be saved to it\./)
    // A reload does not look like a fresh start: the first answers say it again.
    await app.reload()
    await expect(banner).toBeVisible()
    await expect(app.getByTestId('store-lost')).toHaveCount(1)
    await app.screenshot({ path: 'e2e/screenshots/store-lost.png' })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('the keyboard lands on the view when what it was on goes away: a view switched, the inspector hidden', async ({ app }) => {
  const projectDir = mkdtempSync(join(tmpdir(), 'loupe-e2e-focus-'))
  writeFileSync(join(projectDir, 'README.md'), '# demo\n')
  try {
    await openProjectWithSession(app, projectDir)
    // The inspector hidden with its own button, from the keyboard: the bar that shows it again has the keyboard, and
    // shown from there, the passes list has it.
    await app.getByRole('button', { name: 'Collapse the inspector' }).focus()
    await app.keyboard.press('Enter')
    await expect(app.getByRole('button', { name: /^Inspector · / })).toBeFocused()
    await app.keyboard.press('Enter')
    await expect(app.getByTestId('passes-list')).toBeFocused()
    // Another view from the message box: the box is gone, the new view's heading has it.
    await app.getByLabel('Message').focus()
    await app.keyboard.press('Alt+3')
    await expect(app.locator('main h1')).toHaveText('Cache')
    await expect(app.locator('main h1')).toBeFocused()
    // And back to the chat from there; Tab goes on from the view, not from the top of the page.
    await app.keyboard.press('Alt+1')
    await expect(app.getByRole('region', { name: 'Session' }).locator('h1')).toBeFocused()
    await app.keyboard.press('Tab')
    expect(await app.evaluate(() => document.activeElement?.closest('main') !== null)).toBe(true)
    // From a view's tab, another view chosen with its keys: the keyboard goes to that view's tab, not left on the last.
    await app.getByRole('tab', { name: 'Settings' }).click()
    await expect(app.getByRole('tab', { name: 'Settings' })).toBeFocused()
    await app.keyboard.press('Alt+3')
    await expect(app.getByRole('tab', { name: 'Cache' })).toHaveAttribute('aria-selected', 'true')
    await expect(app.getByRole('tab', { name: 'Cache' })).toBeFocused()
  } finally {
    rmSync(projectDir, { recursive: true, force: true })
  }
})

test('after a palette command the keyboard is on what it opened, or where it was: never on the heading for nothing', async ({ app }) => {
  const projectDir = mkdtempSync(join(tmpdir(), 'loupe-e2e-palette-focus-'))
  writeFileSync(join(projectDir, 'README.md'), '# demo\n')
  const runCommand = async (words: string, label: string) => {
    await app.keyboard.press('Control+k')
    await app.keyboard.type(words)
    await expect(app.getByTestId('palette').locator('li[aria-selected="true"]')).toContainText(label)
    await app.keyboard.press('Enter')
    await expect(app.getByTestId('palette')).toHaveCount(0)
  }
  // A click on the empty middle of the top bar, between its left and right items.
  const clickEmptyTopBar = async () => {
    const bar = (await app.locator('.topbar').boundingBox())!
    const spacer = (await app.locator('.topbar-spacer').boundingBox())!
    await app.mouse.click(spacer.x + spacer.width / 2, bar.y + bar.height / 2)
  }
  try {
    await openProjectWithSession(app, projectDir)
    const heading = app.getByRole('region', { name: 'Session' }).locator('h1')
    // The keyboard on nothing (a click on an empty part of the top bar): the Diff tab the command shows has it.
    await clickEmptyTopBar()
    await runCommand('diff', 'Show the diff of the selected pass')
    const diffTab = app.getByRole('tablist', { name: 'Pass views' }).getByRole('tab', { name: 'Diff' })
    await expect(diffTab).toHaveAttribute('aria-selected', 'true')
    await expect(diffTab).toBeFocused()
    // A command that opens nothing leaves it where it was: on nothing, in the message box.
    await clickEmptyTopBar()
    await runCommand('theme dark', 'Theme: dark')
    await expect(app.locator('html[data-theme="dark"]')).toHaveCount(1)
    expect(await app.evaluate(() => document.activeElement === document.body)).toBe(true)
    await expect(heading).not.toBeFocused()
    await app.getByLabel('Message').focus()
    await runCommand('dock', 'Dock the inspector')
    await expect(app.getByLabel('Message')).toBeFocused()
    await runCommand('theme light', 'Theme: light')
    await expect(app.getByLabel('Message')).toBeFocused()
    // A command that shows another view: its heading, as Alt+3 does.
    await runCommand('go to cache', 'Go to Cache')
    await expect(app.locator('main h1')).toHaveText('Cache')
    await expect(app.locator('main h1')).toBeFocused()
  } finally {
    rmSync(projectDir, { recursive: true, force: true })
  }
})

test('every key typed right after Ctrl+L or a palette command reaches the field it opens, even when the view changes first', async ({ app }) => {
  const projectDir = mkdtempSync(join(tmpdir(), 'loupe-e2e-typeahead-'))
  writeFileSync(join(projectDir, 'README.md'), '# demo\n')
  try {
    await openProjectWithSession(app, projectDir)
    const box = app.getByLabel('Message')
    // From another view: the chat is shown and its box takes the keys, in the same task as the shortcut.
    await app.keyboard.press('Alt+3')
    await expect(app.locator('main h1')).toHaveText('Cache')
    await pressThenType(app, CTRL_L, 'list src')
    await expect(box).toHaveValue('list src')
    await expect(box).toBeFocused()
    await box.fill('')
    // Back in the chat with the keyboard on its heading (the reviewer's steps: Alt+1, then Ctrl+L and type at once).
    await app.keyboard.press('Alt+3')
    await app.keyboard.press('Alt+1')
    await expect(app.getByRole('region', { name: 'Session' }).locator('h1')).toBeFocused()
    for (let run = 0; run < 3; run++) {
      await pressThenType(app, CTRL_L, 'abc')
      await expect(box).toHaveValue('abc')
      await box.fill('')
      await app.getByRole('region', { name: 'Session' }).locator('h1').focus()
    }
    // The palette's "Write a message", from another view: Enter, then the text at once.
    await app.keyboard.press('Alt+3')
    await app.keyboard.press('Control+k')
    await app.getByLabel('Type a command').fill('write a message')
    await pressThenType(app, ENTER, 'read README')
    await expect(box).toHaveValue('read README')
  } finally {
    rmSync(projectDir, { recursive: true, force: true })
  }
})

test('the palette opens an instruction file by name, the keyboard in its editor, with what was typed right after Enter', async ({ app }) => {
  const projectDir = mkdtempSync(join(tmpdir(), 'loupe-e2e-palette-files-'))
  writeFileSync(join(projectDir, 'AGENTS.md'), '# Rules\n')
  try {
    await openProjectWithSession(app, projectDir)
    // The Files view was never opened: the palette reads the listing itself.
    await app.keyboard.press('Control+k')
    await app.keyboard.type('agents')
    await expect(app.getByTestId('palette').locator('li[aria-selected="true"]')).toContainText('Edit AGENTS.md')
    // Enter, and typing at once: the file is still to be read, its editor still to be made.
    await pressThenType(app, ENTER, 'Build first ')
    await expect(app.getByTestId('open-path')).toHaveText('AGENTS.md')
    await expect(app.getByTestId('file-editor').locator('.view-lines')).toContainText('Build first # Rules')
    await expect(app.getByTestId('file-editor').locator(':focus')).toHaveCount(1)
    // From inside the editor, Ctrl+L still goes to the message box (over Monaco's own, select the line): what is typed
    // next is a message, not an edit of the file.
    await pressThenType(app, CTRL_L, 'list src')
    await expect(app.getByLabel('Message')).toHaveValue('list src')
    await app.getByLabel('Message').fill('')
    await app.keyboard.press('Alt+4')
    await expect(app.getByTestId('file-editor').locator('.view-lines')).toContainText('Build first # Rules')
    await expect(app.getByTestId('file-editor').locator('.view-lines')).not.toContainText('list src')
    // Memory is found by the word the Files view files it under.
    await app.keyboard.press('Control+k')
    await app.keyboard.type('project memory')
    await expect(app.getByTestId('palette').locator('li[aria-selected="true"]')).toContainText('Create Project memory (.loupe/memory.md)')
    await app.keyboard.press('Escape')
  } finally {
    rmSync(projectDir, { recursive: true, force: true })
  }
})
