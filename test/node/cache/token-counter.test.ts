/**
 * The count_tokens cache: a request is counted once, by the hash of what is counted; a count in flight is shared;
 * a failure or a timeout is not kept; the least recently used count goes first.
 */
import { describe, expect, it } from 'vitest'
import { TokenCounter, type CountRequest } from '../../../src-main/node/cache'

const req = (text: string, model = 'claude-sonnet-4-6'): CountRequest => ({ model, messages: [{ role: 'user', content: [{ type: 'text', text }] }] }) as CountRequest

/** A service that counts characters, and remembers what it was asked. */
function service() {
  const asked: string[] = []
  let fail = false
  let hold: Promise<void> | null = null
  return {
    asked,
    failNext: () => void (fail = true),
    holdWith: (p: Promise<void>) => void (hold = p),
    count: async (r: CountRequest): Promise<number> => {
      const text = (r.messages[0]!.content[0] as { text: string }).text
      asked.push(text)
      if (hold) await hold
      if (fail) {
        fail = false
        throw new Error('429 rate limited')
      }
      return text.length
    },
  }
}

describe('TokenCounter', () => {
  it('counts a request once, and again only when its bytes or the service change', async () => {
    const s = service()
    let salt = 'simulator'
    const counter = new TokenCounter(s.count, { salt: () => salt })
    expect(await counter.count(req('hello'))).toBe(5)
    expect(await counter.count(req('hello'))).toBe(5)
    expect(await counter.count(req('hello', 'claude-opus-4-8'))).toBe(5)
    expect(s.asked).toEqual(['hello', 'hello'])
    salt = 'anthropic'
    await counter.count(req('hello'))
    expect(s.asked).toHaveLength(3)
    expect(counter.sent).toBe(3)
  })

  it('shares a count in flight between callers', async () => {
    const s = service()
    let release!: () => void
    s.holdWith(new Promise<void>((r) => (release = r)))
    const counter = new TokenCounter(s.count)
    const both = Promise.all([counter.count(req('draft')), counter.count(req('draft'))])
    release()
    expect(await both).toEqual([5, 5])
    expect(s.asked).toEqual(['draft'])
  })

  it('does not keep a failure: the next ask counts again, and tryCount answers null meanwhile', async () => {
    const s = service()
    const counter = new TokenCounter(s.count)
    s.failNext()
    expect(await counter.tryCount(req('abc'))).toBeNull()
    expect(await counter.tryCount(req('abc'))).toBe(3)
    expect(s.asked).toEqual(['abc', 'abc'])
  })

  it('gives up on a count slower than its timeout', async () => {
    const counter = new TokenCounter(() => new Promise<number>(() => undefined), { timeoutMs: 20 })
    expect(await counter.tryCount(req('never'))).toBeNull()
  })

  it('drops the least recently used count beyond its limit', async () => {
    const s = service()
    const counter = new TokenCounter(s.count, { limit: 2 })
    await counter.count(req('a'))
    await counter.count(req('b'))
    await counter.count(req('a'))
    await counter.count(req('c'))
    await counter.count(req('a'))
    await counter.count(req('b'))
    expect(s.asked).toEqual(['a', 'b', 'c', 'b'])
  })
})
