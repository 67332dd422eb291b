/**
 * Inspector figures, measured in Chromium (playwright-core) against the built browser host:
 * - time from selecting a pass to its request view being interactive, for a ≈150k-token request (≈600 KB), and
 *   side by side in the same run the same pretty text opened in a plain read-only Monaco editor (no rules, labels
 *   or folding): ours / plain;
 * - frames over 50 ms while the passes list of 5,000+ passes scrolls for 3 seconds, in a page of its own.
 *
 * The store is written directly (openStore(...).passes.insert) into a temporary LOUPE_HOME before the host starts.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Page } from 'playwright-core'
import WebSocket from 'ws'
import { openStore } from '../src-main/node/store'
import type { NewPass, SegmentMeta } from '../src-main/node/store/passes'
import { CHROMIUM_ARGS, findChromium } from '../scripts/chromium.cjs'
import { percentile, round, type Bench } from './bench'
import { outDir, settle, startBrowserHost } from './support/browser-host'

const SMALL_PASSES = 5000
/** More big passes than the view cache keeps (4), so every opening fetches and prepares its pass afresh. */
const BIG_PASSES = 6
/** Tool-result pairs per big pass: ≈3.3 KB each, ≈600 KB in all (≈150k tokens at 4 characters per token). */
const BIG_PAIRS = 180
const WARMUP = 4
const RUNS = 30
const SCROLL_MS = 3000
const LONG_FRAME_MS = 50

const CODE_LINE = 'export function compute(value: number): number { return value * 2 + offset(value) } // line\n'

const tool = (name: string) => ({ name, description: `The ${name} tool. `.repeat(30), input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } })
const TOOLS = ['bash', 'edit_file', 'glob', 'grep', 'list_dir', 'read_file', 'remember', 'skill', 'todo_write', 'write_file'].map(tool)
const STATIC = 'You are Loupe, a coding agent. '.repeat(50)
const SESSION = `# Project instructions\n\n${'Use tabs. Run npm test before committing. '.repeat(60)}`

interface Built {
  readonly body: string
  readonly meta: (path: string) => SegmentMeta
  readonly tokens: number
}

