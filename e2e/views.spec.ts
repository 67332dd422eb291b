/**
 * Views at the sizes people use them, in Chromium against the browser host and the simulator: the Claude Code
 * sessions panel as a modal dialog (Esc closes it and nothing else, focus in and back out, Tab kept inside), its
 * listing by last activity with whole titles on hover, an imported session's tool calls naming what they did; the
 * inspector at 1000×700, where it gets about 330 px, and its whole project's list at 1024×768 and 800×600; the
 * compaction settings' number fields while they are typed;
 * the Files view picking a file it cannot edit; and the Cache view before any pass is answered. Each view changed is photographed at 1000×700 and 1280×800, in
 * light and dark (e2e/screenshots/views-*.png).
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Locator, Page } from '@playwright/test'
import { appEvent, chooseTheme, expect, folderForThisProcess, nextFrame, openApp, openProjectWithSession, testWithHostEnv } from './fixtures'

const SHOTS = 'e2e/screenshots'
const SIZES = [
  [1000, 700],
  [1280, 800],
] as const

// A Claude Code projects folder: the real tool-heavy session, and three copies of a short one whose lines say they
// were written on other days. The files' times are set the other way round, so an order by file time and an order by
// last activity differ in every place.
const configDir = folderForThisProcess('loupe-e2e-views-claude-')
const ccProject = join(configDir, 'projects', '-home-marco-projects-spotter')
mkdirSync(ccProject, { recursive: true })
const REAL = join(__dirname, '..', 'test', 'fixtures', 'real', 'spotter')
copyFileSync(join(REAL, 'tool_heavy.jsonl'), join(ccProject, 'tool_heavy.jsonl'))
const LONG_TITLE =
  'mix phx.server does not seem to start after the upgrade to Phoenix 1.8: the endpoint crashes with a missing secret_key_base, and the logs mention the runtime config'
const short = readFileSync(join(REAL, 'short.jsonl'), 'utf8')
const copies = [
  { name: 'march-1', day: '2026-03-01', title: 'the first of March', hoursAgo: 1 },
  { name: 'march-3', day: '2026-03-03', title: LONG_TITLE, hoursAgo: 3 },
  { name: 'march-2', day: '2026-03-02', title: 'the second of March', hoursAgo: 2 },
]
const now = Date.now() / 1000
utimesSync(join(ccProject, 'tool_heavy.jsonl'), now, now)
for (const c of copies) {
  const path = join(ccProject, `${c.name}.jsonl`)
  writeFileSync(path, short.replaceAll('2026-02-10T', `${c.day}T`).replace('mix phx.server doesnt seem to start', c.title))
  utimesSync(path, now - c.hoursAgo * 3600, now - c.hoursAgo * 3600)
}

const test = testWithHostEnv({ LOUPE_SIM_PACE: 'instant', CLAUDE_CONFIG_DIR: configDir })

function project(files: Record<string, string | Buffer>): string {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-e2e-views-'))
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content)
  return dir
}

/**
 * The page at both sizes in light and dark, as `views-<name>-<w>x<h>-<theme>.png`. The theme is switched through the
 * palette, so a dialog open over the page is closed first (`close`); `show` runs before each photograph, to open it
 * again or scroll to what is photographed. The page ends at 1280×800 in the system's theme.
 */
async function shots(page: Page, name: string, show?: () => Promise<void>, close?: () => Promise<void>): Promise<void> {
  for (const t of ['light', 'dark'] as const) {
    await close?.()
    await chooseTheme(page, t)
    for (const [width, height] of SIZES) {
      await page.setViewportSize({ width, height })
      await nextFrame(page)
      await show?.()
      await page.screenshot({ path: `${SHOTS}/views-${name}-${width}x${height}-${t}.png` })
    }
  }
  await close?.()
  await chooseTheme(page, 'system')
  await page.setViewportSize({ width: 1280, height: 800 })
}

async function openPanel(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Claude Code sessions & proxy…' }).click()
  const panel = page.getByRole('dialog', { name: 'Claude Code sessions' })
  await expect(panel.locator('tr[data-session-file]')).toHaveCount(4)
  return panel
}

const focusInside = (panel: Locator) => panel.evaluate((el) => el.contains(document.activeElement))

