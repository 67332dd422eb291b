/**
 * The chat's "Show 150 earlier entries" deep into a long session, measured in Chromium (playwright-core) against the
 * built browser host. A session of 25,000 entries is written into the store and opened in a page just loaded; the
 * chat is shown earlier step by step past `DEEP_ENTRIES` entries, then each click is timed from the click to the
 * frame after the entries it adds are painted. Each click is made as a user makes it, scrolled up to the button.
 *
 * - `chat.show_earlier_deep_ms`: a click that draws entries the window already holds, thousands of entries shown,
 *   against the same click near the newest entries (the first clicks, a few hundred shown).
 * - `chat.show_earlier_reading_deep_ms`: a click that first reads a page of 1,000 earlier entries from the host
 *   (decision 0039), against the clicks at the same depth that read nothing. The page changes the session's entries,
 *   which every answer shown is drawn from; an answer draws again only for its own calls' results
 *   (src-renderer/features/chat/answer-props.ts).
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import { CHROMIUM_ARGS, findChromium } from '../scripts/chromium.cjs'
import { percentile, round, type Bench } from './bench'
import { outDir, settle, startContractHost } from './support/browser-host'
import { appendLongConversation } from './support/long-session'
import { openStore } from '../src-main/node/store'

const TURNS = 5_000
/** Entries shown when the deep clicks are timed: a user who scrolled back through a day's work. */
const DEEP_ENTRIES = 6_000
/** Clicks near the newest entries, the baseline of the deep ones. */
const SHALLOW_CLICKS = 5
/** Clicks that read from the host, timed at depth (one click in about seven reads). */
const READING_CLICKS = 5

const bench: Bench = {
  figures: ['chat.show_earlier_deep_ms', 'chat.show_earlier_reading_deep_ms'],
  async run() {
    if (!existsSync(join(outDir, 'main/server.js'))) throw new Error('build first: npm run build')
    const executablePath = findChromium()
    if (!executablePath) throw new Error('no Chromium found (see scripts/chromium.cjs)')
    const dir = mkdtempSync(join(tmpdir(), 'loupe-bench-earlier-'))
    const projectRoot = mkdtempSync(join(dir, 'project-'))
    writeFileSync(join(projectRoot, 'README.md'), '# A project\n')
    const host = await startContractHost(join(dir, 'home'))
    const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS })
    try {
      const project = await host.call<{ id: string; name: string }>('project.open', { path: projectRoot })
      const session = await host.call<{ id: string }>('session.create', { projectId: project.id, title: 'Bench: scrolled back' })
      const store = openStore(join(dir, 'home', 'loupe.db'))
      try {
        appendLongConversation(store, session.id, TURNS, { turnsPerCompaction: 500, resultLines: 10, at: Date.now() })
      } finally {
        store.close()
      }
      const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } })
      await page.addInitScript({ content: 'globalThis.__name = (f) => f' })
      // Which clicks read from the host: the window's requests for earlier entries, as they leave the page.
      let reads = 0
      page.on('websocket', (socket) => socket.on('framesent', (frame) => typeof frame.payload === 'string' && frame.payload.includes('"session.entries"') && reads++))
      await page.goto(host.url)
      await page.waitForSelector('html[data-app-ready="true"]')
      await page.getByRole('navigation', { name: 'Projects' }).getByText(project.name, { exact: true }).click()
      await page.locator(`button.session[data-session-id="${session.id}"]`).click()
      await page.waitForSelector(`section.chat[data-session-id="${session.id}"] .msg.assistant[data-pass-id="pas_long${TURNS - 1}"]`)

      /**
       * One click on "Show earlier", where a user clicks it: scrolled up to it, at the top of what is shown (untimed).
       * Timed: ms until the frame after the button's count changed has been painted.
       */
      const click = async (): Promise<{ ms: number; read: boolean }> => {
        await page.evaluate(() => document.querySelector('button.show-earlier')?.scrollIntoView({ block: 'start' }))
        await settle(page)
        const readsBefore = reads
        const ms = await page.evaluate(async () => {
          const button = document.querySelector<HTMLButtonElement>('button.show-earlier')
          if (!button) throw new Error('no "Show earlier" button')
          const before = button.textContent
          const started = performance.now()
          // As a pointer clicks (detail 1): a click no pointer made is the keyboard's, which keeps the button in place
          // instead of the entry being read (Conversation.tsx); either costs the same.
          button.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, detail: 1 }))
          await new Promise<void>((resolve) => {
            const tick = () => {
              if (document.querySelector('button.show-earlier')?.textContent !== before) requestAnimationFrame(() => setTimeout(resolve, 0))
              else requestAnimationFrame(tick)
            }
            tick()
          })
          return performance.now() - started
        })
        return { ms, read: reads > readsBefore }
      }
      // What the conversation draws: its entries, held in parts (src-renderer/features/chat/parts.ts) or, in a build
      // from before the parts (LOUPE_OUT_DIR), directly.
      const shownEntries = () => page.evaluate(() => document.querySelectorAll('.conversation > :not(.conversation-part), .conversation-part > *').length)

      const shallow: number[] = []
      while ((await shownEntries()) < DEEP_ENTRIES) {
        const c = await click()
        if (shallow.length < SHALLOW_CLICKS && !c.read) shallow.push(c.ms)
      }
      const deep: number[] = []
      const reading: number[] = []
      while (reading.length < READING_CLICKS) {
        const c = await click()
        ;(c.read ? reading : deep).push(c.ms)
      }
      const shown = await shownEntries()
      const depth = `from ${DEEP_ENTRIES.toLocaleString('en')} entries shown to ${shown.toLocaleString('en')}`
      return [
        {
          name: 'chat.show_earlier_deep_ms',
          value: round(percentile(deep, 50), 1),
          unit: 'ms',
          baseline: round(percentile(shallow, 50), 1),
          ratio: round(percentile(deep, 50) / percentile(shallow, 50), 2),
          note: `median of ${deep.length} clicks ${depth}, against the first ${shallow.length} (a few hundred shown); p95 ${round(percentile(deep, 95), 1)} vs ${round(percentile(shallow, 95), 1)} ms`,
        },
        {
          name: 'chat.show_earlier_reading_deep_ms',
          value: round(percentile(reading, 50), 1),
          unit: 'ms',
          baseline: round(percentile(deep, 50), 1),
          ratio: round(percentile(reading, 50) / percentile(deep, 50), 2),
          note: `median of ${reading.length} clicks that read 1,000 entries from the host, ${depth}, against the ${deep.length} there that read nothing; p95 ${round(percentile(reading, 95), 1)} vs ${round(percentile(deep, 95), 1)} ms`,
        },
      ]
    } finally {
      await browser.close()
      await host.stop()
      rmSync(dir, { recursive: true, force: true })
    }
  },
}

export default bench
