/**
 * The inspector against the browser host and the simulator: a short scripted conversation, then every view of it.
 * The request view's bytes must hash to what went over the wire (the store's sha256 and the simulator's own hash of
 * what it received), its breakpoint rules must sit where the request's cache_control markers are, and the diff of
 * pass 2 against pass 1 must name the new history block as the first change. Screenshots of each view are saved
 * in e2e/screenshots/.
 */
import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import WebSocket from 'ws'
import type { PassDetailView } from '../src-preload/contract'
import { appEvent, expect, hostFixture, openApp, openProjectWithSession, rpc as call, test as base, type BrowserHostProcess } from './fixtures'

const test = base.extend<{ host: BrowserHostProcess }>({ host: hostFixture({ LOUPE_SIM_PACE: 'instant' }) })

function fixtureProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-e2e-inspector-'))
  writeFileSync(join(dir, 'README.md'), '# demo\nHello\n')
  writeFileSync(join(dir, 'CLAUDE.md'), '# Project rules\nUse tabs. Run npm test before committing.\n')
  mkdirSync(join(dir, 'src'))
  writeFileSync(join(dir, 'src/CLAUDE.md'), '# src rules\nKeep functions small.\n')
  writeFileSync(join(dir, 'src/a.ts'), 'export const x = 1\n')
  return dir
}

/** The contract over its own WebSocket, to read what the store holds independently of the page. */
async function contract(host: BrowserHostProcess): Promise<{ call<T>(name: string, input: unknown): Promise<T>; close(): void }> {
  const ws = new WebSocket(`${host.baseUrl.replace('http', 'ws')}/rpc?token=${host.token}`, { origin: host.baseUrl })
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
  let next = 1
  return {
    call<T>(name: string, input: unknown): Promise<T> {
      const id = next++
      return new Promise<T>((resolve, reject) => {
        const on = (data: WebSocket.RawData) => {
          const frame = JSON.parse(data.toString()) as { kind: string; id?: number; result?: { ok: boolean; value?: T; error?: { message: string } } }
          if (frame.kind !== 'response' || frame.id !== id) return
          ws.off('message', on)
          if (frame.result?.ok) resolve(frame.result.value as T)
          else reject(new Error(frame.result?.error?.message ?? 'failed'))
        }
        ws.on('message', on)
        ws.send(JSON.stringify({ kind: 'request', id, name, input }))
      })
    },
    close: () => ws.close(),
  }
}

async function say(page: Page, text: string): Promise<void> {
  const ended = appEvent(page, 'turn.ended')
  await page.getByLabel('Message').fill(text)
  // Said here, a text the box lost (a re-render under the fill) fails as that, not as a Send that never enables.
  await expect(page.getByLabel('Message')).toHaveValue(text)
  await page.getByRole('button', { name: 'Send' }).click()
  await ended
}

