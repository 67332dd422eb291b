/**
 * Sessions as a daily driver uses them: Esc closes the innermost thing before it stops a turn; sessions are renamed
 * and deleted from the sidebar and the palette; a half-written message survives a change of view or session; an
 * approval takes the keyboard and the sidebar marks sessions that run or wait; an imported Claude Code session is
 * read-only and says who wrote it. Screenshots of the new UI go to e2e/screenshots/ in both themes.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import type { Page } from '@playwright/test'
import { appEvent, expect, folderForThisProcess, openApp, openProjectWithSession, hostFixture, pageSignal, rpc, test as base, type BrowserHostProcess } from './fixtures'

// A Claude Code projects folder holding one real session, for the imported-session tests. Its working folder is
// made to exist on this machine (a temporary "spotter"), so the import files it under that project and it can be
// continued there.
const configDir = folderForThisProcess('loupe-e2e-sessions-claude-')
const spotter = join(configDir, 'spotter')
mkdirSync(spotter)
const transcriptDir = join(configDir, 'projects', '-spotter')
mkdirSync(transcriptDir, { recursive: true })
const transcript = readFileSync(join(__dirname, '..', 'test', 'fixtures', 'real', 'spotter', 'tool_heavy.jsonl'), 'utf8')
writeFileSync(join(transcriptDir, 'tool_heavy.jsonl'), transcript.replaceAll('"cwd":"/home/marco/projects/spotter"', `"cwd":${JSON.stringify(spotter)}`))

const test = base.extend<{ host: BrowserHostProcess; app: Page; project: string }>({
  host: hostFixture({ CLAUDE_CONFIG_DIR: configDir }),
  app: async ({ page, host }, use) => {
    await openApp(page, host.url)
    await use(page)
  },
  // A small project folder for the agent to read and edit.
  project: async ({}, use) => {
    const dir = mkdtempSync(join(tmpdir(), 'loupe-e2e-sessions-'))
    writeFileSync(join(dir, 'README.md'), '# Greeter\n\nPrints a friendly hello.\n')
    writeFileSync(join(dir, 'greet.ts'), 'export const greet = () => "hello"\n')
    await use(dir)
    rmSync(dir, { recursive: true, force: true })
  },
})

/**
 * Resolves with the reason of the next `turn.ended` the page receives, of one session when given (a test with two
 * sessions running must not take the other's). Call it before the action that ends the turn.
 */
function nextTurnEnd(page: Page, sessionId: string | null = null): Promise<string> {
  return pageSignal(
    page,
    (only, signal: (reason: string) => void) => {
      const on = (e: Event) => {
        const { name, payload } = (e as CustomEvent).detail as { name: string; payload: { reason: string; sessionId: string } }
        if (name !== 'turn.ended' || (only !== null && payload.sessionId !== only)) return
        window.removeEventListener('loupe:event', on)
        signal(payload.reason)
      }
      window.addEventListener('loupe:event', on)
    },
    sessionId,
  )
}

async function shoot(page: Page, name: string, target?: { screenshot(o: { path: string }): Promise<unknown> }): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((t) => (document.documentElement.dataset.theme = t), theme)
    await (target ?? page).screenshot({ path: `e2e/screenshots/sessions-${name}-${theme}.png` })
  }
  await page.evaluate(() => delete document.documentElement.dataset.theme)
}

const sessionList = (page: Page) => page.getByRole('list', { name: 'Sessions' })
const sessionButtons = (page: Page) => sessionList(page).locator('button.session')

/** Opens `dir` as a second project from the sidebar, and waits until it is the project shown. */
async function openOther(page: Page, dir: string): Promise<void> {
  await page.getByLabel('Folder path').fill(dir)
  await page.getByRole('button', { name: 'Open folder' }).click()
  await expect(page.locator('button.project.selected')).toHaveAttribute('title', realpathSync(dir))
}

test('Esc closes the deny form and a dialog first, and stops the turn only when nothing else took it', async ({ app, project }) => {
  await openProjectWithSession(app, project)
  const composer = app.getByLabel('Message')
  await composer.fill('replace "hello" with "goodbye" in greet.ts')
  const firstEnd = nextTurnEnd(app)
  await composer.press('Enter')
  const approval = app.getByRole('group', { name: 'Approval needed' })

  // Esc in the reason field takes the form back to its buttons, and leaves the turn waiting for the answer.
  await approval.getByRole('button', { name: 'Deny…' }).click()
  const reason = approval.getByLabel('Reason for denying')
  await expect(reason).toBeFocused()
  await reason.press('Escape')
  await expect(approval.getByRole('button', { name: 'Approve once' })).toBeVisible()
  await expect(approval.getByRole('button', { name: 'Deny…' })).toBeFocused()

  // Esc closes the Claude Code sessions dialog, and only the dialog.
  await app.getByRole('button', { name: 'Claude Code sessions & proxy…' }).click()
  const dialog = app.getByRole('dialog', { name: 'Claude Code sessions' })
  await expect(dialog).toBeVisible()
  await app.keyboard.press('Escape')
  await expect(dialog).toHaveCount(0)

  // The turn was never stopped: the answer sent after those keys (on the same socket) finds it waiting. The card goes,
  // and the keyboard goes to the message box, not to the page.
  await approval.getByRole('button', { name: 'Approve once' }).click()
  await expect(composer).toBeFocused()
  expect(await firstEnd).toBe('end_turn')

  // With nothing else open, Esc stops the turn.
  await composer.fill('replace "goodbye" with "bye" in greet.ts')
  const secondEnd = nextTurnEnd(app)
  await composer.press('Enter')
  await expect(approval).toBeVisible()
  await app.keyboard.press('Escape')
  expect(await secondEnd).toBe('cancelled')
})

test('a session is renamed from the sidebar (double-click, F2) and from the palette', async ({ app, host, project }) => {
  await openProjectWithSession(app, project)
  const session = sessionButtons(app).first()
  await session.dblclick()
  const field = sessionList(app).getByLabel('Session name')
  await expect(field).toBeFocused()
  await field.fill('Greeter refactor')
  await shoot(app, 'rename', app.getByRole('navigation', { name: 'Projects' }))
  await field.press('Enter')
  await expect(session).toHaveText('Greeter refactor')
  await expect(session).toBeFocused()
  await expect(app.getByRole('region', { name: 'Session' }).getByRole('heading')).toHaveText('Greeter refactor')
  const projects = (await rpc(host, 'project.list', {})) as Array<{ id: string }>
  const titles = async () => ((await rpc(host, 'session.list', { projectId: projects[0]!.id })) as Array<{ title: string }>).map((s) => s.title)
  expect(await titles()).toEqual(['Greeter refactor'])

  // F2 starts renaming; Esc leaves the name as it was (and stops nothing).
  await session.press('F2')
  await expect(field).toBeFocused()
  await field.fill('Not this')
  await field.press('Escape')
  await expect(session).toHaveText('Greeter refactor')

  // The palette renames the open session.
  await app.keyboard.press('Control+k')
  await app.getByLabel('Type a command').fill('rename')
  await app.keyboard.press('Enter')
  await expect(field).toBeFocused()
  await field.fill('Named from the palette')
  await field.press('Enter')
  await expect(session).toHaveText('Named from the palette')
  expect(await titles()).toEqual(['Named from the palette'])
})

