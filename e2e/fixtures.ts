/**
 * Playwright fixtures: each test gets its own browser host (`node out/main/server.js`) with a temporary
 * LOUPE_HOME, and a page opened on its URL that has received `app.ready`. Waits are on app events, never sleeps.
 */
import { test as playwrightTest, expect, type BrowserContext, type Page } from '@playwright/test'
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'

/**
 * Every page a test opens is watched: an uncaught exception or a `console.error` in the renderer fails the test
 * that caused it, with the messages, even when every assertion passed.
 */
const base = playwrightTest.extend<{ pageErrors: string[] }>({
  pageErrors: async ({ context }, use, testInfo) => {
    const errors: string[] = []
    const watch = (page: Page) => {
      page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}${error.stack ? `\n${error.stack.split('\n').slice(0, 4).join('\n')}` : ''}`))
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(`console.error: ${message.text()}`)
      })
    }
    context.pages().forEach(watch)
    context.on('page', watch)
    await use(errors)
    // A test that failed already says why; these would only bury it.
    if (errors.length > 0 && testInfo.status === testInfo.expectedStatus) {
      throw new Error(`the page reported ${errors.length} error(s):\n${errors.join('\n')}`)
    }
  },
  // The page is made after the watcher, so its first load is watched too. Every page of the context can report the
  // app events a test waits on (appEvent).
  page: async ({ page, pageErrors }, use) => {
    void pageErrors
    await page.context().exposeBinding(SIGNAL_BINDING, (_source, token: unknown, value: unknown) => {
      const settle = signalWaits.get(String(token))
      signalWaits.delete(String(token))
      settle?.(value)
    })
    await use(page)
  },
})

export interface BrowserHostProcess {
  readonly url: string
  readonly baseUrl: string
  readonly token: string
  readonly dataDir: string
}

/** Starts a browser host; `port` 0 (the default) takes a free one, a number the one a host that was stopped had. */
export async function startHost(env: NodeJS.ProcessEnv = {}, port = 0): Promise<BrowserHostProcess & { child: ChildProcess; stop(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'loupe-e2e-home-'))
  const child = spawn(process.execPath, ['out/main/server.js', '--port', String(port)], {
    // Instant simulator pace keeps the suite fast; a test that needs a visible stream passes its own.
    env: { ...process.env, LOUPE_HOME: dataDir, LOUPE_SIM_PACE: 'instant', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()))
  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! })
    lines.on('line', (line) => {
      if (/^http:\/\/127\.0\.0\.1:\d+\/#token=/.test(line)) resolve(line.trim())
    })
    child.once('exit', (code) => reject(new Error(`browser host exited (${code}) before printing its URL:\n${stderr}`)))
  })
  const [baseUrl, token] = url.split('/#token=') as [string, string]
  return {
    url,
    baseUrl,
    token,
    dataDir,
    child,
    async stop() {
      // A host a test killed has exited already, with a signal and no exit code.
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r))
        child.kill('SIGTERM')
        await exited
      }
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/**
 * A temporary folder that lives as long as this process: for what a spec file makes once, at its top level (a Claude
 * Code projects folder). Not removed in `test.afterAll`: with `fullyParallel`, a file's tests are split into groups,
 * `afterAll` runs at the end of each group, and a worker that takes a second group of the same file does not load the
 * file again, so its tests would find the folder gone.
 */
export function folderForThisProcess(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** Calls the contract directly over the host's WebSocket, as the page does (for checks a user cannot see). */
export async function rpc(host: BrowserHostProcess, name: string, input: unknown): Promise<unknown> {
  const { WebSocket } = await import('ws')
  const ws = new WebSocket(`${host.baseUrl.replace('http://', 'ws://')}/rpc?token=${host.token}`, { origin: host.baseUrl })
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
  const result = await new Promise<{ ok: boolean; value?: unknown; error?: { message: string } }>((resolve) => {
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as { kind: string; id?: number; result?: never }
      if (frame.kind === 'response' && frame.id === 1) resolve(frame.result!)
    })
    ws.send(JSON.stringify({ kind: 'request', id: 1, name, input }))
  })
  ws.close()
  if (!result.ok) throw new Error(`${name}: ${result.error?.message}`)
  return result.value
}

/**
 * The request body the newest main pass sent, as stored (for checks of what the model was sent). The session is the
 * only one of the only project unless `sessionId` is given.
 */
export async function lastMainRequestBody(host: BrowserHostProcess, sessionId?: string): Promise<string> {
  let id = sessionId
  if (id === undefined) {
    const projects = (await rpc(host, 'project.list', {})) as Array<{ id: string }>
    const sessions = (await rpc(host, 'session.list', { projectId: projects[0]!.id })) as Array<{ id: string }>
    id = sessions[0]!.id
  }
  const passes = (await rpc(host, 'pass.list', { sessionId: id })) as Array<{ id: string; kind: string }>
  const last = passes.filter((p) => p.kind === 'main').at(-1)
  if (last === undefined) throw new Error(`no main pass in session ${id}`)
  return ((await rpc(host, 'pass.get', { passId: last.id })) as { requestBody: string }).requestBody
}

/** Opens `dir` as a project through the UI and starts a session in it. */
export async function openProjectWithSession(page: Page, dir: string): Promise<void> {
  await page.getByLabel('Folder path').fill(dir)
  await page.getByRole('button', { name: 'Open folder' }).click()
  // Once it is the project shown: a click before that would land on the previous project's "+ New session".
  await expect(page.locator('button.project.selected')).toHaveAttribute('title', realpathSync(dir))
  await page.getByRole('button', { name: '+ New session' }).click()
  await expect(page.getByLabel('Message')).toBeVisible()
}

/** The function every page of a test's context calls, with a wait's token and a value, when what it waits on comes. */
const SIGNAL_BINDING = '__loupeSignal'
/** The waits not yet signalled, by token. */
const signalWaits = new Map<string, (value: unknown) => void>()
let lastSignal = 0

/** A wait on the page, and `armed`: settled once the page watches, for an action sent another way than the page. */
export type PageWait<T> = Promise<T> & { armed: Promise<void> }

/**
 * Resolves with the value the page passes to `signal`: `install` runs in the page at once (one quick evaluate, sent
 * before any command the caller sends to the same page after it), sets up what to watch, and calls `signal` when it
 * comes. Call it before the action that causes what it waits for, and await it after. An action sent another way (a
 * request to the host on a connection of its own, a file written) is not ordered after the evaluate: await `armed`
 * before it, or what it causes can come before the page watches, and the wait never ends.
 *
 * The page tells the test through a binding rather than by settling a promise the test awaits across the protocol:
 * Chromium may report such a promise "garbage collected" while its listener still waits, and fail the test.
 * `install` is sent as source, so it may use only its arguments and the page's globals.
 */
export function pageSignal<A, T>(
  page: Page,
  install: (arg: A, signal: (value: T) => void) => void,
  arg: A,
  /** What is waited on, for the failure a wait that never ends gives. */
  what = 'what it waited on',
): PageWait<T> {
  const token = String(++lastSignal)
  const signalled = new Promise<T>((resolve, reject) => {
    signalWaits.set(token, (value) => resolve(value as T))
    page.once('close', () => signalWaits.has(token) && reject(new Error(`the page closed before it signalled ${what}`)))
  })
  const installed = page.evaluate(
    ({ source, arg, token, binding }) => {
      const w = window as unknown as Record<string, ((token: string, value: unknown) => Promise<void>) | undefined>
      if (typeof w[binding] !== 'function') throw new Error("pageSignal: this page has no signal binding (use a page of the test fixture's context)")
      const install = (0, eval)(`(${source})`) as (arg: unknown, signal: (value: unknown) => void) => void
      install(arg, (value) => void w[binding]!(token, value))
    },
    { source: install.toString(), arg, token, binding: SIGNAL_BINDING },
  )
  const armed = installed.then(() => undefined)
  // A failed evaluate is reported by the wait itself; `armed` is awaited only by some callers.
  armed.catch(() => {})
  return Object.assign(
    Promise.all([installed, signalled]).then(([, value]) => value),
    { armed },
  )
}

/**
 * Resolves when the page re-dispatches the contract event `name` (main.tsx). Call it before the action that
 * causes the event, and await it after: the listener is in place before the event can fire when the action goes
 * through the same page; await `armed` first when it does not (`rpc`).
 */
export function appEvent(page: Page, name: string): PageWait<unknown> {
  return pageSignal(
    page,
    (n, signal: (seen: boolean) => void) => {
      const on = (e: Event) => {
        if ((e as CustomEvent<{ name: string }>).detail.name !== n) return
        window.removeEventListener('loupe:event', on)
        signal(true)
      }
      window.addEventListener('loupe:event', on)
    },
    name,
    `the event ${name}`,
  )
}

/**
 * A session made at instant pace in `dir` (`converse` sends its messages), then shown by a host on the same data
 * folder whose simulator streams slowly, so what a test looks at (a compaction's stream) is still running while it
 * looks. `look` gets that host, with the project and its first session open. The data folder is removed after; `dir`
 * stays the caller's. The page leaves each host before it stops, so nothing it loads or reconnects to fails under it.
 */
export async function onSlowHostAfter(page: Page, dir: string, converse: () => Promise<void>, look: (slow: BrowserHostProcess) => Promise<void>): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), 'loupe-e2e-slow-home-'))
  try {
    const quick = await startHost({ LOUPE_HOME: home })
    try {
      await openApp(page, quick.url)
      await openProjectWithSession(page, dir)
      await converse()
    } finally {
      await page.goto('about:blank')
      await quick.stop()
    }
    const slow = await startHost({ LOUPE_HOME: home, LOUPE_SIM_PACE: 'slow' })
    try {
      await openApp(page, slow.url)
      await page.getByRole('navigation', { name: 'Projects' }).getByText(dir.split('/').pop()!, { exact: true }).click()
      await page.getByRole('list', { name: 'Sessions' }).getByRole('button').first().click()
      await look(slow)
    } finally {
      await page.goto('about:blank')
      await slow.stop()
    }
  } finally {
    rmSync(home, { recursive: true, force: true })
  }
}

/** Resolves when the page has received `app.ready` and loaded its first data. */
export async function openApp(page: Page, url: string): Promise<void> {
  await page.goto(url)
  await expect(page.locator('html[data-app-ready="true"]')).toHaveCount(1)
}

/** Resolves after two animation frames: Monaco and the canvas repaint on the next one. */
export async function nextFrame(page: Page): Promise<void> {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))))
}

/** Switches the theme as a user does, through the command palette (the page and Monaco both follow). */
export async function chooseTheme(page: Page, which: 'light' | 'dark' | 'system'): Promise<void> {
  await page.keyboard.press('Control+k')
  await page.getByLabel('Type a command').fill(which === 'system' ? 'theme follow' : `theme ${which}`)
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('palette')).toHaveCount(0)
  if (which === 'system') await expect(page.locator('html[data-theme]')).toHaveCount(0)
  else await expect(page.locator(`html[data-theme="${which}"]`)).toHaveCount(1)
  await nextFrame(page)
}

/**
 * A test's host, started with `env` added. Its pages close before it stops: a page left open would try to reconnect
 * to it, and the failed attempts would be reported as the test's page errors.
 */
export function hostFixture(env: NodeJS.ProcessEnv = {}) {
  return async ({ context }: { context: BrowserContext }, use: (host: BrowserHostProcess) => Promise<void>) => {
    const host = await startHost(env)
    await use(host)
    await Promise.all(context.pages().map((p) => p.close()))
    await host.stop()
  }
}

/** The `test` of a spec whose host runs with `env` added (a Claude Code folder, the simulator's pace). */
export function testWithHostEnv(env: NodeJS.ProcessEnv) {
  return base.extend<{ host: BrowserHostProcess }>({ host: hostFixture(env) })
}

export const test = base.extend<{ host: BrowserHostProcess; app: Page }>({
  host: hostFixture(),
  app: async ({ page, host }, use) => {
    await openApp(page, host.url)
    await use(page)
  },
})

export { expect }

/**
 * Presses `chord` and types `text` with no wait between the keys: every key event is sent to the browser at once, so
 * the keys typed after the shortcut reach the page before its next animation frame, as a fast typist's do.
 */
export async function pressThenType(page: Page, chord: { key: string; code: string; keyCode: number; modifiers: number }, text: string): Promise<void> {
  const cdp = await page.context().newCDPSession(page)
  const sent: Array<Promise<unknown>> = []
  const send = (params: Parameters<typeof cdp.send<'Input.dispatchKeyEvent'>>[1] & object) => sent.push(cdp.send('Input.dispatchKeyEvent', params))
  if (chord.modifiers & 2) send({ type: 'rawKeyDown', key: 'Control', code: 'ControlLeft', windowsVirtualKeyCode: 17, modifiers: 2 })
  send({ type: chord.modifiers === 0 ? 'keyDown' : 'rawKeyDown', key: chord.key, code: chord.code, windowsVirtualKeyCode: chord.keyCode, modifiers: chord.modifiers, ...(chord.key === 'Enter' ? { text: '\r' } : {}) })
  send({ type: 'keyUp', key: chord.key, code: chord.code, windowsVirtualKeyCode: chord.keyCode, modifiers: chord.modifiers })
  if (chord.modifiers & 2) send({ type: 'keyUp', key: 'Control', code: 'ControlLeft', windowsVirtualKeyCode: 17 })
  for (const ch of text) {
    const code = ch === ' ' ? 'Space' : `Key${ch.toUpperCase()}`
    const keyCode = ch === ' ' ? 32 : ch.toUpperCase().charCodeAt(0)
    send({ type: 'keyDown', key: ch, code, windowsVirtualKeyCode: keyCode, text: ch, unmodifiedText: ch })
    send({ type: 'keyUp', key: ch, code, windowsVirtualKeyCode: keyCode })
  }
  await Promise.all(sent)
  await cdp.detach()
}
/** Whether an input's placeholder fits inside it, measured in the input's own font (run in the page: `evaluate`). */
export function placeholderFits(input: HTMLInputElement): boolean {
  const style = getComputedStyle(input)
  const context = document.createElement('canvas').getContext('2d')!
  context.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`
  const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
  return context.measureText(input.placeholder).width <= room
}

export const CTRL_L = { key: 'l', code: 'KeyL', keyCode: 76, modifiers: 2 }
export const ENTER = { key: 'Enter', code: 'Enter', keyCode: 13, modifiers: 0 }
