import { describe, expect, it } from 'vitest'
import { attribute, EMPTY_CONTEXT, walkRequest, type PassContext } from '../../../src-main/engine/cache'
import { changedBlockLabel, utcClock } from '../../../src-main/engine/cache/causes'
import type { SnapshotOrigin } from '../../../src-main/engine/prompt'
import type { WireMessage } from '../../../src-main/engine/model/wire'
import { assistant, endOf, hasher, modelsWith, request, runSession, SONNET, text, tool, usageFor, user } from './helpers'

const MIN = 60_000
const SYSTEM = 'You are a careful agent. '.repeat(40)

/** A Loupe-shaped request: tools, one system block with a breakpoint, messages with the previous and newest tail marked. */
function loupe(messages: WireMessage[], options: { model?: string; tools?: string[]; systemTtl?: '5m' | '1h' } = {}) {
  return request(messages, { system: SYSTEM, systemTtl: options.systemTtl ?? '5m', tools: (options.tools ?? ['bash', 'read']).map((n) => tool(n)), ...(options.model ? { model: options.model } : {}) })
}

const u0 = (ttl: '5m' | null = '5m') => user(text('first request', 40, ttl))
const a1 = assistant(text('answer one', 60))
const u2 = (ttl: '5m' | null = '5m') => user(text('second request', 40, ttl))
const a3 = assistant(text('answer two', 60))
const u4 = (ttl: '5m' | null = '5m') => user(text('third request', 40, ttl))

/** The first three passes of a steady conversation, each reading what the one before wrote. */
const steady = [loupe([u0()]), loupe([u0(), a1, u2()]), loupe([u0(null), a1, u2(), a3, u4()])]
const w = steady.map((r) => walkRequest(r, hasher))
const systemEnd = 2