test('a name with control, direction-override and invisible characters shows on one line without them (decision 0051)', async ({ app, host, project }) => {
  await openProjectWithSession(app, project)
  const session = sessionButtons(app).first()
  const shownTitle = () => session.locator('.session-title').evaluate((e) => e.textContent)
  const plainHeight = (await session.boundingBox())!.height
  // Typed or pasted into the rename field: a right-to-left override would draw "gnp.exe" as "exe.png".
  await session.dblclick()
  const field = sessionList(app).getByLabel('Session name')
  await field.fill('Greeter \u202Egnp.exe\u200B\u2066  \t refactor\u2069')
  await field.press('Enter')
  await expect(session).toHaveText('Greeter gnp.exe refactor')
  expect(await shownTitle()).toBe('Greeter gnp.exe refactor')
  await expect(app.getByRole('region', { name: 'Session' }).getByRole('heading')).toHaveText('Greeter gnp.exe refactor')

  // Renamed over the contract (another window, a script) with what no field can hold: a NUL, line breaks, a half
  // surrogate pair, a terminal escape, and far more than fits. Every window hears the name as the store kept it.
  const projects = (await rpc(host, 'project.list', {})) as Array<{ id: string }>
  const sessionId = ((await rpc(host, 'session.list', { projectId: projects[0]!.id })) as Array<{ id: string }>)[0]!.id
  const hostile = `\u001b[31mLine one\u0000\r\nline two\uD800 ${'long '.repeat(30)}`
  const answer = (await rpc(host, 'session.rename', { sessionId, title: hostile.slice(0, 200) })) as { title: string }
  expect(answer.title).toMatch(/^Line one line two (long ){20,}long$/)
  await expect(session).toHaveText(answer.title)
  expect(await shownTitle()).toBe(answer.title)
  expect(answer.title).not.toMatch(/[\u0000-\u001F\u202A-\u202E\u2066-\u2069\u200B\uD800-\uDFFF]/)
  // One line: the row is as tall as it was with a plain name.
  expect((await session.boundingBox())!.height).toBe(plainHeight)
  await shoot(app, 'rename-hostile', app.getByRole('navigation', { name: 'Projects' }))

  // A name with nothing that shows is refused, and the session keeps its name.
  await expect(rpc(host, 'session.rename', { sessionId, title: '\u202E\u200B\u0000' })).rejects.toThrow('a name needs at least one character that shows')
  await expect(session).toHaveText(answer.title)
})

test('a name the host did not take keeps the rename field open with what was typed: Enter tries again, Esc gives up', async ({ page, host, project }) => {
  // The host answers the first rename with an error, as it would any request while the connection was down.
  let refused = 0
  await page.routeWebSocket(/\/rpc\?/, (ws) => {
    const server = ws.connectToServer()
    ws.onMessage((message) => {
      const frame = JSON.parse(String(message)) as { kind: string; id: number; name: string }
      if (frame.kind === 'request' && frame.name === 'session.rename' && refused++ === 0) {
        ws.send(JSON.stringify({ kind: 'response', id: frame.id, result: { ok: false, error: { code: 'internal', message: 'the host could not be reached' } } }))
      } else server.send(message)
    })
  })
  await openApp(page, host.url)
  await openProjectWithSession(page, project)
  const session = sessionButtons(page).first()
  const before = await session.textContent()
  await session.press('F2')
  const field = sessionList(page).getByLabel('Session name')
  await field.fill('Greeter refactor')
  await field.press('Enter')
  await expect(page.getByRole('navigation', { name: 'Projects' }).getByRole('alert')).toHaveText('Could not rename the session: the host could not be reached')
  // Nothing typed is lost, and the keyboard is still in the field.
  await expect(field).toHaveValue('Greeter refactor')
  await expect(field).toBeFocused()
  await field.press('Enter')
  await expect(session).toHaveText('Greeter refactor')
  await expect(session).toBeFocused()
  expect(refused).toBe(2)

  // Refused again, Esc gives up: the name is as it was.
  refused = 0
  await session.press('F2')
  await field.fill('Not kept')
  await field.press('Enter')
  await expect(page.getByRole('navigation', { name: 'Projects' }).getByRole('alert')).toBeVisible()
  await field.press('Escape')
  await expect(session).toHaveText('Greeter refactor')
  expect(before).not.toBe('Greeter refactor')
})

test('deleting a session whose turn waits for an approval says first that the delete stops it', async ({ app, project }) => {
  await openProjectWithSession(app, project)
  const composer = app.getByLabel('Message')
  await composer.fill('replace "hello" with "goodbye" in greet.ts')
  await composer.press('Enter')
  await expect(app.getByRole('group', { name: 'Approval needed' })).toBeVisible()
  await sessionButtons(app).first().focus()
  await app.keyboard.press('Delete')
  const dialog = app.getByRole('alertdialog')
  await expect(dialog).toContainText('Its turn is waiting for your approval: deleting stops it. Its messages and every pass recorded for it are removed from Loupe.')
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  // Stopped, the same question says nothing of a turn.
  const ended = appEvent(app, 'turn.ended')
  await app.getByRole('button', { name: 'Stop (Esc)' }).click()
  await ended
  await sessionButtons(app).first().focus()
  await app.keyboard.press('Delete')
  await expect(dialog).toHaveAccessibleDescription('Its messages and every pass recorded for it are removed from Loupe. This cannot be undone.')
  await app.keyboard.press('Escape')
})

