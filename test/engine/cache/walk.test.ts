import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { blockPath, walkRequest } from '../../../src-main/engine/cache'
import { assistant, hasher, request, text, tool, user } from './helpers'

describe('walkRequest', () => {
  it('lists blocks in cache order (tools, system, message content) with their breakpoints', () => {
    const walk = walkRequest(request([user(text('a'), text('b', 25, '5m')), assistant(text('c'))], { tools: [tool('read'), tool('bash')], system: 'rules', systemTtl: '1h' }), hasher)
    expect(walk.blocks.map(blockPath)).toEqual(['tools[0]', 'tools[1]', 'system[0]', 'messages[0].content[0]', 'messages[0].content[1]', 'messages[1].content[0]'])
    expect(walk.breakpoints).toEqual([2, 4])
    expect(walk.blocks[2]!.ttl).toBe('1h')
    expect(walk.messageStarts).toEqual([3, 5])
    expect(walk.cum.at(-1)).toBe(walk.estimatedTotal)
  })

  it('gives a prefix the same key whatever cache_control its blocks carry', () => {
    const a = walkRequest(request([user(text('a', 25, '5m')), assistant(text('b'))]), hasher)
    const b = walkRequest(request([user(text('a')), assistant(text('b', 25, '1h'))]), hasher)
    expect(b.keys).toEqual(a.keys)
  })

  it('re-keys everything when the model changes, and only the messages when tool_choice changes (§5.3)', () => {
    const messages = [user(text('a')), assistant(text('b'))]
    const base = walkRequest(request(messages, { tools: [tool('read')], system: 's' }), hasher)
    const otherModel = walkRequest(request(messages, { tools: [tool('read')], system: 's', model: 'claude-opus-4-6' }), hasher)
    const forced = walkRequest(request(messages, { tools: [tool('read')], system: 's', toolChoice: { type: 'any' } }), hasher)
    expect(otherModel.keys.every((k, i) => k !== base.keys[i])).toBe(true)
    expect(forced.keys.slice(0, 2)).toEqual(base.keys.slice(0, 2))
    expect(forced.keys.slice(2).every((k, i) => k !== base.keys[i + 2])).toBe(true)
  })

  it('keeps the tools cached when speed changes and re-keys the rest; an explicit default salts as if left out; effort salts the messages (§5.3)', () => {
    const messages = [user(text('a')), assistant(text('b'))]
    const body = request(messages, { tools: [tool('read')], system: 's' })
    const base = walkRequest(body, hasher)
    const fast = walkRequest({ ...body, speed: 'fast' } as never, hasher)
    expect(fast.keys[0]).toBe(base.keys[0])
    expect(fast.keys.slice(1).every((k, i) => k !== base.keys[i + 1])).toBe(true)
    // The API's defaults, spelled out, are the same request to the cache.
    for (const explicit of [{ speed: 'standard' }, { tool_choice: { type: 'auto' } }, { thinking: { type: 'disabled' } }]) {
      expect(walkRequest({ ...body, ...explicit } as never, hasher).keys, JSON.stringify(explicit)).toEqual(base.keys)
    }
    const effort = walkRequest({ ...body, output_config: { effort: 'low' } } as never, hasher)
    expect(effort.keys.slice(0, 2)).toEqual(base.keys.slice(0, 2))
    expect(effort.keys.slice(2).every((k, i) => k !== base.keys[i + 2])).toBe(true)
    // A walk taken from the previous one after a speed change gives what a fresh walk gives.
    expect(walkRequest({ ...body, speed: 'fast' } as never, hasher, { previous: base }).keys).toEqual(fast.keys)
  })

  it('does not carry an automatic breakpoint into a later walk of the same objects without one', () => {
    const messages = [user(text('a')), assistant(text('b'))]
    const automatic = walkRequest({ ...request(messages), cache_control: { type: 'ephemeral' } } as never, hasher)
    expect(automatic.breakpoints).toEqual([1])
    const plain = walkRequest(request(messages), hasher, { previous: automatic })
    expect(plain.breakpoints).toEqual([])
    expect(plain).toEqual(walkRequest(request(messages), hasher))
  })

  it('puts the automatic breakpoint of a top-level cache_control on the last markable block (§6.3)', () => {
    const body = { ...request([user(text('a')), assistant(text('b'), { type: 'thinking', thinking: 'x', signature: 's' } as never)]), cache_control: { type: 'ephemeral' } }
    const walk = walkRequest(body as never, hasher)
    expect(walk.breakpoints).toEqual([1])
  })

  it('takes the keys of a shared prefix from the previous walk and still gives what a fresh walk gives', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'b', 'c'), { minLength: 1, maxLength: 8 }), fc.array(fc.constantFrom('a', 'b', 'c'), { minLength: 1, maxLength: 8 }), fc.boolean(), (xs, ys, choice) => {
        const first = walkRequest(request(xs.map((x) => user(text(x)))), hasher)
        const second = request(ys.map((y) => user(text(y))), choice ? { toolChoice: { type: 'any' } } : {})
        expect(walkRequest(second, hasher, { previous: first }).keys).toEqual(walkRequest(second, hasher).keys)
      }),
    )
  })

  it('takes the blocks of objects the previous request also held, and still gives what a fresh walk gives', () => {
    const pool = ['a', 'b', 'c', 'd'].map((x) => user(text(x)))
    const marked = pool.map((m) => ({ ...m, content: m.content.map((b) => ({ ...b, cache_control: { type: 'ephemeral' as const } })) }))
    const tools = [tool('read'), tool('bash')]
    const pick = fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.boolean()), { minLength: 1, maxLength: 8 })
    fc.assert(
      fc.property(pick, pick, fc.boolean(), (xs, ys, choice) => {
        const build = (picks: Array<[number, boolean]>, forced = false) =>
          request(picks.map(([i, m]) => (m ? marked[i]! : pool[i]!)) as never, { tools, ...(forced ? { toolChoice: { type: 'any' } } : {}) })
        const first = walkRequest(build(xs), hasher)
        const second = build(ys, choice)
        const reused = walkRequest(second, hasher, { previous: first })
        const fresh = walkRequest(second, hasher)
        expect(reused.keys).toEqual(fresh.keys)
        expect(reused.cum).toEqual(fresh.cum)
        expect(reused.breakpoints).toEqual(fresh.breakpoints)
        expect(reused.messageStarts).toEqual(fresh.messageStarts)
        expect(reused.blocks).toEqual(fresh.blocks)
      }),
    )
  })

  describe('on a model that strips earlier turns\' thinking (§2.5)', () => {
    const think = (label: string) => ({ type: 'thinking', thinking: `thinking ${label}`.padEnd(200, '.'), signature: `sig-${label}` }) as never
    const toolUse = { type: 'tool_use', id: 'tu_1', name: 'read', input: {} } as never
    const toolResult = user({ type: 'tool_result', tool_use_id: 'tu_1', content: 'ok' } as never)
    const turn = [user(text('ask')), assistant(think('a'), toolUse), toolResult, assistant(think('b'), text('done'))]

    it('keeps the thinking of the current turn, tool results included, and of every turn on a keeping model', () => {
      const strips = walkRequest(request(turn), hasher, { stripsPriorThinking: true })
      const keeps = walkRequest(request(turn), hasher)
      expect(strips.blocks.map(blockPath)).toEqual(keeps.blocks.map(blockPath))
      expect(strips.keys).toEqual(keeps.keys)
    })

    it('leaves out the thinking before the newest human turn, so that turn changes every key from the first stripped block', () => {
      const next = [...turn, user(text('next'))]
      const strips = walkRequest(request(next), hasher, { stripsPriorThinking: true })
      expect(strips.blocks.map(blockPath)).toEqual(['messages[0].content[0]', 'messages[1].content[1]', 'messages[2].content[0]', 'messages[3].content[1]', 'messages[4].content[0]'])
      expect(strips.strippedBefore).toBe(4)
      const before = walkRequest(request(turn), hasher, { stripsPriorThinking: true })
      // The first message's key survives; from the stripped thinking on, the service sees another prefix.
      expect(strips.keys[0]).toBe(before.keys[0])
      expect(strips.keys[1]).not.toBe(before.keys[1])
      expect(strips.keys.slice(1).every((k) => !before.keys.includes(k))).toBe(true)
    })

    it('takes nothing stripped differently from the previous walk, and still gives what a fresh walk gives', () => {
      const pool = [user(text('a')), user(text('b')), assistant(think('x'), text('y')), assistant(think('z'), toolUse), toolResult]
      const pick = fc.array(fc.integer({ min: 0, max: pool.length - 1 }), { minLength: 1, maxLength: 8 })
      fc.assert(
        fc.property(pick, pick, fc.boolean(), fc.boolean(), (xs, ys, a, b) => {
          const first = walkRequest(request(xs.map((i) => pool[i]!)), hasher, { stripsPriorThinking: a })
          const second = request(ys.map((i) => pool[i]!))
          const reused = walkRequest(second, hasher, { previous: first, stripsPriorThinking: b })
          const fresh = walkRequest(second, hasher, { stripsPriorThinking: b })
          expect(reused.keys).toEqual(fresh.keys)
          expect(reused.blocks).toEqual(fresh.blocks)
          expect(reused.messageStarts).toEqual(fresh.messageStarts)
        }),
      )
    })
  })
})