/** Where the API's cache prefix ends for each cache_control key in pretty JSON: the close of the marked object. */
function markerLinesFromText(pretty: string): number[] {
  const lines = pretty.split('\n')
  const out: number[] = []
  lines.forEach((line, i) => {
    const m = /^(\s*)"cache_control": \{/.exec(line)
    if (!m) return
    const objectIndent = m[1]!.length - 2
    for (let j = i + 1; j < lines.length; j++) {
      if (lines[j]!.length - lines[j]!.trimStart().length === objectIndent && lines[j]!.trimStart().startsWith('}')) {
        out.push(j + 1)
        return
      }
    }
  })
  return out
}

/** A colour of the theme as the page computes it, to compare with a computed style. */
async function themeColor(page: Page, variable: string): Promise<string> {
  return page.evaluate((v) => {
    const probe = document.createElement('span')
    probe.style.color = `var(${v})`
    document.body.append(probe)
    const color = getComputedStyle(probe).color
    probe.remove()
    return color
  }, variable)
}

async function startSession(page: Page, projectDir: string): Promise<void> {
  await page.getByLabel('Folder path').fill(projectDir)
  await page.getByRole('button', { name: 'Open folder' }).click()
  await page.getByRole('button', { name: '+ New session' }).click()
  await expect(page.getByLabel('Message')).toBeVisible()
}

/** Chooses `model` in the chat's header, waits for the switch's price to read `priced`, switches, and gives the price. */
async function switchModel(page: Page, model: string, priced: RegExp): Promise<string> {
  const choice = page.getByLabel('Model', { exact: true })
  await choice.selectOption(model)
  const price = page.getByTestId('model-switch-price')
  await expect(price).toHaveText(priced)
  const words = (await price.textContent()) ?? ''
  await page.getByRole('group', { name: 'Switch the model' }).getByRole('button', { name: 'Switch', exact: true }).click()
  await expect(choice).toHaveValue(model)
  return words
}

test('shows the exact bytes of each pass, its breakpoints, its response, and the diff with the pass before', async ({ page, host, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  const projectDir = fixtureProject()
  const rpc = await contract(host)
  try {
    await openApp(page, host.url)
    await startSession(page, projectDir)
    await say(page, 'read README.md')
    await say(page, 'read src/a.ts')

    const inspector = page.getByRole('complementary', { name: 'Inspector' })
    const rows = inspector.getByRole('listbox', { name: 'Passes' }).getByRole('option')
    await expect(rows).toHaveCount(4)
    // Each pass was sent once: the tries column is blank on every row (it counts only a pass sent again), and its
    // tooltip still says how many times.
    await expect(rows.locator('.insp-attempts')).toHaveText(['', '', '', ''])
    await expect(rows.first().locator('.insp-attempts')).toHaveAttribute('title', '1 attempt, none failed')
    const passIds = await rows.evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.passId!))
    const details = await Promise.all(passIds.map((passId) => rpc.call<PassDetailView>('pass.get', { passId })))
    const last = details[3]!

    // The newest pass is shown; its bytes hash to the store's sha256 and to what the simulator received.
    await expect(inspector.locator(`[data-request-ready="${last.id}"]`)).toHaveCount(1)
    const sha = inspector.getByTestId('request-sha256')
    await expect(sha).toHaveAttribute('data-sha256', /^[0-9a-f]{64}$/)
    const shown = await sha.getAttribute('data-sha256')
    const wireEcho = last.attempts.at(-1)!.responseHeaders as Record<string, string>
    expect(shown).toBe(last.requestSha256)
    expect(shown).toBe(wireEcho['x-sim-request-sha256'])
    expect(createHash('sha256').update(last.requestBody, 'utf8').digest('hex')).toBe(last.requestSha256)
    await expect(sha).toContainText('= stored')
    await expect(sha).toContainText('= received by server')

    // Copy JSON puts exactly those bytes on the clipboard.
    await inspector.getByRole('button', { name: 'Copy JSON' }).click()
    await expect(inspector.getByRole('status')).toContainText('Copied')
    const copied = await page.evaluate(() => navigator.clipboard.readText())
    expect(createHash('sha256').update(copied, 'utf8').digest('hex')).toBe(last.requestSha256)

    // One rule per cache_control marker, right below the object that carries it.
    const pretty = JSON.stringify(JSON.parse(last.requestBody), null, 2)
    const rules = inspector.locator('.insp-bp')
    const ruleLines = (await rules.evaluateAll((els) => els.map((e) => Number((e as HTMLElement).dataset.afterLine)))).sort((a, b) => a - b)
    expect(ruleLines).toEqual(markerLinesFromText(pretty))
    expect(await rules.evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.tag))).toEqual(['static', 'session', 'previous_tail', 'newest_tail'])
    // A steady pass reads up to the previous tail and writes the new one.
    expect(await rules.evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.outcome))).toEqual(['read', 'read', 'read', 'written'])
    await expect(inspector.getByRole('button', { name: /BP1 static · 5m · read/ })).toBeVisible()
    // Folded, the legend shows its first rows whole; "+N more" lists every source, CLAUDE.md among them.
    await inspector.getByLabel('Context map').getByRole('button', { name: /^\+\d+ more$/ }).click()
    await expect(inspector.getByLabel('Context map')).toContainText('CLAUDE.md')
    // Its parts are estimates; beside their total, what the service counted for the same input.
    const u = last.usage!
    const counted = u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens
    expect(counted).toBeLessThan(10_000) // written in full below that, as the view writes token counts
    const countedText = counted.toLocaleString('en-US')
    await expect(inspector.getByTestId('context-map-total')).toContainText(new RegExp(`^≈[\\d,.k]+ tokens by estimate; ${countedText} counted`))
    mkdirSync('e2e/screenshots', { recursive: true })
    await page.screenshot({ path: 'e2e/screenshots/inspector-request.png' })

    // The context map scrolls the request to a source; clicking a file label asks the Files view to open it.
    await inspector.getByLabel('Context map').getByRole('button', { name: /^CLAUDE\.md/ }).click()
    // Provenance: the session block names the instruction file it carries.
    await expect(inspector.locator('.insp-zone-head[data-block="system[1]"]')).toContainText('CLAUDE.md')
    await inspector.locator('.insp-zone-head[data-block="system[1]"] .insp-file-link').first().click()
    await expect(page.getByRole('tab', { name: 'Files' })).toHaveAttribute('aria-selected', 'true')
    await expect(page.getByRole('region', { name: 'Open file' })).toContainText('CLAUDE.md')
    await page.getByRole('tab', { name: 'Chat' }).click()
    await expect(inspector.locator(`[data-request-ready="${last.id}"]`)).toHaveCount(1)

    // Raw bytes: the same text, unformatted.
    await inspector.getByRole('button', { name: 'Raw bytes' }).click()
    await expect(inspector.locator('.insp-bp')).toHaveCount(0)
    await expect(inspector.locator(`[data-request-ready="${last.id}"]`)).toHaveCount(1)
    await page.screenshot({ path: 'e2e/screenshots/inspector-raw.png' })
    await inspector.getByRole('button', { name: 'Pretty' }).click()

    // Response view: request-id, usage, the final message. The tabs take the arrow keys, as tab lists do.
    await inspector.getByRole('tab', { name: 'Request' }).focus()
    await page.keyboard.press('ArrowRight')
    await expect(inspector.getByRole('tab', { name: 'Response' })).toBeFocused()
    await expect(inspector.getByRole('tab', { name: 'Response' })).toHaveAttribute('aria-selected', 'true')
    const response = inspector.getByTestId('response-view')
    await expect(response).toContainText(last.attempts.at(-1)!.requestId!)
    await expect(response.getByRole('region', { name: 'Final message' })).toContainText('export const x = 1')
    // The pass's times count from queueing, as in the passes list; each attempt says when it started on that scale.
    await expect(response.getByRole('table', { name: /Attempts/ }).getByRole('row').nth(1).getByRole('cell').nth(2)).toHaveText(/^\+\d+ ms$/)
    await page.screenshot({ path: 'e2e/screenshots/inspector-response.png' })

    // Diff of pass 2 against pass 1: the first change is the new history block.
    await rows.nth(1).click()
    await inspector.getByRole('tab', { name: 'Diff' }).click()
    const summary = inspector.getByTestId('diff-summary')
    await expect(summary).toHaveAttribute('data-pair', `${passIds[0]}:${passIds[1]}`)
    await expect(summary).toHaveAttribute('data-first-path', 'messages[1]')
    // Pass 2's read ended right before its first change: the tokens on either side of it are the ones its usage counted.
    const u2 = details[1]!.usage!
    await expect(summary).toContainText(
      `(messages[1] · assistant; new block): the pass read the ${u2.cache_read_input_tokens.toLocaleString('en-US')} tokens before it from the cache and paid for the ${(u2.input_tokens + u2.cache_creation_input_tokens).toLocaleString('en-US')} from it on (counted).`,
    )
    await expect(inspector.locator(`[data-diff-ready="${passIds[0]}:${passIds[1]}"]`)).toHaveCount(1)
    // Monaco keeps its view zones out of the accessibility tree, so the mark is found by its class.
    // Pass 2 read everything pass 1 left: its first change is what is new, not where the cache stopped.
    await expect(inspector.locator('.insp-diff-mark')).toContainText('messages[1]: new since the pass before')
    await expect(inspector.locator('.insp-diff-mark')).toBeVisible()
    // In the gutter, the first change's bar and the diff's + / − signs on the same lines: the bar never lies over a
    // sign's glyph (a + under a bar reads as a −).
    const gutter = await inspector.locator('.insp-diff-editor').evaluate((host) => {
      const bars = [...host.querySelectorAll('.insp-gutter-first-change')].map((el) => el.getBoundingClientRect())
      const signs = [...host.querySelectorAll('.insert-sign, .delete-sign')].map((el) => {
        const r = el.getBoundingClientRect()
        const glyph = getComputedStyle(el, '::before')
        return { top: r.top, bottom: r.bottom, left: r.left, right: r.left + parseFloat(glyph.width) }
      })
      const sameLine = (a: { top: number; bottom: number }, b: { top: number; bottom: number }) => a.top < b.bottom - 1 && b.top < a.bottom - 1
      const pairs = bars.flatMap((bar) => signs.filter((sign) => sameLine(bar, sign)).map((sign) => ({ bar, sign })))
      return { pairs: pairs.length, overlapping: pairs.filter(({ bar, sign }) => bar.left < sign.right && sign.left < bar.right).map(({ bar, sign }) => [bar.left, bar.right, sign.left, sign.right]) }
    })
    expect(gutter.pairs, 'lines that carry both the bar and a sign').toBeGreaterThan(0)
    expect(gutter.overlapping).toEqual([])
    await page.screenshot({ path: 'e2e/screenshots/inspector-diff.png' })

    // Selecting a message in the chat selects the pass that produced it, and the other way round.
    await page.locator(`.msg.assistant[data-pass-id="${passIds[0]}"]`).click()
    await expect(rows.nth(0)).toHaveAttribute('aria-selected', 'true')
    await rows.nth(3).click()
    await expect(page.locator(`.msg.assistant[data-pass-id="${passIds[3]}"]`)).toHaveClass(/selected/)
    // Alt+↑ from the message box, where the user usually is, steps to the pass before.
    await page.getByLabel('Message').focus()
    await page.keyboard.press('Alt+ArrowUp')
    await expect(rows.nth(2)).toHaveAttribute('aria-selected', 'true')
    await expect(page.getByLabel('Message')).toBeFocused()
  } finally {
    rpc.close()
    rmSync(projectDir, { recursive: true, force: true })
  }
})

test("the request's sha256 and its checks keep one width while hashing and from pass to pass: the controls after them do not move", async ({ page, host }) => {
  // Hashes can be held back, to see the view while it hashes.
  await page.addInitScript(() => {
    const w = window as unknown as { __holdHashes: boolean; __releaseHashes(): void }
    const digest = crypto.subtle.digest.bind(crypto.subtle)
    let waiting: Array<() => void> = []
    w.__holdHashes = false
    w.__releaseHashes = () => {
      w.__holdHashes = false
      for (const go of waiting) go()
      waiting = []
    }
    crypto.subtle.digest = (async (algorithm: AlgorithmIdentifier, data: BufferSource) => {
      if (w.__holdHashes) await new Promise<void>((go) => waiting.push(go))
      return digest(algorithm, data)
    }) as typeof crypto.subtle.digest
  })
  const projectDir = fixtureProject()
  try {
    await openApp(page, host.url)
    await startSession(page, projectDir)
    await say(page, 'read README.md')
    await say(page, 'read src/a.ts')
    const inspector = page.getByRole('complementary', { name: 'Inspector' })
    const rows = inspector.getByRole('listbox', { name: 'Passes' }).getByRole('option')
    await expect(rows).toHaveCount(4)
    const sha = inspector.getByTestId('request-sha256')
    // The hash's box, and where the control after it starts.
    const place = () => sha.evaluate((el) => ({ width: Math.round(el.getBoundingClientRect().width), next: Math.round(el.nextElementSibling!.getBoundingClientRect().left) }))

    await expect(sha).toHaveAttribute('data-hashed', 'true')
    const hashed = await place()
    // Another pass, its hash held back: the box keeps its width, its checks their place (hidden, not said).
    await page.evaluate(() => ((window as unknown as { __holdHashes: boolean }).__holdHashes = true))
    const other = (await rows.nth(1).getAttribute('data-pass-id'))!
    await rows.nth(1).click()
    await expect(inspector.locator(`[data-request-ready="${other}"]`)).toHaveCount(1)
    await expect(sha).toHaveAttribute('data-hashed', 'false')
    await expect(sha).toHaveAttribute('title', 'hashing…')
    expect(await place()).toEqual(hashed)
    await expect(sha.getByText('= stored')).toBeHidden()
    await page.evaluate(() => (window as unknown as { __releaseHashes(): void }).__releaseHashes())
    await expect(sha).toHaveAttribute('data-hashed', 'true')
    await expect(sha.getByText('= stored')).toBeVisible()
    expect(await place()).toEqual(hashed)
    // The hash is in a monospace box of 13 characters.
    const code = await sha.locator('code').evaluate((el) => ({ font: getComputedStyle(el).fontFamily, text: el.textContent }))
    expect(code.font).toMatch(/mono/i)
    expect(code.text).toMatch(/^[0-9a-f]{12}…$/)
    await inspector.screenshot({ path: 'e2e/screenshots/inspector-sha-width.png' })
  } finally {
    rmSync(projectDir, { recursive: true, force: true })
  }
})