test('a session is deleted after a confirmation that names it, from the sidebar and the palette', async ({ app, host, project }) => {
  await openProjectWithSession(app, project)
  await sessionButtons(app).first().dblclick()
  await sessionList(app).getByLabel('Session name').fill('Keep me')
  await app.keyboard.press('Enter')
  // Renamed (answered), it is a session in use: "+ New session" then makes another rather than showing it again.
  await expect(sessionButtons(app).first()).toHaveText('Keep me')
  await app.getByRole('button', { name: '+ New session' }).click()
  await expect(sessionButtons(app)).toHaveCount(2)
  await sessionButtons(app).first().dblclick()
  await sessionList(app).getByLabel('Session name').fill('Scratch')
  await app.keyboard.press('Enter')

  // From the sidebar, with the pointer (the row's ×): the dialog names the session; Esc keeps it.
  const scratch = sessionList(app).locator('li', { hasText: 'Scratch' })
  await scratch.hover()
  await shoot(app, 'row-actions', app.getByRole('navigation', { name: 'Projects' }))
  await scratch.locator('button[title^="Delete"]').click()
  const confirm = app.getByRole('alertdialog', { name: 'Delete “Scratch”?' })
  await expect(confirm).toBeVisible()
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused()
  await shoot(app, 'delete-confirmation')
  await app.keyboard.press('Escape')
  await expect(confirm).toHaveCount(0)
  await expect(sessionButtons(app)).toHaveCount(2)
  // …and with the keyboard (Delete on the session). The keyboard goes on to the session left, not to "+ New session"
  // (where the next Enter would make one).
  await sessionButtons(app).filter({ hasText: 'Scratch' }).press('Delete')
  await confirm.getByRole('button', { name: 'Delete session' }).click()
  await expect(sessionButtons(app)).toHaveText(['Keep me'])
  await expect(sessionButtons(app).first()).toBeFocused()
  const projects = (await rpc(host, 'project.list', {})) as Array<{ id: string }>
  const titles = async () => ((await rpc(host, 'session.list', { projectId: projects[0]!.id })) as Array<{ title: string }>).map((s) => s.title)
  expect(await titles()).toEqual(['Keep me'])

  // From the palette: the open session.
  await sessionButtons(app).first().click()
  await app.keyboard.press('Control+k')
  await app.getByLabel('Type a command').fill('delete')
  await app.keyboard.press('Enter')
  await app.getByRole('alertdialog', { name: 'Delete “Keep me”?' }).getByRole('button', { name: 'Delete session' }).click()
  await expect(sessionButtons(app)).toHaveCount(0)
  // No session left: "+ New session" is what comes next.
  await expect(app.getByRole('button', { name: '+ New session' })).toBeFocused()
  await expect(app.getByRole('heading', { name: 'Create a session' }).or(app.getByText('Create a session with + New session'))).toBeVisible()
  expect(await titles()).toEqual([])
})

test('a session is exported to a file before it is deleted, and imported back from it with its conversation', async ({ app, host, project }) => {
  await openProjectWithSession(app, project)
  const composer = app.getByLabel('Message')
  await composer.fill('read README.md')
  const ended = nextTurnEnd(app)
  await composer.press('Enter')
  await ended
  await expect(app.locator('.msg.assistant').last()).toContainText('Prints a friendly hello')

  // Deleting asks first, and offers to export it first.
  await sessionButtons(app).first().press('Delete')
  await app.getByRole('alertdialog').getByRole('button', { name: 'Export it first…' }).click()
  const exporting = app.getByRole('dialog', { name: /^Export(ed)? “/ })
  const field = exporting.getByLabel('Save to')
  await expect(field).toBeFocused()
  // It starts in the data folder's exports/, where an export never replaces a file.
  await expect(field).toHaveValue(/[\\/]exports[\\/]ses_[^\\/]+\.json$/)
  const target = join(project, 'out', 'greeter-session.json')
  await field.fill(target)
  await exporting.getByRole('button', { name: 'Export' }).click()
  await expect(exporting.getByRole('status')).toContainText('written')
  await expect(exporting.getByLabel('File')).toHaveValue(target)
  await expect(exporting.getByRole('button', { name: 'Close' })).toBeFocused()
  await app.context().grantPermissions(['clipboard-read', 'clipboard-write'])
  await exporting.getByRole('button', { name: 'Copy path' }).click()
  await expect(exporting.getByRole('button', { name: 'Copied' })).toBeVisible()
  expect(await app.evaluate(() => navigator.clipboard.readText())).toBe(target)
  await shoot(app, 'exported', exporting)
  expect(JSON.parse(readFileSync(target, 'utf8'))).toBeTruthy()
  // The same file again is refused in plain words; nothing is replaced.
  await exporting.getByRole('button', { name: 'Close' }).click()
  await expect(exporting).toHaveCount(0)
  // Exported on the way to deleting it: the delete is asked again. Kept, for now.
  const askAgain = app.getByRole('alertdialog', { name: 'Delete “read README.md”?' })
  await expect(askAgain).toBeVisible()
  await askAgain.getByRole('button', { name: 'Cancel' }).click()
  await expect(askAgain).toHaveCount(0)
  await app.keyboard.press('Control+k')
  await app.getByLabel('Type a command').fill('export this session')
  await app.keyboard.press('Enter')
  await exporting.getByLabel('Save to').fill(target)
  await exporting.getByLabel('Save to').press('Enter')
  await expect(exporting.getByRole('alert')).toContainText('already exists')
  await app.keyboard.press('Escape')
  await expect(exporting).toHaveCount(0)

  await sessionButtons(app).first().press('Delete')
  await app.getByRole('alertdialog').getByRole('button', { name: 'Delete session' }).click()
  await expect(sessionButtons(app)).toHaveCount(0)

  // Imported from the palette: a file that is not an export says why, and keeps the path typed.
  writeFileSync(join(project, 'notes.txt'), 'not json')
  await app.keyboard.press('Control+k')
  await app.getByLabel('Type a command').fill('import a session')
  await app.keyboard.press('Enter')
  const importing = app.getByRole('dialog', { name: /^Import a session into / })
  await importing.getByLabel('File').fill(join(project, 'notes.txt'))
  await importing.getByRole('button', { name: 'Import' }).click()
  await expect(importing.getByRole('alert')).toContainText('is not valid JSON')
  await expect(importing.getByLabel('File')).toHaveValue(join(project, 'notes.txt'))
  await importing.getByLabel('File').fill(target)
  const created = appEvent(app, 'session.created')
  await importing.getByRole('button', { name: 'Import' }).click()
  await created
  await expect(importing).toHaveCount(0)
  await expect(sessionButtons(app)).toHaveText(['read README.md'])
  await expect(app.locator('.msg.user')).toHaveText(/read README.md/)
  await expect(app.locator('.msg.assistant').last()).toContainText('Prints a friendly hello')
  const projects = (await rpc(host, 'project.list', {})) as Array<{ id: string }>
  const sessions = (await rpc(host, 'session.list', { projectId: projects[0]!.id })) as Array<{ id: string }>
  expect(((await rpc(host, 'pass.list', { sessionId: sessions[0]!.id })) as unknown[]).length).toBeGreaterThan(0)

  // The same file again: the session is here already, so it is opened, and the dialog says so.
  await app.keyboard.press('Control+k')
  await app.getByLabel('Type a command').fill('import a session')
  await app.keyboard.press('Enter')
  await importing.getByLabel('File').fill(target)
  await importing.getByRole('button', { name: 'Import' }).click()
  const present = app.getByRole('dialog', { name: 'Already here: “read README.md”' })
  await expect(present.getByRole('status')).toContainText('is in Loupe already, and is open now')
  await expect(present.getByRole('button', { name: 'Close' })).toBeFocused()
  await present.getByRole('button', { name: 'Close' }).click()
  await expect(sessionButtons(app)).toHaveText(['read README.md'])
})

