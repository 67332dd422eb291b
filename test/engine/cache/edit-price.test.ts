/**
 * Edits priced before they happen, from counted candidates (`priceCandidates`): the part of the next request that
 * exists now, without the edit and with it, and real counts at the prefixes that matter. The arithmetic is checked
 * to the token and to the dollar against hand-made sessions; real counts are chosen unlike the chars / 4 estimate, so
 * a figure that came from the estimate would show.
 */
import { describe, expect, it } from 'vitest'
import { CacheState, cachedReadPosition, EMPTY_CONTEXT, lookbackReadPosition, priceCandidates, priceEdit, TokenScale, walkRequest, type PassCacheFacts, type RequestWalk } from '../../../src-main/engine/cache'
import type { CacheTtl, TextBlock, WireMessage, WireRequest } from '../../../src-main/engine/model/wire'
import { assistant, endOf, hasher, modelsWith, runSession, text, tool, user } from './helpers'
import { signedUsd } from '../../../src-preload/money'

const PRICES = { read: 0.3, write5m: 3.75, write1h: 6 }
const OPUS = { inputPerMTok: 5, outputPerMTok: 25, cacheWrite5mPerMTok: 6.25, cacheWrite1hPerMTok: 10, cacheReadPerMTok: 0.5 }
const models = modelsWith({ 'claude-opus-4-8': { prices: OPUS } })

const block = (t: string, ttl: CacheTtl | null): TextBlock => ({ type: 'text', text: t, ...(ttl === null ? {} : ttl === '5m' ? { cache_control: { type: 'ephemeral' as const } } : { cache_control: { type: 'ephemeral' as const, ttl: '1h' as const } }) })
const STATIC = 'You are a careful agent. '.repeat(60)
const SESSION = '# Project instructions\n\n## AGENTS.md\n\nRun `npm test` before you finish.\n'.repeat(8)
const TOOLS = [tool('list_dir'), tool('read_file')]

function loupe(messages: WireMessage[], options: { session?: string; staticTtl?: CacheTtl; model?: string } = {}): WireRequest {
  return {
    model: options.model ?? 'claude-sonnet-4-6',
    max_tokens: 1000,
    tools: TOOLS,
    system: [block(STATIC, options.staticTtl ?? '5m'), block(options.session ?? SESSION, '5m')],
    messages,
  }
}

const u0 = user(text('first request', 40, '5m'))
const a1 = assistant(text('answer one', 60))
const u2 = user(text('second request', 40, '5m'))
const first = loupe([u0])
const second = loupe([user(text('first request', 40, '5m')), a1, u2])

/** Two passes a minute apart; the second reads what the first wrote. Facts and walk of the second. */
function session(options: { staticTtl?: CacheTtl } = {}): { facts: PassCacheFacts[]; walk: RequestWalk; request: WireRequest } {
  const one = options.staticTtl ? loupe([u0], { staticTtl: options.staticTtl }) : first
  const two = options.staticTtl ? loupe([user(text('first request', 40, '5m')), a1, u2], { staticTtl: options.staticTtl }) : second
  const w2 = walkRequest(two, hasher)
  const out = runSession([
    { request: one, at: 0, readPosition: -1 },
    { request: two, at: 60_000, readPosition: endOf(w2, 0) },
  ])
  return { facts: out.map((a) => a.facts), walk: w2, request: two }
}

/** Real counts unlike the estimate: the whole cached prefix and, when counted, the static prefix. */
const REAL_CACHED = 5000
const REAL_STATIC = 2000
const REAL_TOTAL = REAL_CACHED + 3

function scaleFor(walk: RequestWalk, options: { staticCounted: boolean }): TokenScale {
  const lastBreakpoint = walk.breakpoints.at(-1)!
  const staticAt = walk.blocks.findIndex((b) => b.area === 'system' && b.index === 0)
  const anchors = new Map<string, number>([[walk.keys[lastBreakpoint]!, REAL_CACHED]])
  if (options.staticCounted) anchors.set(walk.keys[staticAt]!, REAL_STATIC)
  return new TokenScale({ walk, anchors, realTotal: REAL_TOTAL, fallbackRatio: 1 })
}