test('remembers its layout and lists a whole project', async ({ page, host }) => {
  const projectDir = fixtureProject()
  try {
    await openApp(page, host.url)
    await startSession(page, projectDir)
    await say(page, 'read README.md')
    const inspector = page.getByRole('complementary', { name: 'Inspector' })
    const rows = inspector.getByRole('listbox', { name: 'Passes' }).getByRole('option')
    await expect(rows).toHaveCount(2)
    // The context map hidden stays hidden: from one pass to the next, and across a reload (below).
    await rows.nth(1).click()
    await inspector.getByRole('button', { name: 'Hide context map' }).click()
    await expect(inspector.getByLabel('Context map')).toHaveCount(0)
    await rows.nth(0).click()
    await expect(inspector.getByRole('button', { name: 'Context map', exact: true })).toHaveAttribute('aria-expanded', 'false')

    // Wait for the new session's chat to replace the old one, or the message could go into the old composer.
    const chat = page.getByRole('region', { name: 'Session' })
    const previous = (await chat.getAttribute('data-session-id'))!
    await page.getByRole('button', { name: '+ New session' }).click()
    await expect(chat).not.toHaveAttribute('data-session-id', previous)
    await say(page, 'hello')
    await expect(rows).toHaveCount(1)
    await inspector.getByLabel('Which passes').selectOption('project')
    await expect(rows).toHaveCount(3)

    await inspector.getByRole('button', { name: 'Collapse the inspector' }).click()
    await expect(inspector.getByRole('button', { name: /Inspector · 3 passes/ })).toBeVisible()
    await page.reload()
    await expect(page.locator('html[data-app-ready="true"]')).toHaveCount(1)
    await page.getByRole('list', { name: 'Sessions' }).getByRole('button').first().click()
    const collapsed = page.getByRole('complementary', { name: 'Inspector' })
    await expect(collapsed.getByRole('button', { name: /Inspector · \d+ pass/ })).toBeVisible()
    await collapsed.getByRole('button', { name: /Inspector ·/ }).click()
    await expect(collapsed.getByRole('listbox', { name: 'Passes' })).toBeVisible()
    await collapsed.getByRole('listbox', { name: 'Passes' }).getByRole('option').first().click()
    await expect(collapsed.getByRole('button', { name: 'Context map', exact: true })).toHaveAttribute('aria-expanded', 'false')
  } finally {
    rmSync(projectDir, { recursive: true, force: true })
  }
})

test("the whole project's list takes another session's passes as they are stored, named as the sidebar names the session", async ({ page, host }) => {
  const projectDir = fixtureProject()
  try {
    await openApp(page, host.url)
    await startSession(page, projectDir)
    await say(page, 'read README.md')
    const chat = page.getByRole('region', { name: 'Session' })
    const first = (await chat.getAttribute('data-session-id'))!
    const inspector = page.getByRole('complementary', { name: 'Inspector' })
    const rows = inspector.getByRole('listbox', { name: 'Passes' }).getByRole('option')
    await inspector.getByLabel('Which passes').selectOption('project')
    await expect(rows).toHaveCount(2)

    // A new session is named by its first message: its rows carry that name, not its id.
    await page.getByRole('button', { name: '+ New session' }).click()
    await expect(chat).not.toHaveAttribute('data-session-id', first)
    const second = (await chat.getAttribute('data-session-id'))!
    await say(page, 'list src')
    await expect(rows).toHaveCount(4)
    const named = (await page.locator(`.sessions button.session[data-session-id="${second}"] .session-title`).textContent())!.trim()
    expect(named).not.toContain(second)
    await expect(rows.nth(2).locator('.insp-session')).toHaveAttribute('title', new RegExp(`^${named.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} · pass 1 · `))
    await expect(rows.nth(2).locator('.insp-session')).not.toContainText('ses_')

    // Back in the first session, a turn of the second one (from another window) is listed as its passes are stored.
    await page.locator(`.sessions button.session[data-session-id="${first}"]`).click()
    await expect(chat).toHaveAttribute('data-session-id', first)
    await expect(rows).toHaveCount(4)
    const ended = appEvent(page, 'turn.ended')
    await ended.armed
    await call(host, 'run.start', { sessionId: second, text: 'read src/a.ts' })
    await ended
    await expect(rows).toHaveCount(6)
    await expect(inspector.getByTestId('pass-count')).toContainText('6 passes')
    // Only the rows on screen exist: each says where it stands in the whole list.
    await expect(rows.nth(5)).toHaveAttribute('aria-posinset', '6')
    await expect(rows.nth(5)).toHaveAttribute('aria-setsize', '6')
    // The selection stays in the session shown.
    await expect(rows.nth(1)).toHaveAttribute('aria-selected', 'true')
    await expect(rows.and(page.locator('[aria-selected="true"]'))).toHaveCount(1)
    await page.screenshot({ path: 'e2e/screenshots/inspector-whole-project-live.png' })
  } finally {
    rmSync(projectDir, { recursive: true, force: true })
  }
})

test('following the newest pass goes on after a compaction made from its view', async ({ page, host }) => {
  const projectDir = fixtureProject()
  // Two messages are enough to compact when only the last step is kept whole and the first read a long file.
  mkdirSync(join(projectDir, '.loupe'))
  writeFileSync(join(projectDir, '.loupe/config.toml'), '[compaction]\nkeep_steps = 1\n')
  writeFileSync(join(projectDir, 'README.md'), `# demo\n${Array.from({ length: 300 }, (_, i) => `Line ${i}: the ledger keeps account ${i} and balances it nightly.\n`).join('')}`)
  try {
    await openApp(page, host.url)
    await startSession(page, projectDir)
    await say(page, 'read README.md')
    await say(page, 'read src/a.ts')
    const inspector = page.getByRole('complementary', { name: 'Inspector' })
    const rows = inspector.getByRole('listbox', { name: 'Passes' }).getByRole('option')
    // End in the list: the newest pass, followed from now on.
    await inspector.getByTestId('passes-list').focus()
    await page.keyboard.press('End')
    await expect(rows.last()).toHaveAttribute('aria-selected', 'true')

    // The compaction's pass is made while the inspector is not shown.
    await page.getByRole('tab', { name: 'Compaction' }).click()
    const compacted = appEvent(page, 'compaction.applied')
    await page.getByRole('button', { name: 'Compact now' }).click()
    await compacted
    await page.getByRole('tab', { name: 'Chat' }).click()
    const chat = page.getByRole('region', { name: 'Session' })
    const sessionId = (await chat.getAttribute('data-session-id'))!
    const rpc = await contract(host)
    const afterCompaction = await rpc.call<Array<{ id: string; kind: string }>>('pass.list', { sessionId })
    rpc.close()
    expect(afterCompaction.at(-1)!.kind).toBe('summary')
    await expect(rows).toHaveCount(afterCompaction.length)
    await expect(rows.last()).toHaveAttribute('aria-selected', 'true')
    // The kind column holds "summary" whole, beside the chat at 1280 px as at 1000 px.
    for (const width of [1280, 1000]) {
      await page.setViewportSize({ width, height: 800 })
      const kind = rows.last().locator('> :nth-child(4)')
      await expect(kind).toHaveText('summary')
      expect(await kind.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true)
    }
    await page.setViewportSize({ width: 1280, height: 800 })

    // The next message's pass is followed too.
    await say(page, 'thanks')
    await expect(rows).toHaveCount(afterCompaction.length + 1)
    await expect(inspector.locator('[data-live="true"]')).toHaveCount(0)
    await expect(rows.last()).toHaveAttribute('aria-selected', 'true')
  } finally {
    rmSync(projectDir, { recursive: true, force: true })
  }
})

