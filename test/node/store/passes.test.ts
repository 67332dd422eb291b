import fc from 'fast-check'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openStore, type Store } from '../../../src-main/node/store'
import { joinBody, splitBody } from '../../../src-main/node/store/body-split'
import { sha256Hex } from '../../../src-main/node/store/blobs'
import type { NewPass } from '../../../src-main/node/store/passes'

function body(messages: string[], system = 'You are Loupe.'): string {
  return JSON.stringify({
    model: 'claude-sonnet-4-6',
    max_tokens: 1024,
    system: [{ type: 'text', text: system, cache_control: { type: 'ephemeral' } }],
    tools: [{ name: 'read_file', description: 'Reads', input_schema: { type: 'object' } }],
    messages: messages.map((text, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: [{ type: 'text', text }] })),
    stream: true,
  })
}

function pass(sessionId: string, requestBody: string, at: number): NewPass {
  return {
    sessionId,
    kind: 'main',
    model: 'claude-sonnet-4-6',
    status: 'done',
    queuedAt: at,
    firstByteAt: at + 1,
    doneAt: at + 2,
    requestBody,
    segmentMeta: (path) => ({ provenance: { path }, breakpoint: path === 'system[0]' ? 'static' : null }),
    attempts: [{ startedAt: at, firstByteAt: at + 1, endedAt: at + 2, status: 200, requestId: 'req_1', error: null, responseHeaders: {}, responseBody: 'event: message_stop\n\n' }],
    messageId: 'msg_1',
    stopReason: 'end_turn',
    usage: { input_tokens: 1, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
    costUsd: 0.001,
    error: null,
    plan: { breakpoints: [] },
  }
}

describe('request body segments', () => {
  it('split then join gives the exact bytes back, for any JSON request', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary' }), { maxLength: 8 }), fc.string({ unit: 'binary' }), (messages, system) => {
        const b = body(messages, system)
        const split = splitBody(b)
        expect(joinBody(split.skeleton, split.segments.map((s) => s.text))).toBe(b)
      }),
    )
  })

  it('keeps a body it cannot split exactly as one segment', () => {
    const spaced = '{ "model": "x",  "messages": [] }'
    const split = splitBody(spaced)
    expect(split.segments).toHaveLength(1)
    expect(joinBody(split.skeleton, split.segments.map((s) => s.text))).toBe(spaced)
    expect(joinBody(splitBody('not json').skeleton, ['not json'])).toBe('not json')
  })

  it('is not fooled by text that looks like a placeholder', () => {
    const b = body(['\u0000seg0:0:1\u0000', 'seg1', 'x'])
    const split = splitBody(b)
    expect(joinBody(split.skeleton, split.segments.map((s) => s.text))).toBe(b)
  })
})

describe('passes', () => {
  let dir: string
  let store: Store
  let sessionId: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'loupe-passes-'))
    store = openStore(join(dir, 'loupe.db'))
    const project = store.projects.open('/tmp/p', 1)
    sessionId = store.sessions.create(project.id, 's', 1).id
  })
  afterEach(() => {
    store.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('re-assembles every pass of a growing session to its captured bytes, storing each segment once', () => {
    const bodies: string[] = []
    const history: string[] = []
    // 70 passes: more than MAX_CHAIN_DEPTH, so one pass rewrites its whole segment list.
    for (let i = 0; i < 70; i++) {
      history.push(`message ${i} `.repeat(50))
      bodies.push(body(history))
    }
    const ids = bodies.map((b, i) => store.passes.insert(pass(sessionId, b, 1000 + i)).id)
    ids.forEach((id, i) => {
      const detail = store.passes.get(id)!
      expect(detail.requestBody).toBe(bodies[i])
      expect(detail.requestSha256).toBe(sha256Hex(bodies[i]!))
      expect(detail.segments[1]!.breakpoint).toBe('static')
    })
    // Rows grow with what is new: one new message per pass after the first, not the whole history.
    const rows = store.db.prepare('SELECT COUNT(*) FROM pass_blocks').pluck().get() as number
    expect(rows).toBeLessThan(70 * 3)
    // Each message text is stored once although 70 passes carried it.
    const stored = store.blobs.totalBytes()
    const whole = bodies.reduce((n, b) => n + Buffer.byteLength(b), 0)
    expect(stored).toBeLessThan(whole / 5)
  })

  it('re-assembles a pass whose prefix changed (a new system block) from its own rows', () => {
    const a = store.passes.insert(pass(sessionId, body(['one', 'two']), 1))
    const b = store.passes.insert(pass(sessionId, body(['one', 'two', 'three'], 'Edited rules'), 2))
    const c = store.passes.insert(pass(sessionId, body(['one', 'two', 'three', 'four'], 'Edited rules'), 3))
    expect(store.passes.get(a.id)!.requestBody).toBe(body(['one', 'two']))
    expect(store.passes.get(b.id)!.requestBody).toBe(body(['one', 'two', 'three'], 'Edited rules'))
    expect(store.passes.get(c.id)!.requestBody).toBe(body(['one', 'two', 'three', 'four'], 'Edited rules'))
    expect(store.passes.list(sessionId).map((p) => p.seq)).toEqual([1, 2, 3])
  })

  it('deletes a session with its passes and collects blobs no other session uses', () => {
    const project = store.projects.get(store.sessions.get(sessionId)!.projectId)!
    const other = store.sessions.create(project.id, 'other', 2).id
    store.passes.insert(pass(sessionId, body(['shared', 'only in first']), 1))
    // The other session's pass was retried: its first attempt's response is named only in the attempts list.
    const retried = pass(other, body(['shared']), 2)
    const firstAttempt = { ...retried.attempts[0]!, status: 529, responseBody: 'event: error\ndata: {"type":"overloaded_error"}\n\n' }
    store.passes.insert({ ...retried, attempts: [firstAttempt, ...retried.attempts] })
    expect(store.sessions.delete(sessionId)).toBe(true)
    const removed = store.blobs.collectGarbage()
    expect(removed).toBeGreaterThan(0)
    const remaining = store.passes.list(other)
    const kept = store.passes.get(remaining[0]!.id)!
    expect(kept.requestBody).toBe(body(['shared']))
    expect(kept.responseRaw).toBe('event: message_stop\n\n')
    expect(store.passes.blobText(kept.attempts[0]!.responseHash!)).toBe(firstAttempt.responseBody)
    expect(kept.segments.every((s) => s.provenance !== null)).toBe(true)
    // Nothing is left that no pass names.
    expect(store.blobs.collectGarbage()).toBe(0)
    expect(store.db.prepare('SELECT COUNT(*) FROM entries WHERE session_id = ?').pluck().get(sessionId)).toBe(0)
  })

  it('writes nothing of a pass whose transaction fails', () => {
    expect(() =>
      store.transaction(() => {
        store.passes.insert(pass(sessionId, body(['a']), 1))
        throw new Error('crash before commit')
      }),
    ).toThrow('crash before commit')
    expect(store.passes.list(sessionId)).toEqual([])
    // The next pass still finds a consistent base.
    const p = store.passes.insert(pass(sessionId, body(['a', 'b']), 2))
    expect(store.passes.get(p.id)!.requestBody).toBe(body(['a', 'b']))
  })
})
