/**
 * Preview and edit, partial compaction, pins, and what a checkpoint brings back: the memory saved since the session
 * started joins the system prompt there. In docs/compaction.md: "Preview and edit", "When it runs", "Pins" and
 * "Applying: what happens at a checkpoint".
 */
import { afterEach, describe, expect, it } from 'vitest'
import { openHarness, type Harness } from './harness'

const FILES = {
  'README.md': '# Demo\n\nThe API is versioned under /v2.\n',
  'src/api.ts': Array.from({ length: 150 }, (_, i) => `export function handler${i}() { return { version: 2, route: '/v2/items/${i}' } }`).join('\n'),
  'package.json': '{ "name": "demo" }\n',
}

async function someTurns(h: Harness): Promise<void> {
  for (const text of ['read README.md', 'read src/api.ts', 'find "handler"', 'read package.json']) expect(await h.send(text)).toBe('end_turn')
}

interface Result {
  status: string
  compactionId: string
  message?: string
  checkpoint?: Record<string, any>
  draft?: { draftId: string; summary: string; head: Array<{ text: string }>; keptEntryIds: string[]; tokens: { before: { estimated: number }; after: { estimated: number } } }
}

describe('dry run, edit, apply, discard', () => {
  let h: Harness
  afterEach(async () => h?.close())

  it('previews without touching the session, then applies the edited summary', async () => {
    h = await openHarness({ files: FILES })
    await someTurns(h)
    const count = h.entries().length
    const dry = await h.call<Result>('compaction.run', { sessionId: h.sessionId, focus: 'the routes', dryRun: true })
    expect(dry.status).toBe('draft')
    expect(dry.draft!.summary).toContain('Focus: the routes')
    expect(dry.draft!.head[0]!.text).toContain(dry.draft!.summary)
    expect(dry.draft!.tokens.after.estimated).toBeLessThan(dry.draft!.tokens.before.estimated)
    expect(h.entries()).toHaveLength(count)
    const listed = await h.call<{ drafts: Array<{ draftId: string }> }>('compaction.list', { sessionId: h.sessionId })
    expect(listed.drafts.map((d) => d.draftId)).toEqual([dry.draft!.draftId])

    const edited = 'The user works on the /v2 routes in src/api.ts. Next: nothing pending.'
    const applied = await h.call<Result>('compaction.apply', { sessionId: h.sessionId, draftId: dry.draft!.draftId, summary: edited })
    expect(applied.status).toBe('applied')
    const checkpoint = applied.checkpoint!
    expect(checkpoint.summary).toBe(edited)
    expect(checkpoint.summaryEdited).toBe(true)
    expect(checkpoint.view.head[0].text).toContain(edited)
    expect(checkpoint.view.startEntryId).toBe(dry.draft!.keptEntryIds[0])
    expect(h.entries().at(-1)!.id).toBe(checkpoint.id)
    // Applied once: the draft is gone.
    expect(await h.app.dispatch('compaction.apply', { sessionId: h.sessionId, draftId: dry.draft!.draftId })).toMatchObject({ ok: false, error: { code: 'not_found' } })
    expect(await h.send('read README.md')).toBe('end_turn')
  })

  it('throws a draft away, and refuses a draft the conversation has moved past', async () => {
    h = await openHarness({ files: FILES })
    await someTurns(h)
    const first = await h.call<Result>('compaction.run', { sessionId: h.sessionId, dryRun: true })
    expect(await h.call('compaction.discard', { sessionId: h.sessionId, draftId: first.draft!.draftId })).toEqual({ discarded: true })
    expect(h.entries().some((e) => e.kind === 'checkpoint')).toBe(false)

    const second = await h.call<Result>('compaction.run', { sessionId: h.sessionId, dryRun: true })
    expect(await h.send('read README.md')).toBe('end_turn')
    const stale = await h.call<Result>('compaction.apply', { sessionId: h.sessionId, draftId: second.draft!.draftId })
    expect(stale.status).toBe('stale')
    expect(h.entries().some((e) => e.kind === 'checkpoint')).toBe(false)
  })

  it('says a draft is stale as soon as the conversation moves on, and keeps it after a refused apply until discarded', async () => {
    h = await openHarness({ files: FILES })
    await someTurns(h)
    const dry = await h.call<Result>('compaction.run', { sessionId: h.sessionId, focus: 'the evaluator', dryRun: true })
    const drafts = async () => (await h.call<{ drafts: Array<{ draftId: string; stale?: boolean }> }>('compaction.list', { sessionId: h.sessionId })).drafts
    expect(await drafts()).toEqual([expect.objectContaining({ draftId: dry.draft!.draftId, stale: false })])
    // A pin is not the conversation moving on: the draft stays current.
    await h.call('pin.add', { sessionId: h.sessionId, text: 'a fact' })
    expect((await drafts())[0]!.stale).toBe(false)

    expect(await h.send('read README.md')).toBe('end_turn')
    expect(await drafts()).toEqual([expect.objectContaining({ draftId: dry.draft!.draftId, stale: true })])
    const refused = await h.call<Result>('compaction.apply', { sessionId: h.sessionId, draftId: dry.draft!.draftId, summary: 'MY IMPORTANT EDIT' })
    expect(refused.status).toBe('stale')
    // The reason gives no advice of its own: the caller says what to do, once.
    expect(refused.message).not.toMatch(/run it again/i)
    expect(await drafts()).toEqual([expect.objectContaining({ draftId: dry.draft!.draftId, stale: true })])
    expect(await h.call('compaction.discard', { sessionId: h.sessionId, draftId: dry.draft!.draftId })).toEqual({ discarded: true })
    expect(await drafts()).toEqual([])
  })

  it("counts a pin added after the dry run in the draft's size after, as applying it does", async () => {
    h = await openHarness({ files: FILES })
    await someTurns(h)
    const dry = await h.call<Result>('compaction.run', { sessionId: h.sessionId, dryRun: true })
    const fact = `The evaluator must never call the network; ${'it reads fixtures from disk only. '.repeat(4)}`
    await h.call('pin.add', { sessionId: h.sessionId, text: fact })
    const listed = await h.call<{ drafts: Array<{ tokens: { after: { estimated: number } }; pins: Array<{ status: string }> }> }>('compaction.list', { sessionId: h.sessionId })
    const draft = listed.drafts[0]!
    expect(draft.pins).toEqual([expect.objectContaining({ status: 'reinjected' })])
    expect(draft.tokens.after.estimated).toBeGreaterThan(dry.draft!.tokens.after.estimated)
    const applied = await h.call<Result>('compaction.apply', { sessionId: h.sessionId, draftId: dry.draft!.draftId })
    expect(applied.checkpoint!.tokens.after.estimated).toBe(draft.tokens.after.estimated)
  })
})