test('Claude Code panel: Esc closes it and only it, so a turn waiting for approval goes on; focus goes back to the button that opened it', async ({ page, host }) => {
  const dir = project({ 'greet.ts': 'export const greet = () => "hello"\n' })
  try {
    await openApp(page, host.url)
    await openProjectWithSession(page, dir)
    await page.getByLabel('Message').fill('replace "hello" with "goodbye" in greet.ts')
    const ended = appEvent(page, 'turn.ended')
    await page.getByLabel('Message').press('Enter')
    const approval = page.getByRole('group', { name: 'Approval needed' })
    await expect(approval).toContainText('Edit greet.ts')

    const opener = page.getByRole('button', { name: 'Claude Code sessions & proxy…' })
    const panel = await openPanel(page)
    await expect(panel).toBeFocused()
    // Esc is the dialog's: it closes it, and marks the key handled so that nothing behind it acts on it too.
    const handled = await page.evaluate(() => {
      const esc = new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true })
      ;(document.activeElement ?? document.body).dispatchEvent(esc)
      return esc.defaultPrevented
    })
    expect(handled).toBe(true)
    await expect(panel).toHaveCount(0)
    await expect(opener).toBeFocused()
    await expect(approval).toBeVisible()
    await expect(page.getByRole('button', { name: 'Stop (Esc)' })).toBeVisible()

    // With the keyboard, as a user does it: the same again.
    await opener.press('Enter')
    await expect(panel).toBeFocused()
    await page.keyboard.press('Escape')
    await expect(panel).toHaveCount(0)
    await expect(opener).toBeFocused()
    await expect(approval).toBeVisible()

    await approval.getByRole('button', { name: 'Approve once' }).click()
    await ended
    await expect(page.locator('.tool-call[data-tool="edit_file"][data-status="done"]')).toHaveCount(1)
    await expect(page.locator('.note', { hasText: 'Stopped.' })).toHaveCount(0)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('Claude Code panel: Tab and Shift+Tab go round its own controls while it is open', async ({ page, host }) => {
  await openApp(page, host.url)
  const panel = await openPanel(page)
  await expect(panel).toBeFocused()
  const controls = await panel.evaluate((el) => [...el.querySelectorAll('button, input, select, textarea, [href], [tabindex]:not([tabindex="-1"])')].filter((c) => !(c as HTMLButtonElement).disabled).length)
  expect(controls).toBeGreaterThan(5)
  for (let i = 0; i < controls + 2; i++) {
    await page.keyboard.press('Tab')
    expect(await focusInside(panel), `after Tab ${i + 1}`).toBe(true)
  }
  // Round the end: the last control, then Tab comes back to the first (the Close button).
  await panel.getByRole('button', { name: 'Close' }).focus()
  await page.keyboard.press('Shift+Tab')
  expect(await focusInside(panel)).toBe(true)
  await expect(panel.getByRole('button', { name: 'Close' })).not.toBeFocused()
  await page.keyboard.press('Tab')
  await expect(panel.getByRole('button', { name: 'Close' })).toBeFocused()
  // The window's shortcuts do not act behind it: Alt+5 leaves the view as it was, with the panel open.
  await page.keyboard.press('Alt+5')
  await expect(panel).toBeVisible()
  await expect(page.getByRole('tab', { name: 'Settings' })).toHaveAttribute('aria-selected', 'false')
  // A click beside it, on the backdrop, closes it; the focus goes back to the button that opened it.
  await page.mouse.click(5, 300)
  await expect(panel).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Claude Code sessions & proxy…' })).toBeFocused()
})

test('Claude Code panel: sessions by last activity, newest first, with the whole title on hover; an imported session names what each tool call did', async ({ page, host }) => {
  await openApp(page, host.url)
  const panel = await openPanel(page)
  const rows = panel.locator('tr[data-session-file]')
  await expect(rows).toHaveCount(4)
  expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-session-file')))).toEqual(['march-3', 'march-2', 'march-1', 'tool_heavy'])
  const long = panel.locator('tr[data-session-file="march-3"] td.cc-title')
  await expect(long).toHaveAttribute('title', `${LONG_TITLE}\n${join(ccProject, 'march-3.jsonl')}`)
  await shots(
    page,
    'transcripts-panel',
    async () => {
      if ((await panel.count()) === 0) await openPanel(page)
    },
    async () => {
      if ((await panel.count()) > 0) await page.keyboard.press('Escape')
      await expect(panel).toHaveCount(0)
    },
  )

  await openPanel(page)
  await panel.locator('tr[data-session-file="tool_heavy"]').getByRole('button', { name: 'Import' }).click()
  await panel.getByTestId('transcript-totals').getByRole('button', { name: 'Open in the inspector' }).click()
  await expect(panel).toHaveCount(0)
  await expect(page.getByTestId('passes-list').getByRole('option')).toHaveCount(4)
  // Claude Code's tools name their subject as Loupe's do: the file read, the pattern looked for, the page fetched.
  await expect(page.locator('.tool-call[data-tool="Read"] .tool-subject').first()).toHaveText(/\S/)
  await expect(page.locator('.tool-call[data-tool="Glob"] .tool-subject').first()).toHaveText(/\S/)
  await expect(page.locator('.tool-call[data-tool="WebFetch"] .tool-subject').first()).toHaveText(/^https?:\/\//)
  await shots(page, 'transcripts-chat', () => page.locator('.tool-call[data-tool="Read"]').first().scrollIntoViewIfNeeded())
})

test('Claude Code panel: Import all counts only what can be imported, says what the listing left out, and the proxy says why it cannot start', async ({ page, host }) => {
  const other = mkdtempSync(join(tmpdir(), 'loupe-e2e-views-cc2-'))
  const folder = join(other, 'projects', '-home-marco-projects-spotter')
  mkdirSync(folder, { recursive: true })
  writeFileSync(join(folder, 'short.jsonl'), short)
  writeFileSync(join(folder, 'empty.jsonl'), '')
  writeFileSync(join(folder, 'broken.jsonl'), 'not a transcript\n')
  writeFileSync(join(other, 'elsewhere.jsonl'), short)
  symlinkSync(join(other, 'elsewhere.jsonl'), join(folder, 'linked.jsonl'))
  const busy = createServer()
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve))
  const busyPort = (busy.address() as { port: number }).port
  try {
    await openApp(page, host.url)
    const panel = await openPanel(page)
    await panel.getByLabel('Claude Code projects folder').fill(join(other, 'projects'))
    await panel.getByRole('button', { name: 'List' }).click()
    await expect(panel.locator('tr[data-session-file]')).toHaveCount(3)
    await expect(panel.getByRole('button', { name: 'Import all (1)' })).toBeVisible()
    await expect(panel.getByTestId('cc-unimportable')).toContainText('2 files are left out')
    await expect(panel.locator('tr[data-session-file="empty"]')).toContainText('cannot be imported: it is empty')
    await expect(panel.locator('tr[data-session-file="broken"]').getByRole('button', { name: 'Import' })).toBeDisabled()
    await expect(panel.getByTestId('cc-skipped-entries')).toContainText('1 entry')
    await panel.getByRole('button', { name: 'Import all (1)' }).click()
    await expect(panel.getByRole('button', { name: 'Import all (0)' })).toBeVisible()
    await expect(panel.getByRole('alert')).toHaveCount(0)

    // A port out of range: said beside the field, not only a greyed-out button.
    const port = panel.getByLabel('Proxy port')
    await port.fill('99999')
    await expect(panel.getByRole('button', { name: 'Start the proxy' })).toBeDisabled()
    await expect(panel.getByTestId('proxy-port-problem')).toContainText('from 1 to 65535')
    // A port in use: the proxy's own message, said once.
    await port.fill(String(busyPort))
    await expect(panel.getByTestId('proxy-port-problem')).toHaveCount(0)
    await panel.getByRole('button', { name: 'Start the proxy' }).click()
    const error = panel.getByRole('alert')
    await expect(error).toContainText(`The capture proxy could not listen on port ${busyPort}`)
    await expect(error).not.toContainText('The capture proxy: The capture proxy')
  } finally {
    busy.close()
    rmSync(other, { recursive: true, force: true })
  }
})