test.describe('live', () => {
  // The realistic pace streams for a second or two, long enough to watch the pass fill in.
  const live = base.extend<{ host: BrowserHostProcess }>({ host: hostFixture({ LOUPE_SIM_PACE: 'realistic' }) })

  live('a pass appears as soon as it is sent and fills in as the response streams', async ({ page, host }) => {
    const projectDir = fixtureProject()
    try {
      await openApp(page, host.url)
      await startSession(page, projectDir)
      // Record what the pane shows while the pass is in flight: the stream lasts well under a second, so the
      // page watches its own DOM rather than the test polling it.
      await page.evaluate(() => {
        const seen = { row: false, streamingRow: false, liveText: '' }
        ;(window as unknown as { __seen: typeof seen }).__seen = seen
        new MutationObserver(() => {
          const row = document.querySelector('[data-live="true"]')
          if (row) seen.row = true
          if (row && /streaming · [\d,]+ chars/.test(row.textContent ?? '')) seen.streamingRow = true
          const text = document.querySelector('[data-testid="live-response"] pre')?.textContent ?? ''
          if (text.length > seen.liveText.length) seen.liveText = text
        }).observe(document.body, { subtree: true, childList: true, characterData: true })
      })
      const inspector = page.getByRole('complementary', { name: 'Inspector' })
      // The streamed text is under Response; the Request tab of a pass in flight holds only a note.
      await inspector.getByRole('tab', { name: 'Response' }).click()
      const started = appEvent(page, 'pass.started')
      const ended = appEvent(page, 'turn.ended')
      await page.getByLabel('Message').fill('hello there, what can you do?')
      await page.getByRole('button', { name: 'Send' }).click()
      await started
      await page.screenshot({ path: 'e2e/screenshots/inspector-live.png' })
      await ended
      const seen = await page.evaluate(() => (window as unknown as { __seen: { row: boolean; streamingRow: boolean; liveText: string } }).__seen)
      expect(seen.row).toBe(true)
      expect(seen.streamingRow).toBe(true)
      // The pane was following the newest pass, so the live response was shown as it streamed.
      expect(seen.liveText.length).toBeGreaterThan(20)
      const rows = inspector.getByRole('listbox', { name: 'Passes' }).getByRole('option')
      await expect(inspector.locator('[data-live="true"]')).toHaveCount(0)
      await expect(rows).toHaveCount(1)
      // The stored pass took the live row's place and is selected, its request on screen.
      await expect(rows.first()).toHaveAttribute('aria-selected', 'true')
      await inspector.getByRole('tab', { name: 'Request' }).click()
      const id = await rows.first().getAttribute('data-pass-id')
      await expect(inspector.locator(`[data-request-ready="${id}"]`)).toHaveCount(1)
    } finally {
      rmSync(projectDir, { recursive: true, force: true })
    }
  })
})

// A stream slow enough to stop by hand (a delta every 250 ms).
const slow = base.extend<{ host: BrowserHostProcess }>({ host: hostFixture({ LOUPE_SIM_PACE: 'slow' }) })

slow("a stopped pass's cache badge is read in full beside the chat, with who stopped it in its title", async ({ page, host }) => {
  const projectDir = fixtureProject()
  try {
    // The inspector beside the chat on a laptop-sized window: the passes list's cache column is at its narrowest
    // there before the list drops columns.
    await page.setViewportSize({ width: 1400, height: 900 })
    await openApp(page, host.url)
    await startSession(page, projectDir)
    const ended = appEvent(page, 'turn.ended')
    // A greeting is answered in one pass of several seconds at this pace (no tool call, so no gap between passes
    // for the Escape to land in): the Escape stops that pass, however late it comes.
    await page.getByLabel('Message').fill('hello')
    await page.getByRole('button', { name: 'Send' }).click()
    await expect(page.getByTestId('streaming')).toBeVisible()
    await page.keyboard.press('Escape')
    await ended

    const inspector = page.getByRole('complementary', { name: 'Inspector' })
    const row = inspector.getByRole('listbox', { name: 'Passes' }).getByRole('option').first()
    await expect(row).toHaveClass(/\bcancelled\b/)
    const badge = row.locator('.insp-badge')
    await expect(badge).toHaveText('stopped')
    await expect(badge).toHaveAttribute('title', /^stopped: cancelled by the user before the answer ended/)
    const fits = await badge.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }))
    expect(fits.scroll).toBeLessThanOrEqual(fits.client)
    // A stop is the user's choice, not an error: the tries column (retries after an error) does not count it as failed.
    const tries = row.locator('.insp-attempts')
    await expect(tries).not.toHaveClass(/\bretried\b/)
    await expect(tries).toHaveText('')
    await expect(tries).toHaveAttribute('title', /^1 attempt, stopped by the user$/)
    await inspector.screenshot({ path: 'e2e/screenshots/inspector-stopped-pass.png' })
  } finally {
    rmSync(projectDir, { recursive: true, force: true })
  }
})

slow('a window reloaded in the middle of a pass shows that pass at once, in the inspector and the chat, with what it streamed so far', async ({ page, host }) => {
  const projectDir = fixtureProject()
  try {
    await openApp(page, host.url)
    await startSession(page, projectDir)
    // A file's text streams as the tool call's input, 24 characters every 250 ms: this one takes about 20 s.
    const text = Array.from({ length: 40 }, (_, i) => `Line ${i}: the quick brown fox.`).join(' ')
    await page.getByLabel('Message').fill(`create a file notes.md with "${text}"`)
    await page.getByRole('button', { name: 'Send' }).click()
    await expect(page.getByTestId('streaming')).toContainText('Line 0')

    await page.reload()
    await expect(page.locator('html[data-app-ready="true"]')).toHaveCount(1)
    // Before the next event has said anything, the chat shows the call being written and the inspector its live row.
    const inspector = page.getByRole('complementary', { name: 'Inspector' })
    const liveRow = inspector.locator('[data-live="true"]')
    await expect(liveRow).toContainText(/streaming · [\d,]+ chars/)
    await expect(page.getByTestId('streaming')).toContainText('Line 0')
    await expect(liveRow).toHaveAttribute('aria-selected', 'true')
    // Its figure is read whole, beside the chat at 1280 px and at 1000 px (there without the word "streaming").
    for (const width of [1280, 1000]) {
      await page.setViewportSize({ width, height: 800 })
      const note = liveRow.locator('.insp-live-note')
      await expect(note).toBeVisible()
      expect(await note.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true)
    }
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.screenshot({ path: 'e2e/screenshots/inspector-live-after-reload.png' })
    // And it goes on streaming from there.
    const before = Number(((await liveRow.textContent()) ?? '').match(/streaming · ([\d,]+) chars/)![1]!.replace(/,/g, ''))
    await expect.poll(async () => Number(((await liveRow.textContent()) ?? '').match(/streaming · ([\d,]+) chars/)?.[1]?.replace(/,/g, '') ?? 0)).toBeGreaterThan(before)

    const ended = appEvent(page, 'turn.ended')
    await page.getByRole('button', { name: 'Stop' }).click()
    await ended
    await expect(liveRow).toHaveCount(0)
  } finally {
    rmSync(projectDir, { recursive: true, force: true })
  }
})

slow("the live row's note is read whole before the first byte too, in a wide pane and a narrow one", async ({ page, host }) => {
  const projectDir = fixtureProject()
  try {
    // Without thinking, which at this pace would take a minute to stream before the answer begins.
    await call(host, 'settings.set', { app: { thinking: false } })
    await openApp(page, host.url)
    await startSession(page, projectDir)
    // The note before the first byte lasts a fraction of a second: the page itself notes how it is drawn when it is.
    await page.evaluate(() => {
      const seen: Array<{ width: number; text: string; fits: boolean }> = []
      ;(window as unknown as { seenWaiting: typeof seen }).seenWaiting = seen
      new MutationObserver(() => {
        const note = document.querySelector<HTMLElement>('[data-live="true"] .insp-live-note')
        const label = [...(note?.children ?? [])].find((el) => getComputedStyle(el).display !== 'none') as HTMLElement | undefined
        if (!note || !label || !/waiting|no byte/.test(label.textContent ?? '')) return
        if (seen.at(-1)?.width === window.innerWidth) return
        seen.push({ width: window.innerWidth, text: label.textContent ?? '', fits: note.scrollWidth <= note.clientWidth })
      }).observe(document.body, { childList: true, subtree: true })
    })
    for (const width of [1400, 1000]) {
      await page.setViewportSize({ width, height: 900 })
      const ended = appEvent(page, 'turn.ended')
      await page.getByLabel('Message').fill('hi')
      await page.getByLabel('Message').press('Enter')
      await ended
    }
    const seen = await page.evaluate(() => (window as unknown as { seenWaiting: Array<{ width: number; text: string; fits: boolean }> }).seenWaiting)
    expect(seen).toEqual([
      { width: 1400, text: 'sent, no byte yet…', fits: true },
      { width: 1000, text: 'waiting…', fits: true },
    ])
  } finally {
    rmSync(projectDir, { recursive: true, force: true })
  }
})

