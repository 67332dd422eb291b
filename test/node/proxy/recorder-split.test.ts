/**
 * The recorder hands the store a captured body already split when the body is what JSON.stringify writes (the JS
 * SDKs), so the store does not parse and re-serialise it again; any other body goes through the store's own split.
 * Either way the stored bytes are the captured bytes, split as splitBody splits them.
 */
import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Exchange } from '../../../src-main/node/proxy/forward'
import { CaptureRecorder, splitCaptured } from '../../../src-main/node/proxy/recorder'
import { openStore } from '../../../src-main/node/store'
import { splitBody } from '../../../src-main/node/store/body-split'

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex')

const request = {
  model: 'claude-sonnet-4-6',
  max_tokens: 1024,
  stream: true,
  system: [{ type: 'text', text: 'You are a coding agent. seg0 is a word here.', cache_control: { type: 'ephemeral' } }],
  tools: [{ name: 'read_file', description: 'Read a file', input_schema: { type: 'object', properties: { path: { type: 'string' } } } }],
  messages: [
    { role: 'user', content: 'read README.md — "quoted", back\\slash, caf\u00e9 \ud83d\ude00 \u2028' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'README.md' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'seg1 seg2 # Loupe' }] },
  ],
}

const canonical = [JSON.stringify(request), JSON.stringify({ ...request, system: 'one string' }), JSON.stringify({ model: 'm', messages: [] }), JSON.stringify({ model: 'm' })]
const other = [
  JSON.stringify(request, null, 2),
  JSON.stringify(request).replace(/,"/g, ', "'),
  // Python's json.dumps escapes non-ASCII by default.
  JSON.stringify(request).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
  ` ${JSON.stringify(request)}`,
]

describe('splitCaptured', () => {
  it("gives splitBody's split of a body JSON.stringify wrote, with its sha256 and length", () => {
    for (const text of canonical) {
      const got = splitCaptured(text, JSON.parse(text))!
      expect(got, text.slice(0, 60)).not.toBeNull()
      const split = splitBody(text)
      expect(got.split).toEqual(split)
      expect(got.parts.join('')).toBe(text)
      expect([got.sha256, got.bytes]).toEqual([sha256(text), Buffer.byteLength(text)])
      expect(got.segmentHashes).toEqual(split.segments.map((s) => sha256(s.text)))
    }
  })

  it('leaves any other body to the store', () => {
    for (const text of other) expect(splitCaptured(text, JSON.parse(text))).toBeNull()
    expect(splitCaptured('[1,2]', [1, 2])).toBeNull()
    expect(splitCaptured('not json', null)).toBeNull()
  })
})

describe('CaptureRecorder', () => {
  it('stores the exact bytes of either kind of body, split as the store splits them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'loupe-recorder-'))
    const store = openStore(join(dir, 'loupe.db'))
    try {
      const recorder = new CaptureRecorder({ store, clock: { now: () => 1_000 }, capturedRoot: join(dir, 'captured'), upstream: 'http://127.0.0.1:1' })
      for (const text of [...canonical, ...other]) {
        const exchange: Exchange = {
          method: 'POST',
          path: '/v1/messages',
          client: 'test',
          userAgent: null,
          requestBody: Buffer.from(text, 'utf8'),
          requestHeaders: {},
          startedAt: 1_000,
          firstByteAt: 1_001,
          endedAt: 1_002,
          status: 200,
          responseHeaders: { 'content-type': 'application/json' },
          responseBody: Buffer.from(JSON.stringify({ id: 'msg_1', type: 'message', role: 'assistant', model: 'm', content: [], stop_reason: 'end_turn', usage: { input_tokens: 1, output_tokens: 1 } })),
          outcome: 'done',
          error: null,
        }
        const pass = recorder.record(exchange)!
        expect(pass.requestSha256).toBe(sha256(text))
        expect(pass.requestBytes).toBe(Buffer.byteLength(text))
        const detail = store.passes.get(pass.id)!
        expect(detail.requestBody).toBe(text)
        expect(detail.segments.map((s) => s.path)).toEqual(splitBody(text).segments.map((s) => s.path))
      }
    } finally {
      store.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it("lists an agent's session first once it sends a pass, as a session written to is", () => {
    const dir = mkdtempSync(join(tmpdir(), 'loupe-recorder-'))
    const store = openStore(join(dir, 'loupe.db'))
    try {
      let now = 1_000
      const recorder = new CaptureRecorder({ store, clock: { now: () => now }, capturedRoot: join(dir, 'captured'), upstream: 'http://127.0.0.1:1' })
      const exchange = (client: string, endedAt: number): Exchange => ({
        method: 'POST',
        path: '/v1/messages',
        client,
        userAgent: null,
        requestBody: Buffer.from(canonical[0]!, 'utf8'),
        requestHeaders: {},
        startedAt: endedAt - 2,
        firstByteAt: endedAt - 1,
        endedAt,
        status: 200,
        responseHeaders: { 'content-type': 'application/json' },
        responseBody: Buffer.from(JSON.stringify({ id: 'msg_1', type: 'message', role: 'assistant', model: 'm', content: [], stop_reason: 'end_turn', usage: { input_tokens: 1, output_tokens: 1 } })),
        outcome: 'done',
        error: null,
      })
      const first = recorder.record(exchange('agent-a', 1_002))!.sessionId
      now = 2_000
      const second = recorder.record(exchange('agent-b', 2_002))!.sessionId
      const listed = () => store.sessions.listByProject(recorder.project!).map((s) => s.id)
      expect(listed()).toEqual([second, first])
      now = 3_000
      recorder.record(exchange('agent-a', 3_002))
      expect(listed()).toEqual([first, second])
      expect(store.sessions.get(first)!.updatedAt).toBe(3_002)
    } finally {
      store.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