describe('partial compaction', () => {
  let h: Harness
  afterEach(async () => h?.close())

  it('summarises up to the chosen entry and keeps everything after it whole', async () => {
    h = await openHarness({ files: FILES })
    await someTurns(h)
    const entries = h.entries()
    // Up to the answer of the second turn: the third turn starts the kept part.
    const secondAnswer = entries.filter((e) => e.kind === 'assistant_message')[3]!
    const firstKept = entries.filter((e) => e.kind === 'assistant_message')[4]!
    const result = await h.call<Result>('compaction.run', { sessionId: h.sessionId, upto: secondAnswer.id })
    expect(result.status).toBe('applied')
    const checkpoint = result.checkpoint!
    expect(checkpoint.trigger).toBe('partial')
    expect(checkpoint.view.startEntryId).toBe(firstKept.id)
    expect(checkpoint.replaced.toEntryId).toBe(entries[entries.findIndex((e) => e.id === firstKept.id) - 1]!.id)
  })
})

describe('pins', () => {
  let h: Harness
  afterEach(async () => h?.close())

  it('re-injects a pinned sentence the summary lost, keeps one it quoted, and flags one too long to carry', async () => {
    h = await openHarness({ files: FILES })
    await someTurns(h)
    const sentence = await h.call<{ pinId: string }>('pin.add', { sessionId: h.sessionId, text: 'Never use npm here, use pnpm.' })
    const firstRequest = h.entries().find((e) => e.kind === 'user_message')!
    const quoted = await h.call<{ pinId: string; text: string }>('pin.add', { sessionId: h.sessionId, entryId: firstRequest.id })
    expect(quoted.text).toBe('read README.md')
    // Re-injected pins share an 8,000-character budget: the second of these does not fit.
    await h.call('pin.add', { sessionId: h.sessionId, text: `keep ${'a'.repeat(4500)}` })
    const long = await h.call<{ pinId: string }>('pin.add', { sessionId: h.sessionId, text: `keep ${'b'.repeat(4500)}` })
    const gone = await h.call<{ pinId: string }>('pin.add', { sessionId: h.sessionId, text: 'a pin removed before the compaction' })
    expect(await h.call('pin.remove', { sessionId: h.sessionId, pinId: gone.pinId })).toEqual({ removed: true })
    expect((await h.call<unknown[]>('pin.list', { sessionId: h.sessionId })).length).toBe(4)

    const applied = h.next('compaction.applied')
    expect(await h.send('/compact')).toBe('compacted')
    const event = await applied
    const status = Object.fromEntries((event.pins as Array<{ pinId: string; status: string }>).map((p) => [p.pinId, p.status]))
    expect(status[sentence.pinId]).toBe('reinjected')
    expect(status[quoted.pinId]).toBe('in_summary')
    expect(status[long.pinId]).toBe('lost')
    const checkpoint = h.entries().find((e) => e.kind === 'checkpoint') as Record<string, any>
    expect(checkpoint.view.head.some((b: { text: string }) => b.text.includes('Pinned by the user') && b.text.includes('Never use npm here, use pnpm.'))).toBe(true)
    const warning = h.entries().filter((e) => e.kind === 'notice' && e.source === 'pins')
    expect(warning).toHaveLength(1)
    expect(String(warning[0]!.text)).toContain('did not survive')
  })
})

describe('what a checkpoint brings back', () => {
  let h: Harness
  afterEach(async () => h?.close())

  it('freezes the session block again, so a memory saved during the session joins the system prompt', async () => {
    h = await openHarness({ files: FILES })
    await h.call('session.setMode', { sessionId: h.sessionId, mode: 'auto' })
    await someTurns(h)
    expect(await h.send('remember that the API uses snake_case')).toBe('end_turn')
    const passes = () => h.call<Array<{ id: string; kind: string }>>('pass.list', { sessionId: h.sessionId })
    const systemOf = async (id: string) => JSON.stringify(JSON.parse((await h.call<{ requestBody: string }>('pass.get', { passId: id })).requestBody).system)
    expect(await systemOf((await passes()).at(-1)!.id)).not.toContain('snake_case')

    expect(await h.send('/compact')).toBe('compacted')
    const checkpoint = h.entries().find((e) => e.kind === 'checkpoint') as Record<string, any>
    expect(checkpoint.reinjected.sessionBlock.changed).toBe(true)
    expect(await h.send('read package.json')).toBe('end_turn')
    const main = (await passes()).filter((p) => p.kind === 'main')
    expect(await systemOf(main.at(-1)!.id)).toContain('snake_case')
  })
})
