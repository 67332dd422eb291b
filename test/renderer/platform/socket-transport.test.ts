/**
 * Browser mode's transport (src-renderer/platform/socket-transport.ts) with a fake socket, HTTP check and timer:
 * no request waits on a connection that is not there, a dropped connection is made again, and a host that refuses
 * the page (restarted with a new token) is told from one that is not running, and no longer tried.
 */
import { describe, expect, it } from 'vitest'
import {
  createSocketTransport,
  FIRST_RETRY_MS,
  LOST_WHILE_ASKED,
  MAX_RETRY_MS,
  NOT_CONNECTED,
  TOO_LARGE,
  type LinkStatus,
  type SocketHandlers,
} from '../../../src-renderer/platform/socket-transport'

interface Attempt {
  readonly handlers: SocketHandlers
  readonly sent: Array<{ id: number; name: string }>
  open: boolean
}

function harness() {
  const attempts: Attempt[] = []
  const timers: Array<{ fn: () => void; ms: number }> = []
  const statuses: LinkStatus[] = []
  let hostAnswers = false
  const transport = createSocketTransport({
    connect(handlers) {
      const attempt: Attempt = { handlers, sent: [], open: false }
      attempts.push(attempt)
      return { send: (text) => void attempt.sent.push(JSON.parse(text) as { id: number; name: string }), isOpen: () => attempt.open }
    },
    hostAnswers: async () => hostAnswers,
    schedule: (fn, ms) => void timers.push({ fn, ms }),
  })
  transport.onStatus((s) => statuses.push(s))
  const last = () => attempts.at(-1)!
  return {
    transport,
    attempts,
    timers,
    statuses,
    setHostAnswers: (v: boolean) => (hostAnswers = v),
    open() {
      last().open = true
      last().handlers.opened()
    },
    /** The current attempt ends (an open connection drops, or one never opens); the HTTP check, if any, settles. */
    async close(code = 1006) {
      last().open = false
      last().handlers.closed(code)
      await flush()
    },
    answer(id: number, value: unknown) {
      last().handlers.received(JSON.stringify({ kind: 'response', id, result: { ok: true, value } }))
    },
    /** Runs the one retry scheduled, returning the delay it was scheduled with. */
    retry(): number {
      expect(timers).toHaveLength(1)
      const { fn, ms } = timers.shift()!
      fn()
      return ms
    },
  }
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0))
const settled = async <T>(p: Promise<T>) => {
  let done = false
  void p.then(() => (done = true))
  await flush()
  return done
}

describe('the WebSocket transport', () => {
  it('holds what is asked before the first connection, sends it when it opens, and passes answers and events on', async () => {
    const h = harness()
    const events: string[] = []
    h.transport.onEvent((name) => events.push(name))
    const asked = h.transport.request('app.info', {})
    expect(await settled(asked)).toBe(false)
    h.open()
    expect(h.attempts[0]!.sent.map((f) => f.name)).toEqual(['app.info'])
    h.answer(h.attempts[0]!.sent[0]!.id, 'info')
    expect(await asked).toEqual({ ok: true, value: 'info' })
    h.attempts[0]!.handlers.received(JSON.stringify({ kind: 'event', name: 'app.ready', payload: {} }))
    expect(events).toEqual(['app.ready'])
    expect(h.statuses).toEqual(['open'])
  })

  it('fails what waited for an answer when the connection drops, fails at once what is asked until it is back, and reconnects', async () => {
    const h = harness()
    h.open()
    const waiting = h.transport.request('run.cancel', { sessionId: 's' })
    await h.close()
    expect(await waiting).toEqual({ ok: false, error: { code: 'io_error', message: LOST_WHILE_ASKED } })
    expect(h.statuses).toEqual(['open', 'lost'])
    expect(await h.transport.request('run.start', {})).toEqual({ ok: false, error: { code: 'io_error', message: NOT_CONNECTED.lost } })

    expect(h.retry()).toBe(FIRST_RETRY_MS)
    h.open()
    expect(h.statuses).toEqual(['open', 'lost', 'open'])
    const after = h.transport.request('app.info', {})
    h.answer(h.attempts[1]!.sent[0]!.id, 1)
    expect(await after).toEqual({ ok: true, value: 1 })
  })

  it('says a connection closed on a request too large to read was closed for that', async () => {
    const h = harness()
    h.open()
    const waiting = h.transport.request('app.info', {})
    await h.close(1009)
    expect(await waiting).toMatchObject({ ok: false, error: { message: TOO_LARGE } })
  })

  it('keeps trying, less and less often, while the host does not answer at all', async () => {
    const h = harness()
    h.open()
    await h.close()
    const delays = [h.retry()]
    for (let i = 0; i < 6; i++) {
      await h.close()
      delays.push(h.retry())
    }
    expect(delays).toEqual([FIRST_RETRY_MS, FIRST_RETRY_MS * 2, FIRST_RETRY_MS * 4, FIRST_RETRY_MS * 8, FIRST_RETRY_MS * 16, MAX_RETRY_MS, MAX_RETRY_MS])
    expect(h.statuses).toEqual(['open', 'lost'])
  })

  it('stops trying once a host that answers refuses the page (it was restarted with a new token)', async () => {
    const h = harness()
    h.open()
    await h.close()
    h.retry()
    h.setHostAnswers(true)
    // The attempt failed, but the host answers: it is tried once more straight away, after that answer.
    await h.close()
    expect(h.retry()).toBe(0)
    await h.close()
    expect(h.statuses).toEqual(['open', 'lost', 'refused'])
    expect(h.timers).toEqual([])
    expect(await h.transport.request('run.start', {})).toEqual({ ok: false, error: { code: 'io_error', message: NOT_CONNECTED.refused } })
    expect(h.transport.status()).toBe('refused')
  })

  it('connects when the host answers because it has just come back with the same token', async () => {
    const h = harness()
    h.open()
    await h.close()
    h.retry()
    h.setHostAnswers(true)
    await h.close()
    h.retry()
    h.open()
    expect(h.statuses).toEqual(['open', 'lost', 'open'])
    // A later drop starts over: it is not taken for a refusal.
    await h.close()
    expect(h.retry()).toBe(FIRST_RETRY_MS)
    await h.close()
    expect(h.statuses).toEqual(['open', 'lost', 'open', 'lost'])
  })

  it('fails what it held when a page opened with a stale token is refused from the start', async () => {
    const h = harness()
    h.setHostAnswers(true)
    const asked = h.transport.request('app.info', {})
    await h.close()
    expect(await asked).toEqual({ ok: false, error: { code: 'io_error', message: NOT_CONNECTED.lost } })
    h.retry()
    await h.close()
    expect(h.statuses).toEqual(['lost', 'refused'])
  })
})
