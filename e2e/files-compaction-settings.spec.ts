/**
 * The inspector, part 2 (docs/inspector.md "Part 2: compaction, cache, files, settings"), in Chromium against the
 * browser host and the simulator: the Files view prices an edit before it is saved and applies it now, and the next
 * pass's cache badge names the edit as the cause of its miss at the price shown; /compact with a focus shows its
 * range and focus in the compaction view; a dry run's edited summary is what the next pass sends; the cache view
 * marks the compaction and the applied edit. Every view is photographed in light and dark (e2e/screenshots/; with
 * LOUPE_README_SHOTS=1 the README's in docs/screenshots/).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { findModel } from '../src-main/node/model/models'
import { buildSequence } from '../src-main/simulator/sequence'
import { validateRequest } from '../src-main/simulator/validate'
import { appEvent, chooseTheme, expect, lastMainRequestBody, onSlowHostAfter, openApp, openProjectWithSession, pageSignal, rpc, startHost, test } from './fixtures'

const SHOTS = 'e2e/screenshots'
const README_SHOTS = 'docs/screenshots'

function fixtureProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-e2e-insp2-'))
  const prose = 'Every posting moves cents from one account to another, and the two sides of an entry always sum to zero. '
  writeFileSync(join(dir, 'README.md'), `# Ledger\n\nA tiny double-entry ledger. Amounts are integer cents; never floats.\n\n${prose.repeat(60)}\n`)
  writeFileSync(
    join(dir, 'CLAUDE.md'),
    [
      '# Ledger: notes for agents',
      '',
      'See @docs/style.md for the code style.',
      '',
      '## Build and test',
      '',
      '- `npm test` runs the unit tests; run them before you finish.',
      '- Amounts are integer cents. Never use floating point for money.',
      '',
      '## Layout',
      '',
      '- `src/parser.ts` reads journal files; `src/ledger.ts` posts entries; `src/report.ts` prints balances.',
      '',
    ].join('\n'),
  )
  mkdirSync(join(dir, 'docs'))
  writeFileSync(join(dir, 'docs/style.md'), '# Style\n\nTwo-space indent, no semicolons, named exports only.\n')
  mkdirSync(join(dir, 'src'))
  const body = Array.from({ length: 80 }, (_, i) => `  if (line.startsWith('${'#'.repeat(1 + (i % 3))}${i}')) return { kind: 'rule${i}', cents: ${i * 100} }`).join('\n')
  writeFileSync(join(dir, 'src/parser.ts'), `export function parse(line: string) {\n  // TODO: handle comments\n${body}\n  return line.split(" ")\n}\n`)
  writeFileSync(join(dir, 'src/ledger.ts'), 'export const post = (a: number, b: number) => a + b // TODO: check balance\n')
  // Keep one step whole, so a short e2e conversation already has something to summarise.
  mkdirSync(join(dir, '.loupe'))
  writeFileSync(join(dir, '.loupe/config.toml'), '[compaction]\nkeep_steps = 1\n')
  return dir
}

async function send(page: Page, text: string): Promise<void> {
  const composer = page.getByLabel('Message')
  await composer.fill(text)
  // Wait on the app's own event: the Send button is visible (disabled) in the moment before the turn starts.
  const ended = appEvent(page, 'turn.ended')
  await composer.press('Enter')
  await ended
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible()
  await expect(page.locator('.msg.streaming')).toHaveCount(0)
}

async function view(page: Page, name: 'Chat' | 'Compaction' | 'Cache' | 'Files' | 'Settings'): Promise<void> {
  await page.getByRole('tab', { name }).click()
}

/** A screenshot of the page in light and in dark. */
async function shots(page: Page, name: string, readme = false): Promise<void> {
  for (const t of ['light', 'dark'] as const) {
    await chooseTheme(page, t)
    await page.screenshot({ path: `${SHOTS}/${name}-${t}.png` })
    // The README's copies change only when asked for, so a test run leaves the repository clean.
    if (readme && t === 'light' && process.env.LOUPE_README_SHOTS === '1') await page.screenshot({ path: `${README_SHOTS}/${name}.png` })
  }
  await chooseTheme(page, 'system')
}

async function sessionIdOf(host: Parameters<typeof rpc>[0]): Promise<string> {
  const projects = (await rpc(host, 'project.list', {})) as Array<{ id: string }>
  const sessions = (await rpc(host, 'session.list', { projectId: projects[0]!.id })) as Array<{ id: string }>
  return sessions[0]!.id
}

interface PassSummary {
  id: string
  seq: number
  kind: string
  usage: { input_tokens: number; cache_read_input_tokens: number; cache_creation_input_tokens: number } | null
}

/**
 * The simulator's running token count through the last block of message `index` of a captured request body: the
 * counter that billed the pass, over the bytes it received. It splits a pass's billed input at a message.
 */
function simulatorTokensThrough(body: string, index: number): number {
  const { request, model } = validateRequest(JSON.parse(body), '2023-06-01', false)
  return buildSequence(request, model).entries.filter((e) => e.path.startsWith(`messages.${index}.`)).at(-1)!.cum
}

test.describe.configure({ timeout: 180_000 })

