import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, openProjectWithSession, test } from './fixtures'

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
    await expect(checkpoint).toContainText(/→ ≈[\d,]+ tokens \(measured at the next pass\)/)
    await expect(send).toBeVisible()
    await checkpoint.scrollIntoViewIfNeeded()
    await app.screenshot({ path: 'e2e/screenshots/chat-compacted.png' })

    // The conversation goes on after the checkpoint.
    await composer.fill('list the files')
    await composer.press('Enter')
    await expect(app.locator('.tool-call[data-tool="list_dir"][data-status="done"]')).toHaveCount(1)
    // Measured now, as the Compaction view's card gives it.
    await expect(checkpoint.locator('.checkpoint-head')).toHaveText(/→ [\d,]+ tokens$/)
    const measured = (await checkpoint.locator('.checkpoint-head').textContent())!.match(/→ ([\d,]+) tokens/)![1]!
    await app.keyboard.press('Alt+2')
    // The view loads its checkpoints as it opens: wait for the card's measured size before reading it.
    const cardElement = app.getByTestId('checkpoint-card').first()
    await expect(cardElement).toContainText(/→ [\d.,]+k? tokens/)
    const card = (await cardElement.textContent())!.match(/→ ([\d.,]+)(k?) tokens/)!
    const cardTokens = Number(card[1]!.replace(/,/g, '')) * (card[2] ? 1000 : 1)
    // The card writes 18.2k where the chat writes 18,238: the same figure to the card's precision.
    expect(Math.abs(cardTokens - Number(measured.replace(/,/g, '')))).toBeLessThan(card[2] ? 100 : 1)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('compaction view: a compaction with nothing to compact says so once', async ({ app }) => {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-e2e-compact-'))
  try {
    await openProjectWithSession(app, dir)
    await app.keyboard.press('Alt+2')
    await expect(app.getByTestId('compaction-view')).toBeVisible()
    await app.getByRole('button', { name: 'Dry run' }).click()
    // The compaction.failed event's box says it; the bar under the focus field, answered the same, does not repeat it.
    await expect(app.getByTestId('compaction-failure')).toContainText('Nothing to compact')
    // The request's answer has come back too once the button is enabled again.
    await expect(app.getByRole('button', { name: 'Dry run' })).toBeEnabled()
    await expect(app.getByRole('alert').filter({ hasText: 'Nothing to compact' })).toHaveCount(1)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
