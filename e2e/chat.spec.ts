import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { appEvent, expect, openProjectWithSession, rpc, test } from './fixtures'

function fixtureProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-e2e-chat-'))
  writeFileSync(join(dir, 'README.md'), '# Greeter\n\nPrints a friendly hello.\n')
  writeFileSync(join(dir, 'greet.ts'), 'export const greet = () => "hello"\n')
  return dir
}

test('chat: the agent reads a file, asks before editing, and the edit lands on disk', async ({ app, host }) => {
  const dir = fixtureProject()
  try {
    await openProjectWithSession(app, dir)
    const composer = app.getByLabel('Message')

    await composer.fill('read README.md')
    const firstEnded = appEvent(app, 'turn.ended')
    await composer.press('Enter')
    await expect(app.locator('.tool-call[data-tool="read_file"][data-status="done"]')).toHaveCount(1)
    await expect(app.locator('.msg.assistant').last()).toContainText('Prints a friendly hello')
    // The answer shows before the turn has ended; a message sent in between would find the session busy.
    await firstEnded
    // A screen reader hears that the answer is in (the conversation itself is not a live region, or a streamed
    // answer would be read out delta by delta).
    await expect(app.getByTestId('chat-status')).toHaveText('The agent answered.')
    await expect(app.locator('.conversation[aria-live]')).toHaveCount(0)
    // The model thought first (thinking is on by default): folded under the answer, opened on a click.
    const thought = app.locator('.msg.assistant').last().locator('details.thinking')
    await expect(thought).toHaveCount(1)
    await expect(thought).not.toHaveAttribute('open', '')
    await thought.locator('summary').click()
    await expect(thought).toContainText('The user asked: "read README.md"')
    await app.locator('.msg.assistant').last().screenshot({ path: 'e2e/screenshots/chat-thinking.png' })

    await composer.fill('replace "hello" with "goodbye" in greet.ts')
    const secondEnded = appEvent(app, 'turn.ended')
    await composer.press('Enter')
    const approval = app.getByRole('group', { name: 'Approval needed' })
    await expect(approval).toContainText('Edit greet.ts')
    await expect(app.getByTestId('chat-status')).toContainText('Approval needed: Edit greet.ts')
    // The card shows the change itself, as the host will make it, not only the file's name.
    const change = approval.getByRole('region', { name: 'Changes to greet.ts' })
    await expect(change.locator('.change-line.removed')).toHaveText(['export const greet = () => "hello"'])
    await expect(change.locator('.change-line.added')).toHaveText(['export const greet = () => "goodbye"'])
    await expect(approval.getByTestId('change-preview')).toContainText('+1 −1')
    // Within the line, the words that changed are marked.
    await expect(change.locator('.change-line.removed .change-word')).toHaveText('hello')
    await expect(change.locator('.change-line.added .change-word')).toHaveText('goodbye')
    await app.screenshot({ path: 'e2e/screenshots/chat-approval.png' })
    await approval.getByRole('button', { name: 'Approve once' }).click()
    const edited = app.locator('.tool-call[data-tool="edit_file"][data-status="done"]')
    await expect(edited).toHaveCount(1)
    await secondEnded
    // The call in the conversation shows what it changed, as the approval did.
    await edited.locator('summary').first().click()
    await expect(edited.locator('.change-line.added')).toHaveText(['export const greet = () => "goodbye"'])
    await edited.screenshot({ path: 'e2e/screenshots/chat-edit-done.png' })
    await expect(app.getByRole('button', { name: 'Send' })).toBeVisible()
    expect(readFileSync(join(dir, 'greet.ts'), 'utf8')).toContain('goodbye')

    // Every pass was recorded with its exact bytes.
    const sessions = (await rpc(host, 'project.list', {})) as Array<{ id: string }>
    const list = (await rpc(host, 'session.list', { projectId: sessions[0]!.id })) as Array<{ id: string }>
    const passes = (await rpc(host, 'pass.list', { sessionId: list[0]!.id })) as Array<{ status: string; requestSha256: string }>
    expect(passes.length).toBeGreaterThanOrEqual(4)
    expect(passes.every((p) => p.status === 'done')).toBe(true)
    // …and the inspector beside the chat lists them.
    await expect(app.getByTestId('pass-count')).toHaveText(`${passes.length} passes`)
    await app.screenshot({ path: 'e2e/screenshots/chat-after-edit.png' })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('chat: an approval whose file changes on disk while it waits shows the change as the call would make it now', async ({ app }) => {
  const dir = fixtureProject()
  try {
    await openProjectWithSession(app, dir)
    const composer = app.getByLabel('Message')
    await composer.fill('replace "hello" with "goodbye" in greet.ts')
    await composer.press('Enter')
    const approval = app.getByRole('group', { name: 'Approval needed' })
    const change = approval.getByRole('region', { name: 'Changes to greet.ts' })
    await expect(change.locator('.change-line.added')).toHaveText(['export const greet = () => "goodbye"'])
    // The user edits the file elsewhere: the agent read it before asking, so the call will now refuse, and the card
    // says so instead of showing a change that will not be made.
    writeFileSync(join(dir, 'greet.ts'), 'export const greet = () => "hello"\n// Said at the door.\n')
    await expect(approval.getByRole('status')).toHaveText('greet.ts changed on disk: this is the change as it would be made now.')
    await expect(approval.getByRole('note')).toContainText('The file changed on disk after the agent read it')
    await expect(change).toHaveCount(0)
    await approval.screenshot({ path: 'e2e/screenshots/chat-approval-refreshed.png' })
    await approval.getByRole('button', { name: 'Approve once' }).click()
    await expect(app.locator('.tool-call[data-tool="edit_file"][data-status="error"]')).toHaveCount(1)
    await expect(app.getByRole('button', { name: 'Send' })).toBeVisible()
    expect(readFileSync(join(dir, 'greet.ts'), 'utf8')).toBe('export const greet = () => "hello"\n// Said at the door.\n')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('chat: an "always allow" answer is said where it was given, listed beside the mode, and can be removed', async ({ app }) => {
  const dir = fixtureProject()
  try {
    await openProjectWithSession(app, dir)
    const composer = app.getByLabel('Message')
    await composer.fill('replace "hello" with "goodbye" in greet.ts')
    await composer.press('Enter')
    const approval = app.getByRole('group', { name: 'Approval needed' })
    await approval.getByRole('button', { name: /^Always allow/ }).click()
    await expect(app.locator('.note').filter({ hasText: 'Always allowed from now on: edit_file' })).toHaveCount(1)
    const rules = app.getByRole('button', { name: '1 always allowed' })
    await expect(rules).toBeVisible()
    await rules.click()
    const list = app.getByRole('list', { name: 'Always allowed in this session' })
    await expect(list).toContainText('edit_file')
    await app.locator('.chat-head').screenshot({ path: 'e2e/screenshots/chat-allow-rules.png' })
    // Esc from inside the list closes it and goes back to its button; a click elsewhere closes it too.
    await list.getByRole('button', { name: /^Stop always allowing/ }).focus()
    await app.keyboard.press('Escape')
    await expect(list).toHaveCount(0)
    await expect(rules).toBeFocused()
    await expect(rules).toHaveAttribute('aria-expanded', 'false')
    await rules.click()
    await app.locator('.chat-head h1').click()
    await expect(list).toHaveCount(0)
    await rules.click()
    await list.getByRole('button', { name: /^Stop always allowing edit_file/ }).click()
    await expect(app.locator('.notice').filter({ hasText: 'No longer always allowed: edit_file' })).toHaveCount(1)
    await expect(app.getByRole('button', { name: /always allowed$/ })).toHaveCount(0)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('chat: plan mode refuses the edit without asking, and a denied call is explained to the agent', async ({ app }) => {
  const dir = fixtureProject()
  try {
    await openProjectWithSession(app, dir)
    await app.getByLabel('Permission mode').selectOption('plan')
    await expect(app.locator('.note').filter({ hasText: 'Permission mode: plan' })).toHaveCount(1)
    const composer = app.getByLabel('Message')
    await composer.fill('replace "hello" with "goodbye" in greet.ts')
    await composer.press('Enter')
    await expect(app.locator('.tool-call[data-tool="edit_file"][data-status="denied"]')).toHaveCount(1)
    await expect(app.getByRole('group', { name: 'Approval needed' })).toHaveCount(0)
    await expect(app.getByRole('button', { name: 'Send' })).toBeVisible()
    expect(readFileSync(join(dir, 'greet.ts'), 'utf8')).toContain('"hello"')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('chat: a long conversation opens on its newest entries, shows earlier ones on request, and a pass chosen among them comes into view', async ({ app, host }) => {
  // 45 turns are built first: about 15 s on a quiet 2-core machine, several times that when it is busy.
  test.setTimeout(180_000)
  const dir = fixtureProject()
  try {
    await openProjectWithSession(app, dir)
    const sessionId = (await app.locator('section.chat').getAttribute('data-session-id'))!
    // Built through the contract, one turn after another (each: the message, the call, its result, the answer). The
    // page counts the turns it saw end, from a listener in place before the first starts.
    await app.evaluate(() => {
      const w = window as unknown as { turnsEnded: number }
      w.turnsEnded = 0
      window.addEventListener('loupe:event', (e) => (e as CustomEvent<{ name: string }>).detail.name === 'turn.ended' && w.turnsEnded++)
    })
    for (let i = 0; i < 45; i++) {
      await rpc(host, 'run.start', { sessionId, text: 'list the files' })
      await expect.poll(() => app.evaluate(() => (window as unknown as { turnsEnded: number }).turnsEnded)).toBe(i + 1)
    }

    await app.reload()
    await expect(app.locator('html[data-app-ready="true"]')).toHaveCount(1)
    const state = (await rpc(host, 'session.get', { sessionId })) as { entries: unknown[] }
    expect(state.entries.length).toBeGreaterThan(150)
    const earlier = app.getByRole('button', { name: /^Show \d+ earlier entries \(\d+ not shown\)$/ })
    await expect(earlier).toBeVisible()
    const messages = app.locator('.msg.assistant')
    await expect(messages.last()).toBeVisible()
    const shown = await messages.count()
    expect(shown).toBeLessThan(90)

    // The first pass, chosen in the inspector, is brought in and into view.
    const first = app.getByTestId('passes-list').getByRole('option').first()
    await app.getByTestId('passes-list').focus()
    await app.keyboard.press('Home')
    await expect(first).toHaveAttribute('aria-selected', 'true')
    // The list keeps the focus and names the selected row, so a screen reader follows it.
    await expect(app.getByTestId('passes-list')).toHaveAttribute('aria-activedescendant', (await first.getAttribute('id'))!)
    const firstPassId = await first.getAttribute('data-pass-id')
    await expect(app.locator(`.msg.assistant[data-pass-id="${firstPassId}"]`)).toBeInViewport()
    expect(await messages.count()).toBe(90)
    await expect(earlier).toHaveCount(0)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
