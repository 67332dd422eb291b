/**
 * Claude Code sessions and the capture proxy through the UI: the panel lists a projects folder (CLAUDE_CONFIG_DIR
 * points the host at a temporary one holding a copied real session), imports the session, shows its totals, opens
 * it in the inspector where every pass is marked as reconstructed from a transcript, and starts the proxy, whose
 * captured request shows up as a pass marked "captured". Screenshots go to e2e/screenshots/.
 */
import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { appEvent, expect, folderForThisProcess, openApp, testWithHostEnv } from './fixtures'

const configDir = folderForThisProcess('loupe-e2e-claude-')
const projectDir = join(configDir, 'projects', '-home-marco-projects-spotter')
mkdirSync(projectDir, { recursive: true })
copyFileSync(join(__dirname, '..', 'test', 'fixtures', 'real', 'spotter', 'tool_heavy.jsonl'), join(projectDir, 'tool_heavy.jsonl'))

const test = testWithHostEnv({ LOUPE_SIM_PACE: 'instant', CLAUDE_CONFIG_DIR: configDir })

test('imports a Claude Code session and shows its passes in the inspector, marked as reconstructed', async ({ page, host }) => {
  await openApp(page, host.url)
  await page.getByRole('button', { name: 'Claude Code sessions & proxy…' }).click()
  const panel = page.getByRole('dialog', { name: 'Claude Code sessions' })
  await expect(panel.getByLabel('Claude Code projects folder')).toHaveValue(join(configDir, 'projects'))
  const row = panel.locator('tr[data-session-file="tool_heavy"]')
  await expect(row).toContainText('start phoenix')
  await expect(row.locator('td').nth(3)).toHaveText('4')
  await row.getByRole('button', { name: 'Import' }).click()

  const totals = panel.getByTestId('transcript-totals')
  await expect(totals).toContainText('Claude Code: start phoenix in background')
  await expect(totals.locator('dd').first()).toHaveText('4')
  // Its misses in the Cache view's figures: the loss arrives with the Cache view's summary.
  const missLine = totals.getByTestId('transcript-misses')
  await expect(missLine).toContainText(/^\d+ hits?; \d+ (miss(es)?|partial hits?|misses or partial hits)[:,] .*Lost to misses: \$[\d.]+ /)
  const lost = (await missLine.textContent())!.match(/Lost to misses: (\$[\d.]+)/)![1]!
  const hits = Number((await missLine.textContent())!.match(/^(\d+) hits?/)![1])
  await page.screenshot({ path: 'e2e/screenshots/transcripts-panel.png' })
  // Continuing from the panel says why it cannot go where the import filed it, and what to do (not a dead end).
  await totals.getByRole('button', { name: 'Continue as a Loupe session' }).click()
  await expect(totals.getByRole('status')).toContainText('not on this machine')
  await expect(totals).toContainText('No other project is open')

  await totals.getByRole('button', { name: 'Open in the inspector' }).click()
  await expect(panel).toHaveCount(0)
  const rows = page.getByTestId('passes-list').getByRole('option')
  await expect(rows).toHaveCount(4)
  await expect(page.getByTestId('passes-list').getByTestId('reconstructed-badge')).toHaveCount(4)
  // As many "hit" badges as the dialog counted hits: the first request, which read what was cached before the
  // transcript begins, is neither a hit nor a miss in either.
  await expect(page.getByTestId('passes-list').locator('.insp-badge').filter({ hasText: /^hit$/ })).toHaveCount(hits)
  await expect(page.getByTestId('passes-list').locator('.insp-badge').first()).toHaveText('first')
  await rows.nth(2).click()
  await expect(page.getByTestId('reconstructed-banner')).toContainText('not wire bytes')
  // Rebuilt without the system prompt and the tools the service counted: the map's estimate is not set against it.
  await expect(page.getByTestId('context-map-total')).toHaveText(/^≈[\d,.k]+ tokens in all \(estimates\)$/)
  // The chat shows the imported conversation to its end: the results of its last answer's two calls, written after
  // its last request, and the user's interruption after them.
  await expect(page.getByText('start phoenix in background').first()).toBeVisible()
  await expect(page.locator('.tool-call[data-status="unanswered"]')).toHaveCount(0)
  await expect(page.locator('.tool-call[data-status="waiting"]')).toHaveCount(0)
  await expect(page.locator('.msg.user').last()).toContainText('[Request interrupted by user]')
  await page.screenshot({ path: 'e2e/screenshots/transcripts-inspector.png' })

  // The Cache view gives the transcript's own figures: its recorded usage and the causes it can tell.
  await page.getByRole('tab', { name: 'Cache' }).click()
  await expect(page.getByTestId('cache-basis')).toContainText('Imported from a Claude Code transcript')
  await expect(page.getByTestId('cache-view').locator('.view-head')).toContainText('4 passes')
  await expect(page.getByTestId('cache-totals')).toContainText('read from the cache')
  // The same loss as the Claude Code dialog said.
  await expect(page.getByTestId('cache-totals')).toContainText(`Lost to misses${lost}`)
  await page.screenshot({ path: 'e2e/screenshots/transcripts-cache.png' })

  // Its Compaction view shows what was recorded and offers nothing that would add to it.
  await page.getByRole('tab', { name: 'Compaction' }).click()
  await expect(page.getByTestId('compaction-view').getByRole('note')).toContainText('cannot compact it')
  await expect(page.getByRole('button', { name: 'Compact now' })).toHaveCount(0)
  await expect(page.getByLabel('Fact to pin')).toHaveCount(0)

  // Its folder is Claude Code's logs: the Files view offers nothing to create in it, and the sidebar no new session.
  await page.getByRole('tab', { name: 'Files' }).click()
  await expect(page.getByText('No instruction file here.')).toBeVisible()
  await expect(page.getByRole('button', { name: /Project instructions/ })).toHaveCount(0)
  await expect(page.getByRole('button', { name: '+ New session' })).toHaveCount(0)
  await expect(page.locator('.sessions-note')).toHaveAttribute('title', /Claude Code's transcripts/)

  // Its working folder (/home/marco/projects/spotter) is not on this machine, so it cannot be continued where the
  // import filed it (among the transcripts): the chat offers the projects that are open instead.
  const work = mkdtempSync(join(tmpdir(), 'loupe-e2e-continue-'))
  try {
    await page.getByRole('tab', { name: 'Chat' }).click()
    const readOnly = page.getByRole('note').filter({ hasText: 'imported from Claude Code' })
    await readOnly.getByRole('button', { name: 'Continue as a Loupe session' }).click()
    await expect(readOnly.getByRole('status')).toContainText('not on this machine')
    await expect(readOnly).toContainText('No other project is open')
    await page.getByLabel('Folder path').fill(work)
    await page.getByRole('button', { name: 'Open folder' }).click()
    // Opened and selected before going back: a click that came first would be undone by the opening. The main pane
    // naming the folder is not enough: the project.opened event can list it (in the continue note's choice of
    // projects) before the answer to project.open selects it.
    await expect(page.locator('button.project.selected')).toHaveAttribute('title', realpathSync(work))
    await page.getByRole('navigation', { name: 'Projects' }).getByText('spotter (Claude Code)').click()
    await page.getByRole('list', { name: 'Sessions' }).getByRole('button').filter({ hasText: 'start phoenix' }).first().click()
    await readOnly.getByRole('button', { name: 'Continue as a Loupe session' }).click()
    await expect(readOnly.getByLabel('Project to continue in')).toContainText(work.split('/').pop()!)
    await page.screenshot({ path: 'e2e/screenshots/transcripts-continue-into.png' })
    await readOnly.getByRole('button', { name: 'Continue there' }).click()
    await expect(page.getByRole('region', { name: 'Session' }).getByRole('heading')).toHaveText(/^Continued: /)
    // The turns it carried over are still Claude Code's, and a line marks where Loupe takes over.
    await expect(page.getByTestId('continued-divider')).toHaveCount(1)
    // It says which model the conversation was on and which one Loupe goes on with.
    await expect(page.getByTestId('continued-divider')).toContainText(/Claude Code's, on (Opus|Sonnet|Haiku) \d+(\.\d+)?\. Loupe goes on with Sonnet 4\.6 /)
    await expect(page.getByTestId('continued-divider').locator('.model-named').first()).toHaveAttribute('title', /^claude-/)
    await expect(page.locator('.msg.assistant .msg-who').first()).toHaveText('Claude Code')
    await expect(page.locator('.msg.assistant .msg-who').filter({ hasText: /^Loupe/ })).toHaveCount(0)
    await page.getByTestId('continued-divider').scrollIntoViewIfNeeded()
    await page.screenshot({ path: 'e2e/screenshots/transcripts-continued.png' })
    await expect(page.getByRole('textbox', { name: 'Message' })).toBeEnabled()
    // Its last "You" is Claude Code's own marker ("[Request interrupted by user]"), not a message sent here: nothing
    // it carried over is offered to take back. A message sent in Loupe is, and taking it back stops there.
    const takeBack = page.locator('.msg.user').getByRole('button', { name: 'Take back' })
    await expect(page.locator('.msg.user').last()).toContainText('[Request interrupted by user]')
    await expect(takeBack).toHaveCount(0)
    const composer = page.getByRole('textbox', { name: 'Message' })
    await composer.fill('list src')
    const ended = appEvent(page, 'turn.ended')
    await composer.press('Enter')
    await ended
    await expect(takeBack).toHaveCount(1)
    await expect(page.locator('.msg.user', { has: page.getByRole('button', { name: 'Take back' }) })).toContainText('list src')
    const appended = appEvent(page, 'entries.appended')
    await takeBack.click()
    await appended
    await expect(composer).toHaveValue('list src')
    await expect(page.locator('.taken-back')).toHaveCount(1)
    await expect(takeBack).toHaveCount(0)
    await expect(page.getByTestId('continued-divider')).toHaveCount(1)
    await composer.fill('')

    // Back on the imported session, Continue says it was continued and offers that session first.
    const workName = work.split('/').pop()!
    const importedSession = () => page.getByRole('list', { name: 'Sessions' }).getByRole('button').filter({ hasText: 'start phoenix' }).first()
    await page.getByRole('navigation', { name: 'Projects' }).getByText('spotter (Claude Code)').click()
    await importedSession().click()
    const before = readOnly.getByTestId('continued-before')
    await expect(before.getByRole('status')).toHaveText(/^This conversation was continued on \d{4}-\d\d-\d\d \d\d:\d\d, as “Continued: start phoenix in background”\.$/)
    await expect(readOnly.getByRole('button', { name: 'Continue as a Loupe session' })).toHaveCount(0)
    await page.screenshot({ path: 'e2e/screenshots/transcripts-continued-before.png' })
    await before.getByRole('button', { name: 'Open it' }).click()
    await expect(page.getByRole('region', { name: 'Session' }).getByRole('heading')).toHaveText('Continued: start phoenix in background')

    // Continuing again stays possible, deliberately, and the new session is told apart from the first.
    await page.getByRole('navigation', { name: 'Projects' }).getByText('spotter (Claude Code)').click()
    await importedSession().click()
    await readOnly.getByTestId('continued-before').getByRole('button', { name: 'Continue again' }).click()
    await expect(readOnly.getByLabel('Project to continue in')).toContainText(workName)
    await readOnly.getByRole('button', { name: 'Continue there' }).click()
    await expect(page.getByRole('region', { name: 'Session' }).getByRole('heading')).toHaveText('Continued (2): start phoenix in background')
    const sessions = page.getByRole('list', { name: 'Sessions' })
    await expect(sessions.getByRole('button').filter({ hasText: /^Continued/ })).toHaveText([/^Continued \(2\): start phoenix/, /^Continued: start phoenix/])
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
})

test("lists an imported session's subagent and compaction call under it, named by what it was asked, folded until shown", async ({ page, host }) => {
  // A second projects folder, typed into the panel: a session with a subagent file and a compaction call file.
  const other = mkdtempSync(join(tmpdir(), 'loupe-e2e-claude-sub-'))
  const name = 'ae4a77f8-aedd-4bc1-888f-c94edc91af04'
  const source = join(__dirname, '..', 'test', 'fixtures', 'real', 'spotter')
  const folder = join(other, '-home-marco-projects-spotter')
  mkdirSync(join(folder, name, 'subagents'), { recursive: true })
  copyFileSync(join(source, `${name}.jsonl`), join(folder, `${name}.jsonl`))
  for (const f of ['agent-aac57f5.jsonl', 'agent-acompact-946d2b.jsonl']) copyFileSync(join(source, name, 'subagents', f), join(folder, name, 'subagents', f))
  try {
    await openApp(page, host.url)
    await page.getByRole('button', { name: 'Claude Code sessions & proxy…' }).click()
    const panel = page.getByRole('dialog', { name: 'Claude Code sessions' })
    // Typed once the panel has listed its default folder, which it does as it opens: that answer, arriving after
    // the typed folder's, would replace its listing.
    await expect(panel.getByLabel('Claude Code projects folder')).toHaveValue(join(configDir, 'projects'))
    await panel.getByLabel('Claude Code projects folder').fill(other)
    await panel.getByRole('button', { name: 'List' }).click()
    const row = panel.locator(`tr[data-session-file="${name}"]`)
    await row.getByRole('button', { name: 'Import' }).click()
    await panel.getByTestId('transcript-totals').getByRole('button', { name: 'Open in the inspector' }).click()
    await expect(panel).toHaveCount(0)

    const sessions = page.getByRole('list', { name: 'Sessions' })
    const parent = sessions.locator('button.session[aria-expanded]')
    await expect(parent).toHaveAttribute('aria-expanded', 'false')
    await expect(parent).toContainText('+2')
    await expect(sessions.locator('.session-row.child')).toHaveCount(0)
    // Right shows them under it, oldest first; Left on one goes back up to it, and Left there folds them.
    await parent.focus()
    await page.keyboard.press('ArrowRight')
    await expect(parent).toHaveAttribute('aria-expanded', 'true')
    const children = sessions.locator('.session-row.child button.session')
    await expect(children).toHaveCount(2)
    await expect(children.first()).toHaveText(/^↳ subagent: \S/)
    await expect(children.nth(1)).toHaveText(/^↳ compaction call/)
    await page.locator('.sidebar').screenshot({ path: 'e2e/screenshots/sessions-nested.png' })
    await page.keyboard.press('ArrowDown')
    await expect(children.first()).toBeFocused()
    await page.keyboard.press('ArrowLeft')
    await expect(parent).toBeFocused()
    await page.keyboard.press('ArrowLeft')
    await expect(children).toHaveCount(0)
    // The pointer's way: the ▸ beside it.
    await sessions.locator('.session-fold').click()
    await expect(children).toHaveCount(2)
    await children.first().click()
    await expect(page.getByRole('region', { name: 'Session' }).getByRole('heading')).toHaveText(/^↳ subagent: /)
  } finally {
    rmSync(other, { recursive: true, force: true })
  }
})

test('starts the capture proxy, and a request sent through it becomes a captured pass', async ({ page, host }) => {
  await openApp(page, host.url)
  // Opened from another view, a captured client's session comes up in the chat with the inspector beside it.
  await page.getByRole('tab', { name: 'Settings' }).click()
  await page.getByRole('button', { name: 'Claude Code sessions & proxy…' }).click()
  const panel = page.getByRole('dialog', { name: 'Claude Code sessions' })
  await panel.getByRole('button', { name: 'Start the proxy' }).click()
  const url = ((await panel.getByTestId('proxy-url').textContent()) ?? '').replace('ANTHROPIC_BASE_URL=', '')
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
  const response = await fetch(`${url}/v1/messages`, {
    method: 'POST',
    headers: { 'x-api-key': 'sk-e2e', 'anthropic-version': '2023-06-01', 'content-type': 'application/json', 'x-loupe-client': 'e2e-agent' },
    body: JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'hello' }] }),
  })
  expect(response.status).toBe(200)
  expect(await response.text()).toContain('message_stop')
  await expect(panel).toContainText('1 request recorded')
  // A request the service refuses is recorded too, and the panel says it failed and why, as the agent was told.
  const refused = await fetch(`${url}/v1/messages`, {
    method: 'POST',
    headers: { 'x-api-key': 'sk-e2e', 'anthropic-version': '2023-06-01', 'content-type': 'application/json', 'x-loupe-client': 'e2e-agent' },
    body: JSON.stringify({ model: 'claude-sonnet-4-6', messages: [{ role: 'user', content: 'hello' }] }),
  })
  expect(refused.status).toBe(400)
  await expect(panel).toContainText('2 requests recorded')
  await expect(panel.getByTestId('proxy-failed')).toContainText(/^1 of them failed; the newest at [\d:]+: HTTP 400 · invalid_request_error: .*max_tokens/)
  await expect(panel.locator('.cc-captured')).toContainText('2 passes, 1 failed')
  await panel.locator('.cc-proxy').screenshot({ path: 'e2e/screenshots/transcripts-proxy-failed.png' })
  await panel.getByRole('button', { name: 'e2e-agent' }).click()
  await expect(page.getByTestId('passes-list').getByRole('option')).toHaveCount(2)
  await expect(page.getByTestId('passes-list').getByTestId('captured-badge')).toHaveCount(2)
  // Its chat has no conversation, and says where the requests are instead of inviting a message.
  await expect(page.getByRole('region', { name: 'Session' })).toContainText('the captured requests are in the inspector')
  await expect(page.getByText('Ask the agent about this project.')).toHaveCount(0)
  // No new session is started among the captured requests: the sidebar offers none, and says why on hover.
  await expect(page.getByRole('button', { name: '+ New session' })).toHaveCount(0)
  await expect(page.locator('.sessions-note')).toHaveAttribute('title', /requests the capture proxy recorded/)
  // The refused request, chosen: its line says why it got no response, in the service's words.
  await page.getByTestId('passes-list').getByRole('option').last().click()
  await expect(page.getByTestId('pass-cause')).toHaveText(/^no response \(invalid_request_error: .*max_tokens.*\), so it read and wrote nothing$/)
  await page.screenshot({ path: 'e2e/screenshots/transcripts-proxy.png' })
})