test('after a session is deleted the keyboard is on the next session in the list, or the one before at its end', async ({ app, project }) => {
  await openProjectWithSession(app, project)
  // Three sessions, named so the list reads One, Two, Three from the top (the newest first).
  for (const [i, name] of ['Three', 'Two', 'One'].entries()) {
    if (i > 0) {
      await app.getByLabel('Message').fill('a draft, so + New session makes another session')
      await app.getByRole('button', { name: '+ New session' }).click()
      await expect(sessionButtons(app)).toHaveCount(i + 1)
    }
    await sessionButtons(app).first().dblclick()
    await sessionList(app).getByLabel('Session name').fill(name)
    await app.keyboard.press('Enter')
  }
  await expect(sessionButtons(app)).toHaveText(['One', 'Two', 'Three'])

  // From the middle: the next one down.
  await sessionButtons(app).filter({ hasText: 'Two' }).press('Delete')
  await app.getByRole('alertdialog', { name: 'Delete “Two”?' }).getByRole('button', { name: 'Delete session' }).click()
  await expect(sessionButtons(app)).toHaveText(['One', 'Three'])
  await expect(sessionButtons(app).filter({ hasText: 'Three' })).toBeFocused()
  // Enter there opens that session; it makes none.
  await app.keyboard.press('Enter')
  await expect(sessionButtons(app).filter({ hasText: 'Three' })).toHaveAttribute('aria-current', 'true')
  await expect(sessionButtons(app)).toHaveCount(2)

  // The last one: the one before it.
  await sessionButtons(app).filter({ hasText: 'Three' }).press('Delete')
  await app.getByRole('alertdialog', { name: 'Delete “Three”?' }).getByRole('button', { name: 'Delete session' }).click()
  await expect(sessionButtons(app)).toHaveText(['One'])
  await expect(sessionButtons(app).filter({ hasText: 'One' })).toBeFocused()

  // Cancelled, the keyboard is back on the session.
  await sessionButtons(app).filter({ hasText: 'One' }).press('Delete')
  await app.getByRole('alertdialog', { name: 'Delete “One”?' }).getByRole('button', { name: 'Cancel' }).click()
  await expect(sessionButtons(app).filter({ hasText: 'One' })).toBeFocused()
})

test('the whole-project passes list tells sessions apart', async ({ app, project }) => {
  await openProjectWithSession(app, project)
  const composer = app.getByLabel('Message')
  for (const text of ['read README.md', 'read greet.ts']) {
    const ended = nextTurnEnd(app)
    await composer.fill(text)
    await composer.press('Enter')
    expect(await ended).toBe('end_turn')
    if (text === 'read README.md') {
      await app.getByRole('button', { name: '+ New session' }).click()
      await expect(sessionButtons(app)).toHaveCount(2)
    }
  }
  await app.getByLabel('Which passes').selectOption('project')
  const rows = app.getByTestId('passes-list').getByRole('option')
  await expect(rows).toHaveCount(4)
  // Both sessions were made in the same minute: their default names are the same, so the column numbers them.
  const labels = await app.getByTestId('passes-list').locator('.insp-session').allTextContents()
  expect(new Set(labels).size).toBe(2)
  for (const label of labels) expect(label).not.toBe('Ses…')
  await expect(rows.first().locator('.insp-seq')).toHaveText('1')
  await app.getByTestId('inspector').screenshot({ path: 'e2e/screenshots/sessions-project-passes.png' })
})

test('a pass chosen in the inspector brings its message into view, and a message is chosen from the keyboard', async ({ app, project }) => {
  await openProjectWithSession(app, project)
  const composer = app.getByLabel('Message')
  // Enough turns that the first answer scrolls out of the chat.
  for (let i = 0; i < 8; i++) {
    const ended = nextTurnEnd(app)
    await composer.fill(i % 2 === 0 ? 'read README.md' : 'read greet.ts')
    await composer.press('Enter')
    expect(await ended).toBe('end_turn')
  }
  const first = app.locator('.msg.assistant').first()
  await expect(first).not.toBeInViewport()
  await app.getByTestId('passes-list').getByRole('option').first().click()
  await expect(first).toBeInViewport()
  await expect(first).toHaveAttribute('aria-current', 'true')
  // The chosen answer is the conversation's one Tab stop; Down moves to the next answer, Enter chooses it.
  const second = app.locator('.msg.assistant').nth(1)
  await first.focus()
  await app.keyboard.press('ArrowDown')
  await expect(second).toBeFocused()
  await app.keyboard.press('Enter')
  await expect(second).toHaveAttribute('aria-current', 'true')
  // Each turn here is two passes (the read, then the answer): the second answer is pass 2.
  await expect(app.getByTestId('passes-list').getByRole('option', { selected: true }).locator('.insp-seq')).toHaveText('2')

  // The top bar's views are one Tab stop, the arrows move between them.
  await app.getByRole('tab', { name: 'Chat' }).focus()
  await app.keyboard.press('ArrowRight')
  await expect(app.getByRole('tab', { name: 'Compaction' })).toHaveAttribute('aria-selected', 'true')
  await app.keyboard.press('ArrowLeft')
  await expect(app.getByRole('tab', { name: 'Chat' })).toHaveAttribute('aria-selected', 'true')
  await expect(app.getByRole('tab', { name: 'Chat' })).toBeFocused()

  // Tab crosses the sixteen answers in a few steps: from the mode switch to the message box.
  await app.getByLabel('Permission mode').focus()
  let presses = 0
  while (!(await composer.evaluate((el) => el === document.activeElement)) && presses < 40) {
    await app.keyboard.press('Tab')
    presses++
  }
  await expect(composer).toBeFocused()
  expect(presses).toBeLessThan(10)
})

test('a half-written message survives a change of view or session, and is gone once sent', async ({ app, project }) => {
  await openProjectWithSession(app, project)
  const composer = app.getByLabel('Message')
  await composer.fill('half a thought')
  await app.keyboard.press('Alt+4')
  await expect(composer).toHaveCount(0)
  await app.keyboard.press('Alt+1')
  await expect(composer).toHaveValue('half a thought')

  await app.getByRole('button', { name: '+ New session' }).click()
  await expect(sessionButtons(app)).toHaveCount(2)
  await expect(composer).toHaveValue('')
  await composer.fill('another draft')
  await sessionButtons(app).nth(1).click()
  await expect(composer).toHaveValue('half a thought')
  await sessionButtons(app).nth(0).click()
  await expect(composer).toHaveValue('another draft')

  await composer.fill('read README.md')
  const ended = nextTurnEnd(app)
  await composer.press('Enter')
  expect(await ended).toBe('end_turn')
  await expect(composer).toHaveValue('')
  await sessionButtons(app).nth(1).click()
  await sessionButtons(app).nth(0).click()
  await expect(composer).toHaveValue('')
})