test('the request keeps its bytes in view when the window is made smaller and when the inspector moves below', async ({ page, host }) => {
  const projectDir = fixtureProject()
  try {
    await page.setViewportSize({ width: 1400, height: 900 })
    await openApp(page, host.url)
    await startSession(page, projectDir)
    await say(page, 'read README.md')
    const inspector = page.getByRole('complementary', { name: 'Inspector' })
    const rows = inspector.getByRole('listbox', { name: 'Passes' }).getByRole('option')
    await expect(rows).toHaveCount(2)
    await rows.last().click()
    const passId = await rows.last().evaluate((el) => (el as HTMLElement).dataset.passId!)
    await expect(inspector.locator(`.insp-request[data-request-ready="${passId}"]`)).toHaveCount(1)
    // How many pixels of the bytes are on screen: inside the view's scrolling box and inside the window.
    const bytesShown = () =>
      page.evaluate(() => {
        const view = document.querySelector('.insp-view')!.getBoundingClientRect()
        const bytes = document.querySelector('.insp-editor')!.getBoundingClientRect()
        return Math.round(Math.min(view.bottom, bytes.bottom, window.innerHeight) - Math.max(view.top, bytes.top, 0))
      })
    expect(await bytesShown()).toBeGreaterThanOrEqual(60)
    // The controls above the bytes that the view's top edge cuts through: scrolled to the bytes, a control is either
    // shown whole or scrolled out whole, never left half under the tabs.
    const cutAtTop = () =>
      page.evaluate(() => {
        const top = document.querySelector('.insp-view')!.getBoundingClientRect().top
        return [...document.querySelectorAll('.insp-request > :not(.insp-editor) :is(button, select, .insp-sha, .insp-bps-summary, .insp-map-bar, .insp-map-total)')]
          .filter((el) => {
            const r = el.getBoundingClientRect()
            return r.height > 0 && r.top < top - 0.5 && r.bottom > top + 0.5
          })
          .map((el) => el.textContent)
      })
    // The same pass, the window made smaller: the view is shorter than its controls and bytes, and shows the bytes.
    await page.setViewportSize({ width: 900, height: 700 })
    await expect.poll(bytesShown).toBeGreaterThanOrEqual(60)
    expect(await cutAtTop()).toEqual([])
    await page.screenshot({ path: 'e2e/screenshots/inspector-request-small-window.png' })
    // Docked below in that window: the list is at its minimum, and the view shows the bytes again.
    await inspector.getByRole('button', { name: 'Dock below the chat' }).click()
    await expect(inspector.getByRole('button', { name: 'Dock beside the chat' })).toBeVisible()
    await expect.poll(bytesShown).toBeGreaterThanOrEqual(60)
    expect(await cutAtTop()).toEqual([])
    await page.screenshot({ path: 'e2e/screenshots/inspector-request-docked-below-small-window.png' })
  } finally {
    rmSync(projectDir, { recursive: true, force: true })
  }
})

/** The text of the lines a Monaco editor shows inside its own box, top to bottom, spaces as spaces. */
async function shownText(page: Page, editor: string): Promise<string> {
  return page.evaluate((selector) => {
    const host = document.querySelector(selector)!
    const box = host.querySelector('.monaco-scrollable-element')!.getBoundingClientRect()
    return [...host.querySelectorAll<HTMLElement>('.view-lines .view-line')]
      .map((el) => ({ el, r: el.getBoundingClientRect() }))
      .filter(({ r }) => r.top >= box.top - 1 && r.bottom <= box.bottom + 1)
      .sort((a, b) => a.r.top - b.r.top)
      .map(({ el }) => el.textContent!.replace(/\u00a0/g, ' '))
      .join('')
  }, editor)
}

test("in Raw bytes a breakpoint chip shows the bytes where its block ends, that breakpoint's cache_control", async ({ page, host }) => {
  const projectDir = fixtureProject()
  const rpc = await contract(host)
  try {
    await openApp(page, host.url)
    await startSession(page, projectDir)
    await say(page, 'read README.md')
    await say(page, 'read src/a.ts')
    const inspector = page.getByRole('complementary', { name: 'Inspector' })
    const rows = inspector.getByRole('listbox', { name: 'Passes' }).getByRole('option')
    await expect(rows).toHaveCount(4)
    const passId = await rows.last().evaluate((el) => (el as HTMLElement).dataset.passId!)
    const detail = await rpc.call<PassDetailView>('pass.get', { passId })
    await expect(inspector.locator(`.insp-request[data-request-ready="${passId}"]`)).toHaveCount(1)
    await inspector.getByRole('button', { name: 'Raw bytes' }).click()
    await expect(inspector.getByRole('button', { name: 'Raw bytes' })).toHaveAttribute('aria-pressed', 'true')
    const body = JSON.parse(detail.requestBody) as unknown
    const chips = inspector.locator('.insp-bp-chip')
    await expect(chips).toHaveCount(4)
    for (let i = 0; i < 4; i++) {
      // The chip's tooltip names the object that carries its cache_control ("messages[3].content[0] · ≈…").
      const path = (await chips.nth(i).getAttribute('title'))!.split('\n')[1]!.split(' · ')[0]!
      let marked = body
      for (const part of path.match(/[^.[\]]+/g)!) marked = (marked as Record<string, unknown>)[/^\d+$/.test(part) ? Number(part) : part]
      // The raw body is compact JSON: the marked object's own bytes end with its cache_control member.
      const bytes = JSON.stringify(marked)
      expect(bytes).toMatch(/"cache_control":\{[^}]*\}\}$/)
      const end = bytes.slice(-90)
      expect(detail.requestBody.split(end).length, `${path}'s last bytes are found once`).toBe(2)
      await chips.nth(i).click()
      await expect.poll(() => shownText(page, '.insp-request .insp-editor'), { message: `${path}: its bytes are on screen` }).toContain(end)
      await expect(inspector.locator('.insp-request .insp-editor .selected-text').first()).toBeVisible()
      if (i === 1) await page.screenshot({ path: 'e2e/screenshots/inspector-raw-breakpoint.png' })
    }
  } finally {
    rpc.close()
    rmSync(projectDir, { recursive: true, force: true })
  }
})

test('another pass chosen in a short view opens with its controls whole, not at the scroll the pass before was left at', async ({ page, host }) => {
  const projectDir = fixtureProject()
  try {
    // Beside the chat in a 900×640 window (at 900×700, what a longer list of passes leaves): the view is too short for
    // the request's controls and its bytes.
    await page.setViewportSize({ width: 900, height: 640 })
    await openApp(page, host.url)
    await startSession(page, projectDir)
    await say(page, 'read README.md')
    await say(page, 'read src/a.ts')
    const inspector = page.getByRole('complementary', { name: 'Inspector' })
    const rows = inspector.getByRole('listbox', { name: 'Passes' }).getByRole('option')
    await expect(rows).toHaveCount(4)
    const passIds = await rows.evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.passId!))
    await rows.nth(2).click()
    await expect(inspector.locator(`.insp-request[data-request-ready="${passIds[2]}"]`)).toHaveCount(1)
    // The user scrolls the view so that its top edge cuts the breakpoint chips in half.
    // The user scrolls the view so that its top edge cuts the breakpoint chips in half.
    await page.evaluate(() => {
      const view = document.querySelector<HTMLElement>('.insp-view')!
      const chip = document.querySelector('.insp-bp-chip')!.getBoundingClientRect()
      view.scrollTop += chip.top + chip.height / 2 - view.getBoundingClientRect().top
    })
    const chipsCut = () =>
      page.evaluate(() => {
        const top = document.querySelector('.insp-view')!.getBoundingClientRect().top
        return [...document.querySelectorAll('.insp-request > :not(.insp-editor) :is(button, select, .insp-sha, .insp-bps-summary, .insp-map-bar, .insp-map-total)')]
          .filter((el) => {
            const r = el.getBoundingClientRect()
            return r.height > 0 && r.top < top - 0.5 && r.bottom > top + 0.5
          })
          .map((el) => el.textContent)
      })
    expect(await chipsCut()).not.toEqual([])
    // Another pass: its view is laid out from the top, and scrolled only as far as its bytes need, every control whole.
    await rows.nth(3).click()
    await expect(inspector.locator(`.insp-request[data-request-ready="${passIds[3]}"]`)).toHaveCount(1)
    await expect.poll(chipsCut).toEqual([])
    const chipsShown = await inspector.locator('.insp-bp-chip').evaluateAll((els) => {
      const view = document.querySelector('.insp-view')!.getBoundingClientRect()
      return els.every((el) => {
        const r = el.getBoundingClientRect()
        return r.top >= view.top - 0.5 && r.bottom <= view.bottom + 0.5
      })
    })
    expect(chipsShown, 'the new pass shows its breakpoint chips whole').toBe(true)
    await page.screenshot({ path: 'e2e/screenshots/inspector-request-another-pass-900.png' })
  } finally {
    rmSync(projectDir, { recursive: true, force: true })
  }
})