const withSession = (r: WireRequest, sessionText: string): WireRequest => ({ ...r, system: [r.system![0]!, { ...r.system![1]!, text: sessionText }] })
const withNote = (r: WireRequest, note: string): WireRequest => {
  const last = r.messages.at(-1)!
  return { ...r, messages: [...r.messages.slice(0, -1), { ...last, content: [...last.content, { type: 'text', text: note }] } as WireMessage] }
}
const walk = (r: WireRequest) => walkRequest(r, hasher)
const applyNow = { kind: 'instruction_file' as const, path: 'AGENTS.md', applyNow: true }
const later = { kind: 'instruction_file' as const, path: 'AGENTS.md', applyNow: false }
const usd = (tokens: { read?: number; write5m?: number; write1h?: number }, p = PRICES) => ((tokens.read ?? 0) * p.read + (tokens.write5m ?? 0) * p.write5m + (tokens.write1h ?? 0) * p.write1h) / 1e6

type CandidateInput = Parameters<typeof priceCandidates>[0]

/**
 * What most tests price from: the session's last pass (counted at REAL_TOTAL, the static prefix counted too), the
 * cache as it stands at `now`, and the edit applied now; each test says only what it changes.
 */
function baseInput(s: { facts: PassCacheFacts[]; walk: RequestWalk }, now: number, edit: CandidateInput['edit']): Omit<CandidateInput, 'without' | 'with'> {
  return { last: { walk: s.walk, facts: s.facts.at(-1)!, tokens: REAL_TOTAL }, scale: scaleFor(s.walk, { staticCounted: true }), state: CacheState.at(s.facts, now), now, models, edit }
}