test('a file that holds no transcript is marked and left out of Import all; a folder that cannot be listed takes the listing away', async ({ page, host }) => {
  // A file named like a session that holds no transcript record (random bytes).
  const junkDir = join(configDir, 'projects', '-tmp-junk')
  mkdirSync(junkDir, { recursive: true })
  writeFileSync(join(junkDir, 'junk.jsonl'), Buffer.from(Array.from({ length: 4_000 }, (_, i) => (i * 7919) % 251)))
  try {
    await openApp(page, host.url)
    await page.getByRole('button', { name: 'Claude Code sessions & proxy…' }).click()
    const panel = page.getByRole('dialog', { name: 'Claude Code sessions' })
    const junk = panel.locator('tr[data-session-file="junk"]')
    await expect(junk).toHaveCount(1)
    // Listed, so the user sees it, but marked: it cannot be imported, and Import all leaves it out.
    await expect(junk).toContainText('cannot be imported')
    await expect(junk.getByRole('button', { name: 'Import' })).toBeDisabled()
    await panel.getByRole('button', { name: /^Import all \(\d+\)$/ }).click()
    await expect(panel.getByRole('button', { name: 'Import all (0)' })).toBeVisible()
    await expect(panel.getByRole('alert')).toHaveCount(0)
    // The good one came in.
    await expect(panel.locator('tr[data-session-file="tool_heavy"]').getByRole('button', { name: 'Import' })).toHaveCount(0)
    // A transcript damaged in places (a line that is not JSON, its last line cut short) is listed with why lines of it
    // were skipped.
    const lines = readFileSync(join(projectDir, 'tool_heavy.jsonl'), 'utf8').split('\n').slice(0, 30)
    writeFileSync(join(junkDir, 'damaged.jsonl'), `${lines.join('\n')}\nnot json at all\n{"type":"assistant","message":{"ro`)
    await panel.getByRole('button', { name: 'List', exact: true }).click()
    await expect(panel.locator('tr[data-session-file="damaged"]').getByTestId('cc-skipped-lines')).toHaveText(' · 2 lines skipped: 1 not JSON, 1 cut short at the end of the file')
    // Rows have the same buttons: each is described by its session, for a screen reader to tell them apart.
    await expect(panel.locator('tr[data-session-file="damaged"]').getByRole('button', { name: 'Import' })).toHaveAccessibleDescription(/^.+ · 2 lines skipped/)
    // Imported, the session itself says it is not the whole file.
    await panel.locator('tr[data-session-file="damaged"]').getByRole('button', { name: 'Import' }).click()
    await panel.getByTestId('transcript-totals').getByRole('button', { name: 'Open in the inspector' }).click()
    await expect(panel).toHaveCount(0)
    await expect(page.locator('.read-only-note .skipped-lines-note')).toHaveText(' Its file had 2 lines skipped (1 not JSON, 1 cut short at the end of the file); what they held is not in this session.')
    await page.locator('.read-only-note').screenshot({ path: 'e2e/screenshots/transcripts-skipped-lines-note.png' })
    await page.getByRole('button', { name: 'Claude Code sessions & proxy…' }).click()
    // A folder that cannot be listed takes the last listing away with it: its buttons would import from the old one.
    await panel.getByLabel('Claude Code projects folder').fill('relative/folder')
    await panel.getByRole('button', { name: 'List', exact: true }).click()
    await expect(panel.getByRole('alert')).toContainText('Could not list the sessions')
    await expect(panel.locator('tr[data-session-file]')).toHaveCount(0)
    await expect(panel.getByRole('button', { name: /^Import all/ })).toBeDisabled()
  } finally {
    rmSync(junkDir, { recursive: true, force: true })
  }
})