test("a narrow pane's diff mark takes the height of its wrapped words, and the hidden earlier side is no Tab stop", async ({ page, host }) => {
  const projectDir = fixtureProject()
  try {
    // A small window: the pane beside the chat is at its narrowest, and the diff is shown inline.
    await page.setViewportSize({ width: 1000, height: 700 })
    await openApp(page, host.url)
    await startSession(page, projectDir)
    await say(page, 'read README.md')
    const inspector = page.getByRole('complementary', { name: 'Inspector' })
    const rows = inspector.getByRole('listbox', { name: 'Passes' }).getByRole('option')
    await expect(rows).toHaveCount(2)
    const passIds = await rows.evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.passId!))
    // At this width (about 330 px) the request's controls take one line and its breakpoint chips another, in their
    // short words: the first pass writes at every breakpoint, the second reads and writes.
    const linesOf = (selector: string) => inspector.locator(selector).evaluateAll((els) => new Set(els.map((e) => Math.round(e.getBoundingClientRect().top))).size)
    for (const row of [0, 1]) {
      await rows.nth(row).click()
      await expect(inspector.locator(`.insp-request[data-request-ready="${passIds[row]}"]`)).toHaveCount(1)
      expect(await linesOf('.insp-toolbar > button')).toBe(1)
      expect(await linesOf('.insp-bp-chip')).toBe(1)
    }
    await expect(inspector.locator('.insp-bp-chip').last()).toHaveText(/^BP\d (read|write)$/, { useInnerText: true })
    await inspector.screenshot({ path: 'e2e/screenshots/inspector-request-narrow.png' })
    // Whenever the diff's lines are on screen, the last line shown: the first change of a block is past line 100 (the
    // tools come first), so a diff shown only above it (at line 1) is one that looks as if nothing changed.
    await page.evaluate(() => {
      const w = window as unknown as { diffLastLines: number[] }
      w.diffLastLines = []
      new MutationObserver(() => {
        const side = document.querySelector('.insp-diff-editor .editor.modified')
        const visible = side?.checkVisibility({ visibilityProperty: true, checkVisibilityCSS: true, opacityProperty: true, checkOpacity: true } as CheckVisibilityOptions)
        const numbers = [...(side?.querySelectorAll('.line-numbers') ?? [])].map((el) => Number(el.textContent)).filter((n) => n > 0)
        if (visible && numbers.length) w.diffLastLines.push(Math.max(...numbers))
      }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true })
    })
    await inspector.getByRole('tab', { name: 'Diff' }).click()
    await expect(inspector.locator(`[data-diff-ready="${passIds[0]}:${passIds[1]}"]`)).toHaveCount(1)
    await expect(inspector.locator('.insp-diff-mark')).toBeVisible()
    const lastLines = await page.evaluate(() => (window as unknown as { diffLastLines: number[] }).diffLastLines)
    expect(lastLines.length).toBeGreaterThan(0)
    expect(lastLines.filter((line) => line < 100), 'the diff was shown at its start, far above its first change').toEqual([])

    // The words wrap at this width; the zone Monaco leaves above the block is as tall as they are, so they do not
    // lie over the code below (Monaco sets the zone's own node to the zone's height).
    const mark = inspector.locator('.insp-diff-mark')
    await expect(mark).toBeVisible()
    const box = await mark.evaluate((el) => {
      const range = document.createRange()
      range.selectNodeContents(el)
      const rects = [...range.getClientRects()]
      const zone = el.parentElement!.getBoundingClientRect()
      return {
        lines: new Set(rects.map((r) => Math.round(r.top))).size,
        overTop: zone.top - Math.min(...rects.map((r) => r.top)),
        overBottom: Math.max(...rects.map((r) => r.bottom)) - zone.bottom,
      }
    })
    expect(box.lines).toBeGreaterThan(1)
    expect(box.overTop).toBeLessThanOrEqual(0)
    expect(box.overBottom).toBeLessThanOrEqual(0)
    await inspector.screenshot({ path: 'e2e/screenshots/inspector-diff-narrow.png' })

    // Tab from the Diff tab through the view: the earlier pass's editor, squeezed to its line numbers, is skipped.
    await inspector.getByRole('tab', { name: 'Diff' }).focus()
    const stops: string[] = []
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Tab')
      stops.push(await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.tagName ?? ''))
    }
    expect(stops).toContain('This pass’s request')
    expect(stops).not.toContain('The earlier pass’s request')
  } finally {
    rmSync(projectDir, { recursive: true, force: true })
  }
})

slow('a pass that ends while another project is shown is listed stored, not left streaming; under Diff a streaming pass is not compared', async ({ page, host }) => {
  const elsewhereDir = fixtureProject()
  const projectDir = fixtureProject()
  const rpc = await contract(host)
  try {
    await openApp(page, host.url)
    await openProjectWithSession(page, elsewhereDir)
    await openProjectWithSession(page, projectDir)
    const chat = page.getByRole('region', { name: 'Session' })
    const sessionId = (await chat.getAttribute('data-session-id'))!
    const inspector = page.getByRole('complementary', { name: 'Inspector' })
    await inspector.getByRole('tab', { name: 'Diff' }).click()

    const started = appEvent(page, 'pass.started')
    const ended = appEvent(page, 'turn.ended')
    await page.getByLabel('Message').fill('what is in this project')
    await page.getByRole('button', { name: 'Send' }).click()
    await started
    // The pass has no stored request yet: the Diff tab says when its diff comes, and shows no streamed text.
    await expect(inspector.getByTestId('live-diff')).toHaveText('Pass 1 of this turn is still streaming. The diff with the previous pass is shown once this pass is stored.')
    await expect(inspector.getByTestId('live-response')).toHaveCount(0)
    await expect(inspector.locator('[data-live="true"]')).toContainText(/streaming · [\d,]+ chars/)
    await inspector.screenshot({ path: 'e2e/screenshots/inspector-live-diff.png' })

    // Another project while the pass streams: no session is shown there, so the inspector is gone until the user
    // comes back, and the pass ends unseen.
    await page.locator(`button.project[title="${realpathSync(elsewhereDir)}"]`).click()
    await expect(inspector).toHaveCount(0)
    await ended
    await page.locator(`button.project[title="${realpathSync(projectDir)}"]`).click()
    await expect(chat).toHaveAttribute('data-session-id', sessionId)

    const stored = await rpc.call<unknown[]>('pass.list', { sessionId })
    const rows = inspector.getByRole('listbox', { name: 'Passes' }).getByRole('option')
    await expect(rows).toHaveCount(stored.length)
    await expect(inspector.locator('[data-live="true"]')).toHaveCount(0)
    await expect(inspector.getByTestId('live-diff')).toHaveCount(0)
    await expect(rows.last()).toHaveAttribute('aria-selected', 'true')
    await page.screenshot({ path: 'e2e/screenshots/inspector-back-to-project.png' })
  } finally {
    rpc.close()
    rmSync(elsewhereDir, { recursive: true, force: true })
    rmSync(projectDir, { recursive: true, force: true })
  }
})

slow('beside the chat in a 1024 px window, the header keeps its height while a pass streams: the passes list does not move', async ({ page, host }) => {
  const projectDir = fixtureProject()
  try {
    await page.setViewportSize({ width: 1024, height: 768 })
    await openApp(page, host.url)
    await startSession(page, projectDir)
    await say(page, 'read README.md')
    const inspector = page.getByRole('complementary', { name: 'Inspector' })
    const list = inspector.getByTestId('passes-list')
    const idle = (await list.boundingBox())!.y
    const started = appEvent(page, 'pass.started')
    const ended = appEvent(page, 'turn.ended')
    await page.getByLabel('Message').fill('explain this project')
    await page.getByRole('button', { name: 'Send' }).click()
    await started
    // The count says so, cut short in a narrow pane, its whole text on hover, on the header's one line.
    await expect(inspector.getByTestId('pass-count')).toHaveAttribute('title', /^\d+ passes, the newest streaming$/)
    expect((await list.boundingBox())!.y).toBe(idle)
    await inspector.screenshot({ path: 'e2e/screenshots/inspector-1024-streaming-header.png' })
    await ended
    expect((await list.boundingBox())!.y).toBe(idle)
  } finally {
    rmSync(projectDir, { recursive: true, force: true })
  }
})