describe('priceCandidates: an instruction edit applied now', () => {
  const s = session()
  const { facts, walk: lastWalk, request } = s
  const now = 90_000
  const edited = withSession(request, `${SESSION}- Run the linter too.\n`)
  const base = baseInput(s, now, applyNow)

  it('re-bills everything after the static prefix, in real tokens, and adds the edit’s own tokens at the write price', () => {
    const price = priceCandidates({
      ...base,
      without: { walk: walk(request), tokens: REAL_TOTAL },
      with: { walk: walk(edited), tokens: REAL_TOTAL + 9 },
    })
    expect(price.movedBlock?.path).toBe('system[1]')
    expect(price.rebilledTokens).toBe(REAL_CACHED - REAL_STATIC)
    expect(price.addedTokens).toBe(9)
    expect(price.exact).toBe(true)
    expect(price.cacheWarm).toBe(true)
    expect(price.withoutEditUsd).toBeCloseTo(usd({ read: REAL_CACHED }), 15)
    expect(price.nextPassUsd).toBeCloseTo(usd({ read: REAL_STATIC, write5m: REAL_CACHED + 9 - REAL_STATIC }), 15)
    // The difference: the re-billed tokens at the write price instead of the read price, and the edit's own.
    expect(price.deltaUsd).toBeCloseTo(((REAL_CACHED - REAL_STATIC) * (PRICES.write5m - PRICES.read) + 9 * PRICES.write5m) / 1e6, 15)
    expect(price.label).toBe(`moves system[1]: the next pass re-bills 3,000 tokens (${signedUsd(price.deltaUsd)})`)
  })

  it('is an estimate, and says so, when the static prefix was not counted', () => {
    const scale = scaleFor(lastWalk, { staticCounted: false })
    const price = priceCandidates({
      ...base,
      scale,
      without: { walk: walk(request), tokens: REAL_TOTAL },
      with: { walk: walk(edited), tokens: REAL_TOTAL + 9 },
    })
    const staticAt = lastWalk.blocks.findIndex((b) => b.area === 'system' && b.index === 0)
    expect(price.exact).toBe(false)
    expect(price.rebilledTokens).toBe(REAL_CACHED - scale.at(staticAt))
    expect(price.rebilledTokens).not.toBe(REAL_CACHED - REAL_STATIC)
    expect(price.label).toMatch(/re-bills ≈[\d,]+ tokens/)
  })

  it('falls back to the scaled estimate of each candidate when nothing could be counted', () => {
    const scale = scaleFor(lastWalk, { staticCounted: true })
    const price = priceCandidates({
      ...base,
      last: { walk: lastWalk, facts: facts.at(-1)!, tokens: null },
      scale,
      without: { walk: walk(request), tokens: null },
      with: { walk: walk(edited), tokens: null },
    })
    expect(price.exact).toBe(false)
    expect(price.addedTokens).toBe(Math.round((walk(edited).estimatedTotal - lastWalk.estimatedTotal) * scale.ratio()!))
  })

  it('moves nothing when the edit leaves the session block as it is (a file the block does not hold)', () => {
    const price = priceCandidates({
      ...base,
      without: { walk: walk(request), tokens: REAL_TOTAL },
      with: { walk: walk(request), tokens: REAL_TOTAL },
    })
    expect(price).toMatchObject({ movedBlock: null, rebilledTokens: 0, addedTokens: 0, deltaUsd: 0, exact: true })
  })

  it('adds only the edit’s own tokens when the session block already moved (an earlier edit applied, not yet sent)', () => {
    const applied = withSession(request, `${SESSION}- An earlier edit.\n`)
    const price = priceCandidates({
      ...base,
      without: { walk: walk(applied), tokens: REAL_TOTAL + 5 },
      with: { walk: walk(edited), tokens: REAL_TOTAL + 9 },
    })
    expect(price.movedBlock?.path).toBe('system[1]')
    expect(price.rebilledTokens).toBe(0)
    expect(price.addedTokens).toBe(4)
    expect(price.deltaUsd).toBeCloseTo(usd({ write5m: 4 }), 15)
  })

  it('re-bills nothing the expiry would not have once the entries are gone', () => {
    const late = 60_000 + 6 * 60_000
    const price = priceCandidates({
      ...baseInput(s, late, applyNow),
      without: { walk: walk(request), tokens: REAL_TOTAL },
      with: { walk: walk(edited), tokens: REAL_TOTAL + 9 },
    })
    expect(price).toMatchObject({ cacheWarm: false, rebilledTokens: 0, addedTokens: 9 })
    expect(price.deltaUsd).toBeCloseTo(usd({ write5m: 9 }), 15)
    expect(price.label).toMatch(/^moves system\[1\], but nothing is in the cache to lose now \(expired, or under the model's minimum\)/)
  })

  it('after a checkpoint replaced the history, reads at most the system blocks, and says the price is not exact', () => {
    const scale = scaleFor(lastWalk, { staticCounted: true })
    const price = priceCandidates({
      ...base,
      scale,
      without: { walk: walk(request), tokens: REAL_TOTAL },
      with: { walk: walk(edited), tokens: REAL_TOTAL + 9 },
      historyReplaced: true,
    })
    const sessionAt = lastWalk.blocks.findIndex((b) => b.area === 'system' && b.index === 1)
    expect(price.rebilledTokens).toBe(scale.at(sessionAt) - REAL_STATIC)
    expect(price.exact).toBe(false)
    expect(price.deltaUsd).toBeCloseTo((price.rebilledTokens * (PRICES.write5m - PRICES.read) + 9 * PRICES.write5m) / 1e6, 15)
  })

  it('writes the static prefix at the 1h price when its breakpoint has a 1h TTL and the read ends before it', () => {
    const s1h = session({ staticTtl: '1h' })
    const edit = { kind: 'model' as const, model: 'claude-opus-4-8' }
    const price = priceCandidates({
      ...baseInput(s1h, now, edit),
      without: { walk: walk(s1h.request), tokens: REAL_TOTAL },
      with: { walk: walk({ ...s1h.request, model: 'claude-opus-4-8' }), tokens: REAL_TOTAL + 40 },
    })
    // The other model counts this prompt 40 tokens longer: what it writes is the read's share of its own count.
    expect(price.rebilledTokens).toBe(Math.round((REAL_CACHED * (REAL_TOTAL + 40)) / REAL_TOTAL))
    expect(price.movedBlock?.path).toBe('tools[0]')
    const opus = { read: OPUS.cacheReadPerMTok, write5m: OPUS.cacheWrite5mPerMTok, write1h: OPUS.cacheWrite1hPerMTok }
    // Another model's cache is cold: the static prefix written at 1h, the rest at 5m, at the other model's prices.
    expect(price.nextPassUsd).toBeCloseTo(usd({ write1h: REAL_STATIC, write5m: REAL_CACHED + 40 - REAL_STATIC }, opus), 15)
  })
})

describe('a switch to a model that counts the prompt otherwise', () => {
  const edit = { kind: 'model' as const, model: 'claude-opus-4-8' }
  const now = 90_000

  it('says what the next pass writes in the other model\'s count: the cached prefix counted there (the two counts differ by what differs in it)', () => {
    const s = session()
    const price = priceCandidates({
      ...baseInput(s, now, edit),
      without: { walk: walk(s.request), tokens: REAL_TOTAL },
      with: { walk: walk({ ...s.request, model: 'claude-opus-4-8' }), tokens: 4500 },
    })
    expect(price.rebilledTokens).toBe(REAL_CACHED + 4500 - REAL_TOTAL)
    expect(price.exact).toBe(true)
    expect(price.label).toBe(`moves tools[0]: the next pass re-bills ${price.rebilledTokens.toLocaleString('en-US')} tokens (${signedUsd(price.deltaUsd!)})`)
  })

  it('takes the read\'s share of the other model\'s count, as an estimate, where staying reads only part of the prompt', () => {
    const s = session()
    // The request on the other model with other blocks than the last one (a model that strips earlier turns'
    // thinking leaves blocks out): its count is not the last one's plus a difference in the same blocks.
    const other = walk({ ...s.request, model: 'claude-opus-4-8', messages: s.request.messages.slice(0, 1) })
    const price = priceCandidates({
      ...baseInput(s, now, edit),
      without: { walk: walk(s.request), tokens: REAL_TOTAL },
      with: { walk: other, tokens: 4500 },
    })
    expect(price.rebilledTokens).toBe(Math.round((REAL_CACHED * 4500) / REAL_TOTAL))
    expect(price.exact).toBe(false)
    expect(price.label).toBe(`moves tools[0]: the next pass re-bills ≈${price.rebilledTokens.toLocaleString('en-US')} tokens (${signedUsd(price.deltaUsd!)})`)
  })

  it('is exact when both models count the prompt alike', () => {
    const s = session()
    const price = priceCandidates({
      ...baseInput(s, now, edit),
      without: { walk: walk(s.request), tokens: REAL_TOTAL },
      with: { walk: walk({ ...s.request, model: 'claude-opus-4-8' }), tokens: REAL_TOTAL },
    })
    expect(price.rebilledTokens).toBe(REAL_CACHED)
    expect(price.exact).toBe(true)
  })
})

describe('a switch back to a model an earlier pass ran on', () => {
  // Pass 1 on Sonnet, pass 2 on Opus (the user tried it for one turn): Sonnet still holds pass 1's prefix.
  const opusSecond = { ...second, model: 'claude-opus-4-8' }
  const out = runSession(
    [
      { request: first, at: 0, readPosition: -1 },
      { request: opusSecond, at: 60_000, readPosition: -1 },
    ],
    { models },
  )
  const facts = out.map((a) => a.facts)
  const last = walk(opusSecond)
  const back = walk(second)
  const edit = { kind: 'model' as const, model: 'claude-sonnet-4-6' }
  // Sonnet's own count of what pass 1 left cached, pinned by its usage under Sonnet's keys.
  const SONNET_CACHED = 1200
  const withScale = new TokenScale({ walk: back, anchors: new Map([[back.keys[endOf(back, 0)]!, SONNET_CACHED]]), realTotal: REAL_TOTAL, fallbackRatio: 1 })
  const input = (now: number): CandidateInput => ({
    last: { walk: last, facts: facts.at(-1)!, tokens: REAL_TOTAL },
    scale: scaleFor(last, { staticCounted: true }),
    state: CacheState.at(facts, now),
    now,
    models,
    edit,
    without: { walk: last, tokens: REAL_TOTAL },
    with: { walk: back, tokens: REAL_TOTAL },
    withScale,
  })

  it('reads what that model still holds, through the lookback from the last tail, and re-bills only the rest', () => {
    const now = 90_000
    expect(lookbackReadPosition(back, CacheState.at(facts, now), now)).toBe(endOf(back, 0))
    const price = priceCandidates(input(now))
    expect(price.cachedOnModel).toBe(SONNET_CACHED)
    expect(price.rebilledTokens).toBe(REAL_CACHED - SONNET_CACHED)
    expect(price.exact).toBe(true)
    const opus = { read: OPUS.cacheReadPerMTok, write5m: OPUS.cacheWrite5mPerMTok, write1h: OPUS.cacheWrite1hPerMTok }
    expect(price.withoutEditUsd).toBeCloseTo(usd({ read: REAL_CACHED }, opus), 15)
    expect(price.nextPassUsd).toBeCloseTo(usd({ read: SONNET_CACHED, write5m: REAL_CACHED - SONNET_CACHED }), 15)
  })

  it('without the request on that model (not counted, not built), reads what its earlier passes left live, by their counts', () => {
    const now = 90_000
    const estimate = (earlier?: ReadonlyArray<PassCacheFacts>) =>
      priceEdit({ walk: last, context: EMPTY_CONTEXT, scale: scaleFor(last, { staticCounted: true }), last: facts.at(-1)!, state: CacheState.at(facts, now), now, models, edit, ...(earlier ? { earlier } : {}) })
    const held = Math.max(...facts[0]!.breakpoints.map((b) => b.tokens))
    const price = estimate(facts)
    expect(price.cachedOnModel).toBe(held)
    expect(price.rebilledTokens).toBe(REAL_CACHED - held)
    expect(price.label).toMatch(/tokens of it are still cached on that model from its earlier passes, read there if the prompt still begins as it did then$/)
    // Without the earlier passes' facts it can only be priced as a cold start.
    expect(estimate().cachedOnModel).toBeUndefined()
    // Once what that model held has expired, it is one.
    const later = 330_000
    expect(priceEdit({ walk: last, context: EMPTY_CONTEXT, scale: scaleFor(last, { staticCounted: true }), last: facts.at(-1)!, state: CacheState.at(facts, later), now: later, models, edit, earlier: facts }).cachedOnModel).toBeUndefined()
  })

  it('without counts, says what it re-bills in that model\'s own count: its pins up to what it holds, the messages since as counted here', () => {
    const now = 90_000
    const uncounted = priceCandidates({ ...input(now), last: { walk: last, facts: facts.at(-1)!, tokens: null }, without: { walk: last, tokens: null }, with: { walk: back, tokens: null } })
    expect(uncounted.cachedOnModel).toBe(SONNET_CACHED)
    const scale = scaleFor(last, { staticCounted: true })
    expect(uncounted.rebilledTokens).toBe(scale.at(last.breakpoints.at(-1)!) - scale.at(endOf(back, 0)))
    expect(uncounted.exact).toBe(false)
  })

  it('is a cold start once what that model held has expired, while the last pass\'s entries still live', () => {
    const now = 330_000
    expect(lookbackReadPosition(back, CacheState.at(facts, now), now)).toBe(-1)
    const price = priceCandidates(input(now))
    expect(price.cachedOnModel).toBeUndefined()
    expect(price.rebilledTokens).toBe(REAL_CACHED)
  })
})

describe("what a switch's price is made of", () => {
  const edit = { kind: 'model' as const, model: 'claude-opus-4-8' }
  const now = 90_000
  const opus = { read: OPUS.cacheReadPerMTok, write5m: OPUS.cacheWrite5mPerMTok, write1h: OPUS.cacheWrite1hPerMTok }

  it('is the cache lost, at the new model\'s prices (the loss the pass after it shows), and the two models\' prices', () => {
    const s = session()
    const price = priceCandidates({ ...baseInput(s, now, edit), without: { walk: walk(s.request), tokens: REAL_TOTAL }, with: { walk: walk({ ...s.request, model: 'claude-opus-4-8' }), tokens: REAL_TOTAL } })
    // Writing the re-billed tokens where Opus, as warm, would have read them: what that pass's attribution counts as lost.
    expect(price.switchLostUsd).toBeCloseTo(usd({ write5m: REAL_CACHED }, opus) - usd({ read: REAL_CACHED }, opus), 15)
    // The rest: the same prompt read at Opus's price instead of Sonnet's.
    expect(price.deltaUsd! - price.switchLostUsd!).toBeCloseTo(usd({ read: REAL_CACHED }, opus) - usd({ read: REAL_CACHED }), 15)
  })

  it('is the models\' prices alone when nothing is cached to lose', () => {
    const s = session()
    const late = 60_000 + 10 * 60_000
    const price = priceCandidates({ ...baseInput(s, late, edit), without: { walk: walk(s.request), tokens: REAL_TOTAL }, with: { walk: walk({ ...s.request, model: 'claude-opus-4-8' }), tokens: REAL_TOTAL } })
    expect(price.cacheWarm).toBe(false)
    expect(price.switchLostUsd).toBe(0)
    expect(price.deltaUsd).toBeCloseTo(usd({ write5m: REAL_CACHED }, opus) - usd({ write5m: REAL_CACHED }), 15)
  })
})

describe('a switch to a model that caches none of the session', () => {
  // Opus with a minimum above the whole prompt (5,043 tokens here): it never writes, so it never reads either.
  const strict = modelsWith({ 'claude-opus-4-8': { prices: OPUS, minCacheableTokens: 6000 } })
  const edit = { kind: 'model' as const, model: 'claude-opus-4-8' }
  const now = 90_000

  it('prices every pass in full at the input price, and says so, counted', () => {
    const s = session()
    const price = priceCandidates({
      ...baseInput(s, now, edit),
      models: strict,
      without: { walk: walk(s.request), tokens: REAL_TOTAL },
      with: { walk: walk({ ...s.request, model: 'claude-opus-4-8' }), tokens: REAL_TOTAL + 40 },
    })
    const size = REAL_CACHED + 40
    expect(price.uncacheable).toEqual({ model: 'claude-opus-4-8', tokens: size, minimum: 6000, perPassUsd: expect.any(Number) })
    // Nothing written: all of it at Opus's input price, not its write price.
    expect(price.nextPassUsd).toBeCloseTo((size * OPUS.inputPerMTok) / 1e6, 15)
    // Each later pass against staying, where the same prompt is read from the cache.
    expect(price.uncacheable!.perPassUsd).toBeCloseTo((size * OPUS.inputPerMTok - size * PRICES.read) / 1e6, 15)
    expect(price.label).toBe(`claude-opus-4-8 caches nothing under 6,000 tokens, and this prompt is 5,040: every pass pays for all of it in full until the conversation grows past that (${signedUsd(price.uncacheable!.perPassUsd!)} a pass)`)
  })

  it('is no such switch once the prompt reaches the minimum', () => {
    const s = session()
    const roomy = modelsWith({ 'claude-opus-4-8': { prices: OPUS, minCacheableTokens: 4096 } })
    const price = priceCandidates({
      ...baseInput(s, now, edit),
      models: roomy,
      without: { walk: walk(s.request), tokens: REAL_TOTAL },
      with: { walk: walk({ ...s.request, model: 'claude-opus-4-8' }), tokens: REAL_TOTAL + 40 },
    })
    expect(price.uncacheable).toBeUndefined()
    expect(price.label).toMatch(/^moves tools\[0\]: the next pass re-bills/)
  })

  it('is said by the estimate too, before anything was counted', () => {
    const s = session()
    const price = priceEdit({ walk: s.walk, context: EMPTY_CONTEXT, scale: scaleFor(s.walk, { staticCounted: true }), last: s.facts.at(-1)!, state: CacheState.at(s.facts, now), now, models: strict, edit })
    expect(price.uncacheable?.minimum).toBe(6000)
    expect(price.label).toMatch(/^claude-opus-4-8 caches nothing under 6,000 tokens, and this prompt is ≈/)
  })
})

describe('priceCandidates: against a pre-warm', () => {
  it('prices the next pass’s writes at its own TTLs, not at the 1h of the marker a pre-warm put on the answer', () => {
    const prewarm: WireRequest = {
      model: 'claude-sonnet-4-6',
      max_tokens: 0,
      tools: TOOLS,
      system: [block(STATIC, null), block(SESSION, null)],
      messages: [user(text('first request', 40)), assistant(text('answer one', 60, '1h')), user(text('placeholder', 10))],
    }
    const w = walk(prewarm)
    const out = runSession([{ request: prewarm, at: 0, readPosition: -1 }])
    const facts = out.map((a) => a.facts)
    const scale = new TokenScale({ walk: w, anchors: new Map([[w.keys[w.breakpoints.at(-1)!]!, REAL_CACHED]]), realTotal: REAL_TOTAL, fallbackRatio: 1 })
    const price = priceCandidates({
      last: { walk: w, facts: facts.at(-1)!, tokens: REAL_TOTAL },
      scale,
      state: CacheState.at(facts, 30_000),
      now: 30_000,
      models,
      edit: applyNow,
      without: { walk: w, tokens: REAL_TOTAL },
      with: { walk: walk(withSession(prewarm, `${SESSION}- More.\n`)), tokens: REAL_TOTAL + 4 },
    })
    // No breakpoint before the session block: nothing is read, and all of it is written at the 5-minute price.
    expect(price.rebilledTokens).toBe(REAL_CACHED)
    expect(price.nextPassUsd).toBeCloseTo(usd({ write5m: REAL_CACHED + 4 }), 15)
  })
})

describe('priceCandidates: an instruction edit left for the next compaction', () => {
  const s = session()
  const { request } = s
  const now = 90_000
  const base = baseInput(s, now, later)
  const note = '[AGENTS.md was changed on disk after this session’s instructions were taken. The text above is the earlier version until the user applies the change.]'

  it('moves nothing and pays for the note at the write price', () => {
    const price = priceCandidates({
      ...base,
      without: { walk: walk(request), tokens: REAL_TOTAL, notes: 0 },
      with: { walk: walk(withNote(request, note)), tokens: REAL_TOTAL + 31, notes: 1 },
    })
    expect(price).toMatchObject({ movedBlock: null, rebilledTokens: 0, addedTokens: 31, exact: true })
    expect(price.deltaUsd).toBeCloseTo(usd({ write5m: 31 }), 15)
    expect(price.label).toBe(`nothing above the breakpoints moves: this edit adds a 31-token note that AGENTS.md changed to the next message (${signedUsd(price.deltaUsd)})`)
  })

  it('costs nothing when the note is already due, and says when the next message will not mention it at all', () => {
    const noted = withNote(request, note)
    const due = priceCandidates({
      ...base,
      without: { walk: walk(noted), tokens: REAL_TOTAL + 31, notes: 1 },
      with: { walk: walk(noted), tokens: REAL_TOTAL + 31, notes: 1 },
    })
    expect(due).toMatchObject({ movedBlock: null, addedTokens: 0, deltaUsd: 0 })
    // The note already due is said with its size, apart from the edit's own figure (0), never taken from it.
    expect(due.label).toBe('nothing above the breakpoints moves, and this edit adds nothing to the next message: the 31-token note already due that AGENTS.md changed travels with it either way ($0)')
    const silent = priceCandidates({
      ...base,
      without: { walk: walk(request), tokens: REAL_TOTAL, notes: 0 },
      with: { walk: walk(request), tokens: REAL_TOTAL, notes: 0 },
    })
    expect(silent.label).toMatch(/the next message says nothing of it/)
  })

  it('says a note already due for another file apart from the note this edit adds', () => {
    const other = '[CLAUDE.md was changed on disk after this session’s instructions were taken. The text above is the earlier version until the user applies the change.]'
    const price = priceCandidates({
      ...base,
      without: { walk: walk(withNote(request, other)), tokens: REAL_TOTAL + 32, notes: 1 },
      with: { walk: walk(withNote(withNote(request, other), note)), tokens: REAL_TOTAL + 32 + 31, notes: 2 },
    })
    // The edit's own effect is its note alone: 31, not 31 + 32, and not 31 - 32.
    expect(price.addedTokens).toBe(31)
    expect(price.label).toBe(`nothing above the breakpoints moves: this edit adds a 31-token note that AGENTS.md changed to the next message (${signedUsd(price.deltaUsd)}); a 32-token note already due that other files changed travels with it either way`)
  })
})

describe('cachedReadPosition', () => {
  const { facts, walk: lastWalk, request } = session()
  it('is the highest live breakpoint whose prefix the candidate keeps, and -1 past every TTL', () => {
    const state = CacheState.at(facts, 90_000)
    expect(cachedReadPosition(lastWalk, walk(request), state, 90_000)).toBe(lastWalk.breakpoints.at(-1))
    const staticAt = lastWalk.blocks.findIndex((b) => b.area === 'system' && b.index === 0)
    expect(cachedReadPosition(lastWalk, walk(withSession(request, 'changed')), state, 90_000)).toBe(staticAt)
    expect(cachedReadPosition(lastWalk, walk({ ...request, model: 'claude-opus-4-8' }), state, 90_000)).toBe(-1)
    const late = 60_000 + 6 * 60_000
    expect(cachedReadPosition(lastWalk, walk(request), CacheState.at(facts, late), late)).toBe(-1)
  })
})

describe('priceEdit (the estimate without candidates)', () => {
  it('says it is an estimate and reports the chars / 4 change as the tokens added', () => {
    const { facts, walk: lastWalk } = session()
    const price = priceEdit({
      walk: lastWalk,
      context: { ...EMPTY_CONTEXT, system: ['static', 'session'] },
      scale: scaleFor(lastWalk, { staticCounted: false }),
      last: facts.at(-1)!,
      state: CacheState.at(facts, 90_000),
      now: 90_000,
      models,
      edit: { ...applyNow, charsBefore: 400, charsAfter: 440 },
    })
    expect(price).toMatchObject({ exact: false, addedTokens: 10, movedBlock: { path: 'system[1]' } })
    expect(price.label).toMatch(/re-bills ≈[\d,]+ tokens/)
  })
})