test('a grown file imported again takes its earlier import’s place in the chat; after an import the keyboard is on its Open', async ({ page, host }) => {
  const dir = join(configDir, 'projects', '-tmp-regrow')
  mkdirSync(dir, { recursive: true })
  const file = join(dir, 'regrow.jsonl')
  copyFileSync(join(projectDir, 'tool_heavy.jsonl'), file)
  try {
    await openApp(page, host.url)
    await page.getByRole('button', { name: 'Claude Code sessions & proxy…' }).click()
    const panel = page.getByRole('dialog', { name: 'Claude Code sessions' })
    const row = panel.locator('tr[data-session-file="regrow"]')
    // From the keyboard: Import is disabled while it runs, and the keyboard does not fall to the page.
    await row.getByRole('button', { name: 'Import' }).press('Enter')
    await expect(row.getByRole('button', { name: 'Open' })).toBeFocused()
    await row.getByRole('button', { name: 'Open' }).press('Enter')
    await expect(panel).toHaveCount(0)
    const chat = page.locator('section.chat')
    const first = (await chat.getAttribute('data-session-id'))!
    const title = (await chat.getByRole('heading').first().textContent())!
    // The file grows; imported again, the new import replaces the one the chat shows.
    appendFileSync(file, '\nnot json\n')
    await page.getByRole('button', { name: 'Claude Code sessions & proxy…' }).click()
    // List is disabled while it lists: the keyboard comes back to it.
    await panel.getByRole('button', { name: 'List', exact: true }).press('Enter')
    await expect(row.getByRole('button', { name: 'Re-import' })).toBeVisible()
    await expect(panel.getByRole('button', { name: 'List', exact: true })).toBeFocused()
    await row.getByRole('button', { name: 'Re-import' }).click()
    await expect(row.getByRole('button', { name: 'Re-import' })).toHaveCount(0)
    await expect(row.getByRole('button', { name: 'Open' })).toBeFocused()
    await page.keyboard.press('Escape')
    await expect(panel).toHaveCount(0)
    await expect(chat).not.toHaveAttribute('data-session-id', first)
    await expect(chat.getByRole('heading').first()).toHaveText(title)
    await expect(page.locator(`.sessions button.session[data-session-id="${first}"]`)).toHaveCount(0)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('at 800×600 each row keeps its buttons inside the list beside a long session name, which its tooltip gives whole', async ({ page, host }) => {
  // Two real sessions with long first messages (their names), cut to their first lines: one imported and grown since,
  // so its row has the most buttons (Totals, Open, Re-import), the other not imported (Import).
  const dir = join(configDir, 'projects', '-tmp-narrow')
  mkdirSync(dir, { recursive: true })
  const spotter = join(__dirname, '..', 'test', 'fixtures', 'real', 'spotter')
  const firstLines = (name: string) => `${readFileSync(join(spotter, `${name}.jsonl`), 'utf8').split('\n').slice(0, 40).join('\n')}\n`
  writeFileSync(join(dir, 'dov.jsonl'), firstLines('4d5611e5-241a-462a-8d15-5122611a9569'))
  writeFileSync(join(dir, 'a0y.jsonl'), firstLines('fa812bfe-b295-4cca-9c2f-fdf01028cb46'))
  try {
    await page.setViewportSize({ width: 800, height: 600 })
    await openApp(page, host.url)
    await page.getByRole('button', { name: 'Claude Code sessions & proxy…' }).click()
    const panel = page.getByRole('dialog', { name: 'Claude Code sessions' })
    const grown = panel.locator('tr[data-session-file="dov"]')
    await grown.getByRole('button', { name: 'Import' }).click()
    await expect(grown.getByRole('button', { name: 'Open' })).toBeVisible()
    appendFileSync(join(dir, 'dov.jsonl'), '\nnot json\n')
    await panel.getByRole('button', { name: 'List', exact: true }).click()
    await expect(grown.getByRole('button', { name: 'Re-import' })).toBeVisible()
    await expect(panel.locator('tr[data-session-file="a0y"]').getByRole('button', { name: 'Import' })).toBeVisible()

    const list = panel.locator('.cc-list')
    // Nothing to scroll sideways for: every button is inside the list's visible box.
    expect(await list.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0)
    const box = (await list.boundingBox())!
    const buttons = panel.locator('tr[data-session-file="dov"] button, tr[data-session-file="a0y"] button')
    await expect(buttons).toHaveCount(4)
    for (const button of await buttons.all()) {
      const b = (await button.boundingBox())!
      expect(b.x, (await button.textContent()) ?? '').toBeGreaterThanOrEqual(box.x)
      expect(b.x + b.width, (await button.textContent()) ?? '').toBeLessThanOrEqual(box.x + box.width)
    }
    // The name gives way to them, cut short; hovered, it is read whole.
    const name = grown.locator('td.cc-title')
    await expect(name).toHaveAttribute('title', /^Work on bead spotter-dov\. Run bd show spotter-dov to see the issue details/)
    expect(await name.locator('.cc-title-text').evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true)
    await panel.screenshot({ path: 'e2e/screenshots/transcripts-800x600.png' })
    // A wide window leaves the name its room.
    await page.setViewportSize({ width: 1280, height: 800 })
    await expect.poll(() => name.evaluate((el) => el.getBoundingClientRect().width)).toBeGreaterThanOrEqual(400)
    await panel.screenshot({ path: 'e2e/screenshots/transcripts-1280x800.png' })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
