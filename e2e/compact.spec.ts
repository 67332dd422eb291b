import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Locator, Page } from '@playwright/test'
import { appEvent, expect, nextFrame, onSlowHostAfter, openProjectWithSession, placeholderFits, test } from './fixtures'

/** A session that read notes0–2.md, shown on a host whose simulator streams slowly (onSlowHostAfter). */
async function withSlowCompactionHost(page: Page, look: () => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-e2e-compact-'))
  for (let i = 0; i < 3; i++) writeFileSync(join(dir, `notes${i}.md`), `# Notes ${i}\n\n` + `Decision ${i}: the API returns JSON with cursor pagination. `.repeat(60))
  try {
    const converse = async () => {
      for (let i = 0; i < 3; i++) {
        const ended = appEvent(page, 'turn.ended')
        await page.getByLabel('Message').fill(`read notes${i}.md`)
        await page.getByLabel('Message').press('Enter')
        await ended
      }
    }
    await onSlowHostAfter(page, dir, converse, look)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Turns that read notes0–2.md (or as many as `reads`), then a dry run focused on "the pagination decisions" from the Compaction view. */
async function readNotesThenDryRun(app: Page, reads = 3) {
  for (let i = 0; i < reads; i++) {
    const ended = appEvent(app, 'turn.ended')
    await app.getByLabel('Message').fill(`read notes${i}.md`)
    await app.getByLabel('Message').press('Enter')
    await ended
  }
  await app.keyboard.press('Alt+2')
  const focus = app.getByLabel('Compaction focus')
  await focus.fill('the pagination decisions')
  await app.getByRole('button', { name: 'Dry run' }).click()
  const draft = app.getByTestId('draft-detail')
  await expect(draft.getByTestId('history-diff')).toHaveAttribute('data-diff-ready', /.+/)
  // What Monaco leaves unnamed is named, or hidden from a screen reader when it only pictures the text.
  const diff = draft.getByTestId('history-diff')
  await expect(diff.locator('.diff-hidden-lines a.default-control').first()).toHaveAccessibleName('Show Unchanged Region')
  await expect(diff.locator('.diff-hidden-lines a.default-control:not([aria-label])')).toHaveCount(0)
  await expect(diff.locator('svg.moved-blocks-lines:not([aria-hidden="true"]), .diffOverview:not([aria-hidden="true"])')).toHaveCount(0)
  return { focus, draft }
}

test('chat: /compact with a focus leaves a checkpoint in the conversation', async ({ app }) => {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-e2e-compact-'))
  for (let i = 0; i < 6; i++) writeFileSync(join(dir, `notes${i}.md`), `# Notes ${i}\n\n` + `Decision ${i}: the API returns JSON with cursor pagination. `.repeat(60))
  try {
    await openProjectWithSession(app, dir)
    const composer = app.getByLabel('Message')
    const send = app.getByRole('button', { name: 'Send' })
    for (let i = 0; i < 6; i++) {
      await composer.fill(`read notes${i}.md`)
      await composer.press('Enter')
      await expect(app.locator(`.tool-call[data-tool="read_file"][data-status="done"]`)).toHaveCount(i + 1)
      await expect(send).toBeVisible()
    }
    await composer.fill('/compact keep the API decisions')
    await composer.press('Enter')
    const checkpoint = app.getByLabel('Compaction checkpoint')
    await expect(checkpoint).toHaveCount(1)
    await expect(checkpoint).toContainText('keep the API decisions')
    // The size after it is an estimate until the next pass measures it.
    await expect(checkpoint).toContainText(/→ ≈[\d,]+ tokens \(estimated until the next pass measures it\)/)
    await expect(send).toBeVisible()
    await checkpoint.scrollIntoViewIfNeeded()
    await app.screenshot({ path: 'e2e/screenshots/chat-compacted.png' })
    // Until then the view's card says its after is an estimate on the before's scale.
    await app.keyboard.press('Alt+2')
    await expect(app.getByTestId('card-sizes')).toHaveText(/^context [\d.,]+k? → ≈[\d.,]+k? tokens/)
    await expect(app.getByTestId('checkpoint-sizes')).toContainText(/After, ≈[\d,]+ tokens: estimated on the same scale; measured when the next pass runs\./)
    await app.keyboard.press('Alt+1')

    // The conversation goes on after the checkpoint.
    await composer.fill('list the files')
    await composer.press('Enter')
    await expect(app.locator('.tool-call[data-tool="list_dir"][data-status="done"]')).toHaveCount(1)
    // Measured now, on the view's basis: the chat's card and the view's give the same two figures.
    await expect(checkpoint.locator('.checkpoint-head')).toHaveText(/context [\d,]+ → [\d,]+ tokens$/)
    const [before, chatAfter] = (await checkpoint.locator('.checkpoint-head').textContent())!.match(/([\d,]+) → ([\d,]+) tokens/)!.slice(1).map((x) => Number(x.replace(/,/g, '')))
    await app.keyboard.press('Alt+2')
    // The view's card compares like with like: the context the next pass sends, without and with the compaction.
    // Its after leaves out the message sent after the checkpoint ("list the files": 15 characters, ≈4 tokens), which
    // the compaction did not add; its detail says what each figure counts.
    const sizes = app.getByTestId('checkpoint-sizes')
    await expect(sizes).toContainText(/After, [\d,]+ tokens: what pass \d+, the first after, sent, less ≈4 tokens of what came after the compaction\./)
    await expect(sizes).toContainText(`Before, ${before!.toLocaleString('en-US')} tokens: pass `)
    await expect(sizes).toContainText('input and its answer, plus what came after it: what the next pass would have sent.')
    const after = Number((await sizes.textContent())!.match(/After, ([\d,]+) tokens/)![1]!.replace(/,/g, ''))
    expect(after).toBe(chatAfter)
    const card = (await app.getByTestId('card-sizes').first().textContent())!.match(/context ([\d.,]+)(k?) → ([\d.,]+)(k?) tokens/)!
    const value = (digits: string, thousands: string) => Number(digits.replace(/,/g, '')) * (thousands ? 1000 : 1)
    // The card writes 18.2k where the detail writes 18,238: the same figures to the card's precision.
    expect(Math.abs(value(card[1]!, card[2]!) - before!)).toBeLessThan(card[2] ? 100 : 1)
    expect(Math.abs(value(card[3]!, card[4]!) - after)).toBeLessThan(card[4] ? 100 : 1)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('compaction view: a compaction with nothing to compact says so once, as a note that goes once seen', async ({ app }) => {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-e2e-compact-'))
  try {
    await openProjectWithSession(app, dir)
    const composer = app.getByLabel('Message')
    let ended = appEvent(app, 'turn.ended')
    await composer.fill('list the files')
    await composer.press('Enter')
    await ended
    // /compact in a short session: the chat says there is nothing (worth) compacting yet, in a grey notice.
    ended = appEvent(app, 'turn.ended')
    await composer.fill('/compact the README')
    await composer.press('Enter')
    await ended
    const nothing = /Nothing (worth compacting|to compact)/
    await expect(app.locator('.notice').filter({ hasText: nothing })).toHaveCount(1)

    // The Compaction view says it too, as a neutral note, not an alert.
    await app.keyboard.press('Alt+2')
    await expect(app.getByTestId('compaction-view')).toBeVisible()
    const note = app.getByTestId('compaction-note')
    await expect(note).toContainText(nothing)
    await expect(note).toHaveAttribute('role', 'status')
    await expect(app.getByTestId('compaction-failure')).toHaveCount(0)
    await expect(app.getByRole('alert').filter({ hasText: nothing })).toHaveCount(0)
    await app.screenshot({ path: 'e2e/screenshots/compaction-nothing-note.png' })

    // Seen: back in the view after the chat, it is not said again.
    await app.keyboard.press('Alt+1')
    await app.keyboard.press('Alt+2')
    await expect(app.getByTestId('compaction-view')).toBeVisible()
    await expect(app.getByTestId('compaction-note')).toHaveCount(0)

    // A dry run from the view: the note under the focus field, said once (the bar does not repeat it).
    await app.getByRole('button', { name: 'Dry run' }).click()
    await expect(app.getByTestId('compaction-note')).toContainText(nothing)
    await expect(app.getByRole('button', { name: 'Dry run' })).toBeEnabled()
    await expect(app.getByTestId('compaction-view').getByText(nothing)).toHaveCount(1)
    await expect(app.getByRole('alert').filter({ hasText: nothing })).toHaveCount(0)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test("compaction view: the diff's legend names only the marks the diff shows: nothing trimmed, no trimmed key", async ({ app }) => {
  // Notes under stage 1's 1,000 characters, enough of them for the summary to shrink the context: the dry run
  // summarises and trims nothing.
  const dir = mkdtempSync(join(tmpdir(), 'loupe-e2e-compact-'))
  for (let i = 0; i < 7; i++) writeFileSync(join(dir, `notes${i}.md`), `# Notes ${i}\n\n` + `Decision ${i}: the API returns JSON with cursor pagination. `.repeat(12))
  try {
    await openProjectWithSession(app, dir)
    const { draft } = await readNotesThenDryRun(app, 7)
    await expect(app.getByTestId('draft-card')).toContainText('nothing trimmed')
    await expect(draft.locator('.cmp-key')).toHaveText(['summarised', 'summary head'])
    await draft.locator('.cmp-legend').screenshot({ path: 'e2e/screenshots/compaction-legend-nothing-trimmed.png' })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('compaction view: after an edit to a dry run\'s summary and a visit to the chat, the card and the detail give one size, and the focus is still there', async ({ app }) => {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-e2e-compact-'))
  for (let i = 0; i < 3; i++) writeFileSync(join(dir, `notes${i}.md`), `# Notes ${i}\n\n` + `Decision ${i}: the API returns JSON with cursor pagination. `.repeat(60))
  try {
    await openProjectWithSession(app, dir)
    const { focus, draft } = await readNotesThenDryRun(app)
    const card = app.getByTestId('draft-card').getByTestId('card-sizes')
    const before = (await card.textContent())!
    await app.getByTestId('summary-editor').locator('.view-lines').click()
    await app.keyboard.press('Control+Home')
    await app.keyboard.type('MY EDIT: keep every pagination decision, and the cursor format with its reasons. ')
    await expect(draft.getByTestId('draft-sizes')).toContainText('with your edits')
    // The card follows the edit at once: its after is no longer the model's summary's.
    await expect(card).not.toHaveText(before)

    await app.keyboard.press('Alt+1')
    await expect(app.getByLabel('Message')).toBeVisible()
    await app.keyboard.press('Alt+2')
    await expect(draft.getByTestId('draft-sizes')).toContainText('with your edits')
    // One figure for one thing: the card's after is the detail's, with the edits, and it says the summary was edited.
    const detailAfter = (await draft.getByTestId('draft-sizes').textContent())!.match(/→ ≈([\d,]+) tokens with your edits/)![1]!
    await expect(card).toHaveText(new RegExp(`^context [\\d,]+ → ≈${detailAfter} tokens`))
    await expect(app.getByTestId('draft-card')).toContainText('summary edited')
    // The dry run is not applied: the field still holds the focus it was run with.
    await expect(focus).toHaveValue('the pagination decisions')
    await app.screenshot({ path: 'e2e/screenshots/compaction-dry-run-return.png' })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('compaction view: a dry run the conversation moved past says so before Apply, and keeps the edited summary to copy', async ({ app }) => {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-e2e-compact-'))
  for (let i = 0; i < 3; i++) writeFileSync(join(dir, `notes${i}.md`), `# Notes ${i}\n\n` + `Decision ${i}: the API returns JSON with cursor pagination. `.repeat(60))
  try {
    await openProjectWithSession(app, dir)
    const { draft } = await readNotesThenDryRun(app)
    await app.getByTestId('summary-editor').locator('.view-lines').click()
    await app.keyboard.press('Control+Home')
    await app.keyboard.type('MY IMPORTANT EDIT ')
    await expect(draft.getByTestId('apply-draft')).toHaveText('Apply with my edits')

    await app.keyboard.press('Alt+1')
    const ended = appEvent(app, 'turn.ended')
    await app.getByLabel('Message').fill('read notes0.md')
    await app.getByLabel('Message').press('Enter')
    await ended
    await app.keyboard.press('Alt+2')
    // Out of date before anything is pressed: the card and the detail say so, and Apply is not offered.
    await expect(app.getByTestId('draft-card')).toContainText('out of date')
    await expect(draft.getByTestId('draft-stale')).toContainText('The conversation moved on since this dry run')
    await expect(draft.getByTestId('apply-draft')).toBeDisabled()
    // The edited text is still there, with a way to take it.
    await expect(app.getByTestId('summary-editor')).toContainText('MY IMPORTANT EDIT')
    await expect(draft.getByRole('button', { name: 'Copy my text' })).toBeVisible()
    await app.screenshot({ path: 'e2e/screenshots/compaction-dry-run-stale.png' })
    // Run again: a new dry run, and the old card with the edited text stays until discarded.
    const drafted = appEvent(app, 'compaction.drafted')
    await draft.getByRole('button', { name: 'Run the dry run again' }).click()
    await drafted
    await expect(app.getByTestId('draft-card')).toHaveCount(2)
    await app.getByTestId('draft-card').filter({ hasText: 'out of date' }).click()
    await expect(app.getByTestId('summary-editor')).toContainText('MY IMPORTANT EDIT')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

/**
 * A reload of the page: the kind of dialog it asked with, answered Stay (the page is kept), or "reloaded" when it
 * asked nothing. Stay cancels the reload, whose promise then waits for a load that never comes: the dialog settles it.
 */
function reloadAsked(app: Page): Promise<string> {
  const asked = new Promise<string>((resolve) =>
    app.once('dialog', (dialog) => {
      resolve(dialog.type())
      void dialog.dismiss()
    }),
  )
  const reloaded = app.reload().then(
    () => 'reloaded',
    () => asked,
  )
  return Promise.race([asked, reloaded])
}

test("compaction view: a reload with a dry run's summary edited asks first, out of date too; reloaded, the out-of-date dry run's focus is not the field's; discarded, nothing asks", async ({ app }) => {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-e2e-compact-'))
  for (let i = 0; i < 3; i++) writeFileSync(join(dir, `notes${i}.md`), `# Notes ${i}\n\n` + `Decision ${i}: the API returns JSON with cursor pagination. `.repeat(60))
  try {
    await openProjectWithSession(app, dir)
    const { draft } = await readNotesThenDryRun(app)
    const editor = app.getByTestId('summary-editor')
    await editor.locator('.view-lines').click()
    await app.keyboard.press('Control+Home')
    await app.keyboard.type('KEEP MY EDIT ')
    await expect(draft.getByTestId('apply-draft')).toHaveText('Apply with my edits')

    // The edit exists only in this page: a reload asks first, and staying keeps it.
    expect(await reloadAsked(app)).toBe('beforeunload')
    await expect(editor).toContainText('KEEP MY EDIT')

    // Out of date, the dry run can no longer be applied, but the text is still the user's, offered to copy.
    await app.keyboard.press('Alt+1')
    const ended = appEvent(app, 'turn.ended')
    await app.getByLabel('Message').fill('read notes0.md')
    await app.getByLabel('Message').press('Enter')
    await ended
    await app.keyboard.press('Alt+2')
    await expect(app.getByTestId('draft-card')).toContainText('out of date')
    await expect(editor).toContainText('KEEP MY EDIT')
    expect(await reloadAsked(app)).toBe('beforeunload')
    await expect(editor).toContainText('KEEP MY EDIT')

    // Left, the edit is gone; the dry run reopens out of date, and its focus stays on its card, not in the field,
    // where Compact now would send it with a paid summary.
    app.once('dialog', (dialog) => void dialog.accept())
    await app.reload()
    await expect(app.locator('html[data-app-ready="true"]')).toHaveCount(1)
    await app.keyboard.press('Alt+2')
    await expect(app.getByTestId('draft-card')).toContainText('out of date')
    await expect(draft.getByTestId('draft-sizes')).toContainText('focus “the pagination decisions”')
    await expect(app.getByLabel('Compaction focus')).toHaveValue('')
    await app.screenshot({ path: 'e2e/screenshots/compaction-dry-run-stale-reloaded.png' })

    // Discarded, nothing of the user's is left: the reload goes ahead without a question.
    await draft.getByRole('button', { name: 'Discard' }).click()
    await expect(app.getByTestId('draft-card')).toHaveCount(0)
    expect(await reloadAsked(app)).toBe('reloaded')
    await expect(app.locator('html[data-app-ready="true"]')).toHaveCount(1)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('chat: during a /compact, only the progress card claims Esc, and Esc cancels the compaction', async ({ page }) => {
  await withSlowCompactionHost(page, async () => {
    const composer = page.getByLabel('Message')
    await composer.fill('/compact keep the parser decisions')
    await composer.press('Enter')
    const progress = page.getByTestId('compaction-progress')
    await expect(progress).toBeVisible()
    // One control names the key: the compaction's Cancel. The composer's Stop stops the run without claiming it.
    await expect(progress.getByRole('button', { name: 'Cancel (Esc)' })).toBeVisible()
    // What a screen reader reads out as it changes is the stage: not the ticking seconds, not the button.
    await expect(progress.getByRole('status')).toContainText('Compacting (manual')
    await expect(progress.getByRole('status')).not.toContainText(/Cancel| s$/)
    await expect(page.getByRole('button', { name: 'Stop', exact: true })).toBeVisible()
    await expect(page.getByRole('button', { name: /\(Esc\)/ })).toHaveCount(1)
    await expect(composer).toHaveAttribute('placeholder', 'Compacting… (Esc to cancel)')
    await page.screenshot({ path: 'e2e/screenshots/chat-compacting.png' })
    // Esc does what the card says: the compaction is cancelled, and the conversation is as it was.
    const failed = appEvent(page, 'compaction.failed')
    await page.keyboard.press('Escape')
    await failed
    await expect(progress).toHaveCount(0)
    await expect(page.getByRole('button', { name: 'Send' })).toBeVisible()
    // The chat says so, and what was typed is back in the box: nothing of a cancelled /compact is recorded elsewhere.
    await expect(page.locator('.notice.info').last()).toHaveText('You cancelled “/compact keep the parser decisions”: the conversation is exactly as it was.')
    await expect(composer).toHaveValue('/compact keep the parser decisions')
    await page.screenshot({ path: 'e2e/screenshots/chat-compact-cancelled.png' })
    // Clicked, the card's Cancel goes away with the card: the keyboard goes on to the message box, not the heading.
    await composer.fill('/compact keep the parser decisions')
    await composer.press('Enter')
    await expect(progress).toBeVisible()
    const again = appEvent(page, 'compaction.failed')
    await progress.getByRole('button', { name: 'Cancel (Esc)' }).click()
    await again
    await expect(progress).toHaveCount(0)
    await expect(composer).toBeFocused()
  })
})

test("inspector: a /compact's summary request is a live row, kind summary, while it streams, then the stored summary pass", async ({ page }) => {
  await withSlowCompactionHost(page, async () => {
    const inspector = page.getByRole('complementary', { name: 'Inspector' })
    const list = inspector.getByRole('listbox', { name: 'Passes' })
    // The session's passes are listed (the count says "0 passes" while the list is still being read).
    await expect(list.getByRole('option').first()).toBeVisible()
    await expect(inspector.getByTestId('pass-count')).toHaveText(/^[1-9]\d* passes$/)
    const passes = Number(((await inspector.getByTestId('pass-count').textContent()) ?? '').match(/^(\d+)/)![1])
    const composer = page.getByLabel('Message')
    await composer.fill('/compact keep the parser decisions')
    await composer.press('Enter')
    await expect(page.getByTestId('compaction-progress')).toBeVisible()
    // The request is sent: its row is at the end of the list at once, labelled as the pass it will be, and followed.
    const liveRow = list.locator('[data-live="true"]')
    await expect(liveRow).toHaveAttribute('data-kind', 'summary')
    await expect(liveRow.locator('span').nth(3)).toHaveText('summary')
    await expect(liveRow).toHaveAttribute('aria-selected', 'true')
    await expect(inspector.getByTestId('pass-count')).toHaveText(`${passes + 1} passes, the newest streaming`)
    // It fills in from the compaction's progress: its count, and the summary's words under Response.
    await expect(liveRow).toContainText(/streaming · [\d,]+ chars/)
    await inspector.getByRole('tab', { name: 'Response' }).click()
    const text = inspector.getByTestId('live-summary-text')
    await expect(text).not.toBeEmpty()
    const first = ((await text.textContent()) ?? '').length
    await expect.poll(async () => ((await text.textContent()) ?? '').length).toBeGreaterThan(first)
    await page.screenshot({ path: 'e2e/screenshots/inspector-summary-live.png' })

    // A window reloaded in the middle of it shows its row at once, with what was written so far.
    await page.reload()
    await expect(page.locator('html[data-app-ready="true"]')).toHaveCount(1)
    await expect(liveRow).toHaveAttribute('data-kind', 'summary')
    await expect(liveRow).toContainText(/streaming · [\d,]+ chars/)
    await expect(liveRow).toHaveAttribute('aria-selected', 'true')
    await expect(inspector.getByTestId('pass-count')).toHaveText(`${passes + 1} passes, the newest streaming`)

    // Cancelled, the request is stored, and its stored row takes the live row's place, still selected.
    const completed = appEvent(page, 'pass.completed')
    await page.keyboard.press('Escape')
    await completed
    await expect(liveRow).toHaveCount(0)
    const stored = list.getByRole('option').last()
    await expect(stored.locator('span').nth(3)).toHaveText('summary')
    await expect(stored).toHaveClass(/\bcancelled\b/)
    await expect(stored).toHaveAttribute('aria-selected', 'true')
    await expect(inspector.getByTestId('pass-count')).toHaveText(`${passes + 1} passes`)
  })
})

/**
 * Each + / − sign of the history diff that shows (not one under a removed block's margin, drawn over it), against the
 * text of its line: how far it stands from the text, whether its glyph fits the box it is given, and how far it
 * stands from a marked message's bar on the same line.
 */
function diffSigns(diff: Locator) {
  return diff.evaluate((root) => {
    const side = (el: Element) => el.closest('.original-in-monaco-diff-editor, .modified-in-monaco-diff-editor')
    const inRowOf = (r: DOMRect) => (t: DOMRect) => t.top < r.bottom - 1 && t.bottom > r.top + 1
    // The text drawn, one box per line on screen (a wrapped line takes two).
    const texts: Array<{ side: Element | null; box: DOMRect }> = []
    for (const line of root.querySelectorAll('.view-line')) {
      const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT)
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.textContent?.trim()) continue
        const range = document.createRange()
        range.selectNodeContents(node)
        for (const box of range.getClientRects()) texts.push({ side: side(line), box })
      }
    }
    const bars = [...root.querySelectorAll('[class*="cmp-line-"][class*="-gutter"]')].map((bar) => ({ side: side(bar), box: bar.getBoundingClientRect(), width: parseFloat(getComputedStyle(bar).borderLeftWidth) }))
    return [...root.querySelectorAll<HTMLElement>('.insert-sign, .delete-sign')].flatMap((sign) => {
      const box = sign.getBoundingClientRect()
      if (box.width === 0 || document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2) !== sign) return []
      const inRow = inRowOf(box)
      const line = texts.filter((t) => t.side === side(sign) && inRow(t.box) && t.box.right > box.left)
      if (line.length === 0) return []
      const bar = bars.find((b) => b.side === side(sign) && inRow(b.box))
      return [{ toText: Math.min(...line.map((t) => t.box.left)) - box.right, fits: sign.scrollWidth <= sign.clientWidth, fromBar: bar ? box.left - (bar.box.left + bar.width) : null }]
    })
  })
}

/** The headers ("── user · … ──") of the diff in view that wrap onto a second line. */
function wrappedHeadersInView(diff: Locator) {
  return diff.evaluate((root) => {
    const view = root.getBoundingClientRect()
    return [...root.querySelectorAll('.view-line')].filter((line) => {
      const text = line.textContent?.trim() ?? ''
      const box = line.getBoundingClientRect()
      if (!text.startsWith('──') || box.top < view.top || box.bottom > view.bottom) return false
      // The editor draws each line on screen of a wrapped one as a line of its own; a removed block shown inline
      // draws the wrapped line whole.
      const range = document.createRange()
      range.selectNodeContents(line)
      return !text.endsWith('──') || new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1
    }).length
  })
}

test("compaction view: the diff's + / − signs stand in a gutter of their own, clear of the text and of a marked message's bar, a wrapped header's lines too", async ({ app }) => {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-e2e-compact-'))
  for (let i = 0; i < 3; i++) writeFileSync(join(dir, `notes${i}.md`), `# Notes ${i}\n\n` + `Decision ${i}: the API returns JSON with cursor pagination. `.repeat(60))
  try {
    await openProjectWithSession(app, dir)
    const { draft } = await readNotesThenDryRun(app)
    const diff = draft.getByTestId('history-diff')
    // 1280×800 and 800×600, as the view is checked elsewhere, and narrower, where the headers wrap.
    for (const [width, height] of [[1280, 800], [800, 600], [600, 600]] as const) {
      await app.setViewportSize({ width, height })
      await diff.scrollIntoViewIfNeeded()
      await nextFrame(app)
      const at = `at ${width}×${height}`
      if (width === 600) expect(await wrappedHeadersInView(diff), `wrapped headers ${at}`).toBeGreaterThan(0)
      const signs = await diffSigns(diff)
      expect(signs.length, `signs in view ${at}`).toBeGreaterThan(5)
      for (const sign of signs) {
        expect(sign.toText, `a sign's room before the text ${at}`).toBeGreaterThanOrEqual(4)
        expect(sign.fits, `a sign's glyph in its box ${at}`).toBe(true)
        if (sign.fromBar !== null) expect(sign.fromBar, `a sign's room after the bar ${at}`).toBeGreaterThanOrEqual(1)
      }
      await diff.screenshot({ path: `e2e/screenshots/compaction-diff-signs-${width}x${height}.png` })
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test.describe('at 1000×700', () => {
  test.use({ viewport: { width: 1000, height: 700 } })

  test("compaction view: an empty detail pane says so, a dry run's summary has room to be read, and applying it empties the focus field", async ({ app }) => {
    const dir = mkdtempSync(join(tmpdir(), 'loupe-e2e-compact-'))
    for (let i = 0; i < 3; i++) writeFileSync(join(dir, `notes${i}.md`), `# Notes ${i}\n\n` + `Decision ${i}: the API returns JSON with cursor pagination. `.repeat(60))
    try {
      await openProjectWithSession(app, dir)
      // Nothing to open yet: the pane says what will show there, not that an editor is loading.
      await app.keyboard.press('Alt+2')
      await expect(app.getByTestId('compaction-detail-empty')).toHaveText('Each compaction shows here with what the model saw before and after it.')
      await expect(app.getByText('Loading the editor…')).toHaveCount(0)
      await app.keyboard.press('Alt+1')
      const { focus } = await readNotesThenDryRun(app)
      // A dry run leaves the focus where it was: the user may run it again.
      await expect(focus).toHaveValue('the pagination decisions')
      // The summary editor is tall enough to read a summary (it was its 160 px minimum), and Apply is in view under it.
      const editor = await app.getByTestId('summary-editor').boundingBox()
      expect(editor!.height).toBeGreaterThanOrEqual(280)
      await expect(app.getByTestId('apply-draft')).toBeInViewport()
      await app.screenshot({ path: 'e2e/screenshots/compaction-dry-run-1000x700.png' })
      await app.getByTestId('apply-draft').click()
      await expect(app.getByTestId('checkpoint-detail')).toBeVisible()
      // Apply went with the draft: the keyboard is on the checkpoint it made, not left on the page.
      await expect(app.getByTestId('checkpoint-detail').getByRole('heading', { level: 2 })).toBeFocused()
      // The compaction the focus was for has been applied: the field is ready for the next one.
      await expect(focus).toHaveValue('')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test('compaction in progress: a long focus is quoted on one line, and Cancel stays in view', async ({ page }) => {
    await withSlowCompactionHost(page, async () => {
      await page.keyboard.press('Alt+2')
      const focus = 'keep every pagination decision and the reasons given for it, '.repeat(60).slice(0, 4000)
      await page.getByLabel('Compaction focus').fill(focus)
      await page.getByRole('button', { name: 'Compact now' }).click()
      const progress = page.getByTestId('compaction-progress')
      await expect(progress).toBeVisible()
      const quoted = progress.getByTestId('compaction-progress-focus')
      await expect(quoted).toHaveText(/^keep every pagination decision .{20,}…$/)
      expect(((await quoted.textContent()) ?? '').length).toBeLessThanOrEqual(80)
      await expect(quoted).toHaveAttribute('title', focus.trim())
      const cancel = progress.getByRole('button', { name: 'Cancel (Esc)' })
      await expect(cancel).toBeInViewport()
      await page.screenshot({ path: 'e2e/screenshots/compaction-long-focus.png' })
      const failed = appEvent(page, 'compaction.failed')
      await cancel.click()
      await failed
      // Asked for: a note, not an alert.
      await expect(page.getByTestId('compaction-note')).toContainText('cancelled')
      // Nothing was applied: the focus stays, to run again.
      await expect(page.getByLabel('Compaction focus')).toHaveValue(focus)
    })
  })
})

test.describe('at 800×600', () => {
  test.use({ viewport: { width: 800, height: 600 } })

  test('compaction view: the cards go above the detail, so the history the model saw has the width of the view', async ({ app }) => {
    const dir = mkdtempSync(join(tmpdir(), 'loupe-e2e-compact-'))
    for (let i = 0; i < 3; i++) writeFileSync(join(dir, `notes${i}.md`), `# Notes ${i}\n\n` + `Decision ${i}: the API returns JSON with cursor pagination. `.repeat(60))
    try {
      await openProjectWithSession(app, dir)
      const { draft } = await readNotesThenDryRun(app)
      const view = (await app.getByTestId('compaction-view').boundingBox())!
      // The pins beside the card, their field's placeholder read whole.
      expect(await app.getByLabel('Fact to pin').evaluate(placeholderFits)).toBe(true)
      await app.screenshot({ path: 'e2e/screenshots/compaction-cards-800x600.png' })
      const diff = draft.getByTestId('history-diff')
      await diff.scrollIntoViewIfNeeded()
      // Beside the cards it had about 220 px, a dozen characters a line; below them, the view's width less its margins.
      await expect.poll(async () => (await diff.boundingBox())!.width).toBeGreaterThanOrEqual(view.width - 60)
      const card = (await app.getByTestId('draft-card').boundingBox())!
      expect(card.y + card.height).toBeLessThanOrEqual((await draft.boundingBox())!.y)
      expect(await app.getByTestId('compaction-view').evaluate((el) => el.scrollWidth - el.clientWidth)).toBe(0)
      await app.screenshot({ path: 'e2e/screenshots/compaction-diff-800x600.png' })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