/** A request with `pairs` assistant/tool-result exchanges after the first message, with the app's breakpoints. */
function request(pairs: number, tag: string, previousTail: number | null): Built {
  const messages: Array<{ role: string; content: Array<Record<string, unknown>> }> = [
    { role: 'user', content: [{ type: 'text', text: `<session>project demo</session>` }, { type: 'text', text: `Start ${tag}` }] },
  ]
  for (let i = 0; i < pairs; i++) {
    messages.push({ role: 'assistant', content: [{ type: 'text', text: `Reading file ${i}.` }, { type: 'tool_use', id: `toolu_${tag}_${i}`, name: 'read_file', input: { path: `src/f${i}.ts` } }] })
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${tag}_${i}`, content: `${i}\t${CODE_LINE.repeat(34)}` }] })
  }
  const last = messages.length - 1
  const mark = (index: number) => {
    const blocks = messages[index]!.content
    blocks[blocks.length - 1] = { ...blocks[blocks.length - 1]!, cache_control: { type: 'ephemeral' } }
  }
  if (previousTail !== null && previousTail < last) mark(previousTail)
  mark(last)
  const body = JSON.stringify({
    model: 'claude-sonnet-4-6',
    max_tokens: 8192,
    system: [
      { type: 'text', text: STATIC, cache_control: { type: 'ephemeral' } },
      { type: 'text', text: SESSION, cache_control: { type: 'ephemeral' } },
    ],
    tools: TOOLS,
    messages,
    stream: true,
  })
  const tokensOf = (value: unknown) => Math.ceil(JSON.stringify(value).length / 4)
  const meta = (path: string): SegmentMeta => {
    const m = /^(tools|system|messages)\[(\d+)\]$/.exec(path)
    const i = Number(m?.[2])
    if (m?.[1] === 'tools') return { provenance: { kind: 'tool', name: TOOLS[i]!.name }, breakpoint: null }
    if (m?.[1] === 'system') {
      const text = i === 0 ? STATIC : SESSION
      return {
        provenance: { kind: 'system', block: i === 0 ? 'static' : 'session', tokens: Math.ceil(text.length / 4), spans: [{ section: i === 0 ? 'base_rules' : 'project_instructions', file: i === 0 ? null : 'CLAUDE.md', start: 0, end: text.length }] },
        breakpoint: i === 0 ? 'static' : 'session',
      }
    }
    const message = messages[i]!
    const kind = i === 0 ? 'user_input' : message.role === 'assistant' ? 'assistant' : 'tool_results'
    const blocks = message.content.map((_, j) => (i === 0 && j === 0 ? { kind: 'section', section: 'session_context', reason: null } : { kind: 'history', entryIds: [`ent_${tag}_${i}`], historyKind: kind }))
    return {
      provenance: { kind: 'history', entryIds: [`ent_${tag}_${i}`], historyKind: kind, tokens: tokensOf(message), blocks },
      breakpoint: i === last ? 'newest_tail' : i === previousTail ? 'previous_tail' : null,
    }
  }
  return { body, meta, tokens: Math.ceil(body.length / 4) }
}

function pass(sessionId: string, built: Built, at: number, read: number): NewPass {
  const write = Math.max(0, built.tokens - read - 3)
  return {
    sessionId,
    kind: 'main',
    model: 'claude-sonnet-4-6',
    status: 'done',
    queuedAt: at,
    firstByteAt: at + 400,
    doneAt: at + 1200,
    requestBody: built.body,
    segmentMeta: built.meta,
    attempts: [{ startedAt: at + 5, firstByteAt: at + 400, endedAt: at + 1200, status: 200, requestId: `req_${at}`, error: null, responseHeaders: {}, responseBody: 'event: message_stop\ndata: {"type":"message_stop"}\n\n' }],
    messageId: `msg_${at}`,
    stopReason: 'tool_use',
    usage: { input_tokens: 3, output_tokens: 40, cache_read_input_tokens: read, cache_creation_input_tokens: write },
    costUsd: 0.001,
    error: null,
    plan: { tokens: { tools: Math.ceil(JSON.stringify(TOOLS).length / 4) } },
  }
}

/**
 * Writes one project with two sessions: one of 5,000 small passes (the list to scroll) and one of the big passes
 * (the requests to open). They are apart so that each big pass is delta-encoded against the big pass before it, as in
 * a real session: the store re-assembles a body by walking that chain of bases (at most MAX_CHAIN_DEPTH passes).
 */
export function seedStore(home: string, projectRoot: string): { projectName: string; longSession: string; longNewestId: string; bigSession: string; bigIds: string[] } {
  const store = openStore(join(home, 'loupe.db'))
  try {
    const t0 = Date.UTC(2026, 10, 29, 9)
    const project = store.projects.open(projectRoot, t0)
    const long = store.sessions.create(project.id, 'Bench: 5,000 passes', t0)
    const longNewestId = store.transaction(() => {
      let read = 0
      let newest = ''
      for (let i = 0; i < SMALL_PASSES; i++) {
        const built = request(1 + (i % 3), `s${i}`, null)
        newest = store.passes.insert(pass(long.id, built, t0 + i * 2000, read)).id
        read = Math.floor(built.tokens * 0.9)
      }
      return newest
    })
    const big = store.sessions.create(project.id, 'Bench: 150k-token requests', t0 + 1)
    const bigIds: string[] = []
    let read = 0
    for (let k = 0; k < BIG_PASSES; k++) {
      const built = request(BIG_PAIRS + k, 'big', k === 0 ? null : 2 * (BIG_PAIRS + k - 1))
      bigIds.push(store.transaction(() => store.passes.insert(pass(big.id, built, t0 + (SMALL_PASSES + k) * 2000, read))).id)
      read = built.tokens - 200
    }
    return { projectName: project.name, longSession: long.title, longNewestId, bigSession: big.title, bigIds }
  } finally {
    store.close()
  }
}


async function contractCall<T>(url: string, name: string, inputs: ReadonlyArray<unknown>): Promise<Array<{ value: T; ms: number }>> {
  const [base, token] = url.split('/#token=') as [string, string]
  const ws = new WebSocket(`${base.replace('http', 'ws')}/rpc?token=${token}`, { origin: base })
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
  try {
    const out: Array<{ value: T; ms: number }> = []
    for (const [i, input] of inputs.entries()) {
      const started = performance.now()
      const value = await new Promise<T>((resolve) => {
        const onMessage = (data: WebSocket.RawData) => {
          const frame = JSON.parse(data.toString()) as { kind: string; id?: number; result?: { value: T } }
          if (frame.kind === 'response' && frame.id === i + 1) {
            ws.off('message', onMessage)
            resolve(frame.result!.value)
          }
        }
        ws.on('message', onMessage)
        ws.send(JSON.stringify({ kind: 'request', id: i + 1, name, input }))
      })
      out.push({ value, ms: performance.now() - started })
    }
    return out
  } finally {
    ws.close()
  }
}

/** pass.get round trips from a Node client: the share of a view's time that is the store and the socket. */
async function fetchTimes(url: string, ids: ReadonlyArray<string>): Promise<number[]> {
  return (await contractCall<unknown>(url, 'pass.get', [...ids, ...ids].map((passId) => ({ passId })))).map((r) => r.ms)
}

async function firstBody(url: string, passId: string): Promise<string> {
  return (await contractCall<{ requestBody: string }>(url, 'pass.get', [{ passId }]))[0]!.value.requestBody
}


async function openOurs(page: Page, passId: string): Promise<number> {
  return page.evaluate(async (id) => {
    const done = new Promise<number>((resolve) => {
      const on = (e: Event) => {
        const d = (e as CustomEvent<{ type: string; passId: string }>).detail
        if (d.type === 'request-ready' && d.passId === id) {
          window.removeEventListener('loupe:inspector', on)
          resolve(performance.now())
        }
      }
      window.addEventListener('loupe:inspector', on)
    })
    const row = document.querySelector<HTMLElement>(`[data-pass-id="${id}"]`)
    if (!row) throw new Error(`row of ${id} not rendered`)
    const started = performance.now()
    row.click()
    return (await done) - started
  }, passId)
}

async function scrollLongFrames(page: Page): Promise<{ long: number; frames: number; worstMs: number }> {
  return page.evaluate(
    async ({ durationMs, longMs }) => {
      const list = document.querySelector<HTMLElement>('[data-testid="passes-list"]')!
      const box = list.parentElement!
      box.style.height = '600px'
      list.scrollTop = 0
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))
      const deltas: number[] = []
      await new Promise<void>((resolve) => {
        const start = performance.now()
        let last = start
        const step = (now: number) => {
          deltas.push(now - last)
          last = now
          // About 140 rows a second: a fast, steady wheel scroll.
          list.scrollTop = list.scrollTop + 60 >= list.scrollHeight - list.clientHeight ? 0 : list.scrollTop + 60
          if (now - start < durationMs) requestAnimationFrame(step)
          else resolve()
        }
        requestAnimationFrame(step)
      })
      deltas.shift()
      return { long: deltas.filter((d) => d > longMs).length, frames: deltas.length, worstMs: Math.max(...deltas) }
    },
    { durationMs: SCROLL_MS, longMs: LONG_FRAME_MS },
  )
}

const bench: Bench = {
  figures: ['inspector.request_view_p95_ms', 'inspector.request_view_vs_plain', 'inspector.passes_scroll_long_frames'],
  async run() {
    if (!existsSync(join(outDir, 'main/server.js'))) throw new Error('build first: npm run build')
    const executablePath = findChromium()
    if (!executablePath) throw new Error('no Chromium found (see scripts/chromium.cjs)')
    const dir = mkdtempSync(join(tmpdir(), 'loupe-bench-inspector-'))
    const home = join(dir, 'home')
    const projectRoot = mkdtempSync(join(dir, 'project-'))
    const seeded = seedStore(home, projectRoot)
    const host = await startBrowserHost(home)
    const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS })
    try {
      const openSession = async (title: string, passes: number): Promise<Page> => {
        const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } })
        // tsx names functions with a `__name` helper that the page does not have; functions passed to evaluate need it.
        await page.addInitScript({ content: "globalThis.__name = (f) => f; localStorage.setItem('loupe.bench', '1')" })
        await page.goto(host.url)
        await page.waitForSelector('html[data-app-ready="true"]')
        await page.getByRole('navigation', { name: 'Projects' }).getByText(seeded.projectName, { exact: true }).click()
        await page.getByRole('list', { name: 'Sessions' }).getByText(title).click()
        await page.getByTestId('pass-count').filter({ hasText: `${passes} passes` }).waitFor()
        return page
      }

      // The scroll is measured first, in a page of its own: after the sixty openings of 600 KB passes below, the
      // renderer holds ≈120 MB of their garbage, and the major collection that frees it (≈80 ms) lands wherever
      // the next measurement happens to be. That pause belongs to the openings, not to the list.
      const scrollPage = await openSession(seeded.longSession, SMALL_PASSES)
      // Opening the session selects its newest pass: its request view is drawn before the list is scrolled.
      await scrollPage.waitForSelector(`[data-request-ready="${seeded.longNewestId}"]`, { timeout: 60_000 })
      await settle(scrollPage)
      const scroll = await scrollLongFrames(scrollPage)
      await scrollPage.close()

      const page = await openSession(seeded.bigSession, BIG_PASSES)
      await page.waitForSelector(`[data-request-ready="${seeded.bigIds.at(-1)}"]`, { timeout: 60_000 })
      const editorBox = (await page.getByTestId('request-editor').boundingBox())!

      // Ours and the plain baseline take turns, so both meet the same machine and the same warm engine.
      const ours: number[] = []
      const plain: number[] = []
      const plainEditor: number[] = []
      for (let i = 0; i < WARMUP + RUNS; i++) {
        const passId = seeded.bigIds[i % BIG_PASSES]!
        await settle(page)
        const ms = await openOurs(page, passId)
        await settle(page)
        const t = await page.evaluate(([id, w, h]) => window.__loupeBench!.openPlain(id, w, h), [passId, editorBox.width, editorBox.height] as const)
        if (i < WARMUP) continue
        ours.push(ms)
        plain.push(t.totalMs)
        plainEditor.push(t.editorMs)
      }
      const fetchMs = await fetchTimes(host.url, seeded.bigIds)
      const prettyKb = Math.round(JSON.stringify(JSON.parse(await firstBody(host.url, seeded.bigIds[0]!)), null, 2).length / 1024)
      await page.evaluate(() => window.__loupeBench!.closePlain())

      const p95 = percentile(ours, 95)
      if (process.env.INSPECTOR_BENCH_SAMPLES) process.stderr.write(`ours ${[...ours].sort((a, b) => a - b).map((x) => x.toFixed(0)).join(' ')}\nplain ${[...plain].sort((a, b) => a - b).map((x) => x.toFixed(0)).join(' ')}\n`)
      const plainP95 = percentile(plain, 95)
      const med = (xs: number[]) => round(percentile(xs, 50), 1)
      return [
        {
          name: 'inspector.request_view_p95_ms',
          value: round(p95, 1),
          unit: 'ms',
          goal: '< 300',
          note: `click on a pass row → request view painted (pass.get over the socket, parse, prettify, blocks, rules, labels, shading, folding); ${RUNS} runs over ${BIG_PASSES} passes of ≈${Math.round((prettyKb * 1024) / 4 / 1000)}k tokens (${prettyKb} KB pretty); median ${med(ours)} ms, of which pass.get alone (Node client) median ${med(fetchMs)} ms; load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`,
        },
        {
          name: 'inspector.request_view_vs_plain',
          value: round(p95 / plainP95, 2),
          unit: 'ratio',
          baseline: round(plainP95, 1),
          ratio: round(p95 / plainP95, 2),
          goal: '≤ 1.5',
          note: `p95 ours / p95 plain: the same pass fetched with pass.get, JSON.stringify(…, null, 2) into a plain read-only Monaco (no rules, labels or folding); medians ${med(ours)} / ${med(plain)} ms; the plain editor alone (text in hand → painted) median ${med(plainEditor)} ms`,
        },
        {
          name: 'inspector.passes_scroll_long_frames',
          value: scroll.long,
          unit: 'frames',
          goal: '0',
          note: `frames over ${LONG_FRAME_MS} ms in a ${SCROLL_MS / 1000} s scroll of ${SMALL_PASSES} passes (600 px list), in a fresh page once the session's newest pass is drawn; ${scroll.frames} frames, worst ${round(scroll.worstMs, 1)} ms`,
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