slow('a session shown again while its pass streams shows the pass live; the live Request tab holds only its note', async ({ page, host }) => {
  const projectDir = fixtureProject()
  try {
    await openApp(page, host.url)
    await startSession(page, projectDir)
    const chat = page.getByRole('region', { name: 'Session' })
    const sessionId = (await chat.getAttribute('data-session-id'))!
    const inspector = page.getByRole('complementary', { name: 'Inspector' })
    const liveRow = inspector.locator('[data-live="true"]')

    const started = appEvent(page, 'pass.started')
    const ended = appEvent(page, 'turn.ended')
    await page.getByLabel('Message').fill('explain this project')
    await page.getByRole('button', { name: 'Send' }).click()
    await started
    await expect(liveRow).toContainText(/streaming · [\d,]+ chars/)
    // The first pass streaming is a pass in the count, and its Request tab says when the bytes come, nothing more.
    await expect(inspector.getByTestId('pass-count')).toHaveText('1 pass, streaming')
    await expect(inspector.getByTestId('live-request')).toContainText('Its exact request bytes are shown once this pass is stored')
    await expect(inspector.getByTestId('live-response')).toHaveCount(0)
    await inspector.getByRole('tab', { name: 'Response' }).click()
    await expect(inspector.getByTestId('live-response').locator('pre').first()).not.toBeEmpty()
    // Its header names the model by its name, the id on hover.
    const liveModel = inspector.getByTestId('live-response').locator('.model-named')
    await expect(liveModel).toHaveText('Sonnet 4.6')
    await expect(liveModel).toHaveAttribute('title', 'claude-sonnet-4-6')
    await inspector.getByRole('tab', { name: 'Request' }).click()

    // Another session while the pass streams, then back to the running one: its live row is there, followed.
    await page.getByRole('button', { name: '+ New session' }).click()
    await expect(chat).not.toHaveAttribute('data-session-id', sessionId)
    await expect(liveRow).toHaveCount(0)
    await page.locator(`.sessions button.session[data-session-id="${sessionId}"]`).click()
    await expect(chat).toHaveAttribute('data-session-id', sessionId)
    await expect(liveRow).toContainText(/streaming · [\d,]+ chars/)
    await expect(liveRow).toHaveAttribute('aria-selected', 'true')
    await expect(inspector.getByTestId('live-request')).toBeVisible()
    await inspector.screenshot({ path: 'e2e/screenshots/inspector-live-back-to-session.png' })

    await ended
    const rows = inspector.getByRole('listbox', { name: 'Passes' }).getByRole('option')
    await expect(liveRow).toHaveCount(0)
    await expect(rows.last()).toHaveAttribute('aria-selected', 'true')
    await expect(inspector.getByTestId('pass-count')).toHaveText(/^\d+ pass(es)?$/)
  } finally {
    rmSync(projectDir, { recursive: true, force: true })
  }
})

test("a miss nothing could have avoided is badged and flagged in grey, in the inspector as in the Cache view's list", async ({ page, host }) => {
  const projectDir = fixtureProject()
  try {
    await openApp(page, host.url)
    await startSession(page, projectDir)
    // Claude Opus 4.6 caches nothing under 4,096 tokens, more than this whole prompt: no pass can read anything.
    await page.getByLabel('Model', { exact: true }).selectOption('claude-opus-4-6')
    await expect(page.locator('.note').filter({ hasText: 'Model: Opus 4.6' })).toHaveCount(1)
    await say(page, 'read README.md')
    const inspector = page.getByRole('complementary', { name: 'Inspector' })
    const rows = inspector.getByRole('listbox', { name: 'Passes' }).getByRole('option')
    await expect(rows).toHaveCount(2)
    // The second pass is a miss at the best possible: said so, in grey, with its cause, and nothing lost.
    const badge = rows.nth(1).locator('.insp-badge')
    await expect(badge).toHaveText('miss')
    await expect(badge).toHaveAttribute('title', /prefix below the minimum/)
    await expect(badge).toHaveCSS('color', await themeColor(page, '--muted'))
    await rows.nth(1).click()
    await expect(page.getByTestId('pass-line').locator('.insp-badge')).toHaveCSS('color', await themeColor(page, '--muted'))
    await expect(page.getByTestId('pass-lost')).toHaveCount(0)
    // Its breakpoints could not cache anything: each says it is too short to cache, in grey, not a red miss.
    await expect(inspector.locator(`[data-request-ready="${await rows.nth(1).getAttribute('data-pass-id')}"]`)).toHaveCount(1)
    const chips = inspector.getByRole('group', { name: 'Cache breakpoints' }).locator('.insp-bp-chip')
    expect(await chips.count()).toBeGreaterThan(0)
    for (const chip of await chips.all()) {
      await expect(chip).toHaveAttribute('aria-label', /· too short to cache$/)
      await expect(chip).toHaveCSS('color', await themeColor(page, '--muted'))
    }
    await expect(inspector.locator('.insp-bp[data-outcome="missed"]')).toHaveCount(0)
    await expect(inspector.locator('.insp-bp[data-outcome="too_short"]').first()).toHaveCSS('color', await themeColor(page, '--muted'))
    await inspector.screenshot({ path: 'e2e/screenshots/inspector-too-short-to-cache.png' })
    await page.getByRole('tab', { name: 'Cache' }).click()
    const flag = page.getByTestId('cache-miss')
    await expect(flag).toHaveCount(1)
    await expect(flag.locator('path')).toHaveCSS('fill', await themeColor(page, '--muted'))
    await expect(page.locator('[data-testid="miss-row"] .chip')).toHaveClass(/^chip\s*$/)
    // Its cause names the model by its name, the id on hover, in the words' own colour.
    await expect(page.getByTestId('miss-row')).toContainText("under Opus 4.6's minimum of 4,096")
    const named = page.getByTestId('miss-row').locator('.model-named')
    await expect(named).toHaveAttribute('title', 'claude-opus-4-6')
    expect(await named.evaluate((el) => getComputedStyle(el).color === getComputedStyle(el.parentElement!).color)).toBe(true)
    await page.screenshot({ path: 'e2e/screenshots/cache-miss-nothing-lost.png' })
  } finally {
    rmSync(projectDir, { recursive: true, force: true })
  }
})