test('an approval takes the keyboard from the chat, not from another field; the sidebar marks running and waiting sessions', async ({ app, host, project }) => {
  await openProjectWithSession(app, project)
  // "+ New session" leaves the keyboard in the message box.
  const composer = app.getByLabel('Message')
  await expect(composer).toBeFocused()
  const waiting = sessionList(app).getByRole('img', { name: 'Waiting for your approval' })
  const running = sessionList(app).getByRole('img', { name: 'A turn is running' })

  // Sent from the message box: the approval takes the keyboard, and the session is marked as waiting.
  await composer.fill('replace "hello" with "goodbye" in greet.ts')
  const firstEnd = nextTurnEnd(app, await app.locator('section.chat').getAttribute('data-session-id'))
  await composer.press('Enter')
  const approval = app.getByRole('group', { name: 'Approval needed' })
  await expect(approval.getByRole('button', { name: 'Approve once' })).toBeFocused()
  await expect(waiting).toHaveCount(1)

  // A second session runs a command without asking (auto mode): it is marked as running meanwhile.
  await app.getByRole('button', { name: '+ New session' }).click()
  await expect(sessionButtons(app)).toHaveCount(2)
  await app.getByLabel('Permission mode').selectOption('auto')
  await composer.fill('run `while [ ! -e seen-running ]; do sleep 0.1; done`')
  await composer.press('Enter')
  await expect(running).toHaveCount(1)
  await expect(waiting).toHaveCount(1)
  await shoot(app, 'markers', app.getByRole('navigation', { name: 'Projects' }))
  writeFileSync(join(project, 'seen-running'), '')
  await expect(running).toHaveCount(0)

  // Back in the first session, the approval is still waiting; Enter on it approves.
  await sessionButtons(app).nth(1).click()
  await approval.getByRole('button', { name: 'Approve once' }).focus()
  await app.keyboard.press('Enter')
  expect(await firstEnd).toBe('end_turn')
  await expect(waiting).toHaveCount(0)

  // Typing in another field: an approval that arrives meanwhile waits without taking the keyboard.
  const path = app.getByLabel('Folder path')
  await path.fill('/somewhere/half-typ')
  const sessionId = await app.locator('section.chat').getAttribute('data-session-id')
  await rpc(host, 'run.start', { sessionId, text: 'replace "goodbye" with "bye" in greet.ts' })
  await expect(approval).toBeVisible()
  await expect(waiting).toHaveCount(1)
  await expect(path).toBeFocused()
  await app.keyboard.type('ed')
  await expect(path).toHaveValue('/somewhere/half-typed')
})

test('a reload comes back to the session the window showed, and marks a session that waits for an approval unseen', async ({ app, host, project }) => {
  await openProjectWithSession(app, project)
  const first = await app.locator('section.chat').getAttribute('data-session-id')
  // Something typed: "+ New session" makes another session instead of showing this one again.
  await app.getByLabel('Message').fill('a thought for later')
  await app.getByRole('button', { name: '+ New session' }).click()
  await expect(sessionButtons(app)).toHaveCount(2)
  // Listed (by its event) a moment before it is open (by the request's answer): read once the chat shows it.
  await expect(app.locator('section.chat')).not.toHaveAttribute('data-session-id', first!)
  const second = await app.locator('section.chat').getAttribute('data-session-id')
  await sessionButtons(app).nth(1).click()
  await expect(app.locator('section.chat')).toHaveAttribute('data-session-id', first!)

  // The newer session asks for an approval while this window shows the other one; the reloaded window has seen none
  // of that turn's events, and marks the session from what session.list says.
  await rpc(host, 'run.start', { sessionId: second, text: 'replace "hello" with "goodbye" in greet.ts' })
  const waiting = sessionList(app).getByRole('img', { name: 'Waiting for your approval' })
  await expect(waiting).toHaveCount(1)
  await app.reload()
  await expect(app.locator('html[data-app-ready="true"]')).toHaveCount(1)
  await expect(app.locator('section.chat')).toHaveAttribute('data-session-id', first!)
  await expect(waiting).toHaveCount(1)
  await expect(sessionButtons(app).nth(0).getByRole('img', { name: 'Waiting for your approval' })).toHaveCount(1)

  // Opened, the session shows the approval itself; answered, the mark goes.
  await sessionButtons(app).nth(0).click()
  const approval = app.getByRole('group', { name: 'Approval needed' })
  const ended = nextTurnEnd(app, second)
  await approval.getByRole('button', { name: 'Approve once' }).click()
  expect(await ended).toBe('end_turn')
  await expect(waiting).toHaveCount(0)
})

test('an approval answered in one window leaves the other window too', async ({ app, host, project }) => {
  await openProjectWithSession(app, project)
  const other = await app.context().newPage()
  await openApp(other, host.url)
  await other.getByRole('navigation', { name: 'Projects' }).getByText(project.split('/').pop()!, { exact: true }).click()
  await sessionButtons(other).first().click()

  // A command asks first in build mode, and runs a while once approved: the other window must drop its card then,
  // not only when the turn ends.
  await app.getByLabel('Message').fill('run `while [ ! -e seen-running ]; do sleep 0.1; done`')
  await app.getByLabel('Message').press('Enter')
  const card = (page: Page) => page.getByRole('group', { name: 'Approval needed' })
  await expect(card(app)).toBeVisible()
  await expect(card(other)).toBeVisible()
  await expect(sessionList(other).getByRole('img', { name: 'Waiting for your approval' })).toHaveCount(1)

  const ended = nextTurnEnd(other)
  await card(app).getByRole('button', { name: 'Approve once' }).click()
  await expect(card(other)).toHaveCount(0)
  await expect(other.locator('.tool-call[data-tool="bash"]')).toHaveAttribute('data-status', 'running')
  await expect(sessionList(other).getByRole('img', { name: 'A turn is running' })).toHaveCount(1)
  writeFileSync(join(project, 'seen-running'), '')
  expect(await ended).toBe('end_turn')
  await expect(sessionList(other).getByRole('img', { name: 'Waiting for your approval' })).toHaveCount(0)
  await other.close()
})

test('a command still running when the window reloads shows as running, then done', async ({ app, project }) => {
  await openProjectWithSession(app, project)
  await app.getByLabel('Permission mode').selectOption('auto')
  const started = appEvent(app, 'tool.started')
  // The command ends when the test says so, not after a time a loaded machine could outlast while reloading.
  await app.getByLabel('Message').fill('run `while [ ! -e reloaded ]; do sleep 0.1; done`')
  await app.getByLabel('Message').press('Enter')
  await started
  const call = app.locator('.tool-call[data-tool="bash"]')
  await expect(call).toHaveAttribute('data-status', 'running')
  await app.reload()
  await expect(app.locator('html[data-app-ready="true"]')).toHaveCount(1)
  await expect(call).toHaveAttribute('data-status', 'running')
  writeFileSync(join(project, 'reloaded'), '')
  await expect(call).toHaveAttribute('data-status', 'done')
})

