/**
 * Chat figures, measured in Chromium (playwright-core) against the built browser host and its simulator at instant
 * pace: the time from choosing a session in the sidebar to its newest answer drawn, for a long session (150 turns,
 * 300 passes, ≈750 entries) and, in the same run as the baseline, a short one (10 turns). The chat draws a long
 * conversation's newest entries only (src-renderer/features/chat/Conversation.tsx `SHOWN_ENTRIES_STEP`), so the long
 * session should open about as fast as the short one: the ratio is long / short.
 *
 * `chat.open_very_long_session_ms`: the same for a session of 25,000 entries, each open in a page just loaded (the
 * session read from the host, not drawn again from what the page held), against the short one opened the same way.
 * The window is sent the session's newest entries only (decision 0039).
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Page } from 'playwright-core'
import { CHROMIUM_ARGS, findChromium } from '../scripts/chromium.cjs'
import { percentile, round, type Bench } from './bench'
import { outDir, settle, startContractHost } from './support/browser-host'
import { appendLongConversation } from './support/long-session'
import { openStore } from '../src-main/node/store'
import { SESSION_WINDOW_ENTRIES } from '../src-preload/limits'

const LONG_TURNS = 150
const SHORT_TURNS = 10
/** Turns of the very long session, written into the store (five entries each, a compaction every 500). */
const VERY_LONG_TURNS = 5_000
const WARMUP = 2
const RUNS = 10

/** Milliseconds from a click on the session's row to the frame after its newest answer is in the chat. */
async function openSession(page: Page, sessionId: string, lastPassId: string): Promise<number> {
  return page.evaluate(
    async ({ sid, pass }) => {
      const row = document.querySelector<HTMLElement>(`button.session[data-session-id="${sid}"]`)
      if (!row) throw new Error(`no row for ${sid}`)
      const started = performance.now()
      row.click()
      await new Promise<void>((resolve) => {
        const tick = () => {
          if (document.querySelector(`section.chat[data-session-id="${sid}"] .msg.assistant[data-pass-id="${pass}"]`)) requestAnimationFrame(() => resolve())
          else requestAnimationFrame(tick)
        }
        tick()
      })
      return performance.now() - started
    },
    { sid: sessionId, pass: lastPassId },
  )
}


const bench: Bench = {
  figures: ['chat.open_long_session_ms', 'chat.open_very_long_session_ms'],
  async run() {
    if (!existsSync(join(outDir, 'main/server.js'))) throw new Error('build first: npm run build')
    const executablePath = findChromium()
    if (!executablePath) throw new Error('no Chromium found (see scripts/chromium.cjs)')
    const dir = mkdtempSync(join(tmpdir(), 'loupe-bench-chat-'))
    const projectRoot = mkdtempSync(join(dir, 'project-'))
    for (let i = 0; i < 8; i++) writeFileSync(join(projectRoot, `notes${i}.md`), `# Notes ${i}\n\n${'A line of notes about the project. '.repeat(20)}\n`)
    const host = await startContractHost(join(dir, 'home'))
    const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS })
    try {
      const project = await host.call<{ id: string; name: string }>('project.open', { path: projectRoot })
      const made = async (title: string, turns: number) => {
        const session = await host.call<{ id: string }>('session.create', { projectId: project.id, title })
        for (let i = 0; i < turns; i++) await host.turn(session.id, i % 2 === 0 ? `read notes${i % 8}.md` : 'list the files')
        const passes = await host.call<Array<{ id: string }>>('pass.list', { sessionId: session.id })
        const state = await host.call<{ entries: unknown[] }>('session.get', { sessionId: session.id })
        return { id: session.id, lastPassId: passes.at(-1)!.id, passes: passes.length, entries: state.entries.length }
      }
      const long = await made('Bench: long', LONG_TURNS)
      const short = await made('Bench: short', SHORT_TURNS)
      // A session that went on for days: written into the store file behind the host, as an import writes it.
      const veryLong = await host.call<{ id: string }>('session.create', { projectId: project.id, title: 'Bench: very long' })
      const store = openStore(join(dir, 'home', 'loupe.db'))
      let veryLongEntries = 0
      try {
        appendLongConversation(store, veryLong.id, VERY_LONG_TURNS, { turnsPerCompaction: 500, resultLines: 10, at: Date.now() })
        veryLongEntries = store.entries.count(veryLong.id)
      } finally {
        store.close()
      }

      const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } })
      await page.addInitScript({ content: 'globalThis.__name = (f) => f' })
      await page.goto(host.url)
      await page.waitForSelector('html[data-app-ready="true"]')
      await page.getByRole('navigation', { name: 'Projects' }).getByText(project.name, { exact: true }).click()
      await page.waitForSelector(`button.session[data-session-id="${long.id}"]`)

      // The two sessions take turns, so both meet the same machine and the same warm engine.
      const longMs: number[] = []
      const shortMs: number[] = []
      const veryLongMs: number[] = []
      for (let i = 0; i < WARMUP + RUNS; i++) {
        await settle(page)
        const l = await openSession(page, long.id, long.lastPassId)
        await settle(page)
        const s = await openSession(page, short.id, short.lastPassId)
        if (i < WARMUP) continue
        longMs.push(l)
        shortMs.push(s)
      }
      // Opened in a page just loaded, so what is measured is the session read (session.get) and drawn, not drawn
      // again from what the page held. The short session, opened the same way, is the baseline.
      const coldShortMs: number[] = []
      const cold = async (sessionId: string, lastPassId: string) => {
        await page.reload()
        await page.waitForSelector('html[data-app-ready="true"]')
        await page.getByRole('navigation', { name: 'Projects' }).getByText(project.name, { exact: true }).click()
        await page.waitForSelector(`button.session[data-session-id="${sessionId}"]`)
        await settle(page)
        return openSession(page, sessionId, lastPassId)
      }
      for (let i = 0; i < WARMUP + RUNS; i++) {
        const v = await cold(veryLong.id, `pas_long${VERY_LONG_TURNS - 1}`)
        const s = await cold(short.id, short.lastPassId)
        if (i < WARMUP) continue
        veryLongMs.push(v)
        coldShortMs.push(s)
      }
      const ours = percentile(longMs, 50)
      const baseline = percentile(shortMs, 50)
      return [
        {
          name: 'chat.open_long_session_ms',
          value: round(ours, 1),
          unit: 'ms',
          baseline: round(baseline, 1),
          ratio: round(ours / baseline, 2),
          note: `median of ${RUNS}: a ${long.passes}-pass session (${long.entries} entries) against a ${short.passes}-pass one (${short.entries}); p95 ${round(percentile(longMs, 95), 1)} vs ${round(percentile(shortMs, 95), 1)} ms`,
        },
        {
          name: 'chat.open_very_long_session_ms',
          value: round(percentile(veryLongMs, 50), 1),
          unit: 'ms',
          baseline: round(percentile(coldShortMs, 50), 1),
          ratio: round(percentile(veryLongMs, 50) / percentile(coldShortMs, 50), 2),
          note: `median of ${RUNS}, each in a page just loaded: a ${veryLongEntries}-entry session (${VERY_LONG_TURNS} turns, a compaction every 500; the window is sent the newest ${SESSION_WINDOW_ENTRIES}) against the ${short.passes}-pass one; p95 ${round(percentile(veryLongMs, 95), 1)} vs ${round(percentile(coldShortMs, 95), 1)} ms`,
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
