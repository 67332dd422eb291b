import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { PromptCache } from '../../src-main/simulator/cache'
import { SimApiError } from '../../src-main/simulator/errors'
import { buildSequence, GENERATION_PROMPT_TOKENS } from '../../src-main/simulator/sequence'
import { validateRequest } from '../../src-main/simulator/validate'

const BIG = 'The quick brown fox jumps over the lazy dog. '.repeat(300)
const tool = (name: string, cc?: object) => ({ name, description: `${name} tool`, input_schema: { type: 'object', properties: { path: { type: 'string' } } }, ...(cc ? { cache_control: cc } : {}) })

function seq(body: Record<string, unknown>) {
  const { request, model } = validateRequest({ model: 'claude-sonnet-4-6', max_tokens: 100, ...body }, '2026-10-21', false)
  return { sequence: buildSequence(request, model), model }
}

function status(fn: () => unknown): { status: number; message: string } | null {
  try {
    fn()
    return null
  } catch (err) {
    if (err instanceof SimApiError) return { status: err.status, message: err.message }
    throw err
  }
}

describe('buildSequence: order and breakpoints', () => {
  it('orders tools, then system, then message blocks, and adds the generation prompt to the total', () => {
    const { sequence } = seq({ tools: [tool('a'), tool('b')], system: [{ type: 'text', text: 'sys' }], messages: [{ role: 'user', content: 'hi' }] })
    expect(sequence.entries.map((e) => e.path)).toEqual(['tools.0', 'tools.1', 'system.0', 'messages.0.content.0'])
    expect(sequence.totalTokens).toBe(sequence.entries[3]!.cum + GENERATION_PROMPT_TOKENS)
  })

  it('refuses a fifth breakpoint with the API message', () => {
    const cc = { type: 'ephemeral' }
    const err = status(() => seq({ tools: [tool('a', cc), tool('b', cc)], system: [{ type: 'text', text: 's', cache_control: cc }], messages: [{ role: 'user', content: [{ type: 'text', text: 'x', cache_control: cc }, { type: 'text', text: 'y', cache_control: cc }] }] }))
    expect(err).toEqual({ status: 400, message: 'A maximum of 4 blocks with cache_control may be provided. Found 5.' })
  })

  it('counts the automatic breakpoint among the four', () => {
    const cc = { type: 'ephemeral' }
    const err = status(() => seq({ cache_control: cc, tools: [tool('a', cc), tool('b', cc)], system: [{ type: 'text', text: 's', cache_control: cc }, { type: 'text', text: 't', cache_control: cc }], messages: [{ role: 'user', content: 'x' }] }))
    expect(err?.message).toBe('A maximum of 4 blocks with cache_control may be provided. Found 5.')
  })

  it('refuses a 1h breakpoint after a 5m one, in tools → system → messages order', () => {
    const err = status(() => seq({ system: [{ type: 'text', text: 's', cache_control: { type: 'ephemeral' } }], messages: [{ role: 'user', content: [{ type: 'text', text: 'x', cache_control: { type: 'ephemeral', ttl: '1h' } }] }] }))
    expect(err?.status).toBe(400)
    expect(err?.message).toContain("messages.0.content.0.cache_control.ttl: a ttl='1h' cache_control block must not come after a ttl='5m' cache_control block")
  })

  it('puts the automatic breakpoint on the last cacheable block', () => {
    const { sequence } = seq({ cache_control: { type: 'ephemeral', ttl: '1h' }, messages: [{ role: 'user', content: 'one' }, { role: 'assistant', content: 'two' }, { role: 'user', content: 'three' }] })
    expect(sequence.entries.map((e) => e.breakpoint)).toEqual([null, null, '1h'])
  })

  it('refuses cache_control on a thinking block', () => {
    const err = status(() => seq({ messages: [{ role: 'user', content: 'q' }, { role: 'assistant', content: [{ type: 'thinking', thinking: 't', signature: 's', cache_control: { type: 'ephemeral' } }, { type: 'text', text: 'a' }] }, { role: 'user', content: 'r' }] }))
    expect(err?.status).toBe(400)
  })
})