test('closing the palette with Esc gives the keyboard back where it was', async ({ app, project }) => {
  await openProjectWithSession(app, project)
  const composer = app.getByLabel('Message')
  await composer.click()
  await app.keyboard.press('Control+k')
  await expect(app.getByLabel('Type a command')).toBeFocused()
  // The field keeps the focus while the arrows move the choice; it names the chosen option for a screen reader.
  await app.keyboard.press('ArrowDown')
  const chosen = app.getByTestId('palette').getByRole('option', { selected: true })
  await expect(app.getByLabel('Type a command')).toHaveAttribute('aria-activedescendant', (await chosen.getAttribute('id'))!)
  await app.keyboard.press('Escape')
  await expect(app.getByTestId('palette')).toHaveCount(0)
  await expect(composer).toBeFocused()
})

test('long unbroken error text wraps inside its box', async ({ app, project }) => {
  await openProjectWithSession(app, project)
  // A failed turn's message can be one long token (a URL, a request id, a JSON body): it must not run past the card.
  const overflow = await app.evaluate(() => {
    const conversation = document.querySelector('.conversation')!
    const long = 'x'.repeat(600)
    const boxes = ['turn-failed', 'notice warning', 'error chat-error', 'error-box'].map((className) => {
      const box = document.createElement('div')
      box.className = className
      box.innerHTML = `<p>request_id=${long}</p>`
      conversation.append(box)
      return box
    })
    return boxes.map((b) => ({ className: b.className, over: b.scrollWidth - b.clientWidth }))
  })
  for (const o of overflow) expect(o, o.className).toMatchObject({ over: 0 })
})

test.describe('an imported Claude Code session', () => {
  test('is read-only, points to continuing it, says who wrote it, and the main process refuses a message', async ({ page, host }) => {
    const listing = (await rpc(host, 'transcripts.list', {})) as { projects: Array<{ sessions: Array<{ path: string }> }> }
    const imported = (await rpc(host, 'transcripts.import', { path: listing.projects[0]!.sessions[0]!.path })) as { sessionId: string; projectId: string }
    await openApp(page, host.url)
    await page.getByRole('button', { name: /spotter/ }).click()
    // The sidebar marks it as Claude Code's and spends its width on the rest of the name; it is read out whole.
    const row = sessionButtons(page).filter({ hasText: 'start phoenix' })
    await expect(row.locator('.session-origin')).toHaveText('CC')
    await expect(row.locator('.session-title')).toHaveText('Claude Code: start phoenix in background')
    await expect(row).toHaveAccessibleName('Claude Code: start phoenix in background')
    await row.click()

    const composer = page.getByLabel('Message')
    await expect(composer).toBeDisabled()
    const readOnly = page.getByRole('note').filter({ hasText: 'imported from Claude Code' })
    await expect(readOnly).toBeVisible()
    await expect(page.locator('.msg.assistant .msg-who').first()).toHaveText('Claude Code')
    await expect(page.locator('.msg-who').filter({ hasText: /^Loupe/ })).toHaveCount(0)
    await expect(page.getByLabel('Permission mode')).toHaveCount(0)
    await expect(page.getByRole('region', { name: 'Session' }).getByText('Offline simulator')).toHaveCount(0)
    await shoot(page, 'imported', page.getByRole('region', { name: 'Session' }))

    // The main process refuses a message to it too, and adds nothing.
    const before = ((await rpc(host, 'pass.list', { sessionId: imported.sessionId })) as unknown[]).length
    await expect(rpc(host, 'run.start', { sessionId: imported.sessionId, text: 'hello' })).rejects.toThrow(/imported from a Claude Code transcript/)
    expect(((await rpc(host, 'pass.list', { sessionId: imported.sessionId })) as unknown[]).length).toBe(before)

    // "Continue as a Loupe session" opens a new session that takes messages.
    await readOnly.getByRole('button', { name: 'Continue as a Loupe session' }).click()
    await expect(page.getByRole('region', { name: 'Session' }).getByRole('heading')).toHaveText(/^Continued: /)
    await expect(composer).toBeEnabled()
    await expect(composer).toBeFocused()
  })
})

test('"+ New session" shows the open session again while nothing has happened in it', async ({ app, project }) => {
  await openProjectWithSession(app, project)
  const chat = app.locator('section.chat')
  const first = await chat.getAttribute('data-session-id')
  await app.keyboard.press('Alt+4')
  await app.getByRole('button', { name: '+ New session' }).click()
  // Back in the chat of the same session, ready for a message: no second empty session of the same name.
  await expect(app.getByLabel('Message')).toBeFocused()
  await expect(chat).toHaveAttribute('data-session-id', first!)
  await expect(sessionButtons(app)).toHaveCount(1)
  // Once something is typed, it is a session in use: the next one is new.
  await app.getByLabel('Message').fill('a thought for later')
  await app.getByRole('button', { name: '+ New session' }).click()
  await expect(sessionButtons(app)).toHaveCount(2)
  await expect(chat).not.toHaveAttribute('data-session-id', first!)
})

test('the sessions list is one Tab stop, walked with the arrow keys', async ({ app, project }) => {
  await openProjectWithSession(app, project)
  // A draft in each makes them sessions in use, so each "+ New session" makes another.
  for (const draft of ['first draft', 'second draft']) {
    const before = await app.locator('section.chat').getAttribute('data-session-id')
    await app.getByLabel('Message').fill(draft)
    await app.getByRole('button', { name: '+ New session' }).click()
    await expect(app.locator('section.chat')).not.toHaveAttribute('data-session-id', before!)
  }
  const rows = sessionButtons(app)
  await expect(rows).toHaveCount(3)
  // The open session (the newest, first) takes Tab; the others are reached with the arrows.
  await expect(sessionList(app).locator('button.session[tabindex="0"]')).toHaveCount(1)
  // Focused only once the newest is open and holds the Tab stop: focusing a row sets the stop, so focusing the row
  // that held it a moment before would keep it there.
  await expect(rows.nth(0)).toHaveAttribute('aria-current', 'true')
  await expect(rows.nth(0)).toHaveAttribute('tabindex', '0')
  await rows.nth(0).focus()
  await expect(rows.nth(0)).toBeFocused()
  await app.keyboard.press('ArrowDown')
  await expect(rows.nth(1)).toBeFocused()
  await app.keyboard.press('End')
  await expect(rows.nth(2)).toBeFocused()
  await app.keyboard.press('ArrowUp')
  await expect(rows.nth(1)).toBeFocused()
  await expect(sessionList(app).locator('button.session[tabindex="0"]')).toHaveCount(1)
  await expect(rows.nth(1)).toHaveAttribute('tabindex', '0')
  // Enter opens the row the keyboard is on.
  await app.keyboard.press('Enter')
  await expect(rows.nth(1)).toHaveAttribute('aria-current', 'true')
})

