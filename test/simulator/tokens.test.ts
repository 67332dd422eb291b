import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'
import { describe, expect, it } from 'vitest'
import { countTextTokens } from '../../src-main/simulator/tokens'
import { buildSequence } from '../../src-main/simulator/sequence'
import { validateRequest } from '../../src-main/simulator/validate'

const fixtures = join(__dirname, '../fixtures/real')

describe('countTextTokens', () => {
  it('counts ordinary words as one token each, with the space before a word free', () => {
    expect(countTextTokens('You are a helpful assistant.')).toBe(6)
    expect(countTextTokens('Hello, Claude')).toBe(3)
  })

  it('splits long words, digit runs and punctuation runs', () => {
    expect(countTextTokens('internationalization')).toBe(2)
    expect(countTextTokens('1234567')).toBe(3)
    expect(countTextTokens('=>{}')).toBe(2)
  })

  it('counts each character outside ASCII', () => {
    expect(countTextTokens('日本語')).toBe(3)
    expect(countTextTokens('🙂')).toBe(1)
  })

  it('is empty for empty text and grows with repeated text', () => {
    expect(countTextTokens('')).toBe(0)
    expect(countTextTokens('word '.repeat(100))).toBe(101)
  })
})

describe('calibration against a recorded exchange (pydantic-ai test_anthropic_cache_real_api.yaml)', () => {
  const cassette = parse(readFileSync(join(fixtures, 'pydantic-ai/test_anthropic_cache_real_api.yaml'), 'utf8')) as {
    interactions: Array<{ request: { parsed_body: unknown }; response: { parsed_body: { usage: Record<string, number> } } }>
  }
  const counts = parse(readFileSync(join(fixtures, 'pydantic-ai/test_anthropic_cache_count_tokens.yaml'), 'utf8')) as {
    interactions: Array<{ request: { parsed_body: unknown }; response: { parsed_body: { input_tokens: number } } }>
  }

  it('gives the real total for the first request (count_tokens said 1114)', () => {
    const first = counts.interactions[0]!
    const { request, model } = validateRequest(first.request.parsed_body, '2023-06-01', true)
    expect(buildSequence(request, model).totalTokens).toBe(first.response.parsed_body.input_tokens)
  })

  it('puts the cacheable prefix where the API did (read 1111, input 3)', () => {
    const first = cassette.interactions[0]!
    const { request, model } = validateRequest(first.request.parsed_body, '2023-06-01', false)
    const sequence = buildSequence(request, model)
    const last = sequence.entries[sequence.entries.length - 1]!
    expect(last.cum).toBe(first.response.parsed_body.usage.cache_read_input_tokens)
    expect(sequence.totalTokens - last.cum).toBe(first.response.parsed_body.usage.input_tokens)
  })
})
