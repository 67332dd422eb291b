/**
 * The shell's layout at the window sizes of a laptop and a small screen (800×600, 1024×768, 1280×800), in Chromium
 * against the browser host: the chat beside the inspector stays wide enough to read and type in (in a window too
 * narrow for both, or docked below in one too short for both, one shows at a time, decision 0048) and the split the
 * user dragged comes back when the window grows; the Files view keeps its file list readable, the editor usable and the price of an edit in view; no view
 * scrolls the page sideways; each splitter says its least and greatest size and Home and End reach them. Photographs
 * land in e2e/screenshots/layout-*.png.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Locator, Page } from '@playwright/test'
import { appEvent, expect, nextFrame, openApp, openProjectWithSession, placeholderFits, test } from './fixtures'

const SHOTS = 'e2e/screenshots'
const SIZES = [
  [800, 600],
  [1024, 768],
  [1280, 800],
] as const

/**
 * The chat keeps the room it needs beside the inspector (CHAT_MIN_PX in state/inspector.ts), and its message box,
 * with Send beside it, a line of about 35 characters.
 */
const CHAT_MIN_PX = 420
const MESSAGE_BOX_MIN_PX = 260

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-e2e-layout-'))
  mkdirSync(join(dir, 'docs'))
  writeFileSync(join(dir, 'AGENTS.md'), `# Agents\n\n${'Run the tests before you finish. '.repeat(40)}\n`)
  writeFileSync(join(dir, 'CLAUDE.md'), '# Claude\n\nSee @docs/api-conventions.md for the conventions.\n')
  writeFileSync(join(dir, 'docs', 'api-conventions.md'), '# Conventions\n\nAmounts are integer cents.\n')
  return dir
}

async function withAnsweredSession(page: Page, url: string, dir: string): Promise<void> {
  await openApp(page, url)
  await openProjectWithSession(page, dir)
  const ended = appEvent(page, 'turn.ended')
  await page.getByLabel('Message').fill('what is in this project?')
  await page.getByLabel('Message').press('Enter')
  await ended
}

async function resize(page: Page, width: number, height: number): Promise<void> {
  await page.setViewportSize({ width, height })
  await nextFrame(page)
}

/** The page never scrolls sideways: what does not fit is laid out again, not pushed past the window's edge. */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0)
  await expect.poll(() => page.evaluate(() => document.body.scrollWidth - document.body.clientWidth)).toBe(0)
}

/** Every element of `items` shows its whole text: nothing cut by an ellipsis or by its box's edge. */
async function expectWhole(items: Locator): Promise<void> {
  const cut = await items.evaluateAll((els) => els.filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => el.textContent))
  expect(cut).toEqual([])
}

/** The chat column and its message box are as wide as they need to be read and typed in. */
async function expectChatRoom(page: Page): Promise<void> {
  await expect.poll(() => widthOf(page.locator('.chat'))).toBeGreaterThanOrEqual(CHAT_MIN_PX)
  await expect.poll(() => widthOf(page.getByLabel('Message'))).toBeGreaterThanOrEqual(MESSAGE_BOX_MIN_PX)
}

const widthOf = async (locator: Locator) => (await locator.boundingBox())?.width ?? 0