test("after a switch to a model that caches none of the session, the Cache view says why the passes after it read nothing, as the switch's question did", async ({ page, host }) => {
  const projectDir = fixtureProject()
  try {
    await openApp(page, host.url)
    await startSession(page, projectDir)
    await say(page, 'read README.md')
    // Opus 4.6 caches nothing under 4,096 tokens, more than this whole prompt: the question says every pass pays in full.
    const price = await switchModel(page, 'claude-opus-4-6', /^Switching to Claude Opus 4\.6 caches none of this session: that model caches nothing under 4,096 tokens, and this prompt is [\d,]+\. Every pass pays for all of it in full until the conversation grows past that/)
    const prompt = /this prompt is ([\d,]+)\./.exec(price)![1]!
    await say(page, 'read src/a.ts')
    await page.getByRole('tab', { name: 'Cache' }).click()
    const rows = page.getByTestId('miss-row')
    await expect(rows).toHaveCount(2)
    // The pass after the switch: the switch, and why it read nothing, in the question's words and with its count.
    await expect(rows.nth(0)).toHaveAttribute('data-cause', 'model_changed')
    await expect(rows.nth(0)).toHaveText(
      `pass 3 miss model changed: Sonnet 4.6 → Opus 4.6 (the cache is per model); Opus 4.6 caches nothing under 4,096 tokens, and the prompt before the new tail is ${prompt}: every pass pays for all of it in full until the conversation grows past that`,
    )
    // The pass after it: the prefix under that model's minimum. Both grey, neither lost anything.
    await expect(rows.nth(1)).toHaveAttribute('data-cause', 'below_minimum')
    await expect(rows.nth(1)).toHaveText(/^pass 4 miss prefix below the minimum: the [\d,]+ tokens before the new tail are under Opus 4\.6's minimum of 4,096$/)
    await expect(rows.locator('.chip')).toHaveClass([/^chip\s*$/, /^chip\s*$/])
    const muted = await themeColor(page, '--muted')
    for (const flag of await page.getByTestId('cache-miss').all()) await expect(flag.locator('path')).toHaveCSS('fill', muted)
    await expect(page.getByRole('region', { name: 'Lost to misses, by cause' })).toContainText('Nothing was lost: the misses listed are ones no cache could have avoided (each one says why).')
    await page.getByTestId('cache-view').screenshot({ path: 'e2e/screenshots/cache-switch-to-a-model-that-caches-nothing.png' })
    // The inspector's pass line gives the same cause, the models by their names.
    await rows.nth(0).getByRole('button', { name: 'pass 3' }).click()
    await page.getByTestId('cache-focused').getByRole('button', { name: 'Open in the inspector' }).click()
    await expect(page.getByTestId('pass-cause')).toHaveText(/^model changed: Sonnet 4\.6 → Opus 4\.6 \(the cache is per model\); Opus 4\.6 caches nothing under 4,096 tokens/)
  } finally {
    rmSync(projectDir, { recursive: true, force: true })
  }
})

test("the Cache view's chart keeps a miss's triangle clear of its pass's $ dot, and each chooses the pass; the switch's loss is the one its question gave", async ({ page, host }) => {
  const projectDir = fixtureProject()
  try {
    await openApp(page, host.url)
    await startSession(page, projectDir)
    await say(page, 'read README.md')
    // Opus 4.8 costs more than Sonnet 4.6: the pass after the switch is a miss and the dearest, its $ dot at the top.
    const price = await switchModel(page, 'claude-opus-4-8', /for the cache it loses \(what the Cache view will count as that pass's loss\)/)
    const lost = /\$(\d\.\d{4}) for the cache it loses/.exec(price)![1]!
    await say(page, 'read src/a.ts')
    await page.getByRole('tab', { name: 'Cache' }).click()
    const flags = page.getByTestId('cache-miss')
    await expect(flags).toHaveCount(1)
    const passId = (await flags.getAttribute('data-pass'))!
    const dot = page.locator(`[data-testid="cache-cost-dot"][data-pass="${passId}"]`)
    const a = (await flags.locator('path').boundingBox())!
    const b = (await dot.boundingBox())!
    const apart = a.y + a.height <= b.y || b.y + b.height <= a.y || a.x + a.width <= b.x || b.x + b.width <= a.x
    expect(apart).toBe(true)
    // The list of misses gives the loss the question priced, and says it is measured on the new model.
    await expect(page.getByTestId('miss-row')).toContainText(`lost $${lost} on the new model, at its prices`)
    await page.getByTestId('cache-timeline').screenshot({ path: 'e2e/screenshots/cache-miss-beside-cost-dot.png' })
    // Each of the two chooses the pass: the dot, then (after another pass was chosen) the triangle.
    await dot.click()
    const seq = (await page.getByTestId('cache-focused').locator('strong').textContent())!
    expect(seq).toMatch(/^Pass \d+ · main$/)
    await page.getByTestId('cache-timeline').locator('.cache-bar').first().click()
    await expect(page.getByTestId('cache-focused').locator('strong')).not.toHaveText(seq)
    await flags.click()
    await expect(page.getByTestId('cache-focused').locator('strong')).toHaveText(seq)
  } finally {
    rmSync(projectDir, { recursive: true, force: true })
  }
})

test("the Response view puts the service's cache diagnosis beside Loupe's own, for a model switch and for a pass that only appended", async ({ page, host }) => {
  const projectDir = fixtureProject()
  try {
    await openApp(page, host.url)
    await startSession(page, projectDir)
    await say(page, 'read README.md')
    await switchModel(page, 'claude-opus-5-5', /^Switching to Claude Opus 5\.5 starts the cache afresh/)
    await say(page, 'read src/a.ts')
    const inspector = page.getByRole('complementary', { name: 'Inspector' })
    const rows = inspector.getByRole('listbox', { name: 'Passes' }).getByRole('option')
    await expect(rows).toHaveCount(4)
    await rows.nth(2).click()
    await inspector.getByRole('tab', { name: 'Response' }).click()
    const diagnosis = inspector.getByTestId('cache-diagnosis')
    await expect(diagnosis).toHaveText(/^service: model changed · [\d,]+ tokens of the previous prompt from there on · Loupe: model changed \(they agree\)$/)
    await expect(diagnosis).toHaveAttribute('data-agree', 'true')
    // The cause names the models by their names, each id on hover; so do the pass's line and the chat's note.
    const cause = page.getByTestId('pass-cause')
    await expect(cause).toHaveText('model changed: Sonnet 4.6 → Opus 5.5 (the cache is per model)')
    await expect(cause.locator('.model-named')).toHaveText(['Sonnet 4.6', 'Opus 5.5'])
    expect(await cause.locator('.model-named').evaluateAll((els) => els.map((e) => e.getAttribute('title')))).toEqual(['claude-sonnet-4-6', 'claude-opus-5-5'])
    await expect(page.getByTestId('pass-line')).toHaveAttribute('title', /model changed: Sonnet 4\.6 \(claude-sonnet-4-6\) → Opus 5\.5 \(claude-opus-5-5\)/)
    await expect(page.getByTestId('pass-line').locator('.model-named').first()).toHaveText('Opus 5.5')
    const note = page.locator('.note').filter({ hasText: /^Model: / })
    await expect(note).toHaveText('Model: Opus 5.5')
    await expect(note.locator('.model-named')).toHaveAttribute('title', 'claude-opus-5-5')
    await rows.nth(2).click()
    await inspector.getByRole('tab', { name: 'Diff' }).click()
    await expect(inspector.getByTestId('diff-summary')).toContainText('Model changed (Sonnet 4.6 → Opus 5.5)')
    await inspector.getByRole('tab', { name: 'Response' }).click()
    await page.screenshot({ path: 'e2e/screenshots/inspector-cache-diagnosis.png' })
    await rows.nth(3).click()
    await expect(diagnosis).toHaveText('service: no change since the previous response · Loupe: no change since the previous pass (they agree)')
  } finally {
    rmSync(projectDir, { recursive: true, force: true })
  }
})

test('the inspector keeps the pass chosen and the keyboard: opened from the Cache view after a reload, docked below, shown with Ctrl+I where one pane fits', async ({ page, host }) => {
  const projectDir = fixtureProject()
  try {
    await page.setViewportSize({ width: 1280, height: 800 })
    await openApp(page, host.url)
    await startSession(page, projectDir)
    for (const text of ['read README.md', 'list the root', 'read src/a.ts', 'find "x"']) await say(page, text)
    const list = page.getByTestId('passes-list')
    const selected = list.locator('[role="option"][aria-selected="true"]')
    const rows = await list.locator('[role="option"]').count()
    expect(rows).toBeGreaterThan(6)

    // Docked below, the list is shorter: the newest pass, selected by the app, stays in sight.
    await expect(selected).toHaveAttribute('data-seq', String(rows))
    await page.getByRole('button', { name: 'Dock below the chat' }).click()
    await expect(page.getByRole('button', { name: 'Dock beside the chat' })).toBeVisible()
    await expect.poll(async () => {
      const [row, box] = [await selected.boundingBox(), await list.boundingBox()]
      return row !== null && box !== null && row.y >= box.y - 1 && row.y + row.height <= box.y + box.height + 1
    }).toBe(true)
    await page.screenshot({ path: 'e2e/screenshots/inspector-docked-below-newest-in-sight.png' })
    await page.getByRole('button', { name: 'Dock beside the chat' }).click()

    // From the Cache view, in a window that has not shown the inspector since it loaded: the pass chosen is the one
    // the inspector opens on, the keyboard on the passes list.
    await page.getByRole('tab', { name: 'Cache' }).click()
    await page.reload()
    await expect(page.getByTestId('cache-view')).toBeVisible()
    await page.getByTestId('cache-timeline').locator('.cache-bar').nth(1).click()
    await expect(page.getByTestId('cache-focused').locator('strong')).toHaveText(/^Pass 2 ·/)
    await page.getByTestId('cache-focused').getByRole('button', { name: 'Open in the inspector' }).click()
    await expect(selected).toHaveAttribute('data-seq', '2')
    await expect(list).toBeFocused()
    // The list's own keys go on from it.
    await page.keyboard.press('ArrowDown')
    await expect(selected).toHaveAttribute('data-seq', '3')

    // Where one pane fits at a time, Ctrl+I swaps them and the keyboard goes with the pane that shows.
    await page.setViewportSize({ width: 800, height: 600 })
    await page.getByLabel('Message').focus()
    await page.keyboard.press('Control+i')
    await expect(list).toBeFocused()
    await expect(page.getByLabel('Message')).toBeHidden()
    await page.keyboard.press('Control+i')
    await expect(page.getByLabel('Message')).toBeFocused()
  } finally {
    rmSync(projectDir, { recursive: true, force: true })
  }
})