test('inspector at 1000×700: its header, the passes that matter, the pass line and the request fit; the splitter shows keyboard focus', async ({ page, host }) => {
  // With an instruction file, a pass places all four breakpoints.
  const dir = project({ 'README.md': '# Greeter\n\nPrints a friendly hello.\n', 'CLAUDE.md': '# Rules\n\nBe brief.\n' })
  try {
    await page.setViewportSize({ width: 1000, height: 700 })
    await openApp(page, host.url)
    await openProjectWithSession(page, dir)
    await page.getByLabel('Message').fill('read README.md')
    const ended = appEvent(page, 'turn.ended')
    await page.getByLabel('Message').press('Enter')
    await ended
    const inspector = page.getByTestId('inspector')
    const rows = page.getByTestId('passes-list').getByRole('option')
    await expect(rows).not.toHaveCount(0)
    const pane = (await inspector.boundingBox())!
    expect(pane.width).toBeLessThan(400)
    const right = pane.x + pane.width

    // The header keeps its buttons on screen, on one line.
    const hide = inspector.getByRole('button', { name: 'Collapse the inspector' })
    const dock = inspector.getByRole('button', { name: 'Dock below the chat' })
    for (const button of [hide, dock]) {
      const box = (await button.boundingBox())!
      expect(box.x + box.width).toBeLessThanOrEqual(right)
    }
    expect((await inspector.locator('.insp-head').boundingBox())!.height).toBeLessThan(40)

    // The list drops the latency, the time, the attempts and the model, and shows the cost and the cache in full.
    const head = inspector.locator('.insp-row-head')
    await expect(head.getByText('latency', { exact: true })).toBeHidden()
    await expect(head.getByText('model', { exact: true })).toBeHidden()
    for (const cell of [head.getByText('cost', { exact: true }), head.getByText('cache', { exact: true }), rows.first().locator('.insp-badge')]) {
      await expect(cell).toBeVisible()
      const box = (await cell.boundingBox())!
      expect(box.x + box.width).toBeLessThanOrEqual(right)
    }

    // The whole project's list keeps each pass's kind whole; the session each pass belongs to gives way to it.
    await inspector.getByRole('combobox', { name: 'Which passes' }).selectOption('project')
    await expectKindKeptSessionGivesWay(inspector, right)
    await page.screenshot({ path: `${SHOTS}/views-inspector-project-1000x700.png` })
    await inspector.getByRole('combobox', { name: 'Which passes' }).selectOption('session')
    await expect(head.getByText('model', { exact: true })).toBeHidden()

    // The selected pass's line is read whole, wrapped if need be.
    await rows.last().click()
    const line = inspector.getByTestId('pass-line')
    await expect(line).toContainText('Pass')
    expect(await line.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true)

    // The request's controls take one line, its four breakpoints another, and the bytes keep room to be read.
    await expect(inspector.locator('.insp-request[data-request-ready]')).toHaveCount(1)
    const lineCount = async (selector: string) => new Set(await inspector.locator(selector).evaluateAll((els) => els.map((el) => Math.round(el.getBoundingClientRect().top)))).size
    await expect(inspector.locator('.insp-bp-chip')).toHaveCount(4)
    expect(await lineCount('.insp-bp-chip')).toBe(1)
    expect(await lineCount('.insp-toolbar > button')).toBe(1)
    await expect(inspector.getByRole('button', { name: 'Copy JSON' })).toBeVisible()
    // The context map's legend: each source on one line, its name whole, not squeezed beside the total.
    const legend = inspector.locator('.insp-map-item')
    await expect(legend.first()).toBeVisible()
    const items = await legend.evaluateAll((els) =>
      els.map((el) => {
        const label = el.querySelector('.insp-map-label')!
        return { text: el.textContent, height: el.getBoundingClientRect().height, cut: label.scrollWidth > label.clientWidth }
      }),
    )
    for (const item of items) {
      expect(item.cut, `${item.text} is cut`).toBe(false)
      expect(item.height, `${item.text} takes more than one line`).toBeLessThanOrEqual(17)
    }
    // Every source in the bar can be read in the legend: the items it shows are whole, and "+N more" shows the rest.
    const map = inspector.getByLabel('Context map')
    const sources = await map.locator('.insp-map-slice').count()
    expect(sources).toBeGreaterThan(3)
    const wholeInLegend = () =>
      map.locator('.insp-map-legend').evaluate((box) => {
        const frame = box.getBoundingClientRect()
        return [...box.querySelectorAll('.insp-map-item')]
          .filter((el) => {
            const r = el.getBoundingClientRect()
            return r.top < frame.top - 0.5 || r.bottom > frame.bottom + 0.5
          })
          .map((el) => el.textContent)
      })
    expect(await wholeInLegend()).toEqual([])
    const shownFirst = await legend.count()
    const more = map.getByRole('button', { name: `+${sources - shownFirst} more` })
    await expect(more).toBeVisible()
    await more.click()
    await expect(legend).toHaveCount(sources)
    expect(await wholeInLegend()).toEqual([])
    await inspector.locator('.insp-map').screenshot({ path: `${SHOTS}/views-inspector-map-all-1000x700.png` })
    await map.getByRole('button', { name: 'Fewer' }).click()
    await expect(legend).toHaveCount(shownFirst)
    await page.screenshot({ path: `${SHOTS}/views-inspector-request-1000x700.png` })
    const editor = (await inspector.locator('.insp-request .monaco-editor').boundingBox())!
    expect(editor.height).toBeGreaterThan(120)

    // The splitter, reached with the keyboard (Shift+Tab from the header's first control), shows it has the focus.
    const splitter = inspector.getByRole('separator', { name: 'Resize the inspector' })
    await inspector.getByRole('combobox', { name: 'Which passes' }).focus()
    await page.keyboard.press('Shift+Tab')
    await expect(splitter).toBeFocused()
    const focused = await splitter.evaluate((el) => ({ visible: el.matches(':focus-visible'), outline: getComputedStyle(el).outlineStyle }))
    expect(focused).toEqual({ visible: true, outline: 'solid' })
    await page.screenshot({ path: `${SHOTS}/views-inspector-splitter-focus-1000x700.png` })
    await page.getByLabel('Message').focus()

    await shots(page, 'inspector')

    // Docked below, the pane is short: its view scrolls to the request's bytes rather than hiding them.
    await page.setViewportSize({ width: 1000, height: 700 })
    await inspector.getByRole('button', { name: 'Dock below the chat' }).click()
    const bytes = inspector.locator('.insp-request .monaco-editor')
    await bytes.scrollIntoViewIfNeeded()
    const shown = (await bytes.boundingBox())!
    expect(shown.height).toBeGreaterThanOrEqual(120)
    expect(shown.y + shown.height).toBeLessThanOrEqual(701)
    // …and the chat above keeps room for a few messages, not one line.
    expect((await page.locator('.conversation').boundingBox())!.height).toBeGreaterThanOrEqual(150)
    await page.screenshot({ path: `${SHOTS}/views-inspector-below-1000x700.png` })
    await inspector.getByRole('button', { name: 'Dock beside the chat' }).click()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

/**
 * The whole project's passes list in a pane whose right edge is `right`: the kind column shows, each row's kind read
 * whole; the session column shows too, its full name in the cell's title, cut when the pane has no room for it
 * (`cut`: true, it must be; false, it must not be; undefined, either); the cache badge ends inside the pane.
 */
async function expectKindKeptSessionGivesWay(inspector: Locator, right: number, cut?: boolean): Promise<void> {
  const head = inspector.locator('.insp-row-head')
  const rows = inspector.getByTestId('passes-list').getByRole('option')
  await expect(head.getByText('kind', { exact: true })).toBeVisible()
  await expect(inspector.locator('.insp-session').first()).toBeVisible()
  const cells = await rows.evaluateAll((els) =>
    els.map((row) => {
      const [kind, session] = [row.children[3] as HTMLElement, row.querySelector<HTMLElement>('.insp-session')!]
      return { kind: kind.textContent, kindShown: kind.offsetWidth > 0, kindCut: kind.scrollWidth > kind.clientWidth, sessionShown: session.offsetWidth > 0, sessionCut: session.scrollWidth > session.clientWidth, title: session.title }
    }),
  )
  expect(cells.length).toBeGreaterThan(0)
  for (const cell of cells) {
    expect(cell).toMatchObject({ kind: 'main', kindShown: true, kindCut: false, sessionShown: true })
    expect(cell.title).toMatch(/^read \S+ · pass \d+ · /)
    if (cut !== undefined) expect(cell.sessionCut).toBe(cut)
  }
  const badge = (await rows.first().locator('.insp-badge').boundingBox())!
  expect(badge.x + badge.width).toBeLessThanOrEqual(right)
  // Each head stands over its column, a list too short to scroll or not.
  const lefts = async (row: Locator) => row.evaluate((el) => [...el.children].map((cell) => Math.round(cell.getBoundingClientRect().left)))
  expect(await lefts(head)).toEqual(await lefts(rows.first()))
}

test("inspector: the whole project's list keeps each pass's kind and lets the session give way, at 800×600 (the inspector alone) and 1024×768 (beside the chat)", async ({ page, host }) => {
  const dir = project({ 'README.md': '# Greeter\n\nPrints a friendly hello.\n', 'greet.ts': 'export const greet = () => "hello"\n' })
  try {
    await page.setViewportSize({ width: 1024, height: 768 })
    await openApp(page, host.url)
    await openProjectWithSession(page, dir)
    // Two sessions, each named by its first message, each with its passes.
    for (const [i, text] of ['read README.md', 'read greet.ts'].entries()) {
      if (i > 0) {
        const before = await page.locator('section.chat').getAttribute('data-session-id')
        await page.getByRole('button', { name: '+ New session' }).click()
        await expect(page.locator('section.chat')).not.toHaveAttribute('data-session-id', before!)
      }
      const ended = appEvent(page, 'turn.ended')
      await page.getByLabel('Message').fill(text)
      await page.getByLabel('Message').press('Enter')
      await ended
    }
    const inspector = page.getByTestId('inspector')
    await inspector.getByRole('combobox', { name: 'Which passes' }).selectOption('project')
    await expect(inspector.getByTestId('passes-list').getByRole('option')).toHaveCount(4)

    // Beside the chat the pane is under 440 px, where the list keeps only what matters: the session is cut.
    let pane = (await inspector.boundingBox())!
    expect(pane.width).toBeLessThan(440)
    await expectKindKeptSessionGivesWay(inspector, pane.x + pane.width, true)
    await page.screenshot({ path: `${SHOTS}/views-inspector-project-1024x768.png` })

    // Alone (the window too narrow for both), it has the room for both columns whole.
    await page.setViewportSize({ width: 800, height: 600 })
    await page.locator('.insp-expand').click()
    await expect(inspector.locator('.insp-row-head')).toBeVisible()
    pane = (await inspector.boundingBox())!
    await expectKindKeptSessionGivesWay(inspector, pane.x + pane.width, false)
    await page.screenshot({ path: `${SHOTS}/views-inspector-project-800x600.png` })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('settings: a number field keeps what is typed, says what is wrong beside it, and Save waits until every field is right', async ({ page, host }) => {
  const dir = project({ 'README.md': '# Greeter\n' })
  try {
    await openApp(page, host.url)
    await openProjectWithSession(page, dir)
    await page.getByRole('tab', { name: 'Settings' }).click()
    // Each field is named for assistive technology as it is labelled on the page, with the unit its number counts.
    const threshold = page.getByRole('spinbutton', { name: 'Threshold (% of the window)', exact: true })
    const save = page.getByRole('button', { name: 'Save compaction settings' })
    await expect(threshold).toHaveValue('80')
    await expect(page.getByRole('spinbutton', { name: 'Target (% of the window)', exact: true })).toHaveValue('60')
    await expect(page.getByRole('spinbutton', { name: 'Steps kept whole', exact: true })).toBeVisible()
    await expect(page.getByRole('checkbox', { name: 'Cache the static prefix (tools and system rules) for 1 hour instead of 5 minutes', exact: true })).toBeVisible()
    await expect(save).toBeDisabled()

    // Cleared, the field stays empty (not "0"), and says what it needs.
    await threshold.fill('')
    await expect(threshold).toHaveValue('')
    await expect(threshold).toHaveAttribute('aria-invalid', 'true')
    await expect(page.locator('#compaction-threshold-problem')).toContainText('Enter the threshold as a percentage')
    await expect(save).toBeDisabled()
    // Typed one key at a time, it reads as typed (not "0150").
    await threshold.pressSequentially('150')
    await expect(threshold).toHaveValue('150')
    await expect(page.locator('#compaction-threshold-problem')).toContainText('above 0% and below 100%')
    await expect(save).toBeDisabled()
    // Saving another setting (the theme, as the photographs do) leaves what is typed here alone.
    await shots(page, 'settings-invalid', () => page.locator('section[aria-labelledby="set-compaction"]').scrollIntoViewIfNeeded())
    await expect(threshold).toHaveValue('150')

    await threshold.fill('85')
    await expect(page.locator('#compaction-threshold-problem')).toHaveCount(0)
    await page.getByRole('spinbutton', { name: 'Target' }).fill('90')
    await expect(page.locator('#compaction-target-problem')).toContainText('below the threshold (85 %)')
    await expect(save).toBeDisabled()
    await page.getByRole('spinbutton', { name: 'Target' }).fill('50')
    await expect(save).toBeEnabled()
    await save.click()
    await expect(save).toBeDisabled()
    await expect(page.getByTestId('compaction-saved')).toContainText('Saved')
    await expect.poll(() => readFileSync(join(dir, '.loupe', 'config.toml'), 'utf8')).toMatch(/threshold = 0\.85[\s\S]*target = 0\.5/)
    // Typing again takes the note away: it speaks of what was saved.
    await threshold.fill('86')
    await expect(page.getByTestId('compaction-saved')).toHaveCount(0)
    // So does a form that is not valid: cleared, it no longer holds what was saved, and says only what to correct.
    await threshold.fill('85')
    await expect(page.getByTestId('compaction-saved')).toBeVisible()
    for (const name of ['Threshold', 'Target', 'Steps kept whole']) await page.getByRole('spinbutton', { name }).fill('')
    await expect(page.getByText('Correct the fields above to save.')).toBeVisible()
    await expect(page.getByTestId('compaction-saved')).toHaveCount(0)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test("settings: the compaction form's saved note belongs to its project, and a folder of Claude Code's logs is offered no compaction settings", async ({ page, host }) => {
  const a = project({ 'README.md': '# Alpha\n' })
  const b = project({ 'README.md': '# Beta\n' })
  try {
    await openApp(page, host.url)
    await openProjectWithSession(page, a)
    await openProjectWithSession(page, b)
    await page.getByRole('tab', { name: 'Settings' }).click()
    await page.getByRole('spinbutton', { name: 'Threshold' }).fill('85')
    await page.getByRole('button', { name: 'Save compaction settings' }).click()
    await expect(page.getByTestId('compaction-saved')).toBeVisible()
    // Another project picked while Settings is shown: its form says nothing of the save made in the other one.
    await page.locator(`button.project[title="${a}"]`).click()
    await expect(page.getByRole('heading', { name: `Compaction in ${a.split('/').pop()}` })).toBeVisible()
    await expect(page.getByRole('spinbutton', { name: 'Threshold' })).toHaveValue('80')
    await expect(page.getByTestId('compaction-saved')).toHaveCount(0)

    // An imported session's project is the folder of Claude Code's logs: no compaction form is offered there.
    const panel = await openPanel(page)
    await panel.locator('tr[data-session-file="march-1"]').getByRole('button', { name: 'Import' }).click()
    await panel.getByTestId('transcript-totals').getByRole('button', { name: 'Open in the inspector' }).click()
    await expect(panel).toHaveCount(0)
    await page.getByRole('tab', { name: 'Settings' }).click()
    await expect(page.getByTestId('compaction-not-offered')).toContainText("Claude Code's transcripts")
    await expect(page.getByRole('button', { name: 'Save compaction settings' })).toHaveCount(0)
  } finally {
    rmSync(a, { recursive: true, force: true })
    rmSync(b, { recursive: true, force: true })
  }
})

test('files: with an imported Claude Code session open, an edit is simply saved: no price against it, no apply choice', async ({ page, host }) => {
  await openApp(page, host.url)
  const panel = await openPanel(page)
  await panel.locator('tr[data-session-file="march-2"]').getByRole('button', { name: 'Import' }).click()
  await panel.getByTestId('transcript-totals').getByRole('button', { name: 'Open in the inspector' }).click()
  await expect(panel).toHaveCount(0)
  await page.getByRole('tab', { name: 'Files' }).click()
  await page.getByRole('button', { name: /User memory \(every project\)/ }).click()
  await page.getByTestId('file-editor').locator('.view-lines').click()
  await page.keyboard.press('Control+End')
  await page.keyboard.type('Prefer integer cents.\n')
  // Loupe sends no pass in that session: nothing to price against, and the reason is said.
  await expect(page.getByTestId('price-read-only')).toContainText('imported from Claude Code and takes no messages')
  await expect(page.getByTestId('price-panel')).toHaveCount(0)
  const save = page.getByTestId('save-file')
  await expect(save).toHaveText('Save')
  await save.click()
  await expect(page.getByTestId('save-status')).toContainText('Saved')
  await expect(page.getByTestId('save-status')).not.toHaveAttribute('data-warning', 'true')
  await expect(page.getByTestId('save-status')).not.toContainText('not applied')
})

test('files at 1000×700: with the price of an edit shown, the editor keeps the larger part of the height', async ({ page, host }) => {
  const dir = project({ 'AGENTS.md': `# Agents\n\n${'Run the tests before you finish. '.repeat(40)}\n` })
  try {
    await openApp(page, host.url)
    await openProjectWithSession(page, dir)
    const ended = appEvent(page, 'turn.ended')
    await page.getByLabel('Message').fill('hello')
    await page.getByLabel('Message').press('Enter')
    await ended
    await page.setViewportSize({ width: 1000, height: 700 })
    await page.getByRole('tab', { name: 'Files' }).click()
    await page.locator('.files-node[data-path="AGENTS.md"]').click()
    await page.getByTestId('file-editor').locator('.view-lines').click()
    await page.keyboard.press('Control+End')
    await page.keyboard.type('Prices are integer cents.\n')
    await expect(page.getByTestId('price-now')).toBeVisible()
    const editor = await page.getByTestId('file-editor').boundingBox()
    const price = await page.getByTestId('price-panel').boundingBox()
    // The price is read whole, without a scroll of its own (both choices and the chosen one's figures, decision
    // 0025); the editor keeps the larger part, a screenful of lines.
    expect(editor!.height).toBeGreaterThan(price!.height)
    expect(editor!.height).toBeGreaterThan(260)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('files: a file the prompt builder skips (over 1 MB, binary) gets a note saying why in the editor area, not an error', async ({ page, host }) => {
  const big = `# Agents\n\n${'Everything the agent should know, said at length. '.repeat(22_000)}\n`
  expect(big.length).toBeGreaterThan(1024 * 1024)
  const dir = project({ 'AGENTS.md': big, 'CLAUDE.md': Buffer.from([0x23, 0x20, 0x00, 0x01, 0x02, 0x0a]) })
  try {
    await openApp(page, host.url)
    await openProjectWithSession(page, dir)
    await page.getByRole('tab', { name: 'Files' }).click()
    const main = page.locator('.files-main')
    const note = page.getByTestId('unopenable-note')

    await page.locator('.files-node[data-path="AGENTS.md"]').click()
    await expect(note).toHaveAttribute('data-kind', 'too_large')
    await expect(note).toContainText('AGENTS.md cannot be edited here')
    await expect(note).toContainText('larger than 1 MB')
    await expect(note).toContainText('1,048,576 bytes')
    await expect(note).toContainText(join(dir, 'AGENTS.md'))
    await expect(main.getByRole('alert')).toHaveCount(0)
    await expect(main.getByText('Pick a file to edit')).toHaveCount(0)
    await shots(page, 'files-too-large')

    await page.locator('.files-node[data-path="CLAUDE.md"]').click()
    await expect(note).toHaveAttribute('data-kind', 'binary')
    await expect(note).toContainText('binary file')
    await expect(main.getByRole('alert')).toHaveCount(0)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

// With an API key the model service is the API, here an address where nothing answers: every pass gets no response.
const unanswered = testWithHostEnv({ ANTHROPIC_API_KEY: 'sk-ant-e2e-not-a-key', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' })

unanswered('cache: before any pass it says "No pass yet", and after a pass that got no answer "No pass answered yet", not empty charts', async ({ page, host }) => {
  const dir = project({ 'README.md': '# demo\n' })
  try {
    await openApp(page, host.url)
    await openProjectWithSession(page, dir)
    await page.getByRole('tab', { name: 'Cache' }).click()
    const view = page.getByTestId('cache-view')
    const empty = view.getByTestId('cache-empty')
    await expect(empty).toHaveAttribute('data-kind', 'no_pass')
    await expect(empty.getByRole('heading')).toHaveText('No pass yet')
    await expect(view.getByTestId('cache-totals')).toHaveCount(0)
    await shots(page, 'cache-no-pass')

    // A message whose passes get no response: stored as failed, with no usage.
    await page.getByRole('tab', { name: 'Chat' }).click()
    await page.getByLabel('Message').fill('hello')
    await page.getByLabel('Message').press('Enter')
    await expect(page.getByRole('button', { name: 'Retry' })).toBeVisible({ timeout: 30_000 })
    const rows = page.getByRole('complementary', { name: 'Inspector' }).getByRole('listbox', { name: 'Passes' }).getByRole('option')
    await expect(rows).toHaveCount(1)
    // Its request was sent more than once (the client's retries): the tries column says how many times (blank for a
    // pass sent once).
    const tries = rows.first().locator('.insp-attempts')
    const title = (await tries.getAttribute('title')) ?? ''
    const sent = Number(/^(\d+) attempts?/.exec(title)?.[1])
    expect(sent).toBeGreaterThan(1)
    await expect(tries).toHaveText(`↻${sent}`)
    await page.screenshot({ path: `${SHOTS}/views-cache-failed-pass-inspector.png` })

    await page.getByRole('tab', { name: 'Cache' }).click()
    await expect(empty).toHaveAttribute('data-kind', 'none_answered')
    await expect(empty.getByRole('heading')).toHaveText('No pass answered yet')
    await expect(empty).toContainText('1 pass was sent, and it got no answer')
    await expect(view.getByTestId('cache-totals')).toHaveCount(0)
    await expect(view.getByRole('img', { name: /read from the cache/ })).toHaveCount(0)
    await shots(page, 'cache-none-answered')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