test('chat and inspector: at 800×600 the message box keeps its width and the inspector is one press away; the split the user dragged comes back when the window grows', async ({ page, host }) => {
  const dir = project()
  try {
    await withAnsweredSession(page, host.url, dir)
    const inspector = page.getByTestId('inspector')
    const message = page.getByLabel('Message')
    // The user makes the inspector narrower at 1280×800: 16 px a press of the arrow.
    await resize(page, 1280, 800)
    const splitter = page.getByRole('separator', { name: 'Resize the inspector' })
    const before = await widthOf(inspector)
    await splitter.focus()
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight')
    await expect.poll(() => widthOf(inspector)).toBe(before - 80)
    const chosen = before - 80

    await resize(page, 800, 600)
    await expectChatRoom(page)
    await expectNoSidewaysScroll(page)
    // The top bar keeps to one row: its items' words unbroken, the views below it keep their height.
    await expect.poll(() => page.locator('.topbar').evaluate((el) => el.getBoundingClientRect().height)).toBeLessThanOrEqual(46)
    await page.screenshot({ path: `${SHOTS}/layout-chat-800x600.png` })
    // The inspector is its bar at the edge, with the count of passes; pressed, it takes the width and the chat
    // becomes the bar, which brings it back.
    const bar = page.getByRole('button', { name: /^Inspector · 2 passes/ })
    await bar.click()
    await expect(page.getByTestId('passes-list')).toBeFocused()
    await expect.poll(() => widthOf(inspector)).toBeGreaterThanOrEqual(480)
    await expect(page.getByRole('tab', { name: 'Request' })).toBeVisible()
    await expect(message).toBeHidden()
    await expectNoSidewaysScroll(page)
    await page.screenshot({ path: `${SHOTS}/layout-inspector-800x600.png` })
    await page.getByRole('button', { name: /^Chat · what is in this project\?/ }).click()
    await expect(message).toBeFocused()
    await expectChatRoom(page)
    // Hide, at this size, is the way back to the chat too.
    await bar.click()
    await page.getByRole('button', { name: 'Collapse the inspector' }).click()
    await expect(message).toBeVisible()

    // Wider again: the split is back, at the width the user gave it.
    await resize(page, 1280, 800)
    await expect.poll(() => widthOf(inspector)).toBe(chosen)
    await expectChatRoom(page)

    // At 1024×768 both fit side by side, the chat keeping its room.
    await resize(page, 1024, 768)
    await expect(page.getByRole('separator', { name: 'Resize the inspector' })).toBeVisible()
    await expectChatRoom(page)
    await expectNoSidewaysScroll(page)
    await page.screenshot({ path: `${SHOTS}/layout-chat-1024x768.png` })
    // The inspector at its width there: the Response tab's attempts, request ids included, stay inside it.
    await page.getByRole('tab', { name: 'Response' }).click()
    const attempts = page.locator('.insp-attempts-table')
    await expect(attempts).toBeVisible()
    const inspectorBox = (await inspector.boundingBox())!
    await expect.poll(async () => (await attempts.boundingBox())!.x + (await attempts.boundingBox())!.width).toBeLessThanOrEqual(inspectorBox.x + inspectorBox.width)
    await inspector.screenshot({ path: `${SHOTS}/layout-inspector-response-1024x768.png` })
    // Narrower still (the pane near its least width at 1000×700): the table has no error to say, so no such
    // column, and its times stay whole; it still fits.
    await resize(page, 1000, 700)
    await expect(attempts.getByRole('columnheader', { name: 'error' })).toHaveCount(0)
    const narrow = (await inspector.boundingBox())!
    await expect.poll(async () => (await attempts.boundingBox())!.x + (await attempts.boundingBox())!.width).toBeLessThanOrEqual(narrow.x + narrow.width)
    await inspector.screenshot({ path: `${SHOTS}/layout-inspector-response-1000x700.png` })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('chat and inspector docked below: at 800×600 one shows at a time over the whole height, switched by their bars, the keyboard going with it; at 1024×768 both show', async ({ page, host }) => {
  const dir = project()
  try {
    await withAnsweredSession(page, host.url, dir)
    const inspector = page.getByTestId('inspector')
    const message = page.getByLabel('Message')
    await page.getByRole('button', { name: 'Dock below the chat' }).click()
    await expect(page.getByRole('button', { name: 'Dock beside the chat' })).toBeVisible()

    // Too short for the chat and a useful inspector stacked: the chat shows, the inspector its bar across the
    // bottom edge.
    await resize(page, 800, 600)
    const bar = page.getByRole('button', { name: /^Inspector · 2 passes/ })
    await expect(bar).toBeVisible()
    await expect(message).toBeVisible()
    await expectHorizontalBar(page, bar)
    await expectNoSidewaysScroll(page)
    await page.screenshot({ path: `${SHOTS}/layout-below-chat-800x600.png` })

    // Pressed, the inspector takes the whole height, the keyboard on its passes list, and the selected pass's
    // Request view has room to read the bytes; the chat is its bar across the top edge.
    await bar.click()
    await expect(page.getByTestId('passes-list')).toBeFocused()
    await expect(message).toBeHidden()
    await expect(page.getByRole('tab', { name: 'Request' })).toHaveAttribute('aria-selected', 'true')
    await expect.poll(() => heightOf(inspector.locator('.insp-view'))).toBeGreaterThanOrEqual(200)
    await expect(inspector.locator('.insp-request .monaco-editor')).toBeVisible()
    const chatBar = page.getByRole('button', { name: /^Chat · what is in this project\?/ })
    await expectHorizontalBar(page, chatBar)
    expect((await chatBar.boundingBox())!.y).toBeLessThan((await inspector.boundingBox())!.y)
    await expectNoSidewaysScroll(page)
    await page.screenshot({ path: `${SHOTS}/layout-below-inspector-800x600.png` })

    // The chat's bar brings the chat back, the keyboard in its message box.
    await chatBar.click()
    await expect(message).toBeFocused()
    await expect(bar).toBeVisible()
    // Ctrl+I swaps them as the bars do, the keyboard going with the pane that shows; Hide goes back to the chat.
    await page.keyboard.press('Control+i')
    await expect(page.getByTestId('passes-list')).toBeFocused()
    await expect(message).toBeHidden()
    await page.keyboard.press('Control+i')
    await expect(message).toBeFocused()
    await bar.click()
    await page.getByRole('button', { name: 'Collapse the inspector' }).click()
    await expect(message).toBeVisible()
    await expect(bar).toBeFocused()

    // At 1024×768 both show, stacked, the inspector's splitter there to share the height.
    await resize(page, 1024, 768)
    await expect(message).toBeVisible()
    await expect(page.getByRole('tab', { name: 'Request' })).toBeVisible()
    await expect(page.getByRole('separator', { name: 'Resize the inspector' })).toBeVisible()
    await expect(bar).toHaveCount(0)
    await page.screenshot({ path: `${SHOTS}/layout-below-both-1024x768.png` })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

const heightOf = async (locator: Locator) => (await locator.boundingBox())?.height ?? 0

/** A pane's bar docked below is a strip across the workspace's width, one line high, not a column at its side. */
async function expectHorizontalBar(page: Page, bar: Locator): Promise<void> {
  const box = (await bar.boundingBox())!
  const workspace = (await page.locator('.workspace').boundingBox())!
  expect(box.height).toBeLessThanOrEqual(40)
  expect(box.width).toBeGreaterThanOrEqual(workspace.width - 2)
}

test('files: at 800×600 and 1024×768 the file names are whole, the editor keeps its width and the price of an edit is in view', async ({ page, host }) => {
  const dir = project()
  try {
    await withAnsweredSession(page, host.url, dir)
    await page.getByRole('tab', { name: 'Files' }).click()
    // The import shows under the file that names it: the deepest row, the one most easily cut.
    await expect(page.locator('.files-node[data-path="docs/api-conventions.md"]')).toBeVisible()
    await page.locator('.files-node[data-path="AGENTS.md"]').click()
    await page.getByTestId('file-editor').locator('.view-lines').click()
    await page.keyboard.press('Control+End')
    await page.keyboard.type('Prices are integer cents.\n')
    await expect(page.getByTestId('price-now')).toBeVisible()
    for (const [width, height] of SIZES) {
      await resize(page, width, height)
      await page.screenshot({ path: `${SHOTS}/layout-files-${width}x${height}.png` })
      await expectNoSidewaysScroll(page)
      await expectWhole(page.locator('.files-node-path'))
      await expect.poll(() => widthOf(page.getByTestId('file-editor'))).toBeGreaterThanOrEqual(320)
      // Both choices are read whole, and the whole panel is inside the window.
      await expectWhole(page.locator('.files-price-choice'))
      const price = (await page.getByTestId('price-panel').boundingBox())!
      expect(price.y + price.height).toBeLessThanOrEqual(height)
      expect(price.x + price.width).toBeLessThanOrEqual(width)
      // The editor shows lines of text, five at least, not a word a line.
      expect((await page.getByTestId('file-editor').boundingBox())!.height).toBeGreaterThanOrEqual(100)
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('compaction: at 800×600, 1024×768 and 1280×800 the Focus field says whole what it is for', async ({ page, host }) => {
  const dir = project()
  try {
    await withAnsweredSession(page, host.url, dir)
    await page.getByRole('tab', { name: 'Compaction' }).click()
    const focus = page.getByLabel('Compaction focus')
    await expect(focus).toBeVisible()
    for (const [width, height] of SIZES) {
      await resize(page, width, height)
      await page.screenshot({ path: `${SHOTS}/layout-compaction-${width}x${height}.png` })
      await expectNoSidewaysScroll(page)
      // What the field asks for and its example are read whole, not cut at the field's edge.
      expect(await focus.evaluate(placeholderFits), `${width}×${height}`).toBe(true)
      await expectWhole(page.locator('.cmp-compose label'))
      await expect.poll(() => widthOf(focus)).toBeGreaterThanOrEqual(260)
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

/** A splitter's bounds as it tells them to assistive technology (the WAI-ARIA window splitter). */
async function splitterRange(splitter: Locator): Promise<{ min: number; max: number; now: number }> {
  const read = async (name: string) => Number(await splitter.getAttribute(name))
  return { min: await read('aria-valuemin'), max: await read('aria-valuemax'), now: await read('aria-valuenow') }
}

test('splitters: each says its least and greatest size, and Home and End take it there', async ({ page, host }) => {
  const dir = project()
  try {
    await page.setViewportSize({ width: 1280, height: 800 })
    await withAnsweredSession(page, host.url, dir)

    // The inspector: from its least width, 320 px, to the most that leaves the chat its room.
    const inspector = page.getByTestId('inspector')
    const paneSplitter = page.getByRole('separator', { name: 'Resize the inspector' })
    const pane = await splitterRange(paneSplitter)
    expect(pane.min).toBe(320)
    expect(pane.max).toBeGreaterThan(pane.min)
    await paneSplitter.press('Home')
    await expect.poll(async () => Math.round(await widthOf(inspector))).toBe(pane.min)
    await expect(paneSplitter).toHaveAttribute('aria-valuenow', String(pane.min))
    await paneSplitter.press('End')
    await expect.poll(async () => Math.round(await widthOf(inspector))).toBe(pane.max)
    await expect(paneSplitter).toHaveAttribute('aria-valuenow', String(pane.max))
    await expectChatRoom(page)

    // The passes list: from its least height to its rows' (four passes, less than the pane would give it).
    const ended = appEvent(page, 'turn.ended')
    await page.getByLabel('Message').fill('and what is in docs?')
    await page.getByLabel('Message').press('Enter')
    await ended
    await expect(page.getByTestId('pass-count')).toHaveText('4 passes')
    const list = page.locator('.insp-passes')
    const listSplitter = page.getByRole('separator', { name: 'Resize the passes list' })
    const rows = await splitterRange(listSplitter)
    expect(rows.max).toBeGreaterThan(rows.min)
    await listSplitter.press('Home')
    await expect.poll(async () => (await list.boundingBox())!.height).toBe(rows.min)
    await expect(listSplitter).toHaveAttribute('aria-valuenow', String(rows.min))
    await listSplitter.press('End')
    await expect.poll(async () => (await list.boundingBox())!.height).toBe(rows.max)
    await expect(listSplitter).toHaveAttribute('aria-valuenow', String(rows.max))

    // The Files view's file list: from its least width to the most that leaves the editor its room.
    await page.getByRole('tab', { name: 'Files' }).click()
    const tree = page.locator('.files-side')
    const treeSplitter = page.getByRole('separator', { name: 'Resize the file list' })
    const files = await splitterRange(treeSplitter)
    expect(files.min).toBe(220)
    expect(files.now).toBe(Math.round(await widthOf(tree)))
    await treeSplitter.press('End')
    await expect.poll(() => widthOf(tree)).toBe(files.max)
    await expect(treeSplitter).toHaveAttribute('aria-valuenow', String(files.max))
    await treeSplitter.press('Home')
    await expect.poll(() => widthOf(tree)).toBe(files.min)
    await expect(treeSplitter).toHaveAttribute('aria-valuenow', String(files.min))
    // The arrows still move it, 20 px a press.
    await treeSplitter.press('ArrowRight')
    await expect.poll(() => widthOf(tree)).toBe(files.min + 20)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