describe('attribute: outcomes and causes', () => {
  it('a steady conversation: cold first pass, then full hits where only the new tail is paid', () => {
    const out = runSession([
      { request: steady[0]!, at: 0, readPosition: -1 },
      { request: steady[1]!, at: 10_000, readPosition: endOf(w[1]!, 0) },
      { request: steady[2]!, at: 20_000, readPosition: endOf(w[2]!, 2) },
    ])
    expect(out.map((a) => a.outcome)).toEqual(['miss', 'full', 'full'])
    expect(out.map((a) => a.cause.kind)).toEqual(['cold', 'none', 'none'])
    expect(out.every((a) => a.agrees)).toBe(true)
    expect(out[0]!.atLimit).toBe(true)
    expect(out[2]!.readPath).toBe('messages[2].content[0]')
    expect(out[2]!.miss.tokens).toBe(0)
    // The read was pinned by the previous pass's write: predicted tokens are the real ones.
    expect(out[2]!.prediction.tokens.read).toBe(out[2]!.actual!.tokens.read)
  })

  it('a pass that got no response (a refused key, a connection failure) read and wrote nothing: the retry after it is predicted from the pass before', () => {
    const out = runSession([
      { request: steady[0]!, at: 0, readPosition: -1 },
      // Failed before any response: no usage, no first byte.
      { request: steady[1]!, at: 10_000, readPosition: null, firstByteAt: null },
      // The retry reads only what the first pass wrote.
      { request: steady[1]!, at: 20_000, readPosition: endOf(w[1]!, 0) },
    ])
    expect(out[1]!.facts.writes).toEqual([])
    expect(out[1]!.facts.reads).toEqual([])
    // It shows as what happened, not as the prediction's verdict: nothing read, nothing lost, nothing paid.
    expect(out[1]!.cause.kind).toBe('no_response')
    expect(out[1]!.summary).toMatch(/^no response/)
    expect(out[1]!).toMatchObject({ outcome: 'miss', atLimit: true, readPath: null, measured: false, agrees: null })
    expect(out[1]!.miss.tokens).toBe(0)
    expect(out[1]!.miss.actualUsd ?? 0).toBe(0)
    expect(out[1]!.prediction.readPath).toBe('messages[0].content[0]')
    expect(out[2]!.agrees).toBe(true)
    // Compared with the pass before the failed one: the tail they share is new once, paid by the retry alone.
    expect(out[2]!).toMatchObject({ outcome: 'full', atLimit: true, cause: { kind: 'none' }, miss: { tokens: 0 } })
  })

  it('a pass the user stopped before any answer says so, not that the service refused it', () => {
    const out = runSession([
      { request: steady[0]!, at: 0, readPosition: -1 },
      { request: steady[1]!, at: 10_000, readPosition: null, firstByteAt: null, stoppedByUser: true },
      { request: steady[1]!, at: 20_000, readPosition: null, firstByteAt: null },
    ])
    expect(out[1]!.cause).toEqual({ kind: 'no_response', label: 'no response: stopped by the user before the answer began, so it read and wrote nothing' })
    expect(out[2]!.cause.label).toBe('no response: the model service refused the request or could not be reached, so it read and wrote nothing')
    expect(out[1]!).toMatchObject({ outcome: 'miss', atLimit: true, miss: { tokens: 0 } })
  })

  it('a read the service counts a few tokens short of the estimate is still a full hit with nothing lost: a pass is never said to lose tokens without a cause', () => {
    const first = attribute({
      pass: { id: 'p1', seq: 1, model: steady[0]!.model, attempts: [{ startedAt: 0, firstByteAt: 0 }], usage: usageFor(w[0]!, -1) },
      walk: w[0]!,
      context: EMPTY_CONTEXT,
      prior: [],
      previous: null,
      models: modelsWith(),
    })
    for (let short = 0; short <= 40; short += 4) {
      const exact = usageFor(w[1]!, endOf(w[1]!, 0))
      // The service's count of the same prefix differs a little from the estimate; the input total is unchanged.
      const usage = { ...exact, cache_read_input_tokens: exact.cache_read_input_tokens - short, cache_creation_input_tokens: exact.cache_creation_input_tokens + short }
      const second = attribute({
        pass: { id: 'p2', seq: 2, model: steady[1]!.model, attempts: [{ startedAt: 10_000, firstByteAt: 10_000 }], usage },
        walk: w[1]!,
        context: EMPTY_CONTEXT,
        prior: [first.facts],
        previous: { facts: first.facts, walk: w[0]!, context: EMPTY_CONTEXT },
        models: modelsWith(),
      })
      if (second.cause.kind === 'none') expect({ short, miss: second.miss.tokens }).toEqual({ short, miss: 0 })
      if (second.miss.tokens > 0) expect(second.cause.kind).not.toBe('none')
    }
  })

  it('an idle gap longer than 5 minutes: a miss, with the idle time in the cause and the re-billed tokens priced', () => {
    const out = runSession([
      { request: steady[0]!, at: 0, readPosition: -1 },
      { request: steady[1]!, at: 370_000, readPosition: -1 },
    ])
    const second = out[1]!
    expect(second.outcome).toBe('miss')
    expect(second.agrees).toBe(true)
    expect(second.cause).toMatchObject({ kind: 'ttl_expired', idleMs: 370_000, ttlMs: 300_000 })
    expect(second.cause.label).toBe('cache expired: idle 6 m 10 s, longer than the 5 m an entry is kept (TTL)')
    // Everything up to the previous tail could have been read; it was written again at 5m prices instead.
    const limit = w[1]!.cum[endOf(w[1]!, 0)]!
    expect(second.limit.tokens).toBe(limit)
    expect(second.miss.tokens).toBe(limit)
    expect(second.miss.usd).toBeCloseTo((limit * (3.75 - 0.3)) / 1e6, 9)
    expect(second.atLimit).toBe(false)
  })

  it('a speed change names the setting and the level it re-keys, and the API would call it a model change', () => {
    const fast = { ...steady[1]!, speed: 'fast' } as never
    const out = runSession([
      { request: steady[0]!, at: 0, readPosition: -1 },
      { request: fast, at: 10_000, readPosition: -1 },
    ])
    expect(out[1]!.agrees).toBe(true)
    expect(out[1]!.cause).toMatchObject({ kind: 'changed_block', path: 'system[0]', what: { kind: 'settings', level: 'system' } })
    expect(out[1]!.cause.label).toBe('system · request settings changed (speed), which re-keys every system and message block')
    expect(out[1]!.diagnostics.ours).toBe('model_changed')
  })

  it('a service that wrote at another TTL than the rules place disagrees with the prediction, loudly', () => {
    const r = loupe([u0()], { systemTtl: '1h' })
    const walk = walkRequest(r, hasher)
    const exact = usageFor(walk, -1)
    const pass = (usage: typeof exact) =>
      attribute({ pass: { id: 'p1', seq: 1, model: r.model, attempts: [{ startedAt: 0, firstByteAt: 0 }], usage }, walk, context: EMPTY_CONTEXT, prior: [], previous: null, models: modelsWith() })
    expect(exact.cache_creation!.ephemeral_1h_input_tokens).toBeGreaterThan(0)
    expect(pass(exact).agrees).toBe(true)
    // The same tokens written, all of them for 5 minutes: the 1h marker was not honoured.
    const all5m = { ...exact, cache_creation: { ephemeral_5m_input_tokens: exact.cache_creation_input_tokens, ephemeral_1h_input_tokens: 0 } }
    expect(pass(all5m)).toMatchObject({ agrees: false, cause: { kind: 'unexplained' } })
    // The read ended where predicted, so the label says what differs: the writes (the predicted counts are estimates).
    const all = exact.cache_creation_input_tokens.toLocaleString('en-US')
    expect(pass(all5m).cause.label).toMatch(new RegExp(`^unexplained: the cache rules predicted writes of [1-9][\\d,]* tokens for 1h and [\\d,]+ for 5m, the service wrote 0 for 1h and ${all} for 5m — the app's bug or the provider's$`))
    // A usage without the split cannot tell, and is not taken to disagree.
    const { cache_creation: _split, ...unsplit } = exact
    expect(pass(unsplit).agrees).toBe(true)
  })

  it('an entry the passes since stopped reading expired while the session went on: said so, not as an idle pause', () => {
    const tools = ['bash', 'read'].map((n) => tool(n))
    // A pre-warm with its one marker at the tail (1h), none on the system block: it reads and refreshes only the tail.
    const warm = request([user(text('first request', 40)), assistant(text('answer one', 60, '1h')), user(text('keep-warm', 5))], { system: SYSTEM, systemTtl: null, tools })
    const back = loupe([u0(null), assistant(text('answer one', 60, '5m')), u2()])
    // A compaction: the history starts again, so only the tools and system could have been read.
    const compacted = loupe([user(text('summary of the conversation', 40, '5m'))])
    const out = runSession([
      { request: steady[0]!, at: 0, readPosition: -1 },
      { request: warm, at: 4.5 * MIN, readPosition: endOf(walkRequest(warm, hasher), 0) },
      { request: back, at: 11 * MIN, readPosition: endOf(walkRequest(back, hasher), 1) },
      { request: compacted, at: 11.5 * MIN, readPosition: -1 },
    ])
    expect(out.map((a) => a.agrees)).toEqual([true, true, true, true])
    expect(out[2]!.readPath).toBe('messages[1].content[0]')
    expect(out[3]!.outcome).toBe('miss')
    expect(out[3]!.cause.label).toBe(
      'messages[0] · an earlier message changed; the prefix before it was not read either: cache expired: the entry through system[0] was last read 11 m 30 s before, longer than the 5 m an entry is kept (TTL); the passes since read a later entry, which does not keep it alive',
    )
  })

  it('an idle gap longer than 1 hour is at the limit: no cache can bridge it', () => {
    const out = runSession([
      { request: steady[0]!, at: 0, readPosition: -1 },
      { request: steady[1]!, at: 2 * 3_600_000, readPosition: -1 },
    ])
    expect(out[1]!.limit.reason).toBe('idle_beyond_ttl')
    expect(out[1]!.atLimit).toBe(true)
    expect(out[1]!.cause.kind).toBe('ttl_expired')
    // Said for someone who does not know the cache's rules: what expired, and that nothing could have kept it.
    expect(out[1]!.cause.label).toBe('cache expired: idle 2 h, longer than any entry is kept (1 h at most), so no cache could bridge it')
  })

  it('a 1h static breakpoint survives a 30-minute gap: partial hit up to the system block, the rest expired', () => {
    const r = [loupe([u0()], { systemTtl: '1h' }), loupe([u0(), a1, u2()], { systemTtl: '1h' })]
    const out = runSession([
      { request: r[0]!, at: 0, readPosition: -1 },
      { request: r[1]!, at: 30 * 60_000, readPosition: systemEnd },
    ])
    expect(out[1]!.outcome).toBe('partial')
    expect(out[1]!.readPath).toBe('system[0]')
    expect(out[1]!.agrees).toBe(true)
    expect(out[1]!.cause.label).toBe('cache expired: idle 30 m, longer than the 5 m an entry is kept (TTL)')
  })

  it('a model switch misses everything and names both models', () => {
    const out = runSession([
      { request: steady[0]!, at: 0, readPosition: -1 },
      { request: loupe([u0(), a1, u2()], { model: 'claude-opus-4-6' }), at: 10_000, readPosition: -1 },
    ])
    expect(out[1]!.cause).toMatchObject({ kind: 'model_changed', from: 'claude-sonnet-4-6', to: 'claude-opus-4-6' })
    expect(out[1]!.diagnostics.ours).toBe('model_changed')
  })

  it('a tool set change misses from the first tool, and says which tool went', () => {
    const out = runSession([
      { request: steady[0]!, at: 0, readPosition: -1 },
      { request: loupe([u0(), a1, u2()], { tools: ['read'] }), at: 10_000, readPosition: -1 },
    ])
    expect(out[1]!.cause).toMatchObject({ kind: 'changed_block', area: 'tools', what: { kind: 'tools', removed: ['bash'], added: [] } })
    expect(out[1]!.cause.label).toBe('tools · the tool list changed (removed bash)')
  })

  it('an instruction file applied now: partial hit up to the static block, and the edit named with when it was applied', () => {
    const base: PassContext = { system: ['static', 'session'], messages: null, sessionOrigin: { kind: 'session_start' }, fingerprints: [{ section: 'project_instructions', part: 'AGENTS.md', sha256: 'a' }, { section: 'project_instructions', part: null, sha256: 'b' }] }
    const edited: PassContext = { ...base, sessionOrigin: { kind: 'apply_now', entryId: 'ent_edit', paths: ['AGENTS.md'] }, fingerprints: [{ section: 'project_instructions', part: 'AGENTS.md', sha256: 'a2' }, { section: 'project_instructions', part: null, sha256: 'b2' }] }
    const two = (text2: string) => ({ ...loupe([u0()]), system: [{ type: 'text' as const, text: SYSTEM, cache_control: { type: 'ephemeral' as const } }, { type: 'text' as const, text: text2, cache_control: { type: 'ephemeral' as const } }] })
    const first = two('# AGENTS.md\nRun the tests.')
    const second = { ...two('# AGENTS.md\nRun the tests twice.'), messages: [u0(), a1, u2()] }
    const out = runSession(
      [
        { request: first, at: 0, readPosition: -1, context: base },
        { request: second, at: 10_000, readPosition: systemEnd, context: edited },
      ],
      { describe: { entry: (id) => (id === 'ent_edit' ? { kind: 'entry', entryId: 'ent_edit', entryKind: 'instructions_applied', at: Date.UTC(2026, 10, 29, 14, 2) } : null), editOf: () => null } },
    )
    expect(out[1]!.outcome).toBe('partial')
    expect(out[1]!.cause).toMatchObject({ kind: 'changed_block', path: 'system[1]', area: 'system' })
    // The block was frozen without the file's edit time (as before it was recorded): 14:02 is when it was applied,
    // and is not called the edit time.
    expect(out[1]!.cause.label).toBe('system[1] · project instructions · AGENTS.md applied now by the user at 14:02 UTC')
    expect(out[1]!.diagnostics.ours).toBe('system_changed')
  })

  describe('an apply-now names when each file was edited, apart from when it was applied', () => {
    const at = (h: number, m: number) => Date.UTC(2026, 10, 29, h, m, 20)
    const label = (origin: Record<string, unknown>, appliedAt: number | null = at(20, 52)) =>
      changedBlockLabel('system[1]', { kind: 'system', block: 'session', sections: [{ section: 'project_instructions', part: null }], origin: origin as SnapshotOrigin, originAt: appliedAt }, utcClock)
    const applied = (editedAt?: unknown, paths = ['AGENTS.md', 'CLAUDE.md']) => ({ kind: 'apply_now', entryId: 'ent_edit', paths, ...(editedAt === undefined ? {} : { editedAt }) })

    it('each file at its own time, and the apply time as the apply time', () => {
      expect(label(applied([{ path: 'AGENTS.md', at: at(20, 43) }, { path: 'CLAUDE.md', at: at(20, 50) }]))).toBe(
        'system[1] · project instructions · AGENTS.md edited at 20:43 UTC, CLAUDE.md at 20:50 UTC, applied now by the user at 20:52 UTC',
      )
      // Edited in the same minute: one time for both.
      expect(label(applied([{ path: 'AGENTS.md', at: at(20, 43) }, { path: 'CLAUDE.md', at: at(20, 43) }]))).toBe('system[1] · project instructions · AGENTS.md, CLAUDE.md edited at 20:43 UTC, applied now by the user at 20:52 UTC')
      // Edited the minute it was applied: the time is said once.
      expect(label(applied([{ path: 'AGENTS.md', at: at(20, 52) }], ['AGENTS.md']))).toBe('system[1] · project instructions · AGENTS.md edited and applied now by the user at 20:52 UTC')
    })

    it('a file without an edit time (its budget cut alone moved) is named as sent along, with no time of its own', () => {
      expect(label(applied([{ path: 'AGENTS.md', at: at(20, 43) }]))).toBe('system[1] · project instructions · AGENTS.md edited at 20:43 UTC, applied now by the user at 20:52 UTC with CLAUDE.md')
    })

    it('a stored cause without edit times, or with ones it cannot read, says only when the files were applied', () => {
      expect(label(applied())).toBe('system[1] · project instructions · AGENTS.md, CLAUDE.md applied now by the user at 20:52 UTC')
      expect(label(applied([{ path: 'AGENTS.md', at: 'yesterday' }, null]))).toBe('system[1] · project instructions · AGENTS.md, CLAUDE.md applied now by the user at 20:52 UTC')
      expect(label(applied(), null)).toBe('system[1] · project instructions · AGENTS.md, CLAUDE.md applied now by the user')
    })
  })

  it("an instruction file applied now loses what the previous pass had cached after it, not the edit's own new text", () => {
    const base: PassContext = { system: ['static', 'session'], messages: null, sessionOrigin: { kind: 'session_start' }, fingerprints: [{ section: 'project_instructions', part: 'AGENTS.md', sha256: 'a' }] }
    const edited: PassContext = { ...base, sessionOrigin: { kind: 'apply_now', entryId: 'ent_edit', paths: ['AGENTS.md'] }, fingerprints: [{ section: 'project_instructions', part: 'AGENTS.md', sha256: 'a2' }] }
    const two = (text2: string, messages: WireMessage[]) => ({ ...loupe(messages), system: [{ type: 'text' as const, text: SYSTEM, cache_control: { type: 'ephemeral' as const } }, { type: 'text' as const, text: text2, cache_control: { type: 'ephemeral' as const } }] })
    const agents = `# AGENTS.md\n${'Run the tests. '.repeat(20)}`
    const first = two(agents, [u0()])
    const before = walkRequest(first, hasher)
    const run = (after: string) => {
      const second = two(after, [u0(), a1, u2()])
      const out = runSession([
        { request: first, at: 0, readPosition: -1, context: base },
        { request: second, at: 10_000, readPosition: systemEnd, context: edited },
      ])
      return { a: out[1]!, walk: walkRequest(second, hasher) }
    }
    const session = systemEnd + 1
    // Grown by a paragraph: the pass loses exactly what the first pass had cached after the static block, the price
    // of the edit; the paragraph itself is new, and counts as new.
    const grown = run(`${agents}\n${'Always run the linter as well. '.repeat(10)}`)
    expect(grown.a.outcome).toBe('partial')
    expect(grown.a.miss.tokens).toBe(before.estimatedTotal - before.cum[systemEnd]!)
    expect(grown.a.limit.editAdded).toBe(grown.walk.cum[session]! - before.cum[session]!)
    expect(grown.a.limit.tokens + grown.a.limit.editAdded!).toBe(grown.walk.cum[grown.a.limit.position]!)
    // Shrunk: what is there now after the change, less than the first pass had, is what could have been read.
    const shrunk = run('# AGENTS.md\nRun the tests.')
    expect(shrunk.a.limit.editAdded).toBeUndefined()
    expect(shrunk.a.miss.tokens).toBe(shrunk.walk.cum[shrunk.a.limit.position]! - shrunk.walk.cum[systemEnd]!)
    expect(shrunk.a.miss.tokens).toBeLessThan(before.estimatedTotal - before.cum[systemEnd]!)
  })

  it('an instruction file applied after the static entry expired: the change is named, and the expiry before it too', () => {
    const base: PassContext = { system: ['static', 'session'], messages: null, sessionOrigin: { kind: 'session_start' }, fingerprints: [{ section: 'project_instructions', part: 'AGENTS.md', sha256: 'a' }] }
    const edited: PassContext = { ...base, sessionOrigin: { kind: 'apply_now', entryId: 'ent_edit', paths: ['AGENTS.md'] }, fingerprints: [{ section: 'project_instructions', part: 'AGENTS.md', sha256: 'a2' }] }
    const two = (text2: string) => ({ ...loupe([u0()]), system: [{ type: 'text' as const, text: SYSTEM, cache_control: { type: 'ephemeral' as const } }, { type: 'text' as const, text: text2, cache_control: { type: 'ephemeral' as const } }] })
    const first = two('# AGENTS.md\nRun the tests.')
    const second = { ...two('# AGENTS.md\nRun the tests twice.'), messages: [u0(), a1, u2()] }
    // Six minutes and forty seconds later: the static block's 5-minute entry is gone, so nothing is read at all.
    const out = runSession(
      [
        { request: first, at: 0, readPosition: -1, context: base },
        { request: second, at: 400_000, readPosition: -1, context: edited },
      ],
      { describe: { entry: (id) => (id === 'ent_edit' ? { kind: 'entry', entryId: 'ent_edit', entryKind: 'instructions_applied', at: Date.UTC(2026, 10, 29, 14, 2) } : null), editOf: () => null } },
    )
    expect(out[1]!.outcome).toBe('miss')
    expect(out[1]!.cause).toMatchObject({ kind: 'changed_block', path: 'system[1]' })
    expect(out[1]!.cause.label).toBe('system[1] · project instructions · AGENTS.md applied now by the user at 14:02 UTC; the prefix before it was not read either: cache expired: idle 6 m 40 s, longer than the 5 m an entry is kept (TTL)')
  })

  it('a context edit of an earlier message is named with the extension that made it', () => {
    const ctx = (n: number): PassContext => ({ system: ['static'], messages: [{ entryIds: ['e1'], kind: 'user_input' }, { entryIds: ['e2'], kind: 'assistant' }, { entryIds: ['e3'], kind: 'tool_results' }, { entryIds: ['e4'], kind: 'assistant' }, { entryIds: ['e5'], kind: 'user_input' }].slice(0, n), sessionOrigin: null, fingerprints: [] })
    const trimmed = user(text('second request, trimmed', 10))
    const third = loupe([u0(null), a1, trimmed, a3, u4()])
    const out = runSession(
      [
        { request: steady[0]!, at: 0, readPosition: -1, context: ctx(1) },
        { request: steady[1]!, at: 10_000, readPosition: endOf(w[1]!, 0), context: ctx(3) },
        // The lookback from the newest tail still finds the first pass's write at messages[0].
        { request: third, at: 20_000, readPosition: endOf(walkRequest(third, hasher), 0), context: ctx(5) },
      ],
      { describe: { entry: () => null, editOf: (ids) => (ids.includes('e3') ? { kind: 'context_edit', entryId: 'ce1', source: 'trim-old-tools', at: null } : null) } },
    )
    expect(out[2]!.cause).toMatchObject({ kind: 'changed_block', path: 'messages[2]' })
    expect(out[2]!.cause.label).toBe('messages[2] · context edit by trim-old-tools')
  })

  it('a prefix below the model minimum is a miss at the limit, and says how short the prefix was', () => {
    const out = runSession(
      [
        { request: steady[0]!, at: 0, readPosition: -1 },
        { request: steady[1]!, at: 10_000, readPosition: -1 },
      ],
      { models: modelsWith({ [SONNET.id]: { minCacheableTokens: MIN } }) },
    )
    expect(out[1]!.cause.kind).toBe('below_minimum')
    // No entry could hold the prefix: the limit is nothing, and nothing was lost.
    expect(out[1]!.limit).toMatchObject({ reason: 'below_minimum', position: -1, tokens: 0 })
    // The prefix named is the one the previous pass left for this one, not the whole request.
    const prefix = out[1]!.limit.shortPrefixTokens!
    expect(prefix).toBeGreaterThan(0)
    expect(prefix).toBeLessThan(w[1]!.estimatedTotal)
    expect(out[1]!.cause).toMatchObject({ kind: 'below_minimum', tokens: prefix, minimum: MIN })
    expect(out[1]!.cause.label).toBe(`prefix below the minimum: the ${prefix.toLocaleString('en-US')} tokens before the new tail are under claude-sonnet-4-6's minimum of 60,000`)
    expect(out[1]!.prediction.breakpoints.every((b) => b.action === 'below_minimum')).toBe(true)
    expect(out[1]!.atLimit).toBe(true)
    expect(out[1]!.miss.tokens).toBe(0)
  })

  it('more than 20 blocks between breakpoints without the kept tail marker: the lookback cannot reach the last write', () => {
    const calls = assistant(...Array.from({ length: 12 }, (_, i) => text(`call ${i}`, 10)))
    const results = user(...Array.from({ length: 10 }, (_, i) => text(`result ${i}`, 10, i === 9 ? '5m' : null)))
    const second = loupe([u0(null), calls, results])
    const out = runSession([
      { request: steady[0]!, at: 0, readPosition: -1 },
      { request: second, at: 10_000, readPosition: systemEnd },
    ])
    expect(out[1]!.agrees).toBe(true)
    expect(out[1]!.cause).toMatchObject({ kind: 'lookback_exceeded', distance: 23 })
  })

  it('a pass sent before the writing response began cannot read what it writes', () => {
    const out = runSession([
      { request: steady[0]!, at: 0, readPosition: -1 },
      { request: steady[1]!, at: 10_000, firstByteAt: 30_000, readPosition: endOf(w[1]!, 0) },
      { request: steady[1]!, at: 20_000, firstByteAt: 25_000, readPosition: endOf(w[1]!, 0) },
    ])
    expect(out[2]!.agrees).toBe(true)
    expect(out[2]!.cause).toMatchObject({ kind: 'concurrent', passId: 'pass2', availableAt: 30_000 })
  })

  it('a read other than predicted is unexplained, loudly, with both figures', () => {
    const out = runSession([
      { request: steady[0]!, at: 0, readPosition: -1 },
      { request: steady[1]!, at: 10_000, readPosition: systemEnd },
    ])
    expect(out[1]!.agrees).toBe(false)
    expect(out[1]!.cause.kind).toBe('unexplained')
    expect(out[1]!.cause.label).toMatch(/^unexplained: the cache rules predicted a read of [\d,]+ tokens \(up to messages\[0\]\.content\[0\]\), the service read [\d,]+ \(up to system\[0\]\)/)
  })

  it('sets its answer beside the API diagnostics and flags a disagreement', () => {
    const out = runSession([
      { request: steady[0]!, at: 0, readPosition: -1, apiDiagnosis: null },
      { request: steady[1]!, at: 10_000, readPosition: endOf(w[1]!, 0), apiDiagnosis: null },
      { request: steady[2]!, at: 20_000, readPosition: endOf(w[2]!, 2), apiDiagnosis: { type: 'tools_changed', cache_missed_input_tokens: 100 } },
    ])
    expect(out[1]!.diagnostics).toEqual({ api: null, ours: null, disagree: false })
    expect(out[2]!.diagnostics).toMatchObject({ ours: null, disagree: true })
    expect(out[0]!.diagnostics.ours).toBe('no_previous')
  })

  it('a retried pass reads what its own first attempt wrote', () => {
    const walk = w[0]!
    const result = attribute({
      pass: {
        id: 'p1',
        seq: 1,
        model: SONNET.id,
        // The first attempt's stream broke after its response began: it wrote; the retry reads that.
        attempts: [{ startedAt: 0, firstByteAt: 1_000 }, { startedAt: 5_000, firstByteAt: 6_000 }],
        usage: usageFor(walk, endOf(walk, 0)),
      },
      walk,
      context: EMPTY_CONTEXT,
      prior: [],
      previous: null,
      models: modelsWith(),
    })
    expect(result.prediction.readPosition).toBe(endOf(walk, 0))
    expect(result.agrees).toBe(true)
    expect(result.facts.attempts).toHaveLength(2)
  })
})