test('a project whose folder is gone from disk says so, and offers no new session; its sessions stay readable', async ({ app, project }) => {
  await openProjectWithSession(app, project)
  const other = mkdtempSync(join(tmpdir(), 'loupe-e2e-sessions-other-'))
  try {
    await openOther(app, other)
    const gone = app.locator('button.project', { hasText: basename(project) })
    // Renamed on disk while the window is open; the user comes back to it.
    renameSync(project, `${project}-moved`)
    await gone.click()
    await expect(gone).toContainText('folder not found')
    await expect(gone).toHaveAttribute('aria-description', /not at this path any more/)
    await expect(app.getByRole('button', { name: '+ New session' })).toHaveCount(0)
    await expect(app.locator('.sessions').getByRole('note')).toHaveText(/Folder not found: open it where it is now/)
    await expect(sessionButtons(app)).toHaveCount(1)
    await app.keyboard.press('Control+k')
    await app.getByRole('combobox', { name: 'Type a command' }).fill('session')
    await expect(app.getByRole('option', { name: /Rename this session/ })).toHaveCount(1)
    await expect(app.getByRole('option', { name: /New session in/ })).toHaveCount(0)
    await app.keyboard.press('Escape')
    await sessionButtons(app).first().click()
    await expect(app.locator('section.chat')).toBeVisible()
  } finally {
    renameSync(`${project}-moved`, project)
    rmSync(other, { recursive: true, force: true })
  }
})

test('the palette goes to a session or a project by a word of its name, from the keyboard', async ({ app, project }) => {
  await openProjectWithSession(app, project)
  const chat = app.locator('section.chat')
  const first = await chat.getAttribute('data-session-id')
  // The new session has put the keyboard in its box: F2 before that would have the rename field lose it at once.
  await expect(app.getByLabel('Message')).toBeFocused()
  await sessionButtons(app).first().press('F2')
  await app.getByLabel('Session name').fill('Fix the login bug')
  await app.keyboard.press('Enter')
  await app.getByLabel('Message').fill('a draft, so the next session is a new one')
  await app.getByRole('button', { name: '+ New session' }).click()
  await expect(chat).not.toHaveAttribute('data-session-id', first!)

  await app.keyboard.press('Control+k')
  await app.getByRole('combobox', { name: 'Type a command' }).fill('login')
  await expect(app.getByTestId('palette').getByRole('option')).toHaveText([/Go to\s*Session “Fix the login bug”/])
  await app.keyboard.press('Enter')
  await expect(chat).toHaveAttribute('data-session-id', first!)
  await expect(app.getByLabel('Message')).toBeFocused()

  const other = mkdtempSync(join(tmpdir(), 'loupe-e2e-sessions-goto-'))
  try {
    await openOther(app, other)
    await app.keyboard.press('Control+k')
    await app.getByRole('combobox', { name: 'Type a command' }).fill(`project ${basename(project)}`)
    await app.keyboard.press('Enter')
    await expect(app.locator('button.project.selected')).toHaveAttribute('title', realpathSync(project))
    await expect(app.locator('button.project.selected')).toBeFocused()
  } finally {
    rmSync(other, { recursive: true, force: true })
  }
})

test('a long project path is cut at its start, so its last folders stay in sight', async ({ app, project }) => {
  const deep = join(project, ...Array.from({ length: 5 }, (_, i) => `a-rather-long-folder-name-${i}`), 'the-project')
  mkdirSync(deep, { recursive: true })
  await app.getByLabel('Folder path').fill(deep)
  await app.getByRole('button', { name: 'Open folder' }).click()
  const root = app.locator('button.project.selected .project-root')
  await expect(root).toContainText('the-project')
  // The path's last character is drawn inside the row, and its first is the one cut off.
  const shown = await root.evaluate((el) => {
    const text = document.createTreeWalker(el, NodeFilter.SHOW_TEXT).nextNode() as Text
    const box = el.getBoundingClientRect()
    const charAt = (i: number) => {
      const range = document.createRange()
      range.setStart(text, i)
      range.setEnd(text, i + 1)
      return range.getBoundingClientRect()
    }
    const last = charAt(text.length - 1)
    const first = charAt(0)
    return { lastInside: last.right <= box.right + 0.5 && last.left >= box.left - 0.5, firstInside: first.left >= box.left - 0.5 }
  })
  expect(shown).toEqual({ lastInside: true, firstInside: false })
  await expect(app.locator('button.project.selected')).toHaveAttribute('title', realpathSync(deep))
})

test('sessions that share a name say when each was made; a session named alone does not', async ({ app, host, project }) => {
  await openProjectWithSession(app, project)
  const first = (await app.locator('section.chat').getAttribute('data-session-id'))!
  await app.getByLabel('Message').fill('a draft, so the next one is new')
  await app.getByRole('button', { name: '+ New session' }).click()
  await expect(app.locator('section.chat')).not.toHaveAttribute('data-session-id', first)
  const second = (await app.locator('section.chat').getAttribute('data-session-id'))!
  const row = (id: string) => app.locator(`.sessions button.session[data-session-id="${id}"]`)
  // Named the same (here from another window: the sidebar follows its renames).
  for (const sessionId of [first, second]) await rpc(host, 'session.rename', { sessionId, title: 'Fix the login bug' })
  await expect(row(first).locator('.session-title')).toHaveText('Fix the login bug')
  await expect(row(second).locator('.session-title')).toHaveText('Fix the login bug')
  // Made in the same minute here, so each says its second; the row's name, read out, carries it.
  for (const id of [first, second]) {
    await expect(row(id).locator('.session-made')).toHaveText(/^made \d{4}-\d\d-\d\d \d\d:\d\d(:\d\d)?( \(\d\))?$/)
    const made = (await row(id).locator('.session-made').textContent())!
    await expect(row(id)).toHaveAccessibleName(`Fix the login bug ${made}`)
  }
  await app.locator('.sessions').screenshot({ path: 'e2e/screenshots/sessions-shared-names.png' })
  // The palette and the delete question say which one too.
  const otherMade = (await row(first).locator('.session-made').textContent())!.replace(/^made /, '')
  await app.keyboard.press('Control+K')
  await app.keyboard.type('login')
  await expect(app.getByTestId('palette').getByRole('option')).toHaveText([`Go toSession “Fix the login bug” (made ${otherMade})`])
  await app.keyboard.press('Escape')
  await row(first).focus()
  await app.keyboard.press('Delete')
  await expect(app.getByRole('alertdialog').getByRole('heading')).toHaveText(`Delete “Fix the login bug” (made ${otherMade})?`)
  await app.keyboard.press('Escape')
  await expect(app.getByRole('alertdialog')).toHaveCount(0)
  // Named apart again, neither says it.
  await rpc(host, 'session.rename', { sessionId: second, title: 'Fix the logout bug' })
  await expect(row(second).locator('.session-title')).toHaveText('Fix the logout bug')
  await expect(app.locator('.sessions .session-made')).toHaveCount(0)
})

