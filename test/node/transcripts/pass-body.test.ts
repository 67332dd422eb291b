/**
 * The transcript importer gives the store each request body split and hashed (pass-body.ts, passes.insertSplit)
 * instead of the body itself. These check that it is the same body, split the same way, on every request of every
 * copied fixture: what splitBody gives for `JSON.stringify({model, messages})`, its sha256 and length, and that
 * the store refuses a split that does not re-assemble and stores an accepted one exactly as `insert` would.
 */
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { WireMessage } from '../../../src-main/engine/model/wire'
import { reconstructPasses } from '../../../src-main/engine/transcripts/reconstruct'
import { splitBody, splitRecord } from '../../../src-main/node/store/body-split'
import type { NewPass, SplitRequest } from '../../../src-main/node/store/passes'
import { loadSession } from '../../../src-main/node/transcripts/load'
import { PassBodies } from '../../../src-main/node/transcripts/pass-body'
import { fixtureFiles, tempStore } from './store-helpers'

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex')

function expectSameBody(got: SplitRequest, model: string, messages: ReadonlyArray<WireMessage>): void {
  const body = JSON.stringify({ model, messages })
  const split = splitBody(body)
  expect(got.parts.join('')).toBe(body)
  expect(got.sha256).toBe(sha256(body))
  expect(got.bytes).toBe(Buffer.byteLength(body, 'utf8'))
  expect(got.split.skeleton).toBe(split.skeleton)
  expect(got.split.segments).toEqual(split.segments)
  expect(got.segmentHashes).toEqual(split.segments.map((s) => sha256(s.text)))
}

describe('PassBodies', () => {
  for (const f of fixtureFiles()) {
    it(`gives splitBody's split, sha256 and length of every request body of ${f.name}`, async () => {
      const loaded = await loadSession(f.path)
      if (!loaded.ok) throw new Error(loaded.error.message)
      let checked = 0
      for (const thread of [loaded.session, ...loaded.session.children]) {
        const bodies = new PassBodies()
        for (const pass of reconstructPasses(thread)) {
          expectSameBody(bodies.body(pass.request.model, pass.messages), pass.request.model, pass.messages)
          checked++
        }
      }
      expect(checked).toBeGreaterThan(0)
    }, 120_000)
  }

  it('follows the body when the model changes, the history is rewritten, or a message holds a marker', () => {
    const bodies = new PassBodies()
    const a: WireMessage = { role: 'user', content: [{ type: 'text', text: 'hello' }] }
    const b: WireMessage = { role: 'assistant', content: [{ type: 'text', text: 'seg0 and seg1 are in this text' }] }
    const c: WireMessage = { role: 'user', content: [{ type: 'text', text: 'and "quotes", \\ back\u00e9\u2028 \ud83d\ude00' }] }
    const cases: Array<[string, WireMessage[]]> = [
      ['claude-opus-4-6', []],
      ['claude-opus-4-6', [a]],
      ['claude-opus-4-6', [a, b, c]],
      ['claude-haiku-4-5', [a, b, c]],
      ['claude-haiku-4-5', [a, c]],
      ['claude-haiku-4-5', [{ ...a }, b]],
      ['claude-haiku-4-5', [a, b, c, a]],
    ]
    for (const [model, messages] of cases) expectSameBody(bodies.body(model, messages), model, messages)
    expect(bodies.body('m', [b]).split.skeleton.startsWith('seg2\n')).toBe(true)
  })
})

describe('passes.insertSplit', () => {
  const pass = (sessionId: string): Omit<NewPass, 'requestBody'> => ({
    sessionId,
    kind: 'main',
    model: 'claude-opus-4-6',
    status: 'done',
    queuedAt: 1_000,
    firstByteAt: null,
    doneAt: 2_000,
    segmentMeta: () => ({ provenance: { kind: 'history' }, breakpoint: null }),
    attempts: [],
    messageId: null,
    stopReason: null,
    usage: null,
    costUsd: null,
    error: null,
    plan: {},
    source: 'transcript',
  })
  const history: WireMessage[] = [
    { role: 'user', content: [{ type: 'text', text: 'read the file' }] },
    { role: 'assistant', content: [{ type: 'text', text: 'It says seg0.' }] },
    { role: 'user', content: [{ type: 'text', text: 'thanks' }] },
  ]

  it('stores what insert stores for the same body', () => {
    const t = tempStore()
    try {
      const { store } = t
      const project = store.projects.open(t.dir, 1)
      const viaInsert = store.sessions.create(project.id, 'insert', 1).id
      const viaSplit = store.sessions.create(project.id, 'split', 1).id
      const bodies = new PassBodies()
      for (let n = 1; n <= history.length; n++) {
        const messages = history.slice(0, n)
        const body = JSON.stringify({ model: 'claude-opus-4-6', messages })
        const a = store.passes.insert({ ...pass(viaInsert), requestBody: body })
        const b = store.passes.insertSplit(pass(viaSplit), bodies.body('claude-opus-4-6', messages))
        expect([b.requestSha256, b.requestBytes]).toEqual([a.requestSha256, a.requestBytes])
        expect(store.passes.requestBody(b.id)).toBe(body)
        const strip = (segments: ReadonlyArray<{ ordinal: number; path: string; hash: string; bytes: number }>) => segments.map((s) => [s.ordinal, s.path, s.hash, s.bytes])
        expect(strip(store.passes.segmentHashes(b.id))).toEqual(strip(store.passes.segmentHashes(a.id)))
      }
    } finally {
      t.dispose()
    }
  })

  it('refuses a split that does not re-assemble to its parts, or a segment whose hash is not its text', () => {
    const t = tempStore()
    try {
      const { store } = t
      const project = store.projects.open(t.dir, 1)
      const session = store.sessions.create(project.id, 's', 1).id
      const good = new PassBodies().body('claude-opus-4-6', history)
      const otherSplit = splitRecord({ model: 'claude-opus-4-6', messages: history.slice(1) }, (m) => JSON.stringify(m))
      // As insert, inside the transaction that writes the rest: a refused pass leaves nothing behind.
      const insert = (body: SplitRequest) => () => store.transaction(() => store.passes.insertSplit(pass(session), body))
      expect(insert({ ...good, split: otherSplit })).toThrow(/re-assemble/)
      expect(insert({ ...good, parts: [...good.parts.slice(0, -1), ']} '] })).toThrow(/re-assemble/)
      expect(insert({ ...good, segmentHashes: good.segmentHashes.slice(1) })).toThrow(/re-assemble/)
      expect(insert({ ...good, segmentHashes: [...good.segmentHashes].reverse() })).toThrow(/hash given/)
      expect(store.passes.list(session)).toHaveLength(0)
      insert(good)()
      expect(store.passes.list(session)).toHaveLength(1)
    } finally {
      t.dispose()
    }
  })
})