test('files: an edit priced before it is saved, applied now, and the next pass pays that price with the edit named as the cause', async ({ app, host }) => {
  const dir = fixtureProject()
  try {
    await openProjectWithSession(app, dir)
    await send(app, 'read README.md')
    const sessionId = await sessionIdOf(host)

    await view(app, 'Files')
    const tree = app.getByRole('navigation', { name: 'Instruction and memory files' })
    await expect(tree.locator('[data-path="CLAUDE.md"]')).toHaveAttribute('data-status', 'included')
    await expect(tree.locator('[data-path="docs/style.md"]')).toHaveAttribute('data-status', 'included')
    await tree.locator('[data-path="CLAUDE.md"]').click()
    await expect(app.getByTestId('open-path')).toHaveText('CLAUDE.md')
    const editor = app.getByTestId('file-editor')
    // The editor is named for a screen reader by the file it edits.
    await expect(editor.getByRole('textbox', { name: /Tab moves on/ })).toHaveCount(1)
    await editor.locator('.view-lines').click()
    await app.keyboard.press('Control+End')
    await app.keyboard.type('\n- Run `npm run lint` too; it checks the cents rule.\n')

    const priceNow = app.getByTestId('price-now')
    // The price of the whole draft, counted by the simulator's count_tokens (not the estimate).
    await expect(app.locator('[data-testid="price-panel"][data-current="true"]')).toHaveCount(1)
    await expect(priceNow).toContainText('system[1]')
    await expect(priceNow).toHaveAttribute('data-exact', 'true')
    await expect(priceNow).toHaveAttribute('data-tokens', /^[1-9]\d*$/)
    const pricedTokens = Number(await priceNow.getAttribute('data-tokens'))
    const pricedAdded = Number(await priceNow.getAttribute('data-added'))
    const pricedUsd = Number(await priceNow.getAttribute('data-usd'))
    const pricedNextUsd = Number(await priceNow.getAttribute('data-next-usd'))
    expect(pricedUsd).toBeGreaterThan(0)
    await shots(app, 'files-priced-edit', true)

    await app.getByTestId('save-file').click()
    await expect(app.getByTestId('save-status')).toHaveAttribute('data-applied', 'now')
    expect(readFileSync(join(dir, 'CLAUDE.md'), 'utf8')).toContain('npm run lint')
    // Nothing is left to save: the keyboard goes back to the text, not to the page.
    await expect.poll(() => app.evaluate(() => document.activeElement?.closest('[data-testid="file-editor"]') !== null && document.activeElement !== null)).toBe(true)

    await view(app, 'Chat')
    await send(app, 'list the root')
    const passes = (await rpc(host, 'pass.list', { sessionId })) as PassSummary[]
    const firstAfter = passes.filter((p) => p.kind === 'main')[2]!
    // The badge in the passes list names the edit, applied now, as the cause.
    const badge = app.locator(`.insp-row[data-pass-id="${firstAfter.id}"] .insp-badge`)
    await expect(badge).toHaveAttribute('title', /CLAUDE\.md edited .*applied now by the user/)
    await expect(badge).toHaveText('partial')
    const detail = (await rpc(host, 'pass.get', { passId: firstAfter.id })) as { requestBody: string }
    expect(detail.requestBody).toContain('npm run lint')

    // What it cost, against the price shown (docs/inspector.md, "The price, before saving"): exact in tokens.
    const lastBefore = passes.filter((p) => p.kind === 'main')[1]!
    const before = lastBefore.usage!
    const after = firstAfter.usage!
    const cachedBefore = before.cache_read_input_tokens + before.cache_creation_input_tokens
    // The tokens the edit moved out of the cache: left cached by the pass before, not read by this one.
    expect(cachedBefore - after.cache_read_input_tokens).toBe(pricedTokens)
    // The pass's input split at the previous pass's last message: what existed when the edit was priced, then the
    // new message. The first part grew by what the edit added to the session block.
    const beforeBody = ((await rpc(host, 'pass.get', { passId: lastBefore.id })) as { requestBody: string }).requestBody
    const tail = (JSON.parse(beforeBody) as { messages: unknown[] }).messages.length - 1
    expect(simulatorTokensThrough(beforeBody, tail)).toBe(cachedBefore)
    const knownAfter = simulatorTokensThrough(detail.requestBody, tail)
    expect(knownAfter - cachedBefore).toBe(pricedAdded)
    // Dollars, from the model table's prices: that part as billed (read, and written at the 5-minute price), and the
    // difference from reading all of it; equal up to floating-point rounding.
    const prices = findModel('claude-sonnet-4-6')!.prices
    const billedUsd = (after.cache_read_input_tokens * prices.cacheReadPerMTok + (knownAfter - after.cache_read_input_tokens) * prices.cacheWrite5mPerMTok) / 1_000_000
    expect(pricedNextUsd).toBeCloseTo(billedUsd, 12)
    expect(pricedUsd).toBeCloseTo(billedUsd - (cachedBefore * prices.cacheReadPerMTok) / 1_000_000, 12)
    await app.locator(`.insp-row[data-pass-id="${firstAfter.id}"]`).click()
    await expect(app.getByTestId('pass-line')).toContainText('applied now')
    // What the miss lost, said on the pass as the Cache view says it for the same pass.
    await expect(app.getByTestId('pass-lost')).toContainText(/^ · lost \$0\.\d{4}: [\d,]+ tokens paid for that could have been read$/)
    const lost = /lost (\$0\.\d{4})/.exec((await app.getByTestId('pass-lost').textContent())!)![1]!
    await shots(app, 'chat-inspector-after-edit', true)

    await view(app, 'Cache')
    await expect(app.getByTestId('cache-timeline')).toBeVisible()
    await expect(app.locator('[data-testid="cache-marker"][data-kind="file_edit"]')).toHaveCount(1)
    await expect(app.locator(`[data-testid="miss-row"][data-cause="changed_block"]`)).toContainText('CLAUDE.md')
    await expect(app.locator(`[data-testid="miss-row"][data-cause="changed_block"]`)).toContainText(`lost ${lost}`)
    await expect(app.locator(`[data-testid="miss-row"][data-cause="changed_block"]`)).toContainText(/^pass 3 partial read up to system\[0\] · stopped by: system\[1\]/)
    // Chosen from the list of misses in a small window, the list scrolled to, a pass is shown as a click on its bar
    // shows it: the chart comes into view with the keyboard on it, the pass's figures under it.
    await app.setViewportSize({ width: 900, height: 700 })
    const missRow = app.locator(`[data-testid="miss-row"][data-cause="changed_block"]`)
    await app.getByRole('heading', { name: 'What if' }).scrollIntoViewIfNeeded()
    await expect(app.getByRole('group', { name: /^Cache timeline of \d+ passes/ })).not.toBeInViewport({ ratio: 0.5 })
    await missRow.getByRole('button', { name: 'pass 3' }).click()
    await expect(app.getByRole('group', { name: /^Cache timeline of \d+ passes/ })).toBeFocused()
    await expect(app.getByRole('group', { name: /^Cache timeline of \d+ passes/ })).toBeInViewport({ ratio: 1 })
    await expect(app.getByTestId('cache-focused')).toContainText(/^Pass 3 ·/)
    await expect(app.getByTestId('cache-focused')).toBeInViewport({ ratio: 1 })
    await app.keyboard.press('ArrowLeft')
    await expect(app.getByTestId('cache-focused')).toContainText(/^Pass 2 ·/)
    await app.setViewportSize({ width: 1280, height: 800 })
    // The keyboard chooses a pass as a click on its bar does, and the choice is read out.
    await app.getByRole('group', { name: /^Cache timeline of \d+ passes/ }).focus()
    await app.keyboard.press('Home')
    await expect(app.getByTestId('cache-focused')).toContainText(/^Pass 1 ·/)
    await app.keyboard.press('ArrowRight')
    await expect(app.getByTestId('cache-focused')).toContainText(/^Pass 2 ·/)
    await expect(app.getByTestId('cache-timeline-chosen')).toContainText(/^pass 2 \(/)
    await shots(app, 'cache-after-edit')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('files: the note that a saved file waits for the next compaction goes when the compaction sends it', async ({ app }) => {
  const dir = fixtureProject()
  try {
    await openProjectWithSession(app, dir)
    await send(app, 'read README.md')
    await send(app, 'read src/parser.ts')
    await send(app, 'grep for "TODO"')
    await view(app, 'Files')
    await app.getByRole('navigation', { name: 'Instruction and memory files' }).locator('[data-path="CLAUDE.md"]').click()
    await expect(app.getByTestId('open-path')).toHaveText('CLAUDE.md')
    await app.getByTestId('file-editor').locator('.view-lines').click()
    await app.keyboard.press('Control+End')
    await app.keyboard.type('\n- Keep every test under a second.\n')
    await app.getByRole('radio', { name: /At the next compaction/ }).check()
    await app.getByTestId('save-file').click()
    const note = app.getByTestId('save-status')
    await expect(note).toContainText('The session keeps sending the old text until its next compaction')
    await expect(app.getByTestId('pending-apply')).toHaveCount(1)

    await view(app, 'Chat')
    await send(app, '/compact')
    await view(app, 'Files')
    // The compaction read the file again: nothing waits, and the note that said so is gone with the bar.
    await expect(app.getByTestId('pending-apply')).toHaveCount(0)
    await expect(note).toHaveCount(0)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('files: an edit saved for the next compaction is listed as not applied yet, with its price, and Apply now makes the next pass send it, named as the cause', async ({ app, host }) => {
  const dir = fixtureProject()
  try {
    await openProjectWithSession(app, dir)
    await send(app, 'read README.md')
    const sessionId = await sessionIdOf(host)

    await view(app, 'Files')
    // The session sends every file as it is on disk: no bar.
    await app.getByRole('navigation', { name: 'Instruction and memory files' }).locator('[data-path="CLAUDE.md"]').click()
    await expect(app.getByTestId('open-path')).toHaveText('CLAUDE.md')
    await expect(app.getByTestId('pending-apply')).toHaveCount(0)
    await app.getByTestId('file-editor').locator('.view-lines').click()
    await app.keyboard.press('Control+End')
    await app.keyboard.type('\n- Keep every test under a second.\n')
    await app.getByRole('radio', { name: /At the next compaction/ }).check()
    await expect(app.locator('[data-testid="price-panel"][data-current="true"]')).toHaveCount(1)
    await app.getByTestId('save-file').click()
    await expect(app.getByTestId('save-status')).toHaveAttribute('data-applied', 'later')

    // Saved, not applied: the bar names the file and what applying it now re-bills.
    const bar = app.getByTestId('pending-apply')
    await expect(bar).toContainText('CLAUDE.md differs on disk from what the session sends')
    await expect(bar).toContainText(/Applying now: \+\$0\.\d{4} · re-bills [\d,]+ tokens on the next pass\. The session keeps the text it read until its next compaction\. Applying now reads the session block again from disk; the price is against leaving it for the next compaction\./)
    // The summary beside the list sizes the block the session sends, as the inspector does; the disk's is beside it.
    await expect(app.getByTestId('files-budget')).toContainText(/^system\[1\] · session block ≈\d+ tokens: instruction files .*, as this session sends it\./)
    await expect(app.getByTestId('files-budget-disk')).toContainText(/^The files on disk \(the sizes listed above\) make it ≈\d+ tokens: instruction files/)
    await bar.screenshot({ path: `${SHOTS}/files-not-applied-bar.png` })
    await shots(app, 'files-not-applied')

    await app.getByTestId('apply-unapplied').click()
    await expect(app.getByTestId('save-status')).toHaveAttribute('data-applied', 'now')
    await expect(bar).toHaveCount(0)
    await expect(app.getByTestId('files-budget-disk')).toHaveCount(0)
    await expect(app.getByTestId('files-budget')).not.toContainText('as this session sends it')

    await view(app, 'Chat')
    await send(app, 'list the root')
    const passes = (await rpc(host, 'pass.list', { sessionId })) as PassSummary[]
    const firstAfter = passes.filter((p) => p.kind === 'main')[2]!
    const detail = (await rpc(host, 'pass.get', { passId: firstAfter.id })) as { requestBody: string }
    expect(detail.requestBody).toContain('Keep every test under a second.')
    const badge = app.locator(`.insp-row[data-pass-id="${firstAfter.id}"] .insp-badge`)
    await expect(badge).toHaveAttribute('title', /CLAUDE\.md edited .*applied now by the user/)

    // Changed outside Loupe while the window keeps the focus (a script, a checkout): the bar comes without a click.
    await view(app, 'Files')
    await expect(bar).toHaveCount(0)
    writeFileSync(join(dir, 'CLAUDE.md'), `${readFileSync(join(dir, 'CLAUDE.md'), 'utf8')}- Written by a script.\n`)
    await expect(bar).toContainText('CLAUDE.md differs on disk from what the session sends')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('files: at 1000×700 and 1280×800 both price choices and the chosen one’s figures are in view without scrolling, the "Not applied yet" bar too, and a nested src/AGENTS.md is listed', async ({ app }) => {
  const dir = fixtureProject()
  writeFileSync(join(dir, 'src/AGENTS.md'), '## src/AGENTS.md\n\nKeep parsers pure.\n')
  try {
    await openProjectWithSession(app, dir)
    await send(app, 'read README.md')
    // A memory saved mid-session: the session keeps the memory it read, so the Files view shows the "Not applied yet"
    // bar above the editor, which must take its height from the editor, not push the price out of view.
    await app.getByLabel('Permission mode').selectOption('auto')
    await send(app, 'remember that amounts are integer cents')
    await view(app, 'Files')
    const tree = app.getByRole('navigation', { name: 'Instruction and memory files' })
    // Sent after the breakpoints when a file under src/ is read: listed, and said to be so.
    await expect(tree.locator('[data-path="src/AGENTS.md"]')).toHaveAttribute('data-status', 'nested')
    await expect(tree).toContainText('the first time the agent reads or edits a file under src/')
    await expect(app.getByTestId('files-budget')).toContainText(/^system\[1\] · session block ≈\d+ tokens: instruction files/)
    await tree.locator('[data-path="CLAUDE.md"]').click()
    await app.getByTestId('file-editor').locator('.view-lines').click()
    await app.keyboard.press('Control+End')
    await app.keyboard.type('\n- Prefer pnpm.\n')
    await expect(app.locator('[data-testid="price-panel"][data-current="true"]')).toHaveCount(1)
    await app.getByRole('radio', { name: /At the next compaction/ }).check()
    await expect(app.getByTestId('save-file')).toHaveText('Save for the next compaction')
    await expect(app.getByTestId('pending-apply')).toContainText('.loupe/memory.md differs on disk from what the session sends')
    for (const size of [{ width: 1000, height: 700 }, { width: 1280, height: 800 }]) {
      await app.setViewportSize(size)
      // Nothing to scroll: the pane fits, so what is asserted in view is seen without scrolling.
      await app.locator('.files-main').evaluate((el) => el.scrollTo(0, 0))
      for (const shown of [app.getByTestId('apply-unapplied'), app.getByRole('radio', { name: /Apply now/ }), app.getByRole('radio', { name: /At the next compaction/ }), app.getByTestId('price-later-sum'), app.getByTestId('price-later')]) {
        await expect(shown).toBeInViewport({ ratio: 1 })
      }
      await expect(app.getByRole('radio', { name: /At the next compaction/ })).toBeChecked()
      expect(await app.locator('.files-main').evaluate((el) => el.scrollHeight <= el.clientHeight)).toBe(true)
      await app.screenshot({ path: `${SHOTS}/files-price-${size.width}.png` })
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('files: a change on disk while a file is edited is offered as a merge, and both versions are kept', async ({ app, host }) => {
  const dir = fixtureProject()
  try {
    await openProjectWithSession(app, dir)
    await view(app, 'Files')
    await app.locator('[data-path="CLAUDE.md"]').click()
    await app.getByTestId('file-editor').locator('.view-lines').click()
    await app.keyboard.press('Control+End')
    await app.keyboard.type('\nMY-EDIT\n')
    const tokensShown = () => app.locator('[data-path="CLAUDE.md"] .files-node-tokens').textContent()
    const before = await tokensShown()
    writeFileSync(join(dir, 'CLAUDE.md'), `# Changed in another editor\n\nTHEIR-EDIT\n${'A much longer file now. '.repeat(40)}\n`)
    // The view looks at the disk every two seconds: the change is seen and offered as a merge, not overwritten.
    await expect(app.getByTestId('merge-panel')).toBeVisible()
    // The keyboard went with the text into the merge's editable side: what is typed on is not lost.
    await expect(app.getByTestId('merge-editor').locator('.editor.modified :focus')).toHaveCount(1)
    // Each side is named for a screen reader.
    await expect(app.getByTestId('merge-editor').getByRole('textbox', { name: 'Your version: edit it into the merge' })).toBeFocused()
    await expect(app.getByTestId('merge-editor').getByRole('textbox', { name: 'The file as it is on disk (read-only)' })).toHaveCount(1)
    await app.keyboard.type('TYPED-ON')
    // The tree's size for the file is the disk's now.
    await expect.poll(tokensShown).not.toBe(before)
    expect(readFileSync(join(dir, 'CLAUDE.md'), 'utf8')).toContain('THEIR-EDIT')
    await shots(app, 'files-merge')
    await app.getByTestId('keep-merge').click()
    // The merge's buttons went with it: the keyboard is back in the file's editor.
    await expect(app.getByTestId('file-editor').locator(':focus')).toHaveCount(1)
    await app.getByTestId('save-file').click()
    await expect(app.getByTestId('save-status')).toBeVisible()
    const saved = readFileSync(join(dir, 'CLAUDE.md'), 'utf8')
    expect(saved).toContain('MY-EDIT')
    expect(saved).toContain('TYPED-ON')
    // The disk's version was kept as a backup in the data folder.
    const backups = join(host.dataDir, 'file-backups')
    const kept = readdirSync(backups).flatMap((d) => readdirSync(join(backups, d)).map((f) => readFileSync(join(backups, d, f), 'utf8')))
    expect(kept.some((t) => t.includes('THEIR-EDIT'))).toBe(true)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('files: an open file that becomes binary or a link out of the project says why and cannot be saved, and text again it is the merge, with no stale save error, roomy at 1000×700', async ({ app }) => {
  const dir = fixtureProject()
  const outside = mkdtempSync(join(tmpdir(), 'loupe-e2e-outside-'))
  try {
    await openProjectWithSession(app, dir)
    await app.setViewportSize({ width: 1000, height: 700 })
    await view(app, 'Files')
    await app.locator('[data-path="CLAUDE.md"]').click()
    await app.getByTestId('file-editor').locator('.view-lines').click()
    await app.keyboard.press('Control+End')
    await app.keyboard.type('\nMY-EDIT\n')
    await expect(app.getByTestId('price-panel')).toBeVisible()
    const original = readFileSync(join(dir, 'CLAUDE.md'), 'utf8')
    // Binary: the disk check says so, and why; the draft is not priced and cannot be saved, not even with Ctrl+S.
    writeFileSync(join(dir, 'CLAUDE.md'), Buffer.from([0x23, 0x20, 0x00, 0x01, 0x02, 0x00, 0x0a]))
    await expect(app.getByTestId('file-unreadable')).toContainText('binary file')
    await expect(app.getByTestId('price-panel')).toHaveCount(0)
    await expect(app.getByTestId('save-file')).toBeDisabled()
    await expect(app.locator('[data-path="CLAUDE.md"]')).toHaveAttribute('data-status', 'skipped')
    await expect(app.getByTestId('file-editor')).toContainText('MY-EDIT')
    await app.getByTestId('file-editor').locator('.view-lines').click()
    await app.keyboard.press('Control+s')
    await expect(app.getByTestId('save-failed')).toContainText('CLAUDE.md was not saved')
    // A link to a file outside the project: said too.
    writeFileSync(join(outside, 'elsewhere.md'), '# Elsewhere\n')
    rmSync(join(dir, 'CLAUDE.md'))
    symlinkSync(join(outside, 'elsewhere.md'), join(dir, 'CLAUDE.md'))
    await expect(app.getByTestId('file-unreadable')).toContainText('outside the project')
    // The save error said "binary": no longer true, it goes.
    await expect(app.getByTestId('save-failed')).toHaveCount(0)
    await shots(app, 'files-unreadable')
    // Text again, another one: the note and the save error go, and the change is offered as a merge.
    rmSync(join(dir, 'CLAUDE.md'))
    writeFileSync(join(dir, 'CLAUDE.md'), `${original}\nTHEIR-EDIT, restored as text\n`)
    await expect(app.getByTestId('merge-panel')).toBeVisible()
    await expect(app.getByTestId('file-unreadable')).toHaveCount(0)
    await expect(app.getByTestId('save-failed')).toHaveCount(0)
    await shots(app, 'files-merge-1000')
    // At 1000×700 each side of the merge has room for a line of text, not a word.
    for (const side of ['.editor.original', '.editor.modified']) {
      const box = await app.getByTestId('merge-editor').locator(side).boundingBox()
      expect(box!.width).toBeGreaterThan(300)
    }
    await app.getByRole('button', { name: 'Take the disk version' }).click()
    await expect(app.getByTestId('file-editor')).toContainText('THEIR-EDIT')
    await expect(app.getByTestId('save-failed')).toHaveCount(0)
  } finally {
    rmSync(dir, { recursive: true, force: true })
    rmSync(outside, { recursive: true, force: true })
  }
})

test('files: a draft over the 1 MB the prompt builder reads says so before saving, is not priced, and cannot be saved, not even with Ctrl+S', async ({ app }) => {
  const dir = fixtureProject()
  try {
    await openProjectWithSession(app, dir)
    await view(app, 'Files')
    await app.locator('[data-path="CLAUDE.md"]').click()
    await app.getByTestId('file-editor').locator('.view-lines').click()
    await app.keyboard.press('Control+End')
    const before = readFileSync(join(dir, 'CLAUDE.md'), 'utf8')
    // 1,100,000 characters of text, pasted (typed, they would take minutes): over the limit in UTF-8 bytes.
    await app.evaluate((text) => {
      const data = new DataTransfer()
      data.setData('text/plain', text)
      document.activeElement!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }))
    }, `\n${'A long pasted log line that nobody meant to keep. '.repeat(22_000)}`)
    await expect(app.getByTestId('draft-unsavable')).toContainText('over the 1 MB (1,048,576 bytes) the prompt builder reads')
    await expect(app.getByTestId('price-panel')).toHaveCount(0)
    await expect(app.getByTestId('save-file')).toBeDisabled()
    await app.getByTestId('file-editor').locator('.view-lines').click()
    await app.keyboard.press('Control+s')
    // Refused in the box under the editor that already says why, not in a second box saying it again.
    const refused = app.getByTestId('draft-unsavable')
    await expect(refused.getByTestId('save-failed')).toHaveText('CLAUDE.md was not saved: this text cannot be saved.')
    await expect(refused).toHaveAttribute('role', 'alert')
    await expect(refused).toContainText('over the 1 MB (1,048,576 bytes) the prompt builder reads of a file, so every pass would skip it.')
    await expect(refused).toContainText('Your text is still in the editor.')
    await expect(refused).not.toContainText('try again')
    await expect(app.getByTestId('save-failed')).toHaveCount(1)
    expect(readFileSync(join(dir, 'CLAUDE.md'), 'utf8')).toBe(before)
    await shots(app, 'files-over-limit')
    // Shortened again (the paste undone), it is an ordinary edit: priced, and saveable.
    await app.getByTestId('file-editor').locator('.view-lines').click()
    await app.keyboard.press('Control+z')
    await app.keyboard.type('SHORT-AGAIN')
    await expect(app.getByTestId('draft-unsavable')).toHaveCount(0)
    await expect(app.getByTestId('price-panel')).toBeVisible()
    await expect(app.getByTestId('save-file')).toBeEnabled()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('files: a file deleted on disk while it is edited keeps the text in the editor, and Save writes it back', async ({ app }) => {
  const dir = fixtureProject()
  try {
    await openProjectWithSession(app, dir)
    await view(app, 'Files')
    await app.locator('[data-path="docs/style.md"]').click()
    await app.getByTestId('file-editor').locator('.view-lines').click()
    await app.keyboard.press('Control+End')
    await app.keyboard.type('\nMY-EDIT\n')
    rmSync(join(dir, 'docs/style.md'))
    // The view looks at the disk every two seconds: the deletion is said, and the text stays.
    await expect(app.getByTestId('file-deleted')).toContainText('docs/style.md was deleted on disk')
    await expect(app.getByTestId('file-editor')).toContainText('MY-EDIT')
    await app.getByTestId('save-file').click()
    await expect(app.getByTestId('save-status')).toContainText('Saved docs/style.md')
    await expect(app.getByTestId('file-deleted')).toHaveCount(0)
    expect(readFileSync(join(dir, 'docs/style.md'), 'utf8')).toContain('MY-EDIT')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('files: Revert goes back to the saved text as an edit, and Ctrl+Z brings the edit back', async ({ app }) => {
  const dir = fixtureProject()
  try {
    await openProjectWithSession(app, dir)
    await view(app, 'Files')
    await app.locator('[data-path="docs/style.md"]').click()
    const editor = app.getByTestId('file-editor')
    await editor.locator('.view-lines').click()
    await app.keyboard.press('Control+End')
    await app.keyboard.type('\nMY-EDIT\n')
    await expect(editor).toContainText('MY-EDIT')
    const revert = app.getByRole('button', { name: 'Revert' })
    await revert.click()
    await expect(editor).not.toContainText('MY-EDIT')
    await expect(revert).toHaveCount(0)
    await expect(app.getByTestId('save-file')).toBeDisabled()
    // The keyboard is back in the text, and the revert is one step of its undo stack.
    await expect(editor.locator(':focus')).toHaveCount(1)
    await app.keyboard.press('Control+z')
    await expect(editor).toContainText('MY-EDIT')
    await expect(revert).toBeVisible()
    await expect(app.getByTestId('save-file')).toBeEnabled()
    await app.screenshot({ path: `${SHOTS}/files-revert-undone.png` })
    // Redone, it is reverted again; nothing was written meanwhile.
    await app.keyboard.press('Control+Shift+z')
    await expect(editor).not.toContainText('MY-EDIT')
    await expect(revert).toHaveCount(0)
    expect(readFileSync(join(dir, 'docs/style.md'), 'utf8')).not.toContain('MY-EDIT')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('files: a new memory file starts as a priced draft of its starting text, and nothing is written until it is saved', async ({ app }) => {
  const dir = fixtureProject()
  const memory = join(dir, '.loupe', 'memory.md')
  try {
    await openProjectWithSession(app, dir)
    await send(app, 'read README.md')
    await view(app, 'Files')
    await app.getByRole('button', { name: '+ Project memory (.loupe/memory.md)' }).click()
    await expect(app.getByTestId('open-path')).toHaveText('.loupe/memory.md')
    await expect(app.getByTestId('file-editor')).toContainText('# Project memory')
    // Priced as it stands, before anything is on disk: the choice is the user's, as for any edit.
    await expect(app.locator('[data-testid="price-panel"][data-current="true"]')).toHaveCount(1)
    await expect(app.getByTestId('save-file')).toBeEnabled()
    await app.keyboard.press('Control+End')
    await app.keyboard.type('- Amounts are integer cents.')
    await expect(app.locator('[data-testid="price-panel"][data-current="true"]')).toHaveCount(1)
    await app.screenshot({ path: `${SHOTS}/files-new-memory-draft.png` })
    expect(existsSync(memory)).toBe(false)
    // A change of view keeps the draft, typed in, to be saved.
    await app.getByRole('tab', { name: 'Chat' }).click()
    await view(app, 'Files')
    await expect(app.getByTestId('file-editor')).toContainText('integer cents')
    await app.getByTestId('save-file').click()
    await expect(app.getByTestId('save-status')).toContainText('Saved .loupe/memory.md')
    expect(readFileSync(memory, 'utf8')).toBe('# Project memory\n\n- Amounts are integer cents.')
    await expect(app.getByRole('navigation', { name: 'Instruction and memory files' }).locator('[data-path=".loupe/memory.md"]')).toHaveCount(1)
    await expect(app.getByRole('button', { name: '+ Project memory (.loupe/memory.md)' })).toHaveCount(0)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('files: a new file typed in and left for another file is listed as new, not saved yet, and opens again from its row', async ({ app }) => {
  const dir = fixtureProject()
  try {
    await openProjectWithSession(app, dir)
    await view(app, 'Files')
    await app.getByRole('button', { name: '+ Project memory (.loupe/memory.md)' }).click()
    await expect(app.getByTestId('file-editor')).toContainText('# Project memory')
    await app.keyboard.press('Control+End')
    await app.keyboard.type('- LEFT-UNSAVED')
    await app.locator('[data-path="CLAUDE.md"]').click()
    await expect(app.getByTestId('open-path')).toHaveText('CLAUDE.md')
    const row = app.getByTestId('new-file-drafts')
    await expect(row.getByRole('listitem')).toHaveCount(1)
    await expect(row.getByRole('listitem')).toContainText('.loupe/memory.md')
    await expect(row.getByRole('listitem')).toContainText('new file, not saved yet')
    await expect(app.getByTestId('stranded-drafts')).toHaveCount(0)
    await app.locator('.files-side').screenshot({ path: `${SHOTS}/files-new-file-draft-row.png` })
    await row.getByRole('button', { name: 'Open' }).click()
    await expect(app.getByTestId('open-path')).toHaveText('.loupe/memory.md')
    await expect(app.getByTestId('file-editor')).toContainText('LEFT-UNSAVED')
    await expect(row).toHaveCount(0)
    expect(existsSync(join(dir, '.loupe', 'memory.md'))).toBe(false)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('files: the tree is one Tab stop, walked with the arrow keys, and Enter opens the file the keyboard is on', async ({ app }) => {
  const dir = fixtureProject()
  // A second file importing the same one: docs/style.md is listed under both, and is still one row at a time to
  // the keyboard and to the selection.
  writeFileSync(join(dir, 'AGENTS.md'), '# Agents\n\nFollow @docs/style.md.\n')
  try {
    await openProjectWithSession(app, dir)
    await view(app, 'Files')
    const tree = app.getByRole('tree', { name: 'Instructions' })
    const rows = tree.locator('[role="treeitem"]')
    const focused = tree.locator('[role="treeitem"]:focus')
    await expect(tree.locator('[role="treeitem"][data-tree-path="docs/style.md"]')).toHaveCount(2)
    // Each file, then its import: [file, docs/style.md, file, docs/style.md].
    const order = await rows.evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.treePath))
    expect(order).toHaveLength(4)
    expect([order[1], order[3]]).toEqual(['docs/style.md', 'docs/style.md'])
    // One row takes Tab; the others are reached with the arrows.
    await expect(tree.locator('[role="treeitem"][tabindex="0"]')).toHaveCount(1)
    await tree.locator('[role="treeitem"][tabindex="0"]').focus()
    await expect(focused).toHaveAttribute('data-tree-path', order[0]!)
    // Right goes into the file's imports, Left back to the file that imports it.
    await app.keyboard.press('ArrowRight')
    await expect(focused).toHaveAttribute('data-tree-path', 'docs/style.md')
    await app.keyboard.press('Enter')
    await expect(app.getByTestId('open-path')).toHaveText('docs/style.md')
    await expect(tree.locator('[role="treeitem"][aria-selected="true"]')).toHaveCount(1)
    await expect(tree.locator('[role="treeitem"][tabindex="0"]')).toHaveCount(1)
    // The editor opening does not take the keyboard away from the tree.
    await expect(focused).toHaveAttribute('data-tree-path', 'docs/style.md')
    await app.keyboard.press('ArrowLeft')
    await expect(focused).toHaveAttribute('data-tree-path', order[0]!)
    await app.keyboard.press('End')
    await expect(rows.nth(3)).toBeFocused()
    await app.keyboard.press('ArrowUp')
    await expect(rows.nth(2)).toBeFocused()
    await app.keyboard.press(' ')
    await expect(app.getByTestId('open-path')).toHaveText(order[2]!)
    // The second listing of docs/style.md, opened from there, is the row shown as open.
    await app.keyboard.press('ArrowDown')
    await app.keyboard.press('Enter')
    await expect(app.getByTestId('open-path')).toHaveText('docs/style.md')
    await expect(rows.nth(3)).toHaveAttribute('aria-selected', 'true')
    await expect(tree.locator('[role="treeitem"][aria-selected="true"]')).toHaveCount(1)
    await app.keyboard.press('Home')
    await expect(rows.nth(0)).toBeFocused()
    // A file with imports folds: Left folds it (the keyboard stays on it), Right unfolds it, Right again goes in.
    await expect(rows.nth(0)).toHaveAttribute('aria-expanded', 'true')
    await app.keyboard.press('ArrowLeft')
    await expect(rows.nth(0)).toHaveAttribute('aria-expanded', 'false')
    await expect(rows).toHaveCount(3)
    await expect(rows.nth(0)).toBeFocused()
    // Down skips the folded import.
    await app.keyboard.press('ArrowDown')
    await expect(focused).toHaveAttribute('data-tree-path', order[2]!)
    await app.keyboard.press('ArrowUp')
    await app.keyboard.press('ArrowRight')
    await expect(rows.nth(0)).toHaveAttribute('aria-expanded', 'true')
    await expect(rows).toHaveCount(4)
    await app.keyboard.press('ArrowRight')
    await expect(focused).toHaveAttribute('data-tree-path', 'docs/style.md')
    // The mouse folds with the triangle; the import the keyboard was on is hidden, so Tab comes back to its file.
    await rows.nth(0).locator('.files-node-fold').first().click()
    await expect(rows).toHaveCount(3)
    await expect(tree.locator('[role="treeitem"][tabindex="0"]')).toHaveCount(1)
    await app.getByRole('navigation', { name: 'Instruction and memory files' }).screenshot({ path: `${SHOTS}/files-tree-folded.png` })
    await rows.nth(0).locator('.files-node-fold').first().click()
    await expect(rows).toHaveCount(4)
    // Folding the file whose import is open moves the open mark to the file's other listing; with both folded, the
    // folded row it was opened under says the open file is inside it.
    await rows.nth(2).locator('.files-node-fold').first().click()
    await expect(rows).toHaveCount(3)
    await expect(rows.nth(1)).toHaveAttribute('aria-selected', 'true')
    await rows.nth(0).locator('.files-node-fold').first().click()
    await expect(rows).toHaveCount(2)
    await expect(rows.nth(1)).toHaveAttribute('aria-label', /the open file is among its imports/)
    await expect(rows.nth(1).locator('.files-node').first()).toHaveClass(/holds-open/)
    await expect(rows.nth(0)).not.toHaveAttribute('aria-label', /the open file/)
    await rows.nth(1).locator('.files-node-fold').first().click()
    await rows.nth(0).locator('.files-node-fold').first().click()
    await expect(rows).toHaveCount(4)
    await expect(rows.nth(3)).toHaveAttribute('aria-selected', 'true')
    await rows.nth(0).focus()
    // Tab leaves the tree at once, and Shift+Tab comes back to the row it left.
    await app.keyboard.press('Tab')
    await expect(focused).toHaveCount(0)
    await app.keyboard.press('Shift+Tab')
    await expect(rows.nth(0)).toBeFocused()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test("files: a draft's price comes back when its file is opened again, and follows the session's passes while the view stays open", async ({ app, host }) => {
  const dir = fixtureProject()
  try {
    await openProjectWithSession(app, dir)
    await send(app, 'read README.md')
    const sessionId = await sessionIdOf(host)
    await view(app, 'Files')
    const tree = app.getByRole('navigation', { name: 'Instruction and memory files' })
    await tree.locator('[data-path="CLAUDE.md"]').click()
    await app.getByTestId('file-editor').locator('.view-lines').click()
    await app.keyboard.press('Control+End')
    await app.keyboard.type('\n- Keep functions small.\n')
    const current = app.locator('[data-testid="price-panel"][data-current="true"]')
    const priceNow = app.getByTestId('price-now')
    await expect(current).toHaveCount(1)
    const before = Number(await priceNow.getAttribute('data-tokens'))
    expect(before).toBeGreaterThan(0)

    // Its row clicked again: the file opens with its draft, and the draft is priced again, not "Pricing…" for good.
    await tree.locator('[data-path="CLAUDE.md"]').click()
    await expect(current).toHaveCount(1)
    await expect(priceNow).toHaveAttribute('data-tokens', String(before))

    // A turn of the session from elsewhere (another window, here the contract): the conversation the edit would
    // re-bill is longer, and the price shown says so without a key pressed.
    const ended = appEvent(app, 'turn.ended')
    await ended.armed
    await rpc(host, 'run.start', { sessionId, text: 'list the root' })
    await ended
    await expect.poll(async () => Number(await priceNow.getAttribute('data-tokens'))).toBeGreaterThan(before)
    await expect(current).toHaveCount(1)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('files: an unsaved edit is kept when another file is opened, marked in the tree, asked about before a reload, and merged when the disk changed meanwhile', async ({ app }) => {
  const dir = fixtureProject()
  try {
    await openProjectWithSession(app, dir)
    await view(app, 'Files')
    const editor = app.getByTestId('file-editor')
    const marked = (path: string) => app.locator(`[data-path="${path}"]`).getByRole('img', { name: 'unsaved changes' })
    await app.locator('[data-path="CLAUDE.md"]').click()
    await expect(app.getByTestId('open-path')).toHaveText('CLAUDE.md')
    await editor.locator('.view-lines').click()
    await app.keyboard.press('Control+End')
    await app.keyboard.type('\nKEEP-ME\n')
    await expect(marked('CLAUDE.md')).toHaveCount(1)
    // Tab leaves the editor for the next control, as it does everywhere else (no tab is typed).
    await app.keyboard.press('Tab')
    expect(await editor.evaluate((el) => el.contains(document.activeElement))).toBe(false)

    // Another file opened: the draft stays, marked in the tree, and comes back with its file.
    await app.locator('[data-path="docs/style.md"]').click()
    await expect(app.getByTestId('open-path')).toHaveText('docs/style.md')
    await expect(editor).not.toContainText('KEEP-ME')
    await expect(marked('CLAUDE.md')).toHaveCount(1)
    await app.locator('[data-path="CLAUDE.md"]').click()
    await expect(app.getByTestId('open-path')).toHaveText('CLAUDE.md')
    await expect(editor).toContainText('KEEP-ME')

    // A reload asks first; staying keeps the draft.
    const asked = new Promise<string>((resolve) =>
      app.once('dialog', (dialog) => {
        resolve(dialog.type())
        void dialog.dismiss()
      }),
    )
    void app.reload().catch(() => {})
    expect(await asked).toBe('beforeunload')
    await expect(editor).toContainText('KEEP-ME')

    // Left again (for a file edited too), and both files change on disk meanwhile: each, opened again, is offered as
    // a merge of its own two versions.
    const merge = app.getByTestId('merge-panel')
    await app.locator('[data-path="docs/style.md"]').click()
    await expect(app.getByTestId('open-path')).toHaveText('docs/style.md')
    await editor.locator('.view-lines').click()
    await app.keyboard.press('Control+End')
    await app.keyboard.type('\nSTYLE-MINE\n')
    writeFileSync(join(dir, 'CLAUDE.md'), '# Changed in another editor\n\nSee @docs/style.md for the code style.\n\nTHEIR-EDIT\n')
    await app.locator('[data-path="CLAUDE.md"]').click()
    await expect(merge).toContainText('KEEP-ME')
    await expect(merge).toContainText('THEIR-EDIT')
    writeFileSync(join(dir, 'docs/style.md'), '# Style\n\nSTYLE-THEIRS\n')
    await app.locator('[data-path="docs/style.md"]').click()
    await expect(app.getByTestId('open-path')).toHaveText('docs/style.md')
    await expect(merge).toContainText('STYLE-MINE')
    await expect(merge).toContainText('STYLE-THEIRS')
    await expect(merge).not.toContainText('KEEP-ME')

    // CLAUDE.md, taken as the disk has it, then changed there to import docs/style.md no more: the draft of
    // docs/style.md, no longer in the tree, is listed under it to copy or give up.
    await app.locator('[data-path="CLAUDE.md"]').click()
    // CLAUDE.md's merge, not docs/style.md's still on screen while the file opens.
    await expect(app.getByTestId('open-path')).toHaveText('CLAUDE.md')
    await expect(merge).toContainText('KEEP-ME')
    await merge.getByRole('button', { name: 'Take the disk version' }).click()
    await expect(merge).toHaveCount(0)
    writeFileSync(join(dir, 'CLAUDE.md'), '# Changed in another editor\n\nTHEIR-EDIT\n')
    await view(app, 'Chat')
    await view(app, 'Files')
    const stranded = app.getByTestId('stranded-drafts')
    await expect(stranded).toContainText('docs/style.md')
    await expect(app.locator('[data-path="docs/style.md"]')).toHaveCount(0)
    await stranded.getByRole('button', { name: 'Discard' }).click()
    await expect(stranded).toHaveCount(0)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('compaction: /compact with a focus, a dry run with an edited summary that the next pass sends, and the cache view marks both', async ({ app, host }) => {
  const dir = fixtureProject()
  try {
    await openProjectWithSession(app, dir)
    await send(app, 'read README.md')
    await send(app, 'read src/parser.ts')
    await send(app, 'grep for "TODO"')
    const sessionId = await sessionIdOf(host)
    // A pinned fact: the checkpoint says what became of it, by its words.
    await view(app, 'Compaction')
    await app.getByLabel('Fact to pin').fill('The ledger rounds half to even.')
    await app.getByRole('button', { name: 'Pin', exact: true }).click()
    await expect(app.getByRole('region', { name: 'Pinned facts' })).toContainText('The ledger rounds half to even.')
    // Its Unpin names the fact whole: one Unpin is told from another.
    await expect(app.getByRole('button', { name: 'Unpin “The ledger rounds half to even.”', exact: true })).toBeVisible()
    await view(app, 'Chat')

    await send(app, '/compact the parser module')
    await view(app, 'Compaction')
    await expect(app.getByTestId('checkpoint-card')).toHaveCount(1)
    await expect(app.getByTestId('checkpoint-detail')).toContainText(/Pins: “The ledger rounds half to even\.” (re-?injected|kept|in summary)/)
    // A count and a range that agree: how many of the range's entries (its notes and turn ends are not summarised).
    await expect(app.getByTestId('summarised-range')).toContainText(/^Summarised (\d+ of the entries|the \d+ entries) #\d+–#\d+ \(≈[\d,]+ tokens\); kept whole from entry #\d+ on\.$/)
    const summarised = ((await app.getByTestId('summarised-range').textContent()) ?? '').match(/^(Summarised .+?) \(≈/)![1]!
    await expect(app.getByTestId('checkpoint-focus')).toContainText('the parser module')
    // Typed by the user, the focus is set apart from the words around it: a direction override in it cannot reorder them.
    await expect(app.getByTestId('checkpoint-focus').locator('bdi')).toHaveText('the parser module')
    await expect(app.getByTestId('history-diff')).toHaveAttribute('data-diff-ready', /.+/)
    // The two sides are named for a screen reader by what they hold.
    await expect(app.getByRole('textbox', { name: 'What the model sees after the compaction' })).toHaveCount(1)
    await expect(app.getByRole('textbox', { name: 'What the model saw before the compaction' })).toHaveCount(1)
    await shots(app, 'compaction-checkpoint', true)

    // A dry run: read the draft, edit the summary, apply it.
    await view(app, 'Chat')
    // The chat's card says the same of the checkpoint as the Compaction view.
    await expect(app.locator('.checkpoint .checkpoint-detail')).toContainText(new RegExp(`^${summarised}[ .]`))
    await send(app, 'read src/ledger.ts')
    await send(app, 'list the root')
    await view(app, 'Compaction')
    await app.getByLabel('Compaction focus').fill('the ledger')
    await app.getByRole('button', { name: 'Dry run' }).click()
    const draft = app.getByTestId('draft-detail')
    await expect(draft).toBeVisible()
    await expect(app.getByTestId('draft-card')).toHaveCount(1)
    // The dry run done, the keyboard is in its summary, to read and edit.
    await expect.poll(() => app.getByTestId('summary-editor').evaluate((el) => el.contains(document.activeElement))).toBe(true)
    const afterLength = Number(await draft.getByTestId('history-diff').getAttribute('data-after-length'))
    await app.getByTestId('summary-editor').locator('.view-lines').click()
    await app.keyboard.press('Control+End')
    await app.keyboard.type('\nEDITED-SUMMARY-MARKER: the user keeps this line.')
    await expect(draft).toContainText('edited')
    // The comparison and the size follow the edit before it is applied (the editor may indent the new line).
    await expect(draft).toContainText('with your edits')
    await expect.poll(async () => Number(await draft.getByTestId('history-diff').getAttribute('data-after-length'))).toBeGreaterThanOrEqual(afterLength + 'EDITED-SUMMARY-MARKER: the user keeps this line.'.length)
    await shots(app, 'compaction-dry-run')
    await app.getByTestId('apply-draft').click()
    await expect(app.getByTestId('checkpoint-card')).toHaveCount(2)
    await expect(app.getByTestId('checkpoint-detail')).toContainText('edited by the user')

    await view(app, 'Chat')
    await send(app, 'read README.md')
    const body = await lastMainRequestBody(host, sessionId)
    expect(body).toContain('EDITED-SUMMARY-MARKER: the user keeps this line.')

    await view(app, 'Cache')
    await expect(app.locator('[data-testid="cache-marker"][data-kind="compaction"]')).toHaveCount(2)
    await shots(app, 'cache-timeline', true)
    await view(app, 'Settings')
    await expect(app.getByTestId('data-dir')).toHaveText(host.dataDir)
    await shots(app, 'settings')

    // The palette runs any action by name.
    for (const t of ['light', 'dark'] as const) {
      await chooseTheme(app, t)
      await app.keyboard.press('Control+k')
      await app.getByLabel('Type a command').fill('compact')
      await expect(app.getByTestId('palette')).toContainText('Compact now with a focus')
      await app.screenshot({ path: `${SHOTS}/palette-${t}.png` })
      await app.keyboard.press('Escape')
    }
    await app.keyboard.press('Control+k')
    await app.getByLabel('Type a command').fill('go to cache')
    await app.keyboard.press('Enter')
    await expect(app.getByTestId('cache-view')).toBeVisible()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

/**
 * Collects the summary's pieces from `compaction.progressed` in the page, and resolves once `minChars` of it have
 * arrived. Call before the action that starts the compaction (the listener is in place first, as with appEvent).
 */
function summaryStreamed(page: Page, minChars: number): Promise<unknown> {
  return pageSignal(
    page,
    (min, signal: (enough: boolean) => void) => {
      const w = window as unknown as { summaryPieces: Array<{ text: string; textOffset: number; stream: number }> }
      w.summaryPieces = []
      let signalled = false
      window.addEventListener('loupe:event', (e) => {
        const { name, payload } = (e as CustomEvent).detail
        if (name !== 'compaction.progressed' || payload.stage !== 'summary_streaming') return
        w.summaryPieces.push({ text: payload.text, textOffset: payload.textOffset, stream: payload.stream })
        if (payload.outputChars >= min && !signalled) {
          signalled = true
          signal(true)
        }
      })
    },
    minChars,
  )
}

test('compaction in progress: the summary streams into the view with its tokens and elapsed time, survives a reload, and Cancel leaves the conversation as it was', async ({ page }) => {
  const dir = fixtureProject()
  try {
    // The conversation at instant pace; then the same data folder under a host whose simulator streams slowly, so
    // the summary is still being written while it is photographed and cancelled.
    const converse = async () => {
      await send(page, 'read README.md')
      await send(page, 'read src/parser.ts')
    }
    await onSlowHostAfter(page, dir, converse, async (slow) => {
      const name = dir.split('/').pop()!
      await view(page, 'Compaction')
      await expect(page.getByTestId('compaction-view')).toBeVisible()
      const entriesBefore = (await rpc(slow, 'session.get', { sessionId: await sessionIdOf(slow) })) as { entries: unknown[] }

      await page.getByLabel('Compaction focus').fill('the ledger')
      const streamed = summaryStreamed(page, 300)
      await page.getByRole('button', { name: 'Compact now' }).click()
      // The model thinks before it writes (thinking is on by default): the view counts it instead of looking stalled.
      await expect(page.getByTestId('compaction-live-thinking')).toContainText(/The model is thinking before it writes \(≈\d+ tokens so far\)/)
      await page.getByTestId('compaction-progress').screenshot({ path: `${SHOTS}/compaction-thinking-light.png` })
      await streamed
      const progress = page.getByTestId('compaction-progress')
      await expect(progress).toHaveAttribute('data-stage', 'summary_streaming')
      const live = page.getByTestId('compaction-live-text')
      await expect.poll(async () => ((await live.textContent()) ?? '').length).toBeGreaterThan(300)
      await expect(page.getByTestId('compaction-progress-tokens')).toHaveAttribute('data-tokens', /^[1-9]\d*$/)
      await expect(page.getByTestId('compaction-progress-elapsed')).toHaveText(/^\d+ s$/)
      await expect(progress.getByRole('button', { name: 'Cancel (Esc)' })).toBeVisible()
      await shots(page, 'compaction-streaming')
      const shown = (await live.textContent()) ?? ''
      const pieces = (await page.evaluate(() => (window as unknown as { summaryPieces: Array<{ text: string; textOffset: number; stream: number }> }).summaryPieces)) as Array<{ text: string; textOffset: number; stream: number }>

      // The chat shows it too, above the composer, with its own Cancel.
      await view(page, 'Chat')
      const inChat = page.getByRole('region', { name: 'Session' }).getByTestId('compaction-progress')
      await expect(inChat).toHaveAttribute('data-stage', 'summary_streaming')
      await expect(inChat).toContainText('focus “the ledger”')
      await expect(inChat.getByRole('button', { name: 'Cancel (Esc)' })).toBeVisible()
      await page.screenshot({ path: `${SHOTS}/chat-compacting.png` })

      // A window reloaded in the middle of it picks up the summary streamed so far, and the stream carries on there:
      // in the chat it opens on, and in the Compaction view.
      await page.reload()
      await expect(page.locator('html[data-app-ready="true"]')).toHaveCount(1)
      await page.getByRole('navigation', { name: 'Projects' }).getByText(name, { exact: true }).click()
      await page.getByRole('list', { name: 'Sessions' }).getByRole('button').first().click()
      await expect(inChat).toHaveAttribute('data-stage', 'summary_streaming')
      await view(page, 'Compaction')
      await expect(progress).toHaveAttribute('data-stage', 'summary_streaming')
      await expect.poll(async () => ((await live.textContent()) ?? '').length).toBeGreaterThan(shown.length)
      const resumed = (await live.textContent()) ?? ''
      expect(resumed.startsWith(shown)).toBe(true)

      const failed = appEvent(page, 'compaction.failed')
      await progress.getByRole('button', { name: 'Cancel (Esc)' }).click()
      await failed
      // Asked for, so said as a note, not an alert: the conversation is as it was.
      await expect(page.getByTestId('compaction-note')).toContainText('cancelled')
      await expect(page.getByTestId('compaction-failure')).toHaveCount(0)
      await expect(page.getByTestId('compaction-progress')).toHaveCount(0)
      await expect(page.getByTestId('checkpoint-card')).toHaveCount(0)

      // What the view showed is the summary as streamed, in order, with nothing left out.
      let text = ''
      for (const p of pieces) {
        expect(p.stream).toBe(1)
        expect(p.textOffset).toBe(text.length)
        text += p.text
      }
      expect(text.startsWith(shown)).toBe(true)
      expect(shown.length).toBeGreaterThan(300)
      // Cancelled: the conversation is unchanged, and the cancelled summary pass is kept with its cost.
      const after = (await rpc(slow, 'session.get', { sessionId: await sessionIdOf(slow) })) as { entries: unknown[] }
      expect(after.entries).toEqual(entriesBefore.entries)
      const passes = (await rpc(slow, 'pass.list', { sessionId: await sessionIdOf(slow) })) as Array<{ kind: string; status: string }>
      expect(passes.at(-1)).toMatchObject({ kind: 'summary', status: 'cancelled' })
    })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('settings: the theme switch, and an API key used at once, shown again only as its last four characters', async ({ app, host }) => {
  await view(app, 'Settings')
  await app.getByRole('radio', { name: 'Dark' }).check()
  await expect(app.locator('html[data-theme="dark"]')).toHaveCount(1)
  const endpoint = app.getByTestId('endpoint-in-use')
  await expect(endpoint).toHaveAttribute('data-kind', 'simulator')
  await expect(app.locator('.topbar > .model-badge')).toHaveText('Offline simulator')
  // No pass runs here: the key switches what answers next without a request going out.
  const switched = appEvent(app, 'endpoint.changed')
  await app.getByRole('textbox', { name: 'API key' }).fill('sk-ant-api03-e2e-example-key-0123456789-ABCD')
  await app.getByRole('button', { name: 'Save key' }).click()
  await switched
  await expect(app.getByTestId('key-status')).toContainText('…ABCD')
  await expect(app.getByTestId('key-status')).not.toContainText('Restart Loupe')
  await expect(endpoint).toHaveAttribute('data-kind', 'anthropic')
  await expect(endpoint).toContainText('https://api.anthropic.com')
  await expect(app.locator('.topbar > .model-badge')).toHaveText('Anthropic API')
  await endpoint.scrollIntoViewIfNeeded()
  await app.locator('section[aria-labelledby="set-key"]').screenshot({ path: `${SHOTS}/settings-key-api-dark.png` })
  expect(await app.content()).not.toContain('e2e-example-key')
  // Forgetting the key goes back to the offline simulator, as at start-up.
  const back = appEvent(app, 'endpoint.changed')
  await app.getByRole('button', { name: 'Forget the key' }).click()
  await back
  await expect(endpoint).toHaveAttribute('data-kind', 'simulator')
  await expect(app.locator('.topbar > .model-badge')).toHaveText('Offline simulator')
  await app.locator('section[aria-labelledby="set-key"]').screenshot({ path: `${SHOTS}/settings-key-simulator-dark.png` })
  // Thinking is on by default and switched off here; the app keeps the choice.
  const thinking = app.getByRole('checkbox', { name: 'Let the model think before it answers' })
  await expect(thinking).toBeChecked()
  // The box shows the saved setting, so it changes once the app has saved it.
  await thinking.click()
  await expect(thinking).not.toBeChecked()
  await thinking.scrollIntoViewIfNeeded()
  await app.locator('section', { has: thinking }).screenshot({ path: `${SHOTS}/settings-sessions-dark.png` })
  const settings = (await rpc(host, 'settings.get', {})) as { app: { theme: string; thinking: boolean } }
  expect(settings.app).toMatchObject({ theme: 'dark', thinking: false })
  await app.reload()
  await expect(app.locator('html[data-theme="dark"]')).toHaveCount(1)
  await view(app, 'Settings')
  await expect(app.getByRole('checkbox', { name: 'Let the model think before it answers' })).not.toBeChecked()
})

test('settings: a model chosen before its end of life is kept, shown retired, and the Model section says new sessions start on the default', async ({ page }) => {
  // A settings file written while Sonnet 4.5 was still served (it was retired on 30 Nov 2026, decision 0065).
  const home = mkdtempSync(join(tmpdir(), 'loupe-e2e-retired-'))
  writeFileSync(join(home, 'settings.json'), JSON.stringify({ model: 'claude-sonnet-4-5' }))
  const host = await startHost({ LOUPE_HOME: home })
  try {
    await openApp(page, host.url)
    await view(page, 'Settings')
    const notice = page.getByTestId('model-retired')
    await expect(notice).toHaveText('The model chosen for new sessions, Claude Sonnet 4.5, was retired on 30 Nov 2026: the API no longer serves it, so new sessions start on Claude Sonnet 4.6 until another model is chosen.')
    const model = page.locator('section[aria-labelledby="set-model"]').getByLabel('Model', { exact: true })
    await expect(model).toHaveValue('claude-sonnet-4-5')
    await expect(model.locator('option:checked')).toContainText('Claude Sonnet 4.5 (retired 30 Nov 2026)')
    await expect(model.locator('option:checked')).toBeDisabled()
    await page.locator('section[aria-labelledby="set-model"]').screenshot({ path: `${SHOTS}/settings-model-retired.png` })
    // The file still names it: nothing the user chose was rewritten.
    expect(JSON.parse(readFileSync(join(home, 'settings.json'), 'utf8'))).toMatchObject({ model: 'claude-sonnet-4-5' })
    // Another model chosen: the notice goes, and the retired one is no longer listed.
    await model.selectOption('claude-haiku-4-5')
    await expect(notice).toHaveCount(0)
    await expect(model).toHaveValue('claude-haiku-4-5')
    await expect(model.locator('option[value="claude-sonnet-4-5"]')).toHaveCount(0)
  } finally {
    await page.close()
    await host.stop()
    rmSync(home, { recursive: true, force: true })
  }
})

test('the Files view: a file that starts with a byte-order mark keeps it through an edit and a save, and opens unchanged (not an edit)', async ({ app }) => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'loupe-e2e-bom-')))
  // As some Windows editors write Markdown: a UTF-8 byte-order mark, then the text.
  writeFileSync(join(dir, 'AGENTS.md'), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('# Agents\n\nRun the tests.\n')]))
  try {
    await app.getByLabel('Folder path').fill(dir)
    await app.getByRole('button', { name: 'Open folder' }).click()
    await view(app, 'Files')
    await app.locator('[data-path="AGENTS.md"]').click()
    await expect(app.getByTestId('file-editor').locator('.view-lines')).toContainText('Run the tests.')
    // Opened, the file is not an edit: the mark the editor holds aside is part of its text.
    await expect(app.getByTestId('save-file')).toBeDisabled()
    await app.getByTestId('file-editor').locator('.view-lines').click()
    await app.keyboard.press('Control+End')
    await app.keyboard.type('Keep it short.\n')
    await app.getByTestId('save-file').click()
    await expect(app.getByTestId('save-status')).toContainText('Saved')
    const bytes = readFileSync(join(dir, 'AGENTS.md'))
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    expect(bytes.subarray(3).toString('utf8')).toBe('# Agents\n\nRun the tests.\nKeep it short.\n')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('settings, the sidebar, the Files view and the import dialog: a folder and a file whose names hold right-to-left letters and a direction override are shown set apart from the words around them', async ({ app, host }) => {
  const parent = realpathSync(mkdtempSync(join(tmpdir(), 'loupe-e2e-bidi-')))
  // Hebrew letters, then U+202E (right-to-left override): unisolated, "txt.exe" would read "exe.txt", and the words after
  // the name or the path would be drawn reversed with it.
  const dir = join(parent, 'שלום \u202Etxt.exe')
  mkdirSync(dir)
  // A file of the same kind, which the project's AGENTS.md imports, so the Files view lists it.
  const notes = 'notes/שלום\u202Etxt.md'
  mkdirSync(join(dir, 'notes'))
  writeFileSync(join(dir, notes), '# Notes\n\nKeep it short.\n')
  writeFileSync(join(dir, 'AGENTS.md'), `# Agents\n\nSee @${notes} for the notes.\n`)
  try {
    await app.getByLabel('Folder path').fill(dir)
    await app.getByRole('button', { name: 'Open folder' }).click()
    const row = app.locator('button.project.selected')
    await expect(row).toHaveAttribute('title', dir)
    const [project] = (await rpc(host, 'project.list', {})) as Array<{ name: string; root: string }>
    await expect(row.locator('.project-name bdi')).toHaveText(project!.name)
    await expect(row.locator('.project-root > bdi')).toHaveText(dir)
    await app.locator('.project-list').screenshot({ path: `${SHOTS}/sidebar-bidi-project.png` })

    await view(app, 'Settings')
    await expect(app.locator('#set-compaction bdi')).toHaveText(project!.name)
    await expect(app.getByTestId('data-dir').locator('> bdi')).toHaveText(host.dataDir)
    const kept = app.locator('section[aria-labelledby="set-compaction"] small code > bdi')
    await expect(kept).toHaveText(/\S/)
    await app.locator('section[aria-labelledby="set-compaction"]').screenshot({ path: `${SHOTS}/settings-bidi-project.png` })

    // The Files view's sentences set the file's path apart: the price without a session, and what Save says.
    await view(app, 'Files')
    await app.locator(`[data-path="${notes}"]`).click()
    await expect(app.getByTestId('price-no-session').locator('bdi[dir="ltr"]')).toHaveText(notes)
    await expect(app.getByTestId('price-no-session').locator('bdi[dir="ltr"] > bdi')).toHaveText(['notes', 'שלום\u202Etxt.md'])
    await expect(app.getByTestId('open-path').locator('bdi[dir="ltr"] > bdi')).toHaveText(['notes', 'שלום\u202Etxt.md'])
    await app.getByTestId('file-editor').locator('.view-lines').click()
    await app.keyboard.press('Control+End')
    await app.keyboard.type('\nAnd clear.\n')
    await app.getByTestId('save-file').click()
    await expect(app.getByTestId('save-status')).toContainText('Saved')
    await expect(app.getByTestId('save-status').locator('bdi[dir="ltr"]').first()).toHaveText(notes)
    await app.locator('.files-editor-pane').screenshot({ path: `${SHOTS}/files-bidi-path.png` })

    // The import dialog's heading sets the project's name apart.
    await app.keyboard.press('Control+k')
    await app.getByLabel('Type a command').fill('import a session')
    await app.keyboard.press('Enter')
    const importing = app.getByRole('dialog', { name: /^Import a session into / })
    await expect(importing.locator('h2 bdi')).toHaveText(project!.name)
    await importing.screenshot({ path: `${SHOTS}/import-dialog-bidi-project.png` })
    await app.keyboard.press('Escape')
    await expect(importing).toHaveCount(0)
  } finally {
    rmSync(parent, { recursive: true, force: true })
  }
})