test('a project is taken out of the list and comes back, with its sessions, when its folder is opened again', async ({ app, project }) => {
  await openProjectWithSession(app, project)
  const other = mkdtempSync(join(tmpdir(), 'loupe-e2e-sessions-remove-'))
  try {
    await openOther(app, other)
    // The one shown goes: the project next to it is shown, with its session.
    const removed = appEvent(app, 'project.removed')
    await app.locator('button.project.selected').hover()
    await app.locator('li.project-row', { has: app.locator('button.project.selected') }).locator('.project-remove').click()
    await removed
    await expect(app.locator('button.project')).toHaveCount(1)
    await expect(app.locator('button.project.selected')).toHaveAttribute('title', realpathSync(project))
    await expect(sessionButtons(app)).toHaveCount(1)

    // From the palette too; nothing is deleted, and opening the folder again brings the project back with it.
    await app.keyboard.press('Control+k')
    await app.getByRole('combobox', { name: 'Type a command' }).fill(`remove ${basename(project)}`)
    await app.keyboard.press('Enter')
    await expect(app.locator('button.project')).toHaveCount(0)
    await expect(app.getByText('No projects yet.')).toBeVisible()
    await app.getByLabel('Folder path').fill(project)
    await app.getByRole('button', { name: 'Open folder' }).click()
    await expect(app.locator('button.project.selected')).toHaveAttribute('title', realpathSync(project))
    await expect(sessionButtons(app)).toHaveCount(1)
  } finally {
    rmSync(other, { recursive: true, force: true })
  }
})

test('a project whose session waits for an approval says so while another project is shown, and a busy row keeps its title under the pointer', async ({ app, project }) => {
  await openProjectWithSession(app, project)
  const composer = app.getByLabel('Message')
  await composer.fill('replace "hello" with "goodbye" in greet.ts')
  const asked = appEvent(app, 'approval.requested')
  await composer.press('Enter')
  await asked
  const other = mkdtempSync(join(tmpdir(), 'loupe-e2e-sessions-busy-'))
  try {
    await openOther(app, other)
    // Its sessions are not listed now: the project's own row says one of them waits.
    const waiting = app.locator('button.project', { hasText: basename(project) }).getByRole('img', { name: `Waiting for your approval in a session of ${basename(project)}` })
    await expect(waiting).toHaveText('approve?')
    await expect(app.locator('button.project.selected .session-activity')).toHaveCount(0)
    await shoot(app, 'project-waiting', app.getByRole('navigation', { name: 'Projects' }))

    // Back to it: the session's row says so, and under the pointer its actions take the marker's place, not the title's.
    await app.locator('button.project', { hasText: basename(project) }).click()
    const row = sessionList(app).locator('li').first()
    await expect(row.getByRole('img', { name: 'Waiting for your approval' })).toBeVisible()
    const titleWidth = () => row.locator('.session-title').evaluate((el) => el.getBoundingClientRect().width)
    const before = await titleWidth()
    await row.hover()
    await expect(row.locator('.session-actions')).toHaveCSS('opacity', '1')
    expect(await titleWidth()).toBeGreaterThanOrEqual(before)
    await expect(app.locator('button.project .session-activity')).toHaveCount(0)
  } finally {
    rmSync(other, { recursive: true, force: true })
  }
})

test('a session written to moves to the top of the list, but not from under the pointer; the selection and the keyboard stay with their sessions', async ({ app, host, project }) => {
  await openProjectWithSession(app, project)
  const composer = app.getByLabel('Message')
  const idOf = (n: number) => sessionButtons(app).nth(n).getAttribute('data-session-id')
  const order = () => sessionButtons(app).evaluateAll((els) => els.map((el) => el.getAttribute('data-session-id')))
  const converse = async (text: string) => {
    const ended = nextTurnEnd(app)
    await composer.fill(text)
    await composer.press('Enter')
    expect(await ended).toBe('end_turn')
  }
  await converse('read README.md')
  const older = await app.locator('section.chat').getAttribute('data-session-id')
  await app.getByRole('button', { name: '+ New session' }).click()
  await expect(app.locator('section.chat')).not.toHaveAttribute('data-session-id', older!)
  await converse('read greet.ts')
  const newer = await idOf(0)
  expect(await order()).toEqual([newer, older])

  // The older session, chosen with the pointer, which stays over the list: its turn does not move the rows under it.
  await sessionButtons(app).nth(1).click()
  await expect(app.locator('section.chat')).toHaveAttribute('data-session-id', older!)
  await converse('read greet.ts again')
  expect(await order()).toEqual([newer, older])
  await shoot(app, 'order-held-under-pointer', app.getByRole('navigation', { name: 'Projects' }))
  // Once the pointer leaves, the list is ordered by activity: the session just written to first, still the one open.
  await app.mouse.move(900, 400)
  await expect.poll(order).toEqual([older, newer])
  await expect(sessionButtons(app).nth(0)).toHaveAttribute('aria-current', 'true')
  await shoot(app, 'order-after-activity', app.getByRole('navigation', { name: 'Projects' }))
  // As a list read again orders it.
  await app.reload()
  await expect(app.locator('html[data-app-ready="true"]')).toHaveCount(1)
  await expect.poll(order).toEqual([older, newer])

  // The keyboard on the top row while another window writes to the session below: the rows change places, the
  // keyboard stays on its session's row (moving a focused element drops its focus; React gives it back after the
  // update), and the session shown here stays the one shown.
  await app.mouse.move(900, 400)
  await sessionButtons(app).nth(0).focus()
  await expect(sessionButtons(app).nth(0)).toBeFocused()
  const written = appEvent(app, 'turn.ended')
  await written.armed
  await rpc(host, 'run.start', { sessionId: newer, text: 'read README.md' })
  await written
  await expect.poll(order).toEqual([newer, older])
  await expect(sessionList(app).locator(`button.session[data-session-id="${older}"]`)).toBeFocused()
  await expect(app.locator('section.chat')).toHaveAttribute('data-session-id', older!)
  await expect(sessionList(app).locator(`button.session[data-session-id="${older}"]`)).toHaveAttribute('aria-current', 'true')
  await expect(sessionList(app).locator('button.session[tabindex="0"]')).toHaveAttribute('data-session-id', older!)
})
