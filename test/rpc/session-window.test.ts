/**
 * A long session through the contract (decision 0039): session.get sends the newest entries and says how many come
 * before them; session.entries answers the earlier ones, a page or from an entry on. The conversation was written
 * into the store file behind the app, as an import writes it; a turn after it goes on from it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { EntryBody } from '../../src-main/engine/conversation/entries'
import { createApp, type App } from '../../src-main/node/app'
import { openStore } from '../../src-main/node/store'
import { SESSION_WINDOW_ENTRIES } from '../../src-preload/limits'
import { call, turnEnded } from '../support/app'

type Entries = Array<{ id: string; seq: number; kind: string }>

describe('a long session through the contract', () => {
  let dir: string
  let app: App
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'loupe-window-'))
    writeFileSync(join(dir, 'README.md'), '# Window\n')
    process.env.LOUPE_SIM_PACE = 'instant'
    app = await createApp({ host: 'browser', dataDir: join(dir, '.home'), loupeHome: join(dir, '.home'), homeDir: dir })
  })
  afterEach(async () => {
    await app.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('sends the newest entries, then earlier ones on request, and the session goes on from all of them', async () => {
    const project = await call<{ id: string }>(app, 'project.open', { path: dir })
    const session = await call<{ id: string }>(app, 'session.create', { projectId: project.id })
    const total = SESSION_WINDOW_ENTRIES * 2 + 500
    const store = openStore(join(dir, '.home', 'loupe.db'))
    try {
      store.transaction(() => {
        for (let i = 0; i < total / 2; i++) {
          const bodies: EntryBody[] = [
            { kind: 'user_message', content: [{ type: 'text', text: `question ${i}` }] },
            { kind: 'assistant_message', passId: 'pas_old' as never, content: [{ type: 'text', text: `answer ${i}` }], stopReason: 'end_turn', partial: false },
          ]
          store.entries.append(session.id, bodies, 1000 + i)
        }
      })
    } finally {
      store.close()
    }

    const state = await call<{ entries: Entries; earlier: number }>(app, 'session.get', { sessionId: session.id })
    expect(state.entries).toHaveLength(SESSION_WINDOW_ENTRIES)
    expect(state.earlier).toBe(total - SESSION_WINDOW_ENTRIES)
    expect(state.entries[0]!.seq).toBe(state.earlier + 1)

    const page = await call<{ entries: Entries; earlier: number }>(app, 'session.entries', { sessionId: session.id, beforeSeq: state.entries[0]!.seq })
    expect(page.entries).toHaveLength(SESSION_WINDOW_ENTRIES)
    expect(page.entries.at(-1)!.seq).toBe(state.entries[0]!.seq - 1)
    expect(page.earlier).toBe(total - 2 * SESSION_WINDOW_ENTRIES)

    // Through a pass: from ten entries before its last answer before the position.
    const through = await call<{ entries: Entries }>(app, 'session.entries', { sessionId: session.id, beforeSeq: state.entries[0]!.seq, throughPassId: 'pas_old' })
    expect(through.entries.map((e) => e.seq)).toEqual(Array.from({ length: 11 }, (_, i) => state.entries[0]!.seq - 11 + i))

    const rest = await call<{ entries: Entries; earlier: number }>(app, 'session.entries', { sessionId: session.id, beforeSeq: page.entries[0]!.seq, fromEntryId: (await call<{ entries: Entries }>(app, 'session.entries', { sessionId: session.id, beforeSeq: 2, limit: 1 })).entries[0]!.id })
    expect(rest.entries.map((e) => e.seq)).toEqual(Array.from({ length: page.entries[0]!.seq - 1 }, (_, i) => i + 1))
    expect(rest.earlier).toBe(0)

    // The conversation goes on from every entry, not from those sent to a window.
    const ended = turnEnded(app, session.id)
    await call(app, 'run.start', { sessionId: session.id, text: 'and one more' })
    expect(await ended).toBe('end_turn')
    const passes = await call<Array<{ id: string }>>(app, 'pass.list', { sessionId: session.id })
    const detail = await call<{ requestBody: string }>(app, 'pass.get', { passId: passes.at(-1)!.id })
    expect(detail.requestBody).toContain('question 0')
    const after = await call<{ entries: Entries; earlier: number }>(app, 'session.get', { sessionId: session.id })
    expect(after.entries.at(-1)!.kind).toBe('turn_ended')
    expect(after.earlier + after.entries.length).toBeGreaterThan(total)
  })

  it("tells a window the positions of a new checkpoint's range, which starts before the entries it was sent", async () => {
    const project = await call<{ id: string }>(app, 'project.open', { path: dir })
    const session = await call<{ id: string }>(app, 'session.create', { projectId: project.id })
    const first = turnEnded(app, session.id)
    await call(app, 'run.start', { sessionId: session.id, text: 'list the files' })
    await first
    const store = openStore(join(dir, '.home', 'loupe.db'))
    try {
      store.transaction(() => {
        for (let i = 0; i < SESSION_WINDOW_ENTRIES; i++) {
          store.entries.append(session.id, [{ kind: 'user_message', content: [{ type: 'text', text: `question ${i}` }] }, { kind: 'assistant_message', passId: 'pas_old' as never, content: [{ type: 'text', text: `answer ${i}` }], stopReason: 'end_turn', partial: false }], 1000 + i)
        }
      })
    } finally {
      store.close()
    }
    const state = await call<{ entries: Entries; earlier: number }>(app, 'session.get', { sessionId: session.id })
    expect(state.earlier).toBeGreaterThan(0)

    const appended: Array<{ entries: Entries; seqs?: Record<string, number> }> = []
    const off = app.events.subscribe((name, payload) => {
      if (name === 'entries.appended') appended.push(payload as never)
    })
    try {
      await call(app, 'compaction.run', { sessionId: session.id, focus: 'the questions' })
    } finally {
      off()
    }
    const event = appended.find((p) => p.entries.some((e) => e.kind === 'checkpoint'))!
    const checkpoint = event.entries.find((e) => e.kind === 'checkpoint') as unknown as { replaced: { fromEntryId: string; toEntryId: string } }
    const all = await call<{ entries: Entries }>(app, 'session.entries', { sessionId: session.id, beforeSeq: 1_000_000, limit: 20_000 })
    const seqOf = (id: string) => all.entries.find((e) => e.id === id)!.seq
    // The range starts with the session's first entry, long before the newest entries the window holds.
    expect(seqOf(checkpoint.replaced.fromEntryId)).toBeLessThanOrEqual(state.earlier)
    expect(event.seqs).toMatchObject({ [checkpoint.replaced.fromEntryId]: seqOf(checkpoint.replaced.fromEntryId), [checkpoint.replaced.toEntryId]: seqOf(checkpoint.replaced.toEntryId) })
  })

  it('refuses a position before the first and a session it does not hold, saying which', async () => {
    const refused = async (input: unknown) => {
      const result = await app.dispatch('session.entries', input)
      return result.ok ? null : result.error
    }
    expect(await refused({ sessionId: 'ses_none', beforeSeq: 0 })).toMatchObject({ code: 'invalid_input' })
    expect(await refused({ sessionId: 'ses_none', beforeSeq: 5, limit: 10_000_000 })).toMatchObject({ code: 'invalid_input' })
    expect(await refused({ sessionId: 'ses_none', beforeSeq: 5 })).toMatchObject({ code: 'not_found', message: 'No session ses_none' })
  })

  it('lists passes without what only the pass itself shows: the cache facts and the response headers', async () => {
    const project = await call<{ id: string }>(app, 'project.open', { path: dir })
    const session = await call<{ id: string }>(app, 'session.create', { projectId: project.id })
    const ended = turnEnded(app, session.id)
    await call(app, 'run.start', { sessionId: session.id, text: 'read README.md' })
    expect(await ended).toBe('end_turn')
    type Pass = { id: string; attribution: Record<string, unknown> | null; attempts: Array<Record<string, unknown>> }
    const listed = await call<Pass[]>(app, 'pass.list', { sessionId: session.id })
    expect(listed.length).toBeGreaterThan(0)
    for (const pass of listed) {
      const detail = await call<Pass>(app, 'pass.get', { passId: pass.id })
      expect(detail.attribution).toHaveProperty('facts')
      expect(detail.attempts[0]).toHaveProperty('responseHeaders')
      expect(pass.attribution).not.toHaveProperty('facts')
      expect(pass.attempts[0]).not.toHaveProperty('responseHeaders')
      // Everything else the list shows is the pass's own.
      const { facts: _facts, ...shown } = detail.attribution!
      expect(pass.attribution).toEqual(shown)
      expect(pass.attempts[0]!.requestId).toBe(detail.attempts[0]!.requestId)
    }
  })
})