describe('buildSequence: what invalidates which level (§5.3)', () => {
  const base = { tools: [tool('read_file')], system: [{ type: 'text', text: BIG }], messages: [{ role: 'user', content: 'hello' }] }
  const keys = (body: Record<string, unknown>) => seq(body).sequence.entries.map((e) => e.key)

  it('a changed tool_choice keeps the tools and system prefix but not the messages', () => {
    const a = keys(base)
    const b = keys({ ...base, tool_choice: { type: 'any' } })
    expect(b.slice(0, 2)).toEqual(a.slice(0, 2))
    expect(b[2]).not.toBe(a[2])
  })

  it('a changed system text keeps the tools prefix only', () => {
    const a = keys(base)
    const b = keys({ ...base, system: [{ type: 'text', text: `${BIG}!` }] })
    expect(b[0]).toBe(a[0])
    expect(b[1]).not.toBe(a[1])
  })

  it('a changed tool changes everything after it', () => {
    const a = keys(base)
    const b = keys({ ...base, tools: [tool('read_files')] })
    expect(b.every((k, i) => k !== a[i])).toBe(true)
  })

  it('the model is part of every key', () => {
    const a = seq(base).sequence.entries[0]!.key
    const { request, model } = validateRequest({ model: 'claude-opus-4-6', max_tokens: 100, ...base }, '2026-10-21', false)
    expect(buildSequence(request, model).entries[0]!.key).not.toBe(a)
  })

  it('string content and a single text block are the same block', () => {
    const a = keys(base)
    const b = keys({ ...base, messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }] })
    expect(b).toEqual(a)
  })

  it('drops prior-turn thinking on a model that strips it once a new user turn arrives', () => {
    const body = (model: string) => ({
      model,
      max_tokens: 100,
      messages: [
        { role: 'user', content: 'q1' },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'deep thoughts', signature: 'sig' }, { type: 'text', text: 'a1' }] },
        { role: 'user', content: 'q2' },
      ],
    })
    const count = (model: string) => {
      const v = validateRequest(body(model), '2026-10-21', false)
      return buildSequence(v.request, v.model).entries.length
    }
    expect(count('claude-haiku-4-5')).toBe(3)
    expect(count('claude-opus-4-6')).toBe(4)
  })
})

describe('buildSequence with the cache: property over real requests', () => {
  it('read + creation + input equals count_tokens for every pass of a growing conversation', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ turns: fc.integer({ min: 1, max: 12 }), bp: fc.integer({ min: 0, max: 3 }), jump: fc.constantFrom(0, 60_000, 400_000) }), { minLength: 1, maxLength: 10 }),
        (passes) => {
          const cache = new PromptCache()
          let now = 0
          for (const p of passes) {
            now += p.jump
            const messages = Array.from({ length: p.turns * 2 - 1 }, (_, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: [{ type: 'text', text: `turn ${i} ${'lorem ipsum dolor '.repeat(40)}`, ...(i === p.turns * 2 - 2 && p.bp > 0 ? { cache_control: { type: 'ephemeral' } } : {}) }] }))
            const system = [{ type: 'text', text: BIG, ...(p.bp > 1 ? { cache_control: { type: 'ephemeral', ttl: '1h' } } : {}) }]
            const { sequence, model } = seq({ system, messages })
            const plan = cache.lookup({ model: model.id, positions: sequence.entries, totalTokens: sequence.totalTokens, minCacheableTokens: model.minCacheableTokens, now })
            const u = plan.usage
            expect(u.cache_read_input_tokens + u.cache_creation_input_tokens + u.input_tokens).toBe(sequence.totalTokens)
            cache.commit(plan)
          }
        },
      ),
      { numRuns: 60 },
    )
  })
})
