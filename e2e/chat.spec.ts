import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Locator, Page } from '@playwright/test'
import { openStore } from '../src-main/node/store'
import { SESSION_WINDOW_ENTRIES } from '../src-preload/limits'
import { dayWords, endOfLifeOf, isRetired, MODEL_NAMES, nextLifeChange } from '../src-preload/models'
import { FOLD_OVER_LINES } from '../src-renderer/features/chat/long-text'
import { appEvent, expect, lastMainRequestBody, nextFrame, openApp, openProjectWithSession, placeholderFits, rpc, test, testWithHostEnv, type BrowserHostProcess } from './fixtures'

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

test('chat: a change at the end of a long line is in view on the approval card and on the call after it, the line wrapped rather than cut', async ({ app }) => {
  const dir = fixtureProject()
  try {
    writeFileSync(join(dir, 'total.ts'), 'export const total = (items: ReadonlyArray<{ cents: number }>) => items.reduce((sum, item) => sum + item.cents, 0)\n')
    await openProjectWithSession(app, dir)
    const composer = app.getByLabel('Message')
    await composer.fill('replace "item.cents, 0)" with "item.cents, 1)" in total.ts')
    const ended = appEvent(app, 'turn.ended')
    await composer.press('Enter')
    const approval = app.getByRole('group', { name: 'Approval needed' })
    const change = approval.getByRole('region', { name: 'Changes to total.ts' })
    await expect(change.locator('.change-line.added .change-word')).toHaveText('1')
    // What would change is what the user approves: it is inside the card's box, not past its right edge.
    const inView = (region: typeof change) =>
      region.evaluate((box) => {
        const edge = box.getBoundingClientRect()
        return [...box.querySelectorAll('.change-word')].map((word) => {
          const at = word.getBoundingClientRect()
          return at.left >= edge.left && at.right <= edge.right && at.top >= edge.top && at.bottom <= edge.bottom
        })
      })
    expect(await inView(change)).toEqual([true, true])
    expect(await change.evaluate((box) => box.scrollWidth <= box.clientWidth)).toBe(true)
    await approval.screenshot({ path: 'e2e/screenshots/chat-approval-long-line.png' })
    await approval.getByRole('button', { name: 'Approve once' }).click()
    await ended
    const edited = app.locator('.tool-call[data-tool="edit_file"][data-status="done"]')
    await edited.locator('summary').first().click()
    expect(await inView(edited.getByRole('region', { name: 'Changes to total.ts' }))).toEqual([true, true])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('chat: an edit its own checks refuse (the text is in the file more than once) is not asked about; the agent gets the error and the file is untouched', async ({ app }) => {
  const dir = fixtureProject()
  try {
    await openProjectWithSession(app, dir)
    const composer = app.getByLabel('Message')
    const ended = appEvent(app, 'turn.ended')
    // "e" is in greet.ts four times: edit_file would refuse it, so allowing it would change nothing (decision 0066).
    await composer.fill('replace "e" with "E" in greet.ts')
    await composer.press('Enter')
    await ended
    await expect(app.getByRole('group', { name: 'Approval needed' })).toHaveCount(0)
    const edit = app.locator('.tool-call[data-tool="edit_file"]')
    await expect(edit).toHaveAttribute('data-status', 'error')
    await edit.locator('summary').first().click()
    await expect(edit).toContainText(/occurs 4 times in greet\.ts/)
    expect(readFileSync(join(dir, 'greet.ts'), 'utf8')).toBe('export const greet = () => "hello"\n')
    await app.screenshot({ path: 'e2e/screenshots/chat-edit-refused-unasked.png' })
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
    await expect(approval.getByRole('status')).toHaveText('greet.ts changed on disk: the call would now be refused.')
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

test('chat: plan mode refuses the edit without asking, marked blocked (not denied by the user), and the refusal is explained to the agent', async ({ app }) => {
  const dir = fixtureProject()
  try {
    await openProjectWithSession(app, dir)
    await app.getByLabel('Permission mode').selectOption('plan')
    await expect(app.locator('.note').filter({ hasText: 'Permission mode: plan' })).toHaveCount(1)
    const composer = app.getByLabel('Message')
    await composer.fill('replace "hello" with "goodbye" in greet.ts')
    await composer.press('Enter')
    const call = app.locator('.tool-call[data-tool="edit_file"]')
    await expect(call).toHaveAttribute('data-status', 'blocked')
    await expect(call.locator('.tool-status')).toHaveText('blocked')
    await expect(call.locator('.tool-status')).toHaveAttribute('title', 'Plan mode is read-only, so edit_file is not available.')
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
    const earlier = app.getByRole('button', { name: /^Show (\d+ earlier entries \([\d,]+ not shown\)|the [\d,]+ earlier entr(y|ies))$/ })
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

test('chat: a session of thousands of entries is sent to the window in part; earlier entries are read as they are shown, and a pass among them comes into view', async ({ app, host }) => {
  const dir = fixtureProject()
  try {
    await openProjectWithSession(app, dir)
    const sessionId = (await app.locator('section.chat').getAttribute('data-session-id'))!
    // One real turn first: its pass is the one chosen later, from before every entry the window is sent.
    const ended = appEvent(app, 'turn.ended')
    await ended.armed
    await rpc(host, 'run.start', { sessionId, text: 'list the files' })
    await ended
    // Then a long conversation written into the store file behind the host, as an import writes it.
    writeQuestions(host.dataDir, sessionId, SESSION_WINDOW_ENTRIES)
    // And a turn after it, whose pass the inspector shows as the session opens.
    const more = appEvent(app, 'turn.ended')
    await more.armed
    await rpc(host, 'run.start', { sessionId, text: 'list the files again' })
    await more
    const total = ((await rpc(host, 'session.entries', { sessionId, beforeSeq: 1_000_000, limit: 1 })) as { earlier: number }).earlier + 1

    await app.reload()
    await expect(app.locator('html[data-app-ready="true"]')).toHaveCount(1)
    await expect(app.locator('.msg.user').last()).toContainText('list the files again')
    await expect(app.locator('.msg.user').nth(-2)).toContainText(`question ${SESSION_WINDOW_ENTRIES - 1}`)
    const earlier = app.getByRole('button', { name: /^Show 150 earlier entries \([\d,]+ not shown\)$/ })
    await expect(earlier).toHaveText(`Show 150 earlier entries (${(total - 150).toLocaleString('en-US')} not shown)`)

    // Shown step by step past what the window was sent: the entries before it are read from the host.
    const steps = Math.ceil(SESSION_WINDOW_ENTRIES / 150)
    for (let i = 1; i <= steps; i++) {
      await earlier.click()
      await expect(earlier).toHaveText(`Show 150 earlier entries (${(total - 150 * (i + 1)).toLocaleString('en-US')} not shown)`)
    }

    // The first pass, from before every entry read, chosen in the inspector: read, shown and brought into view.
    await app.getByTestId('passes-list').focus()
    await app.keyboard.press('Home')
    const first = app.getByTestId('passes-list').getByRole('option').first()
    const firstPassId = await first.getAttribute('data-pass-id')
    await expect(app.locator(`.msg.assistant[data-pass-id="${firstPassId}"]`)).toBeInViewport()
    await expect(app.locator('.msg.user').first()).toContainText('list the files')
    await expect(earlier).toHaveCount(0)
    await app.screenshot({ path: 'e2e/screenshots/chat-long-session-first-pass.png' })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('chat: earlier entries shown go in above what the user was reading, which stays where it was; entries far off screen are not drawn, yet found and copied', async ({ app, host }) => {
  const dir = fixtureProject()
  try {
    // 300 questions and their answers: three steps of "Show earlier".
    const { earlier, userMessage } = await openWithQuestions(app, host, dir, 300)
    await expect(earlier).toHaveText('Show 150 earlier entries (450 not shown)')

    // The user scrolls up to the first entry shown, and asks for the ones before it.
    const first = userMessage('question 225')
    await earlier.scrollIntoViewIfNeeded()
    const readingAt = (await first.boundingBox())!.y
    await earlier.click()
    await expect(earlier).toHaveText('Show 150 earlier entries (300 not shown)')
    await expect(app.locator('.msg.user').first()).toContainText('question 150')
    // What was being read has not moved; what was added is above it, out of view, the button with it.
    await nextFrame(app)
    expect(Math.round((await first.boundingBox())!.y)).toBe(Math.round(readingAt))
    await expect(app.locator('.msg.user').first()).not.toBeInViewport()

    // Far from the view, entries are not drawn (conversation.css), yet they are in the page: the browser's find
    // reaches them, and a selection of the whole conversation copies their text.
    const far = userMessage('question 150')
    expect(await far.evaluate((el) => el.checkVisibility({ contentVisibilityAuto: true }))).toBe(false)
    const copied = await app.locator('.conversation').evaluate((el) => {
      const range = document.createRange()
      range.selectNodeContents(el)
      getSelection()!.removeAllRanges()
      getSelection()!.addRange(range)
      const text = getSelection()!.toString()
      getSelection()!.removeAllRanges()
      return text
    })
    expect(copied).toContain('question 150')
    expect(copied).toContain('answer 299')
    const found = await app.evaluate(() => {
      const find = (window as unknown as { find(text: string): boolean }).find
      return find('answer 151') ? getSelection()!.anchorNode?.parentElement?.closest('.msg')?.textContent : null
    })
    expect(found).toContain('answer 151')

    // A part clips what its entries draw outside them: a chosen answer's ring and a focused one's outline (2 px, 2 px
    // out) are drawn inside it, for the answers at its edges too. (Checked on the parts drawn: one skipped takes the
    // room it is estimated to, whatever its entries would.)
    const edges = await app.locator('.conversation-part').evaluateAll((parts) => {
      const drawn = parts.filter((part) => part.firstElementChild?.checkVisibility({ contentVisibilityAuto: true }))
      const clipped = drawn.flatMap((part) => {
        const room = part.getBoundingClientRect()
        return [...part.querySelectorAll(':scope > .msg')].filter((msg) => {
          const box = msg.getBoundingClientRect()
          return box.left - 4 < room.left || box.right + 4 > room.right || box.top - 4 < room.top || box.bottom + 4 > room.bottom
        })
      })
      return { drawn: drawn.length, clipped: clipped.length }
    })
    expect(edges.drawn).toBeGreaterThan(0)
    expect(edges.clipped).toBe(0)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('chat: "Show earlier" from the keyboard keeps the button where it is, focused, the entries it added below it; the last step puts the keyboard on the first answer', async ({ app, host }) => {
  const dir = fixtureProject()
  try {
    const { earlier, userMessage } = await openWithQuestions(app, host, dir, 300)
    await expect(earlier).toHaveText('Show 150 earlier entries (450 not shown)')

    // Enter, then Space: each time the button stays where it was on screen, with the focus, and the first of the
    // entries it added is just below it, where the user goes on reading down (a pointer's click keeps the entry that
    // was being read in place instead: the test above).
    await earlier.scrollIntoViewIfNeeded()
    await earlier.focus()
    const buttonAt = (await earlier.boundingBox())!.y
    for (const [key, notShown, firstAdded] of [['Enter', 300, 'question 150'], ['Space', 150, 'question 75']] as const) {
      await app.keyboard.press(key)
      await expect(earlier).toHaveText(notShown > 150 ? `Show 150 earlier entries (${notShown} not shown)` : `Show the ${notShown} earlier entries`)
      await nextFrame(app)
      await expect(earlier).toBeFocused()
      expect(Math.round((await earlier.boundingBox())!.y)).toBe(Math.round(buttonAt))
      await expect(earlier).toBeInViewport()
      await expect(userMessage(firstAdded)).toBeInViewport()
      await expect(app.locator('.msg.user').first()).toContainText(firstAdded)
    }
    await app.screenshot({ path: 'e2e/screenshots/chat-show-earlier-keyboard.png' })

    // The last step: the button goes, and the keyboard goes on from the first answer, at the top.
    await app.keyboard.press('Enter')
    await expect(earlier).toHaveCount(0)
    const firstAnswer = app.locator('.msg.assistant').first()
    await expect(firstAnswer).toContainText('answer 0')
    await expect(firstAnswer).toBeFocused()
    await expect(firstAnswer).toBeInViewport()
    // From there Down goes on to the next answer.
    await app.keyboard.press('ArrowDown')
    await expect(app.locator('.msg.assistant').nth(1)).toBeFocused()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

/**
 * A session of `count` questions and their answers (writeQuestions), opened in a page loaded afresh: its "Show 150
 * earlier entries" button, and a user's message found by its text.
 */
async function openWithQuestions(app: Page, host: BrowserHostProcess, dir: string, count: number): Promise<{ earlier: Locator; userMessage: (text: string) => Locator }> {
  await openProjectWithSession(app, dir)
  const sessionId = (await app.locator('section.chat').getAttribute('data-session-id'))!
  writeQuestions(host.dataDir, sessionId, count)
  await app.reload()
  await expect(app.locator('html[data-app-ready="true"]')).toHaveCount(1)
  return {
    earlier: app.getByRole('button', { name: /^Show (150|the [\d,]+) earlier entr(y|ies)/ }),
    userMessage: (text) => app.locator('.msg.user').filter({ has: app.getByText(text, { exact: true }) }),
  }
}

/** `count` questions and their answers, written into the store file behind the host, as an import writes them. */
function writeQuestions(dataDir: string, sessionId: string, count: number): void {
  const store = openStore(join(dataDir, 'loupe.db'))
  try {
    store.transaction(() => {
      for (let i = 0; i < count; i++) {
        store.entries.append(sessionId, [{ kind: 'user_message', content: [{ type: 'text', text: `question ${i}` }] }, { kind: 'assistant_message', passId: 'pas_earlier' as never, content: [{ type: 'text', text: `answer ${i}` }], stopReason: 'end_turn', partial: false }], Date.now())
      }
    })
  } finally {
    store.close()
  }
}

/** How far the chat is from its bottom (px): 0 when the newest is in view. */
const gapToBottom = (scroll: Locator) => scroll.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)

/** How much the conversation shows: it grows as an answer streams in (the page is not told of each delta). */
const shown = (page: Page) => () => page.locator('.conversation').evaluate((el) => el.textContent?.length ?? 0)

/** A message tall enough that the chat scrolls: one line per number. */
// A paste that makes the conversation taller than the chat, shown whole: under the lines and characters the chat folds
// a long message at (long-text.ts), one line short so a request can follow it, each line long enough to wrap.
const tallMessage = () => Array.from({ length: FOLD_OVER_LINES - 2 }, (_, i) => `line ${i + 1} of a long paste, long enough that the chat wraps it onto a second line`).join('\n')

// A stream slow enough to read along (a delta every 250 ms), as a user watching an answer come in sees it.
const slowTest = testWithHostEnv({ LOUPE_SIM_PACE: 'slow' })

slowTest('chat: a streamed answer is followed only while the view is at the bottom; scrolled up it stays put until "Jump to latest" or a new message', async ({ page, host }) => {
  test.setTimeout(120_000)
  const dir = fixtureProject()
  try {
    await openApp(page, host.url)
    await openProjectWithSession(page, dir)
    const composer = page.getByLabel('Message')
    const scroll = page.locator('.chat-scroll')
    const jump = page.getByRole('button', { name: 'Jump to latest' })
    const progress = shown(page)

    // A long paste: the conversation is taller than the chat at once. The answer streams in below it, followed.
    await composer.fill(tallMessage())
    const firstEnded = appEvent(page, 'turn.ended')
    await composer.press('Enter')
    await expect(page.getByTestId('streaming')).toBeVisible()
    expect(await scroll.evaluate((el) => el.scrollHeight > el.clientHeight + 200)).toBe(true)
    await expect.poll(() => gapToBottom(scroll)).toBeLessThanOrEqual(1)
    await expect(jump).toHaveCount(0)

    // The user scrolls up to read: the view stays there while the answer goes on streaming below.
    await scroll.hover()
    await page.mouse.wheel(0, -300)
    await expect(jump).toBeVisible()
    await expect.poll(() => gapToBottom(scroll)).toBeGreaterThan(100)
    const readingAt = await scroll.evaluate((el) => el.scrollTop)
    // Four deltas or so of a few words each, a second at this pace.
    const seen = await progress()
    await expect.poll(progress, { timeout: 10_000 }).toBeGreaterThan(seen + 40)
    expect(await scroll.evaluate((el) => el.scrollTop)).toBe(readingAt)
    await expect(jump).toBeVisible()
    // The pill hides no text: it sits under the scrolling conversation, not over its last lines.
    const pill = (await jump.boundingBox())!
    const view = (await scroll.boundingBox())!
    expect(pill.y).toBeGreaterThanOrEqual(view.y + view.height - 1)
    await page.screenshot({ path: 'e2e/screenshots/chat-scrolled-up-while-streaming.png' })

    // "Jump to latest" goes back down and follows again; a click on it leaves the keyboard where it was.
    await composer.focus()
    await jump.click()
    await expect(jump).toHaveCount(0)
    await expect(composer).toBeFocused()
    // Down at once, or within the next frames when a delta grew the answer as it jumped.
    await expect.poll(() => gapToBottom(scroll)).toBeLessThanOrEqual(1)
    const jumped = await progress()
    await expect.poll(progress, { timeout: 10_000 }).toBeGreaterThan(jumped + 30)
    await expect.poll(() => gapToBottom(scroll)).toBeLessThanOrEqual(1)
    await firstEnded

    // Scrolled up again, a message sent goes back to the bottom, where its answer comes.
    await scroll.hover()
    await page.mouse.wheel(0, -400)
    await expect(jump).toBeVisible()
    await composer.fill('and one more question')
    const secondEnded = appEvent(page, 'turn.ended')
    await composer.press('Enter')
    await expect(jump).toHaveCount(0)
    await expect(page.locator('.msg.user').last()).toContainText('and one more question')
    await expect.poll(() => gapToBottom(scroll)).toBeLessThanOrEqual(1)
    await secondEnded
    await expect.poll(() => gapToBottom(scroll)).toBeLessThanOrEqual(1)

    // Docked below, the chat is shorter: at the bottom, it still shows the newest.
    await page.getByRole('button', { name: 'Dock below the chat' }).click()
    await expect(page.getByRole('button', { name: 'Dock beside the chat' })).toBeVisible()
    await expect.poll(() => gapToBottom(scroll)).toBeLessThanOrEqual(1)
    await expect(jump).toHaveCount(0)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

slowTest('chat: a window reloaded in the middle of a turn follows it, whichever of the chat and the passes list answers first', async ({ page, host }) => {
  test.setTimeout(120_000)
  const dir = fixtureProject()
  try {
    await rpc(host, 'settings.set', { app: { thinking: false } })
    await openApp(page, host.url)
    await openProjectWithSession(page, dir)
    const composer = page.getByLabel('Message')
    const scroll = page.locator('.chat-scroll')
    const jump = page.getByRole('button', { name: 'Jump to latest' })
    const firstEnded = appEvent(page, 'turn.ended')
    await composer.fill('read README.md')
    await composer.press('Enter')
    await firstEnded
    // A tall message: at the bottom, the first turn's answer is above the view. Its answer streams.
    await composer.fill(tallMessage())
    await composer.press('Enter')
    await expect(page.getByTestId('streaming')).toBeVisible()

    // After the reload the passes list answers only once the chat has drawn the session (the order a slow list read
    // gives): the list then chooses its newest stored pass, the first turn's answer, which is not the user's choice.
    let heldList: (() => void) | null = null
    await page.routeWebSocket(/\/rpc/, (ws) => {
      const server = ws.connectToServer()
      const listIds = new Set<number>()
      const held: string[] = []
      let holding = true
      heldList = () => {
        holding = false
        for (const frame of held.splice(0)) ws.send(frame)
      }
      ws.onMessage((message) => {
        const frame = JSON.parse(String(message)) as { kind: string; id: number; name: string }
        if (frame.kind === 'request' && frame.name === 'pass.list') listIds.add(frame.id)
        server.send(message)
      })
      server.onMessage((message) => {
        const frame = JSON.parse(String(message)) as { kind: string; id: number }
        if (holding && frame.kind === 'response' && listIds.has(frame.id)) held.push(String(message))
        else ws.send(message)
      })
    })
    await page.reload()
    await expect(page.locator('.msg.user')).toHaveCount(2)
    await expect.poll(() => gapToBottom(scroll)).toBeLessThanOrEqual(1)
    await expect.poll(() => heldList !== null).toBe(true)
    heldList!()
    const inspector = page.getByRole('complementary', { name: 'Inspector' })
    await expect(inspector.locator('[data-live="true"]')).toHaveAttribute('aria-selected', 'true')
    await nextFrame(page)
    await expect(jump).toHaveCount(0)
    expect(await gapToBottom(scroll)).toBeLessThanOrEqual(1)
    await page.getByRole('button', { name: 'Stop' }).click()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

slowTest('chat: an approval asked for while the user had scrolled up is brought into view whole, its buttons clear of "Jump to latest"', async ({ page, host }) => {
  test.setTimeout(120_000)
  const dir = fixtureProject()
  try {
    // Without thinking, which at this pace would take a minute to stream before the answer begins.
    await rpc(host, 'settings.set', { app: { thinking: false } })
    await openApp(page, host.url)
    await openProjectWithSession(page, dir)
    await page.getByLabel('Permission mode').selectOption('build')
    const composer = page.getByLabel('Message')
    const scroll = page.locator('.chat-scroll')
    const jump = page.getByRole('button', { name: 'Jump to latest' })

    // A long paste that ends in an edit: the conversation is taller than the chat while the answer streams.
    await composer.fill(`${tallMessage()}\nreplace "hello" with "goodbye" in greet.ts`)
    const asked = appEvent(page, 'approval.requested')
    await composer.press('Enter')
    await expect(page.getByTestId('streaming')).toBeVisible()
    // The user scrolls up to read, and is typing elsewhere (the folder field), so the card does not take the keyboard.
    await scroll.hover()
    await page.mouse.wheel(0, -300)
    await expect(jump).toBeVisible()
    await page.getByLabel('Folder path').focus()
    await asked

    const approval = page.getByRole('group', { name: 'Approval needed' })
    await expect(approval.getByRole('button', { name: 'Approve once' })).toBeVisible()
    // The whole card is in the chat's view, at the bottom, and nothing is drawn over its buttons.
    await expect(jump).toHaveCount(0)
    await expect.poll(() => gapToBottom(scroll)).toBeLessThanOrEqual(1)
    const box = (await scroll.boundingBox())!
    const card = (await approval.boundingBox())!
    expect(card.y + card.height).toBeLessThanOrEqual(box.y + box.height + 1)
    await expect(page.getByLabel('Folder path')).toBeFocused()
    await page.screenshot({ path: 'e2e/screenshots/chat-approval-brought-into-view.png' })
    await approval.getByRole('button', { name: 'Approve once' }).click()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('chat: content that shrinks under the followed newest and grows again before the next frame leaves the chat following; only the user scrolls it away', async ({ app }) => {
  const dir = fixtureProject()
  try {
    await openProjectWithSession(app, dir)
    await app.getByLabel('Permission mode').selectOption('build')
    const composer = app.getByLabel('Message')
    const scroll = app.locator('.chat-scroll')
    const jump = app.getByRole('button', { name: 'Jump to latest' })
    const asked = appEvent(app, 'approval.requested')
    await composer.fill(`${tallMessage()}\nreplace "hello" with "goodbye" in greet.ts`)
    await composer.press('Enter')
    await asked
    const approval = app.getByRole('group', { name: 'Approval needed' })
    await expect(approval.getByRole('button', { name: 'Approve once' })).toBeFocused()
    await expect.poll(() => gapToBottom(scroll)).toBeLessThanOrEqual(1)
    await expect(jump).toHaveCount(0)

    // The card goes (answered in another window) and a layout is read before the next frame: the browser clamps the
    // view to the shorter content's end. What comes next (the call's row and result) is written before that frame
    // reports the clamp. Here the card itself comes back, as tall as what would have been written.
    const clampedBy = await scroll.evaluate((box) => {
      const card = box.querySelector<HTMLElement>('.approval')!
      const before = box.scrollTop
      card.style.display = 'none'
      const clamped = box.scrollTop
      card.style.display = ''
      return before - clamped
    })
    expect(clampedBy).toBeGreaterThan(100)
    await nextFrame(app)
    await nextFrame(app)
    await expect(jump).toHaveCount(0)
    expect(await gapToBottom(scroll)).toBeLessThanOrEqual(1)

    // Page Up from the card's button is the user's: the chat stops following and stays where it was put.
    await app.keyboard.press('PageUp')
    await expect(jump).toBeVisible()
    await expect.poll(() => gapToBottom(scroll)).toBeGreaterThan(100)
    await app.screenshot({ path: 'e2e/screenshots/chat-page-up-from-approval.png' })
    const ended = appEvent(app, 'turn.ended')
    await approval.getByRole('button', { name: 'Approve once' }).click()
    await ended
    expect(readFileSync(join(dir, 'greet.ts'), 'utf8')).toContain('goodbye')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

slowTest('chat: an answer is formatted as it streams in: a code block shows as one before the turn ends, and stays one', async ({ page, host }) => {
  test.setTimeout(120_000)
  const dir = fixtureProject()
  try {
    // Without thinking, which at this pace would take a minute to stream before the answer begins.
    await rpc(host, 'settings.set', { app: { thinking: false } })
    await openApp(page, host.url)
    await openProjectWithSession(page, dir)
    const composer = page.getByLabel('Message')
    await composer.fill('read README.md')
    const ended = appEvent(page, 'turn.ended')
    // The answer quotes the file in a fence. Every state of the streaming message is looked at as the page draws
    // it: while it is still streaming, the quote is already a code block, and no backticks show in running text.
    await page.evaluate(() => {
      const seen = { block: false, backticks: false }
      ;(window as unknown as { streamingSeen: typeof seen }).streamingSeen = seen
      new MutationObserver(() => {
        const streaming = document.querySelector('[data-testid="streaming"]')
        if (!streaming) return
        if (streaming.querySelector('pre.code-block')) seen.block = true
        if (streaming.textContent?.includes('`')) seen.backticks = true
      }).observe(document.body, { subtree: true, childList: true, characterData: true })
    })
    await composer.press('Enter')
    await ended
    const seen = await page.evaluate(() => (window as unknown as { streamingSeen: { block: boolean; backticks: boolean } }).streamingSeen)
    expect(seen).toEqual({ block: true, backticks: false })
    const answer = page.locator('.msg.assistant').last()
    await expect(answer.locator('pre.code-block')).toContainText('Prints a friendly hello')
    await expect(answer).not.toContainText('```')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('chat: a code block stands one paragraph gap from the text around it, not a blank line more', async ({ app }) => {
  const dir = fixtureProject()
  try {
    await openProjectWithSession(app, dir)
    const composer = app.getByLabel('Message')
    const ended = appEvent(app, 'turn.ended')
    await composer.fill('read README.md and greet.ts')
    await composer.press('Enter')
    await ended
    const answer = app.locator('.msg.assistant').last()
    await expect(answer.locator('pre.code-block')).toHaveCount(2)
    // The answer quotes each file: "`README.md` (3 lines) begins:", its block, then the next file's line.
    const gaps = await answer.locator('pre.code-block').first().evaluate((pre) => {
      const lineHeight = parseFloat(getComputedStyle(pre.parentElement!).lineHeight)
      const rects = (node: Node) => {
        const range = document.createRange()
        range.selectNodeContents(node)
        return [...range.getClientRects()]
      }
      const before = rects(pre.previousSibling!).at(-1)!
      // What follows the block in the same text: the next one (text nodes and inline code) down to the next block.
      const after = rects(pre.nextSibling!)[0]!
      const box = pre.getBoundingClientRect()
      return { lineHeight, marginTop: parseFloat(getComputedStyle(pre).marginTop), above: box.top - before.bottom, below: after.top - box.bottom }
    })
    // Its margin is one line of the message's text, as a blank line between two paragraphs is …
    expect(gaps.marginTop).toBeCloseTo(gaps.lineHeight, 1)
    // … and no empty line of text is added to it, above or below.
    expect(gaps.above).toBeLessThan(gaps.lineHeight * 1.5)
    expect(gaps.below).toBeLessThan(gaps.lineHeight * 1.5)
    expect(gaps.above).toBeGreaterThan(gaps.lineHeight * 0.9)
    expect(gaps.below).toBeGreaterThan(gaps.lineHeight * 0.9)
    await answer.screenshot({ path: 'e2e/screenshots/chat-code-block-gaps.png' })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test("chat: in a 900×600 window the chat's controls and a call's status stay inside the chat's narrow column", async ({ page, host }) => {
  const dir = fixtureProject()
  try {
    // The narrowest window that keeps the inspector beside the chat (decision 0048): the chat has about 350 px.
    await page.setViewportSize({ width: 900, height: 600 })
    await openApp(page, host.url)
    await openProjectWithSession(page, dir)
    const composer = page.getByLabel('Message')
    // A call stopped at its approval: "interrupted" is the widest status a call shows.
    await composer.fill('create a file notes.md with "ship it"')
    const ended = appEvent(page, 'turn.ended')
    await composer.press('Enter')
    await expect(page.getByRole('group', { name: 'Approval needed' })).toBeVisible()
    await page.keyboard.press('Escape')
    await ended
    const call = page.locator('.tool-call[data-tool="write_file"]')
    await expect(call).toHaveAttribute('data-status', 'interrupted')
    const overflows = await page.evaluate(() => {
      const inside = (el: Element, box: DOMRect) => {
        const r = el.getBoundingClientRect()
        return r.left >= box.left - 0.5 && r.right <= box.right + 0.5
      }
      const chat = document.querySelector('section.chat')!.getBoundingClientRect()
      const head = [...document.querySelectorAll('.chat-controls select, .chat-controls button, .chat-controls .model-name, .chat-controls label')]
      const out = head.filter((el) => !inside(el, chat)).map((el) => el.outerHTML.slice(0, 60))
      for (const status of document.querySelectorAll('.tool-call .tool-status')) {
        if (!inside(status, status.closest('.tool-call')!.getBoundingClientRect())) out.push(status.outerHTML)
      }
      return { out, controls: head.length }
    })
    expect(overflows.controls).toBeGreaterThanOrEqual(3)
    expect(overflows.out).toEqual([])
    // The message box is not squeezed to a sliver beside Send: Send goes under it, and the box takes the line.
    await page.screenshot({ path: 'e2e/screenshots/chat-narrow-window.png' })
    const box = (await composer.boundingBox())!
    const chat = (await page.locator('section.chat').boundingBox())!
    expect(box.width).toBeGreaterThan(chat.width * 0.75)
    expect(chat.width).toBeLessThan(420)
    await expect(page.getByRole('listbox', { name: 'Passes' })).toBeVisible()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('chat: a long pasted message shows folded to its first lines; the rest is one click away, and take-back returns it whole', async ({ app }) => {
  const dir = fixtureProject()
  try {
    await openProjectWithSession(app, dir)
    const composer = app.getByLabel('Message')
    const log = Array.from({ length: 300 }, (_, i) => `2026-12-02T04:00:00Z INFO worker-${i % 7} processed job ${i} status=ok`).join('\n')
    const text = `why is this log so slow?\n\n${log}`
    await composer.fill(text)
    const ended = appEvent(app, 'turn.ended')
    await composer.press('Enter')
    await ended
    const message = app.locator('.conversation .msg.user:not(.taken-back *)').last()
    await expect(message).toContainText('why is this log so slow?')
    await expect(message).not.toContainText('processed job 299 ')
    // Folded, the message is a few lines high, not thousands.
    expect((await message.boundingBox())!.height).toBeLessThan(400)
    const unfold = message.getByRole('button', { name: 'Show all 302 lines' })
    await expect(unfold).toHaveAttribute('aria-expanded', 'false')
    await message.screenshot({ path: 'e2e/screenshots/chat-long-message-folded.png' })
    await unfold.click()
    await expect(message).toContainText('processed job 299 status=ok')
    await message.getByRole('button', { name: 'Show less' }).click()
    await expect(message).not.toContainText('processed job 299 ')
    await expect(message.getByRole('button', { name: 'Show all 302 lines' })).toBeInViewport()
    // Only the view folds: taken back, the whole text is in the box again.
    await message.getByRole('button', { name: 'Take back' }).click()
    await expect(composer).toHaveValue(text)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('chat: the message box keeps its width and Send its height when it becomes Stop (Esc) and back', async ({ app }) => {
  const dir = fixtureProject()
  try {
    await openProjectWithSession(app, dir)
    const composer = app.getByLabel('Message')
    const measure = () =>
      app.locator('.composer').evaluate((el) => {
        const box = el.querySelector('textarea')!.getBoundingClientRect()
        const button = el.querySelector(':scope > button')!.getBoundingClientRect()
        return { boxWidth: box.width, buttonWidth: button.width, buttonHeight: button.height }
      })
    const idle = await measure()
    // A turn that stays running: the edit waits for its approval.
    await composer.fill('replace "hello" with "goodbye" in greet.ts')
    await composer.press('Enter')
    await expect(app.getByRole('group', { name: 'Approval needed' })).toBeVisible()
    await expect(app.getByRole('button', { name: 'Stop (Esc)' })).toBeVisible()
    expect(await measure()).toEqual(idle)
    const ended = appEvent(app, 'turn.ended')
    await app.getByRole('button', { name: 'Stop (Esc)' }).click()
    await ended
    await expect(app.getByRole('button', { name: 'Send' })).toBeVisible()
    expect(await measure()).toEqual(idle)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('chat: a command on the deny list asks with the keyboard on Deny, so a reflexive Enter does not run it', async ({ app }) => {
  const dir = fixtureProject()
  try {
    await openProjectWithSession(app, dir)
    const composer = app.getByLabel('Message')
    await composer.fill('run `sudo rm -rf /tmp/loupe-never`')
    const ended = appEvent(app, 'turn.ended')
    await composer.press('Enter')
    const approval = app.getByRole('group', { name: 'Approval needed' })
    await expect(approval.locator('.approval-warning')).toContainText('This command is on the deny list')
    const deny = approval.getByRole('button', { name: 'Deny…' })
    await expect(deny).toBeFocused()
    // The warning is read out with the button that has the keyboard.
    await expect(deny).toHaveAccessibleDescription(/This command is on the deny list/)
    // And it is the marked choice: Approve once is not drawn as the one to take.
    await expect(deny).toHaveClass(/\bprimary\b/)
    await expect(approval.getByRole('button', { name: 'Approve once' })).not.toHaveClass(/\bprimary\b/)
    // The command, the model's words, is set apart from the card's: a direction override in it cannot reorder them.
    await expect(approval.locator('bdi.approval-summary')).toHaveText('Run sudo rm -rf /tmp/loupe-never')
    await approval.screenshot({ path: 'e2e/screenshots/chat-approval-deny-list.png' })
    // Enter, a reason, Enter: the deny form, then the denial — nothing ran.
    await app.keyboard.press('Enter')
    const reason = approval.getByLabel('Reason for denying')
    await expect(reason).toBeFocused()
    // Its placeholder is read whole, not cut at the field's edge.
    expect(await reason.evaluate(placeholderFits)).toBe(true)
    const typed = 'never as root \u202Efoo.exe'
    await reason.fill(typed)
    await app.keyboard.press('Enter')
    await expect(app.locator('.tool-call[data-tool="bash"][data-status="denied"]')).toHaveCount(1)
    await ended
    // The reason the user typed is set apart from the note's words in the chat, as the focus of a compaction is.
    await expect(app.locator('.note').filter({ hasText: /^Denied: / }).locator('bdi')).toHaveText(typed)
    // And in the refused call's result, the words the model was sent, from the engine's around it.
    const refused = app.locator('.tool-call[data-status="denied"]')
    await expect(refused.locator('.tool-result bdi')).toHaveText(typed)
    await expect(refused.locator('.tool-result')).toHaveText(`The user declined this bash call: "${typed}". Do not retry it as is; adjust your approach or ask the user how to proceed.`)
    await expect(composer).toBeFocused()
    await refused.locator('summary').first().click()
    await refused.screenshot({ path: 'e2e/screenshots/chat-denied-result-bidi.png' })

    // An ordinary call still asks with the keyboard on "Approve once".
    await composer.fill('replace "hello" with "goodbye" in greet.ts')
    await composer.press('Enter')
    await expect(approval.getByRole('button', { name: 'Approve once' })).toBeFocused()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('chat: a message over the limit is refused in plain words before it is sent, and kept', async ({ app }) => {
  const dir = fixtureProject()
  try {
    await openProjectWithSession(app, dir)
    const composer = app.getByLabel('Message')
    const text = 'x'.repeat(2_100_000)
    await composer.fill(text)
    await composer.press('Enter')
    const error = app.locator('.chat-error')
    await expect(error).toHaveText('This message is 2.1 M characters; a message can be at most 2 M. Shorten it, or save the text to a file in the project and ask the agent to read it.')
    await expect(error).not.toContainText('run.start')
    expect(await composer.evaluate((el: HTMLTextAreaElement) => el.value.length)).toBe(text.length)
    await expect(app.locator('.msg.user')).toHaveCount(0)
    await app.locator('.chat').screenshot({ path: 'e2e/screenshots/chat-message-too-long.png' })

    // Shortened, the note goes at once: it is about a text the box no longer holds. Then the message goes.
    await composer.fill('read README.md')
    await expect(error).toHaveCount(0)
    await composer.press('Enter')
    await expect(app.locator('.msg.user')).toHaveCount(1)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('chat: after Stop, or Esc on an approval, the keyboard is back in the message box', async ({ app }) => {
  const dir = fixtureProject()
  try {
    await openProjectWithSession(app, dir)
    const composer = app.getByLabel('Message')
    const stop = app.getByRole('button', { name: 'Stop (Esc)' })

    // Stop, clicked while a command runs.
    await app.getByLabel('Permission mode').selectOption('auto')
    await composer.fill('run `sleep 60`')
    let ended = appEvent(app, 'turn.ended')
    await composer.press('Enter')
    await expect(app.locator('.tool-call[data-tool="bash"][data-status="running"]')).toHaveCount(1)
    await stop.click()
    await expect(composer).toBeFocused()
    await ended
    await expect(app.getByRole('button', { name: 'Send' })).toBeVisible()
    await expect(composer).toBeFocused()

    // Esc on an approval card stops the turn; the card goes, and the keyboard goes to the message box.
    await app.getByLabel('Permission mode').selectOption('build')
    await composer.fill('replace "hello" with "goodbye" in greet.ts')
    ended = appEvent(app, 'turn.ended')
    await composer.press('Enter')
    const approve = app.getByRole('group', { name: 'Approval needed' }).getByRole('button', { name: 'Approve once' })
    await expect(approve).toBeFocused()
    await app.keyboard.press('Escape')
    await ended
    await expect(app.getByRole('group', { name: 'Approval needed' })).toHaveCount(0)
    await expect(composer).toBeFocused()
    await app.keyboard.type('typed at once')
    await expect(composer).toHaveValue('typed at once')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('chat: Enter while the agent works keeps the message in the box and says why it was not sent', async ({ app }) => {
  const dir = fixtureProject()
  try {
    await openProjectWithSession(app, dir)
    const composer = app.getByLabel('Message')
    await app.getByLabel('Permission mode').selectOption('auto')
    await composer.fill('run `sleep 60`')
    const ended = appEvent(app, 'turn.ended')
    await composer.press('Enter')
    await expect(app.locator('.tool-call[data-tool="bash"][data-status="running"]')).toHaveCount(1)
    // The next message, typed ahead and sent with Enter out of habit: it stays, and the box says so.
    await composer.fill('list the root')
    await composer.press('Enter')
    const held = app.getByTestId('composer-held')
    await expect(held).toHaveText('Not sent: the agent is still working. Your message stays here; press Enter once the turn ends, or Esc to stop it.')
    await expect(composer).toHaveValue('list the root')
    await expect(composer).toBeFocused()
    await app.locator('.composer').screenshot({ path: 'e2e/screenshots/chat-composer-held.png' })
    // Once the turn has ended, the note goes, and Enter sends.
    await app.getByRole('button', { name: 'Stop (Esc)' }).click()
    await ended
    await expect(held).toHaveCount(0)
    await expect(composer).toHaveValue('list the root')
    const next = appEvent(app, 'turn.ended')
    await composer.press('Enter')
    await next
    await expect(app.locator('.conversation .msg.user').last()).toContainText('list the root')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('chat: a mistyped /compact is held once, offers the command with its focus, and Enter again sends it as written', async ({ app }) => {
  const dir = fixtureProject()
  for (let i = 0; i < 3; i++) writeFileSync(join(dir, `notes${i}.md`), `# Notes ${i}\n\n` + `Decision ${i}: the API returns JSON with cursor pagination. `.repeat(60))
  try {
    await openProjectWithSession(app, dir)
    const composer = app.getByLabel('Message')
    for (let i = 0; i < 3; i++) {
      const ended = appEvent(app, 'turn.ended')
      await composer.fill(`read notes${i}.md`)
      await composer.press('Enter')
      await ended
    }
    const messages = app.locator('.conversation .msg.user')
    await expect(messages).toHaveCount(3)

    // Two letters swapped: not sent, the box keeps it, and the note under it offers the command.
    await composer.fill('/comapct keep the API decisions')
    await composer.press('Enter')
    const note = app.getByTestId('composer-mistyped')
    await expect(note).toContainText('Not sent: “/comapct” looks like /compact. Press Enter again to send your message to the model as written.')
    await expect(composer).toHaveValue('/comapct keep the API decisions')
    await expect(composer).toBeFocused()
    await expect(messages).toHaveCount(3)
    await expect(app.getByRole('button', { name: 'Send' })).toBeVisible()
    await app.locator('.composer').screenshot({ path: 'e2e/screenshots/chat-composer-mistyped.png' })
    // "Use /compact" runs the command with the same focus; the box lets go of the text.
    const compacted = appEvent(app, 'turn.ended')
    await note.getByRole('button', { name: 'Use /compact' }).click()
    await compacted
    const checkpoint = app.getByLabel('Compaction checkpoint')
    await expect(checkpoint).toHaveCount(1)
    await expect(checkpoint).toContainText('keep the API decisions')
    await expect(note).toHaveCount(0)
    await expect(composer).toHaveValue('')
    await expect(composer).toBeFocused()
    await expect(messages).toHaveCount(3)

    // Held, then changed: the note goes with the text it was about.
    await composer.fill('/compcat')
    await composer.press('Enter')
    await expect(note).toBeVisible()
    await composer.fill('/compcat now')
    await expect(note).toHaveCount(0)
    // Enter on the held text a second time: the user meant it, and it goes to the model as written.
    await composer.press('Enter')
    await expect(note).toBeVisible()
    const sent = appEvent(app, 'turn.ended')
    await composer.press('Enter')
    await sent
    await expect(note).toHaveCount(0)
    await expect(messages).toHaveCount(4)
    await expect(messages.last()).toContainText('/compcat now')
    await expect(composer).toHaveValue('')

    // A path, or a word near the command, is sent at once.
    const path = appEvent(app, 'turn.ended')
    await composer.fill('/compare greet.ts and README.md')
    await composer.press('Enter')
    await path
    await expect(note).toHaveCount(0)
    await expect(messages).toHaveCount(5)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('chat: a message stopped midway is taken back, its text returns to the box, and the next pass no longer sends it', async ({ app, host }) => {
  const dir = fixtureProject()
  try {
    await openProjectWithSession(app, dir)
    const composer = app.getByLabel('Message')
    await app.getByLabel('Permission mode').selectOption('auto')
    await composer.fill('run `sleep 60`')
    let ended = appEvent(app, 'turn.ended')
    await composer.press('Enter')
    await expect(app.locator('.tool-call[data-tool="bash"][data-status="running"]')).toHaveCount(1)
    await app.getByRole('button', { name: 'Stop (Esc)' }).click()
    await ended

    // Typed while deciding: kept, after the message that comes back.
    await composer.fill('and then list the root')
    const takeBack = app.locator('.msg.user').getByRole('button', { name: 'Take back' })
    await expect(takeBack).toHaveCount(1)
    await app.locator('.conversation').screenshot({ path: 'e2e/screenshots/chat-take-back-offered.png' })
    const appended = appEvent(app, 'entries.appended')
    await takeBack.click()
    await appended
    await expect(composer).toHaveValue('run `sleep 60`\n\nand then list the root')
    await expect(composer).toBeFocused()
    // The message and its stopped answer are folded under what was done, not gone.
    const folded = app.locator('.taken-back')
    await expect(folded.locator('details > summary').first()).toHaveText('Taken back: “run `sleep 60`” · the model no longer sees it or the answer to it')
    await expect(folded.locator('.msg.user')).toBeHidden()
    await expect(app.locator('.conversation .msg.user:not(.taken-back *)')).toHaveCount(0)
    // Opened again, the session chooses its newest pass, an answer inside the fold: the fold stays closed.
    await app.reload()
    await expect(app.locator('html[data-app-ready="true"]')).toHaveCount(1)
    await expect(app.getByRole('listbox', { name: 'Passes' }).getByRole('option').last()).toHaveAttribute('aria-selected', 'true')
    await expect(folded.locator('details').first()).not.toHaveAttribute('open', '')
    await expect(app.getByRole('button', { name: /Jump to latest/ })).toHaveCount(0)
    await folded.locator('details > summary').first().click()
    await expect(folded.locator('.msg.user')).toHaveText(/run `sleep 60`/)
    await expect(folded.locator('.tool-call[data-tool="bash"]')).toHaveCount(1)
    // The command was stopped while it ran: what it had started is said not to be undone.
    await expect(app.locator('.taken-back-undone')).toHaveText('What its tool call did, or had started to do when stopped, is not undone (files edited stay edited).')
    await app.screenshot({ path: 'e2e/screenshots/chat-taken-back.png' })

    await composer.fill('read README.md')
    ended = appEvent(app, 'turn.ended')
    await composer.press('Enter')
    await ended
    await expect(app.locator('.conversation .msg.user:not(.taken-back *)')).toHaveCount(1)
    // The new message is now the one to take back; the pass that answered it never carried the old one.
    await expect(app.locator('.conversation .msg.user:not(.taken-back *)').getByRole('button', { name: 'Take back' })).toHaveCount(1)
    const sent = await lastMainRequestBody(host)
    expect(sent).toContain('read README.md')
    expect(sent).not.toContain('sleep 60')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('chat: an earlier message is taken back with the ones after it, once the user says yes to how many', async ({ app, host }) => {
  const dir = fixtureProject()
  try {
    await openProjectWithSession(app, dir)
    const composer = app.getByLabel('Message')
    for (const text of ['read README.md', 'list the root', 'thanks']) {
      await composer.fill(text)
      const ended = appEvent(app, 'turn.ended')
      await composer.press('Enter')
      await ended
    }
    const messages = app.locator('.conversation .msg.user:not(.taken-back *)')
    await expect(messages).toHaveCount(3)
    // The newest message takes itself back at once; an earlier one offers to take back from there, and asks first.
    await expect(messages.nth(2).getByRole('button', { name: 'Take back', exact: true })).toHaveCount(1)
    await expect(messages.nth(0).getByRole('button', { name: 'Take back from here' })).toHaveCount(1)
    await messages.nth(1).hover()
    await messages.nth(1).getByRole('button', { name: 'Take back from here' }).click()
    const confirm = messages.nth(1).getByRole('button', { name: 'Take back 2 messages' })
    await expect(confirm).toBeFocused()
    await app.locator('.conversation').screenshot({ path: 'e2e/screenshots/chat-take-back-from-here.png' })
    // Escape changes its mind: nothing was taken.
    await app.keyboard.press('Escape')
    await expect(confirm).toHaveCount(0)
    await expect(messages).toHaveCount(3)

    await messages.nth(1).getByRole('button', { name: 'Take back from here' }).click()
    const appended = appEvent(app, 'entries.appended')
    await confirm.click()
    await appended
    await expect(composer).toHaveValue('list the root')
    await expect(messages).toHaveCount(1)
    await expect(app.locator('.taken-back > details > summary')).toHaveText('Taken back: “list the root” and the message after it · the model no longer sees them or the 3 answers to them')
    await app.screenshot({ path: 'e2e/screenshots/chat-taken-back-from-here.png' })

    const ended = appEvent(app, 'turn.ended')
    await composer.fill('what is in this project')
    await composer.press('Enter')
    await ended
    const sent = await lastMainRequestBody(host)
    expect(sent).toContain('read README.md')
    expect(sent).not.toContain('list the root')
    expect(sent).not.toContain('"text":"thanks"')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

// With an API key, the model service is the API (here an address where nothing answers: every pass fails).
const apiTest = testWithHostEnv({ ANTHROPIC_API_KEY: 'sk-ant-e2e-not-a-key', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' })

apiTest("chat: with an API key the header names the session's own model, and after Retry the keyboard is in the message box", async ({ page, host }) => {
  const dir = fixtureProject()
  try {
    await openApp(page, host.url)
    await openProjectWithSession(page, dir)
    const model = page.getByLabel('Model', { exact: true })
    // A session started with the app's model says its name.
    await expect(model).toHaveValue('claude-sonnet-4-6')
    await expect(model.locator('option:checked')).toHaveText('Claude Sonnet 4.6')

    // New sessions start with the model chosen in Settings; the app's own (the top bar's) stays.
    await rpc(host, 'settings.set', { app: { model: 'claude-opus-4-6' } })
    await page.getByLabel('Message').fill('a draft, so + New session makes another session')
    await page.getByRole('button', { name: '+ New session' }).click()
    await expect(page.locator('.sessions button.session')).toHaveCount(2)
    await expect(model).toHaveValue('claude-opus-4-6')
    await expect(model).toHaveAttribute('title', "This session's model: claude-opus-4-6")
    await page.locator('.chat-head').screenshot({ path: 'e2e/screenshots/chat-head-session-model.png' })
    // The first session still names its own.
    await page.locator('.sessions button.session').nth(1).click()
    await expect(model).toHaveValue('claude-sonnet-4-6')
    await page.locator('.sessions button.session').nth(0).click()
    await expect(model).toHaveValue('claude-opus-4-6')

    // Nothing answers: the turn fails and offers Retry. Retry leaves the keyboard in the message box.
    const composer = page.getByLabel('Message')
    await composer.fill('hello')
    await composer.press('Enter')
    const retry = page.getByRole('button', { name: 'Retry' })
    await expect(retry).toBeVisible({ timeout: 30_000 })
    // The failure says where the request went, that it cost nothing, and the way back to the simulator.
    await expect(page.getByText(/^Could not reach the Anthropic API at 127\.0\.0\.1:9: .*nothing was billed\. .*Forget the key.*offline simulator\.$/)).toBeVisible()
    await retry.click()
    await expect(composer).toBeFocused()
    // The same failure again is counted on one box, not shown as a second.
    await expect(page.locator('.turn-failed')).toContainText('(2 times in a row)', { timeout: 30_000 })
    await expect(page.locator('.turn-failed')).toHaveCount(1)
    await expect(retry).toBeVisible()
    await expect(composer).toBeFocused()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test("chat: Esc answers the model switch's question with Keep, from the choice or from the question", async ({ app }) => {
  const dir = fixtureProject()
  try {
    await openProjectWithSession(app, dir)
    const model = app.getByLabel('Model', { exact: true })
    const composer = app.getByLabel('Message')
    const ended = appEvent(app, 'turn.ended')
    await composer.fill('read README.md')
    await composer.press('Enter')
    await ended
    const ask = app.getByRole('group', { name: 'Switch the model' })
    // Chosen in the list, the keyboard still on it: Esc keeps the model, and the keyboard stays on the choice.
    await model.focus()
    await model.selectOption('claude-opus-5-5')
    await expect(app.getByTestId('model-switch-price')).toHaveText(/^Switching to Claude Opus 5\.5 /)
    await app.keyboard.press('Escape')
    await expect(ask).toHaveCount(0)
    await expect(model).toHaveValue('claude-sonnet-4-6')
    await expect(model).toBeFocused()
    // Asked from the palette, the keyboard on Switch: Esc keeps too, and the keyboard goes to the message box.
    await app.keyboard.press('Control+k')
    await app.keyboard.type('switch model opus 5.5')
    await app.keyboard.press('Enter')
    await expect(ask.getByRole('button', { name: 'Switch', exact: true })).toBeFocused()
    await app.keyboard.press('Escape')
    await expect(ask).toHaveCount(0)
    await expect(model).toHaveValue('claude-sonnet-4-6')
    await expect(composer).toBeFocused()
    await expect(app.locator('.note').filter({ hasText: 'Model:' })).toHaveCount(0)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('chat: the palette switches the model through the same question, the keyboard on its Switch', async ({ app }) => {
  const dir = fixtureProject()
  try {
    await openProjectWithSession(app, dir)
    const model = app.getByLabel('Model', { exact: true })
    const composer = app.getByLabel('Message')
    const ended = appEvent(app, 'turn.ended')
    await composer.fill('read README.md')
    await composer.press('Enter')
    await ended
    // The conversation is cached for Sonnet now: the palette's command asks what the switch costs, as the choice does.
    await app.keyboard.press('Control+k')
    await app.keyboard.type('switch model opus 5.5')
    await expect(app.getByTestId('palette').locator('li[aria-selected="true"]')).toContainText('Switch model to Claude Opus 5.5…')
    await app.keyboard.press('Enter')
    const ask = app.getByRole('group', { name: 'Switch the model' })
    await expect(app.getByTestId('model-switch-price')).toHaveText(/^Switching to Claude Opus 5\.5 starts the cache afresh/)
    await expect(ask.getByRole('button', { name: 'Switch', exact: true })).toBeFocused()
    await expect(model).toHaveValue('claude-sonnet-4-6')
    // Enter on Switch switches.
    await app.keyboard.press('Enter')
    await expect(model).toHaveValue('claude-opus-5-5')
    await expect(app.locator('.note').filter({ hasText: 'Model: Opus 5.5' })).toHaveCount(1)
    // Asked from another view, the command shows the chat and asks there: the question is not lost as the chat mounts.
    await app.getByRole('tab', { name: 'Files' }).click()
    await expect(model).toHaveCount(0)
    await app.keyboard.press('Control+k')
    await app.keyboard.type('switch model haiku 4.5')
    await expect(app.getByTestId('palette').locator('li[aria-selected="true"]')).toContainText('Switch model to Claude Haiku 4.5…')
    await app.keyboard.press('Enter')
    await expect(app.getByTestId('model-switch-price')).toHaveText(/^Switching to Claude Haiku 4\.5 /)
    await expect(ask.getByRole('button', { name: 'Switch', exact: true })).toBeFocused()
    await expect(model).toHaveValue('claude-opus-5-5')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('chat: a model is named from the first paint, before the settings are read: the choice, the note of a switch, the pass line', async ({ app: page }) => {
  const dir = fixtureProject()
  try {
    await openProjectWithSession(page, dir)
    const model = page.getByLabel('Model', { exact: true })
    // Before the first pass the switch is made at once.
    await model.selectOption('claude-opus-5-5')
    await expect(page.locator('.note').filter({ hasText: 'Model: Opus 5.5' })).toHaveCount(1)
    const ended = appEvent(page, 'turn.ended')
    await page.getByLabel('Message').fill('read README.md')
    await page.getByLabel('Message').press('Enter')
    await ended
    // Opened again with settings.get never answered: whatever the page shows, it shows without the settings.
    const settingsAsked: number[] = []
    await page.routeWebSocket(/\/rpc\?/, (ws) => {
      const server = ws.connectToServer()
      ws.onMessage((message) => {
        const frame = JSON.parse(String(message)) as { kind: string; id: number; name: string }
        if (frame.kind === 'request' && frame.name === 'settings.get') settingsAsked.push(frame.id)
        else server.send(message)
      })
      server.onMessage((message) => ws.send(message))
    })
    await page.reload()
    await expect(page.locator('html[data-app-ready="true"]')).toHaveCount(1)
    await expect(page.locator('.msg.user')).toHaveCount(1)
    await expect.poll(() => settingsAsked.length).toBeGreaterThan(0)
    // The header's choice is there, on the session's model by its name; so are the switch's note and the pass line.
    await expect(model).toHaveValue('claude-opus-5-5')
    await expect(model.locator('option:checked')).toHaveText('Claude Opus 5.5')
    const note = page.locator('.note').filter({ hasText: /^Model: / })
    await expect(note).toHaveText('Model: Opus 5.5')
    await expect(note.locator('.model-named')).toHaveAttribute('title', 'claude-opus-5-5')
    const rows = page.getByRole('listbox', { name: 'Passes' }).getByRole('option')
    await rows.last().click()
    await expect(page.getByTestId('pass-line').locator('.model-named').first()).toHaveText('Opus 5.5')
    await expect(page.locator('.chat-controls')).not.toContainText('claude-opus-5-5')
    await page.locator('.chat-head').screenshot({ path: 'e2e/screenshots/chat-head-model-before-settings.png' })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test("chat: switching a session's model shows what it costs first, and the next pass uses it", async ({ app }) => {
  const dir = fixtureProject()
  try {
    await openProjectWithSession(app, dir)
    const model = app.getByLabel('Model', { exact: true })
    const composer = app.getByLabel('Message')
    await expect(model).toHaveValue('claude-sonnet-4-6')

    // Before the first pass nothing is cached: the switch is made at once, and said in the conversation.
    await model.selectOption('claude-haiku-4-5')
    await expect(app.locator('.note').filter({ hasText: 'Model: Haiku 4.5' })).toHaveCount(1)
    await expect(model).toHaveValue('claude-haiku-4-5')
    await model.selectOption('claude-sonnet-4-6')
    await expect(app.locator('.note').filter({ hasText: 'Model: Sonnet 4.6' })).toHaveCount(1)

    let ended = appEvent(app, 'turn.ended')
    await composer.fill('read README.md')
    await composer.press('Enter')
    await ended

    // Now the cache holds the conversation for this model (over Sonnet's 1,024-token minimum): the price comes
    // first, and "Keep" keeps it.
    await model.selectOption('claude-opus-5-5')
    const ask = app.getByRole('group', { name: 'Switch the model' })
    await expect(app.getByTestId('model-switch-price')).toHaveText(/^Switching to Claude Opus 5\.5 starts the cache afresh \(it is kept per model\): the next pass writes ≈?[\d,]+ tokens it would have read, \+\$\d\.\d{4} on the next pass: \$\d\.\d{4} for the cache it loses \(what the Cache view will count as that pass's loss\)( and [+−]\$\d\.\d{4} from that model's prices)?\.$/)
    await app.locator('.chat-head').screenshot({ path: 'e2e/screenshots/chat-model-switch-price.png' })
    // The two answers sit together on one line, not one beside the price and the other under it.
    const answerTops = await Promise.all(['Switch', 'Keep Claude Sonnet 4.6'].map(async (name) => Math.round((await ask.getByRole('button', { name }).boundingBox())!.y)))
    expect(answerTops[0]).toBe(answerTops[1])
    await ask.getByRole('button', { name: 'Keep Claude Sonnet 4.6' }).click()
    // A model whose minimum is over this whole prompt would cache none of it: not a one-off, every pass, said so.
    await model.selectOption('claude-opus-4-6')
    await expect(app.getByTestId('model-switch-price')).toHaveText(/^Switching to Claude Opus 4\.6 caches none of this session: that model caches nothing under 4,096 tokens, and this prompt is ≈?[\d,]+\. Every pass pays for all of it in full until the conversation grows past that \(\+\$\d\.\d{4} a pass against staying\)\.$/)
    await app.locator('.chat-head').screenshot({ path: 'e2e/screenshots/chat-model-switch-uncacheable.png' })
    await ask.getByRole('button', { name: 'Keep Claude Sonnet 4.6' }).click()
    await expect(ask).toHaveCount(0)
    await expect(model).toHaveValue('claude-sonnet-4-6')
    // The question went with the button that held the keyboard: the message box has it, not the chat's heading.
    await expect(composer).toBeFocused()
    // From the keyboard: an arrow key on the closed select asks the same question, and the keyboard stays on it.
    await model.focus()
    await app.keyboard.press('ArrowDown')
    await expect(ask).toBeVisible()
    await expect(model).toBeFocused()
    await ask.getByRole('button', { name: 'Keep Claude Sonnet 4.6' }).click()
    await expect(model).toHaveValue('claude-sonnet-4-6')

    // Asked about and left open, the question names its model; the choice shows the model the session uses. A
    // message sent meanwhile runs on that model, and the question is priced again for the prompt the turn left.
    await model.selectOption('claude-opus-4-6')
    const price = app.getByTestId('model-switch-price')
    await expect(price).toHaveText(/^Switching to Claude Opus 4\.6 caches none of this session: .* this prompt is ≈?[\d,]+\./)
    await expect(model).toHaveValue('claude-sonnet-4-6')
    const pricedBefore = await price.textContent()
    ended = appEvent(app, 'turn.ended')
    await composer.fill('list src')
    await composer.press('Enter')
    await ended
    await expect(app.getByRole('listbox', { name: 'Passes' }).getByRole('option').last()).toContainText('sonnet-4-6')
    await expect(model).toHaveValue('claude-sonnet-4-6')
    await expect(price).toHaveText(/^Switching to Claude Opus 4\.6 /)
    await expect(price).not.toHaveText(pricedBefore!)
    await expect(ask.getByRole('button', { name: 'Switch' })).toBeEnabled()
    await app.locator('.chat-head').screenshot({ path: 'e2e/screenshots/chat-model-switch-repriced.png' })
    await ask.getByRole('button', { name: 'Keep Claude Sonnet 4.6' }).click()

    await model.selectOption('claude-opus-5-5')
    await ask.getByRole('button', { name: 'Switch' }).click()
    await expect(ask).toHaveCount(0)
    await expect(model).toHaveValue('claude-opus-5-5')
    await expect(composer).toBeFocused()
    await expect(app.locator('.note').filter({ hasText: 'Model: Opus 5.5' })).toHaveCount(1)

    // The next pass is the new model's, and the inspector names the switch as its miss's cause.
    ended = appEvent(app, 'turn.ended')
    await composer.fill('list the files')
    await composer.press('Enter')
    await ended
    const rows = app.getByRole('listbox', { name: 'Passes' }).getByRole('option')
    await expect(rows.last()).toContainText('opus-5-5')
    // The Cache view lists the switch among its events as one line of words, the model by its name.
    await app.getByRole('tab', { name: 'Cache' }).click()
    // (The switches made before the first pass are listed too.)
    const event = app.locator('.cache-events li[data-kind="model_switch"]').last()
    await expect.poll(() => event.evaluate((li) => (li as HTMLElement).innerText)).toMatch(/^model switch before pass \d+: model switched to Opus 5\.5$/)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test("chat: a session on a dated id shows its model chosen, and one on a model the app does not know, or one retired, offers the served models through the priced question", async ({ app, host }) => {
  const dir = fixtureProject()
  const dated = 'claude-haiku-4-5-20251001'
  // The models the API serves today (decision 0065): a retired one is listed only as a session's own.
  const served = MODEL_NAMES.filter((m) => !isRetired(m.id, Date.now()))
  try {
    // A dated id in Settings (as Claude Code's own settings spell a model): new sessions, continued ones too, start on it.
    await rpc(host, 'settings.set', { app: { model: dated } })
    await openProjectWithSession(app, dir)
    const model = app.getByLabel('Model', { exact: true })
    const composer = app.getByLabel('Message')
    // The choice shows the model, spelled as the session sends it; the model is listed once, not again undated.
    await expect(model).toHaveValue(dated)
    await expect(model.locator('option:checked')).toHaveText('Claude Haiku 4.5')
    await expect(model).toHaveAttribute('title', `This session's model: ${dated}`)
    await expect(model).not.toHaveAttribute('data-cannot-send')
    await expect(model.locator('option[value="claude-haiku-4-5"]')).toHaveCount(0)
    await expect(model).toBeEnabled()
    const ended = appEvent(app, 'turn.ended')
    // Long enough to pass Haiku 4.5's minimum cacheable length (4,096 tokens), so the pass writes to the cache.
    await composer.fill(`read README.md\n\n${'Context: the parser keeps every token it reads, in order. '.repeat(400)}`)
    await composer.press('Enter')
    await ended
    await expect(app.getByRole('listbox', { name: 'Passes' }).getByRole('option').last()).toContainText('haiku-4-5')
    // The palette offers the other models, not the same one undated.
    const palette = app.getByTestId('palette')
    await app.keyboard.press('Control+k')
    await app.keyboard.type('switch model haiku')
    await expect(palette.locator('li').filter({ hasText: 'Switch model to Claude Haiku 5.5…' })).toHaveCount(1)
    await expect(palette.locator('li').filter({ hasText: 'Switch model to Claude Haiku 4.5…' })).toHaveCount(0)
    await app.keyboard.press('Escape')
    await expect(palette).toHaveCount(0)
    // Another model: the cache the dated id's pass wrote is priced as lost, and Keep names the model.
    await model.selectOption('claude-opus-5-5')
    const ask = app.getByRole('group', { name: 'Switch the model' })
    await expect(app.getByTestId('model-switch-price')).toHaveText(/^Switching to Claude Opus 5\.5 starts the cache afresh \(it is kept per model\)/)
    await app.locator('.chat-head').screenshot({ path: 'e2e/screenshots/chat-model-switch-dated.png' })
    await ask.getByRole('button', { name: 'Keep Claude Haiku 4.5' }).click()
    await expect(ask).toHaveCount(0)
    await expect(model).toHaveValue(dated)

    // The same session brought back on another model than it had, as an older build left it: the host reads the
    // model from the session's stored state once the session is imported afresh.
    const sessionId = (await app.locator('section.chat').getAttribute('data-session-id'))!
    const projectId = ((await rpc(host, 'project.list', {})) as Array<{ id: string }>)[0]!.id
    const bringBackOn = async (storedModel: string) => {
      const file = join(dir, 'out', `session-${storedModel}.json`)
      await rpc(host, 'session.export', { sessionId, path: file })
      await rpc(host, 'session.delete', { sessionId })
      await rpc(host, 'session.import', { projectId, path: file })
      const store = openStore(join(host.dataDir, 'loupe.db'))
      try {
        store.sessions.saveState(sessionId, JSON.stringify({ ...(JSON.parse(store.sessions.state(sessionId)) as object), version: 1, model: storedModel }))
      } finally {
        store.close()
      }
      await app.locator('.sessions button.session').filter({ hasText: 'read README.md' }).click()
      await expect(app.locator('section.chat')).toHaveAttribute('data-session-id', sessionId)
    }

    // On a model the API no longer serves (Sonnet 4.5, retired on 30 Nov 2026): named so, not to be chosen back.
    await bringBackOn('claude-sonnet-4-5-20250929')
    await expect(model).toHaveValue('claude-sonnet-4-5-20250929')
    await expect(model.locator('option:checked')).toHaveText('Claude Sonnet 4.5 (retired 30 Nov 2026)')
    await expect(model.locator('option:checked')).toBeDisabled()
    await expect(model.locator('option:not([disabled])')).toHaveCount(served.length)
    await expect(model).toHaveAttribute('title', /^This session's model, claude-sonnet-4-5-20250929, was retired 30 Nov 2026: the API no longer serves it/)
    await expect(model).toHaveAttribute('data-cannot-send', 'true')
    // Said above the message box too, where a user about to send reads it.
    await expect(app.getByTestId('model-retired-note')).toHaveText(
      "This session's model, Claude Sonnet 4.5, was retired on 30 Nov 2026: the Anthropic API no longer serves it (the offline simulator still answers it). Switch to another model in the header above; the switch is priced first.",
    )
    await app.screenshot({ path: 'e2e/screenshots/chat-model-retired-note.png' })
    await app.locator('.chat-head').screenshot({ path: 'e2e/screenshots/chat-model-retired.png' })

    // On a model this build's table does not have (as an older build's table left it).
    await bringBackOn('claude-retired-3')
    await expect(app.getByTestId('model-retired-note')).toHaveCount(0)
    // Shown as the current model, which cannot be chosen back; the app's models are there to switch to.
    await expect(model).toHaveValue('claude-retired-3')
    const current = model.locator('option:checked')
    await expect(current).toHaveText("\u2068claude-retired-3\u2069 (not in Loupe's list)")
    await expect(current).toBeDisabled()
    await expect(model.locator('option:not([disabled])')).toHaveCount(served.length)
    await expect(model).toHaveAttribute('title', /^This session's model, claude-retired-3, is not one Loupe knows/)
    await app.locator('.chat-head').screenshot({ path: 'e2e/screenshots/chat-model-unknown.png' })
    // A switch is asked as any other: priced on the passes the session ran, then made.
    await model.selectOption('claude-opus-5-5')
    await expect(app.getByTestId('model-switch-price')).toHaveText(/^Switching to Claude Opus 5\.5 starts the cache afresh \(it is kept per model\)/)
    await expect(ask.getByRole('button', { name: 'Keep claude-retired-3' })).toBeVisible()
    await ask.getByRole('button', { name: 'Switch', exact: true }).click()
    await expect(model).toHaveValue('claude-opus-5-5')
    await expect(app.locator('.note').filter({ hasText: 'Model: Opus 5.5' })).toHaveCount(1)
    // Switched away, the unknown model is no longer offered, nor the retired one.
    await expect(model.locator('option')).toHaveCount(served.length)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test("chat: a window left open across a model's end of life names it retired from that moment, and says to switch, with no reload", async ({ page, host }) => {
  // The next model of the list to reach its end of life (Opus 4.5 on 22 Jan 2027 as this is written): the host still
  // serves it, so a session starts on it; the page's clock is set just before its day.
  const day = nextLifeChange(Date.now())
  const retiring = MODEL_NAMES.find((m) => day !== null && endOfLifeOf(m.id) === new Date(day).toISOString().slice(0, 10))
  test.skip(day === null || retiring === undefined, 'no model of the list has an end of life ahead')
  const dir = fixtureProject()
  try {
    const eol = new Date(day!).toISOString().slice(0, 10)
    await rpc(host, 'settings.set', { app: { model: retiring!.id } })
    await page.clock.install({ time: day! - 5 * 60_000 })
    await openApp(page, host.url)
    await openProjectWithSession(page, dir)
    const model = page.getByLabel('Model', { exact: true })
    await expect(model.locator('option:checked')).toHaveText(`${retiring!.label} (retires ${dayWords(eol)})`)
    await expect(model).not.toHaveAttribute('data-cannot-send')
    await expect(page.getByTestId('model-retired-note')).toHaveCount(0)
    // Midnight (UTC) passes with the window open: the choice, its tooltip and the line above the message box follow.
    await page.clock.fastForward('05:01')
    await expect(model.locator('option:checked')).toHaveText(`${retiring!.label} (retired ${dayWords(eol)})`)
    await expect(model).toHaveAttribute('data-cannot-send', 'true')
    await expect(model).toHaveAttribute('title', new RegExp(`^This session's model, ${retiring!.id}, was retired ${dayWords(eol)}`))
    await expect(page.getByTestId('model-retired-note')).toContainText(`This session's model, ${retiring!.label}, was retired on ${dayWords(eol)}`)
    await page.screenshot({ path: 'e2e/screenshots/chat-model-retires-while-open.png' })
    // Settings, opened on the day, lists it only as the stored choice, not to be chosen again.
    await page.getByRole('tab', { name: 'Settings' }).click()
    const stored = page.locator('section[aria-labelledby="set-model"]').getByLabel('Model', { exact: true }).locator('option:checked')
    await expect(stored).toContainText(`${retiring!.label} (retired ${dayWords(eol)})`)
    await expect(stored).toBeDisabled()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('chat: an approval read back after a reload waits without the keyboard, so an Enter meant for the page does not answer it', async ({ app }) => {
  const dir = fixtureProject()
  try {
    await openProjectWithSession(app, dir)
    const composer = app.getByLabel('Message')
    await composer.fill('replace "hello" with "goodbye" in greet.ts')
    await composer.press('Enter')
    const approval = app.getByRole('group', { name: 'Approval needed' })
    // Asked while the window is open: the card takes the keyboard.
    await expect(approval.getByRole('button', { name: 'Approve once' })).toBeFocused()
    await approval.getByRole('button', { name: 'Deny…' }).click()
    await approval.getByLabel('Reason for denying').fill('not this file')

    await app.reload()
    await expect(app.locator('html[data-app-ready="true"]')).toHaveCount(1)
    await expect(approval).toContainText('Edit greet.ts')
    // The reason was text in the window, gone with it (decision 0012); the card is back with its buttons.
    await expect(approval.getByRole('button', { name: 'Approve once' })).toBeVisible()
    // Once the card has been drawn and its effects have run, the keyboard is not on it.
    await nextFrame(app)
    const focused = await app.evaluate(() => {
      const active = document.activeElement
      return { inCard: active?.closest('.approval') !== null && active !== null, text: active?.textContent?.trim() ?? null, tag: active?.tagName ?? null }
    })
    expect(focused.inCard, `focused: <${focused.tag}> ${focused.text}`).toBe(false)
    await app.screenshot({ path: 'e2e/screenshots/chat-approval-after-reload.png' })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
